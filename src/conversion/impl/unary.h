// Unary elementwise ops with torch's dtype rules: float-only math promotes
// integers and bool to float32; rounding ops leave integers unchanged.
#pragma once

#include <string_view>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::unary {

using network::UnaryOp;

// Base: one Unary layer after the dtype rule above.
NetworkTensor* unary(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x, UnaryOp op);

NetworkTensor* logical_not(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x);
// ~x for bool tensors (the validator refuses integers).
NetworkTensor* bitwise_not(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x);
// x * x
NetworkTensor* square(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x);

}  // namespace atenrt::conversion::impl::unary
