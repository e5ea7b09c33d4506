// Special functions as unary/elementwise layers of their own (reference/special_functions.h
// defines them): Bessel and Airy functions, erfcx, Hurwitz zeta and polygamma, the incomplete
// gamma functions, nextafter, frexp and the orthogonal polynomials. Integer and bool inputs are
// computed in float32, as PyTorch promotes them.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::special {

NetworkTensor* unary(const Scope& s, NetworkTensor* x, network::UnaryOp op);
// Both operands promoted to one floating dtype (torch.result_type, integers → float32).
NetworkTensor* binary(const Scope& s, const Operand& a, const Operand& b, network::ElementwiseOp op);

// torch.polygamma(n, x): digamma, trigamma, then (-1)^(n+1) n! zeta(n+1, x).
std::optional<std::string> polygamma_problem(std::int64_t n);
NetworkTensor* polygamma(const Scope& s, NetworkTensor* x, std::int64_t n);

// torch.frexp: the mantissa (x's dtype) and the exponent (int32).
std::pair<NetworkTensor*, NetworkTensor*> frexp(const Scope& s, NetworkTensor* x);

}  // namespace atenrt::conversion::impl::special
