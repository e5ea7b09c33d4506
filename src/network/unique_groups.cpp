// torch.unique's groups, computed the way torch 1.13's CPU kernels
// (aten/src/ATen/native/Unique.cpp) compute them, so that what torch leaves
// unspecified comes out the same too:
// - flat unique of bools: false then true, counted (no hash set).
// - flat unique: the distinct values in the iteration order of a
//   std::unordered_set built from the elements (sorted=False), or that order
//   put through std::sort (sorted=True). Each NaN is a distinct value; a NaN
//   element's inverse is 0 and a NaN value's count is 0 (torch looks them up in
//   a hash map, where NaN is never found). Of 0.0 and -0.0 the first kept.
// - over a dim: slice indices std::sort-ed lexicographically (elementwise
//   < then >), then runs of slices equal elementwise (==) to the run's first.
// - consecutive: runs of elements (slices) equal to the run's first.
// The same libstdc++ algorithms (std::hash, unordered_set, std::sort) with
// the same comparisons give torch's orders exactly.
#include <algorithm>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "ir/element.h"
#include "network/data_dependent.h"

namespace atenrt::network {

namespace {

using Index = std::int64_t;

template <typename Value, typename Hash>
UniqueGroups hashed(Index n, Value value, Hash hash, bool sorted) {
  auto h = [&](Index i) noexcept { return hash(i); };
  auto eq = [&](Index a, Index b) { return value(a) == value(b); };
  std::vector<Index> all(static_cast<std::size_t>(n));
  std::iota(all.begin(), all.end(), Index{0});
  const std::unordered_set<Index, decltype(h), decltype(eq)> set(all.begin(), all.end(), 0, h, eq);
  UniqueGroups g;
  g.first.assign(set.begin(), set.end());
  if (sorted) std::sort(g.first.begin(), g.first.end(), [&](Index a, Index b) { return value(a) < value(b); });
  std::unordered_map<Index, Index, decltype(h), decltype(eq)> group(g.first.size(), h, eq);
  for (std::size_t k = 0; k < g.first.size(); ++k) group.emplace(g.first[k], static_cast<Index>(k));
  g.counts.assign(g.first.size(), 0);
  g.group_of.assign(static_cast<std::size_t>(n), 0);
  for (Index i = 0; i < n; ++i) {
    const auto it = group.find(i);
    if (it == group.end()) continue;  // NaN: inverse 0, counted nowhere
    g.group_of[static_cast<std::size_t>(i)] = it->second;
    ++g.counts[static_cast<std::size_t>(it->second)];
  }
  return g;
}

template <typename T>
UniqueGroups hashed_native(const Tensor& x, bool sorted) {
  T const* v = reinterpret_cast<T const*>(x.raw_data());
  return hashed(x.numel(), [v](Index i) { return v[i]; }, [v](Index i) { return std::hash<T>{}(v[i]); }, sorted);
}

UniqueGroups hashed_unique(const Tensor& x, bool sorted) {
  switch (x.dtype()) {
    case DType::Float32: return hashed_native<float>(x, sorted);
    case DType::Float64: return hashed_native<double>(x, sorted);
    case DType::Int64: return hashed_native<std::int64_t>(x, sorted);
    case DType::Int32: return hashed_native<std::int32_t>(x, sorted);
    case DType::Int16: return hashed_native<std::int16_t>(x, sorted);
    case DType::Int8: return hashed_native<std::int8_t>(x, sorted);
    case DType::UInt8: return hashed_native<std::uint8_t>(x, sorted);
    case DType::Bool: break;  // bool_unique
    case DType::BFloat16: {
      // torch hashes a bfloat16 by its bits and compares it as float.
      const auto* bits = reinterpret_cast<const std::uint16_t*>(x.raw_data());
      return hashed(x.numel(), [bits](Index i) { return ir::bf16_to_float(bits[i]); },
                    [bits](Index i) { return std::hash<std::uint16_t>{}(bits[i]); }, sorted);
    }
    case DType::Float16: break;  // refused by unique_dtype_problem
  }
  throw std::logic_error("unique of " + std::string(dtype_name(x.dtype())));
}

// torch 1.13 counts bools instead of hashing them: false (if any), then
// true (if any), whatever `sorted` says.
UniqueGroups bool_unique(const Tensor& x) {
  // Bytes, not bool loads: a byte other than 0 or 1 is true, never undefined behaviour.
  const auto* v = reinterpret_cast<const std::uint8_t*>(x.raw_data());
  UniqueGroups g;
  std::int64_t first[2] = {-1, -1}, count[2] = {0, 0};
  for (Index i = 0; i < x.numel(); ++i) {
    const int b = v[i] ? 1 : 0;
    if (first[b] < 0) first[b] = i;
    ++count[b];
  }
  for (int b = 0; b < 2; ++b) {
    if (count[b] == 0) continue;
    g.first.push_back(first[b]);
    g.counts.push_back(count[b]);
  }
  const Index true_group = count[0] > 0 ? 1 : 0;
  g.group_of.resize(static_cast<std::size_t>(x.numel()));
  for (Index i = 0; i < x.numel(); ++i) g.group_of[static_cast<std::size_t>(i)] = v[i] ? true_group : 0;
  return g;
}

// Slices of x along `axis` (without one: each element a slice).
struct Slices {
  const Tensor& x;  // contiguous
  Index outer = 1, count = 0, inner = 1;
  bool floating = false;

  Slices(const Tensor& t, bool has_axis, Index axis) : x(t), floating(is_floating(t.dtype())) {
    if (!has_axis) {
      count = x.numel();
      return;
    }
    const auto& d = x.sizes();
    const auto a = static_cast<std::size_t>(axis);
    count = d[a];
    for (std::size_t i = 0; i < a; ++i) outer *= d[i];
    for (std::size_t i = a + 1; i < d.size(); ++i) inner *= d[i];
  }
  const std::byte* at(Index slice, Index k) const {
    const Index o = k / inner, i = k % inner;
    return x.raw_data() + static_cast<std::size_t>((o * count + slice) * inner + i) * element_size(x.dtype());
  }
  // Element k of slices a and b: -1, 0 or 1 by < and > (0 when neither, as
  // for NaN), and whether they are == . Doubles and int64 hold every value of
  // the narrower dtypes exactly, so the comparisons are the native ones.
  int order(Index a, Index b, Index k) const {
    if (floating) {
      const double va = ir::read_f64(at(a, k), x.dtype()), vb = ir::read_f64(at(b, k), x.dtype());
      return va < vb ? -1 : (va > vb ? 1 : 0);
    }
    const auto va = ir::read_i64(at(a, k), x.dtype()), vb = ir::read_i64(at(b, k), x.dtype());
    return va < vb ? -1 : (va > vb ? 1 : 0);
  }
  bool equal(Index a, Index b) const {
    for (Index k = 0; k < outer * inner; ++k) {
      if (floating ? ir::read_f64(at(a, k), x.dtype()) != ir::read_f64(at(b, k), x.dtype())
                   : ir::read_i64(at(a, k), x.dtype()) != ir::read_i64(at(b, k), x.dtype())) {
        return false;
      }
    }
    return true;
  }
  bool less(Index a, Index b) const {
    for (Index k = 0; k < outer * inner; ++k) {
      if (const int o = order(a, b, k)) return o < 0;
    }
    return false;
  }
};

// Runs of slices (in `order`) equal to their run's first slice.
UniqueGroups runs(const Slices& s, const std::vector<Index>& order) {
  UniqueGroups g;
  g.group_of.resize(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (k == 0 || !s.equal(g.first.back(), order[k])) {
      g.first.push_back(order[k]);
      g.counts.push_back(0);
    }
    g.group_of[static_cast<std::size_t>(order[k])] = static_cast<Index>(g.first.size()) - 1;
    ++g.counts.back();
  }
  return g;
}

}  // namespace

std::optional<std::string> unique_dtype_problem(DType dtype) {
  if (dtype == DType::Float16) return std::string("torch 1.13 has no CPU unique kernel for float16");
  return std::nullopt;
}

UniqueGroups unique_groups(const Tensor& t, bool has_axis, std::int64_t axis, bool consecutive, bool sorted) {
  const Tensor x = t.contiguous();
  if (!has_axis && !consecutive) return x.dtype() == DType::Bool ? bool_unique(x) : hashed_unique(x, sorted);
  const Slices s(x, has_axis, axis);
  std::vector<Index> order(static_cast<std::size_t>(s.count));
  std::iota(order.begin(), order.end(), Index{0});
  if (!consecutive) std::sort(order.begin(), order.end(), [&](Index a, Index b) { return s.less(a, b); });
  return runs(s, order);
}

}  // namespace atenrt::network
