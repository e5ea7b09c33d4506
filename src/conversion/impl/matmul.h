// Matrix products (torch.matmul semantics through one MatMul layer).
#pragma once

#include <string_view>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::matmul {

NetworkTensor* matmul(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* a,
                      NetworkTensor* b, bool transpose_a = false, bool transpose_b = false);
// beta * self + alpha * (a @ b); beta = 0 ignores self (NaN included), as torch.
NetworkTensor* addmm(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* self,
                     NetworkTensor* a, NetworkTensor* b, const Scalar& beta, const Scalar& alpha);
// x @ weightᵀ + bias (bias may be null).
NetworkTensor* linear(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x,
                      NetworkTensor* weight, NetworkTensor* bias);
// Transpose of a 2-d tensor; 0-d and 1-d come back unchanged.
NetworkTensor* t(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x);

}  // namespace atenrt::conversion::impl::matmul
