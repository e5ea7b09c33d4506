// The order a TopK layer (topk, sort, median's sort) puts one slice in, shared by the reference
// and the own CPU kernel so that both pick the same index among equal values.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "network/layers.h"

namespace atenrt::reference {

// `slice` holds (value, index) pairs of one slice, indices 0..n-1 in order; on return its first k
// entries are the k that rank first, in the order `ties` says (network::TopKTies). V is double
// for floating dtypes, int64 otherwise: both order every dtype's values as the dtype itself does.
template <typename V>
void order_topk(std::pair<V, std::int64_t>* slice, std::int64_t n, std::int64_t k, bool largest,
                network::TopKTies ties) {
  using Pair = std::pair<V, std::int64_t>;
  if (k <= 0 || n <= 0) return;
  // torch's comparators (NaN ranks above every number, for largest and smallest alike), on the
  // value alone.
  auto before = [largest](const Pair& x, const Pair& y) {
    if constexpr (std::is_floating_point_v<V>) {
      const bool nx = std::isnan(x.first), ny = std::isnan(y.first);
      if (largest) return (nx && !ny) || x.first > y.first;
      return (!nx && ny) || x.first < y.first;
    } else {
      return largest ? x.first > y.first : x.first < y.first;
    }
  };
  Pair* end = slice + n;
  switch (ties) {
    case network::TopKTies::IndexOrder:
      std::partial_sort(slice, slice + k, end, [&before](const Pair& x, const Pair& y) {
        return before(x, y) || (!before(y, x) && x.second < y.second);
      });
      return;
    case network::TopKTies::TorchTopK:
    case network::TopKTies::TorchTopKUnsorted:
      if (k * 64 <= n) {
        std::partial_sort(slice, slice + k, end, before);
      } else {
        std::nth_element(slice, slice + (k - 1), end, before);
        if (ties == network::TopKTies::TorchTopK) std::sort(slice, slice + (k - 1), before);
      }
      return;
    case network::TopKTies::TorchSort:
      std::sort(slice, end, before);
      return;
  }
}

}  // namespace atenrt::reference
