// Matrix products (torch.matmul semantics through one MatMul layer).
#pragma once

#include <string_view>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::matmul {

NetworkTensor* matmul(const Scope& s, NetworkTensor* a,
                      NetworkTensor* b, bool transpose_a = false, bool transpose_b = false);
// beta * self + alpha * (a @ b); beta = 0 ignores self (NaN included), as torch.
NetworkTensor* addmm(const Scope& s, NetworkTensor* self,
                     NetworkTensor* a, NetworkTensor* b, const Scalar& beta, const Scalar& alpha);
// x @ weightᵀ + bias (bias may be null).
NetworkTensor* linear(const Scope& s, NetworkTensor* x, NetworkTensor* weight, NetworkTensor* bias);
// Transpose of a 2-d tensor; 0-d and 1-d come back unchanged.
NetworkTensor* t(const Scope& s, NetworkTensor* x);

}  // namespace atenrt::conversion::impl::matmul
