// Reductions, arg-reductions, cumulative ops and variance.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::reduce {

using network::ReduceOp;

// Reduces over `dims` (empty: every dim). `dtype` casts the input first
// (torch's dtype= argument); Sum/Prod of integers and bool give int64.
NetworkTensor* reduce(const Scope& s, NetworkTensor* x, ReduceOp op,
                      std::vector<std::int64_t> dims, bool keepdim, std::optional<DType> dtype = std::nullopt);
// argmax / argmin; dim absent flattens first (keepdim then keeps every dim as 1).
NetworkTensor* arg_reduce(const Scope& s, NetworkTensor* x,
                          ReduceOp op, std::optional<std::int64_t> dim, bool keepdim);
NetworkTensor* cumulative(const Scope& s, NetworkTensor* x,
                          network::CumulativeOp op, std::int64_t dim, std::optional<DType> dtype);
// Variance with `correction` (1 = unbiased); sqrt for std.
NetworkTensor* var(const Scope& s, NetworkTensor* x,
                   std::vector<std::int64_t> dims, double correction, bool keepdim, bool take_sqrt);
// p-norm over dims (p = inf / -inf / 0 / other).
NetworkTensor* vector_norm(const Scope& s, NetworkTensor* x,
                           double ord, std::vector<std::int64_t> dims, bool keepdim);

}  // namespace atenrt::conversion::impl::reduce
