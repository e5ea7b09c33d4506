// Unary elementwise ops with torch's dtype rules: float-only math promotes
// integers and bool to float32; rounding ops leave integers unchanged.
#pragma once

#include <string_view>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::unary {

using network::UnaryOp;

// Base: one Unary layer after the dtype rule above.
NetworkTensor* unary(const Scope& s, NetworkTensor* x, UnaryOp op);

NetworkTensor* logical_not(const Scope& s, NetworkTensor* x);
// ~x for bool tensors (the validator refuses integers).
NetworkTensor* bitwise_not(const Scope& s, NetworkTensor* x);
// x * x
NetworkTensor* square(const Scope& s, NetworkTensor* x);

}  // namespace atenrt::conversion::impl::unary
