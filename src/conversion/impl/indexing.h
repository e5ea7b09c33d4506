// Indexing ops built on gather/scatter: take, unfold (sliding windows), max_unpool, scatter_reduce.
#pragma once

#include <optional>
#include <string>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::indexing {

// torch.take: self flattened, indexed by `index` (negative indices count from the end).
NetworkTensor* take(const Scope& s, NetworkTensor* x, NetworkTensor* index);
// Limits, the validators' rules too. unfold: `size` <= the dim's length
// (`len`; < 0 when not known) and `step` > 0.
std::optional<std::string> unfold_problem(std::int64_t len, std::int64_t size, std::int64_t step);
// max_unpool: an input of one or two more dims than output_size has entries (rank < 0: not known).
std::optional<std::string> max_unpool_problem(std::int64_t rank, std::size_t spatial);

// Tensor.unfold: windows of `size` every `step` along `dim`, the window as a new last dim.
NetworkTensor* unfold(const Scope& s, NetworkTensor* x, std::int64_t dim, std::int64_t size, std::int64_t step);
// max_unpool2d/3d: x scattered at its flat spatial `indices` into zeros of `output_size`.
NetworkTensor* max_unpool(const Scope& s, NetworkTensor* x, NetworkTensor* indices,
                          const std::vector<std::int64_t>& output_size);
// scatter_reduce's reduce: "sum", "prod", "mean", "amax" or "amin".
std::optional<std::string> scatter_reduce_problem(const std::string& reduce);
// scatter_reduce.two (and index_reduce through it).
NetworkTensor* scatter_reduce(const Scope& s, NetworkTensor* x, std::int64_t dim, NetworkTensor* index,
                              NetworkTensor* src, const std::string& reduce, bool include_self);

}  // namespace atenrt::conversion::impl::indexing
