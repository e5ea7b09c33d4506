// Index-driven updates built on scatter, gather and select: index_add, index_fill, put and
// masked_scatter.
#pragma once

#include <optional>
#include <string>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::index_ops {

// index_add / put(accumulate) add numbers: a bool self is refused.
std::optional<std::string> adds_bool_problem(DType self, bool adds);
// x with source's slices added at `index` along dim (times alpha), as torch.index_add.
NetworkTensor* index_add(const Scope& s, NetworkTensor* x, std::int64_t dim, NetworkTensor* index,
                         NetworkTensor* source, double alpha);
// torch.index_reduce: source's slices reduced ("prod", "mean", "amax", "amin") into x's at `index`.
NetworkTensor* index_reduce(const Scope& s, NetworkTensor* x, std::int64_t dim, NetworkTensor* index,
                            NetworkTensor* source, const std::string& reduce, bool include_self);
// x with the slices at `index` (negative from the end) along dim set to value (a number or a 0-d tensor).
NetworkTensor* index_fill(const Scope& s, NetworkTensor* x, std::int64_t dim, NetworkTensor* index,
                          const Operand& value);
// torch.put: x flattened, source's elements written (or added) at the flat `index`.
NetworkTensor* put(const Scope& s, NetworkTensor* x, NetworkTensor* index, NetworkTensor* source, bool accumulate);
// torch.masked_scatter: the positions where mask (broadcast to x) is true take source's elements
// in order.
NetworkTensor* masked_scatter(const Scope& s, NetworkTensor* x, NetworkTensor* mask, NetworkTensor* source);

}  // namespace atenrt::conversion::impl::index_ops
