// Selection and indexing: select, index_select, gather/scatter, where,
// masked_fill, advanced indexing (index / index_put).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::select {

// Limits the validators check with the node's numbers and the impl functions
// with the resolved ones (nullopt: fine; a size or rank < 0: not known).
// select's index (negative counts from the end) against the dim's size.
std::optional<std::string> select_index_problem(std::int64_t index, std::int64_t dim_size);
// index_select / index_copy take a 0-d or 1-d index.
std::optional<std::string> index_rank_problem(std::int64_t index_rank, std::string_view op);
// Advanced indexing: at most one index per dim of self.
std::optional<std::string> index_count_problem(std::size_t indices, std::int64_t rank);

inline constexpr const char* kSelectOf0d = "select() cannot be applied to a 0-d tensor";

NetworkTensor* select(const Scope& s, NetworkTensor* x, std::int64_t dim, std::int64_t index);
NetworkTensor* index_select(const Scope& s, NetworkTensor* x, std::int64_t dim, NetworkTensor* index);
NetworkTensor* gather(const Scope& s, NetworkTensor* x, std::int64_t dim, NetworkTensor* index);
NetworkTensor* scatter(const Scope& s, NetworkTensor* x, std::int64_t dim,
                       NetworkTensor* index, const Operand& updates, network::ScatterReduce reduce);
// where(cond, a, b) with promotion of a and b.
NetworkTensor* where(const Scope& s, NetworkTensor* cond, const Operand& a, const Operand& b);
// x[mask] = value (value keeps x's dtype).
NetworkTensor* masked_fill(const Scope& s, NetworkTensor* x, NetworkTensor* mask, const Operand& value);
// torch.nonzero: int64 [n, rank], n known only when the layer runs (a
// DataDependent layer; docs/dynamic-shapes.md).
NetworkTensor* nonzero(const Scope& s, NetworkTensor* x);
// torch.masked_select: self and mask broadcast, the selected elements as [n].
// nonzero's columns: one int64 [n] index per dim of x (torch.where(x)).
std::vector<NetworkTensor*> nonzero_columns(const Scope& s, NetworkTensor* x);
// torch.unique (consecutive: unique_consecutive), over dim when given:
// values, inverse ([0] unless asked), counts ([0] unless asked), in torch
// 1.13's CPU orders (network/unique_groups.cpp).
struct UniqueOptions {
  bool consecutive = false;
  bool sorted = true;  // the flat unique's; over a dim torch always sorts
  bool inverse = false;
  bool counts = false;
  std::optional<std::int64_t> dim;
};
std::vector<NetworkTensor*> unique(const Scope& s, NetworkTensor* x, const UniqueOptions& o);
// torch.bincount (weights may be null).
NetworkTensor* bincount(const Scope& s, NetworkTensor* x, NetworkTensor* weights, std::int64_t minlength);
// repeat_interleave(repeats): int64 indices, i repeated repeats[i] times.
NetworkTensor* repeat_interleave(const Scope& s, NetworkTensor* repeats);
NetworkTensor* masked_select(const Scope& s, NetworkTensor* x, NetworkTensor* mask);
// A bool mask index of dims `mask` standing at dim `at` of self (index turns
// it into the mask's nonzero columns, as torch does).
std::optional<std::string> mask_index_problem(const Dims& self, std::size_t at, const Dims& mask);
// index_put with a mask: self and mask of known dims, values that broadcast
// to x[mask]'s shape (their row dim: 1, or one row per masked element, a
// count checked when the engine runs).
std::optional<std::string> mask_put_problem(const Dims& self, const Dims& mask, std::size_t at, const Dims& values);
// x[indices] with integer index tensors (null = a full slice).
NetworkTensor* index(const Scope& s, NetworkTensor* x, const std::vector<NetworkTensor*>& indices);
// x[indices] = values (or += when accumulate).
NetworkTensor* index_put(const Scope& s, NetworkTensor* x,
                         const std::vector<NetworkTensor*>& indices, NetworkTensor* values, bool accumulate);
// x with slices index[i] along dim replaced by source's slice i.
NetworkTensor* index_copy(const Scope& s, NetworkTensor* x,
                          std::int64_t dim, NetworkTensor* index, NetworkTensor* source);

}  // namespace atenrt::conversion::impl::select
