// Selection and indexing: select, index_select, gather/scatter, where,
// masked_fill, advanced indexing (index / index_put).
#pragma once

#include <string_view>
#include <vector>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::select {

NetworkTensor* select(const Scope& s, NetworkTensor* x, std::int64_t dim, std::int64_t index);
NetworkTensor* index_select(const Scope& s, NetworkTensor* x, std::int64_t dim, NetworkTensor* index);
NetworkTensor* gather(const Scope& s, NetworkTensor* x, std::int64_t dim, NetworkTensor* index);
NetworkTensor* scatter(const Scope& s, NetworkTensor* x, std::int64_t dim,
                       NetworkTensor* index, const Operand& updates, network::ScatterReduce reduce);
// where(cond, a, b) with promotion of a and b.
NetworkTensor* where(const Scope& s, NetworkTensor* cond, const Operand& a, const Operand& b);
// x[mask] = value (value keeps x's dtype).
NetworkTensor* masked_fill(const Scope& s, NetworkTensor* x, NetworkTensor* mask, const Operand& value);
// x[indices] with integer index tensors (null = a full slice).
NetworkTensor* index(const Scope& s, NetworkTensor* x, const std::vector<NetworkTensor*>& indices);
// x[indices] = values (or += when accumulate).
NetworkTensor* index_put(const Scope& s, NetworkTensor* x,
                         const std::vector<NetworkTensor*>& indices, NetworkTensor* values, bool accumulate);
// x with slices index[i] along dim replaced by source's slice i.
NetworkTensor* index_copy(const Scope& s, NetworkTensor* x,
                          std::int64_t dim, NetworkTensor* index, NetworkTensor* source);

}  // namespace atenrt::conversion::impl::select
