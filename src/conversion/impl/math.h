// Elementwise math that PyTorch has as one op and the network expresses as a few layers
// (logaddexp, xlogy, hypot, copysign, shrink functions, ...), with PyTorch's NaN/inf behaviour.
// Integer and bool inputs are computed in float32, as PyTorch promotes them.
#pragma once

#include <optional>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::math {

// Both operands in one floating dtype (torch.result_type, integers → float32).
std::pair<NetworkTensor*, NetworkTensor*> floating_pair(const Scope& s, const Operand& a, const Operand& b);
// x in a floating dtype (integers → float32).
NetworkTensor* floating(const Scope& s, NetworkTensor* x);

NetworkTensor* logaddexp(const Scope& s, const Operand& a, const Operand& b, bool base2);
// x * log(y) (xlogy) or x * log1p(y) (xlog1py); 0 where x == 0 unless y is NaN.
NetworkTensor* xlogy(const Scope& s, const Operand& x, const Operand& y, bool log1p);
NetworkTensor* hypot(const Scope& s, const Operand& a, const Operand& b);
NetworkTensor* copysign(const Scope& s, const Operand& a, const Operand& b);
// NaN-ignoring maximum / minimum.
NetworkTensor* fmax_fmin(const Scope& s, const Operand& a, const Operand& b, bool max);
NetworkTensor* heaviside(const Scope& s, NetworkTensor* x, NetworkTensor* values);
// x * factor in floating point (deg2rad, rad2deg).
NetworkTensor* scale(const Scope& s, NetworkTensor* x, double factor);
NetworkTensor* exp2(const Scope& s, NetworkTensor* x);
NetworkTensor* erfc(const Scope& s, NetworkTensor* x);
NetworkTensor* frac(const Scope& s, NetworkTensor* x);
// sum_{j<p} lgamma(x - j/2) + p(p-1)/4 log(pi)
NetworkTensor* mvlgamma(const Scope& s, NetworkTensor* x, std::int64_t p);
NetworkTensor* log_ndtr(const Scope& s, NetworkTensor* x);
NetworkTensor* ndtri(const Scope& s, NetworkTensor* x);
NetworkTensor* sinc(const Scope& s, NetworkTensor* x);
NetworkTensor* logit(const Scope& s, NetworkTensor* x, std::optional<double> eps);
NetworkTensor* entr(const Scope& s, NetworkTensor* x);
// isposinf / isneginf / signbit (bool).
NetworkTensor* is_inf_of_sign(const Scope& s, NetworkTensor* x, bool positive);
NetworkTensor* signbit(const Scope& s, NetworkTensor* x);
NetworkTensor* nan_to_num(const Scope& s, NetworkTensor* x, std::optional<double> nan, std::optional<double> posinf,
                          std::optional<double> neginf);
NetworkTensor* hardshrink(const Scope& s, NetworkTensor* x, double lambd);
NetworkTensor* softshrink(const Scope& s, NetworkTensor* x, double lambd);
// where(x <= threshold, value, x)
NetworkTensor* threshold(const Scope& s, NetworkTensor* x, const Scalar& threshold, const Scalar& value);
// -softplus(-x) = min(x, 0) - log1p(exp(-|x|))
NetworkTensor* log_sigmoid(const Scope& s, NetworkTensor* x);
// torch.round(x, decimals=d)
NetworkTensor* round_decimals(const Scope& s, NetworkTensor* x, std::int64_t decimals);
// a + w * (b - a), as torch.lerp (the other form for w >= 0.5).
NetworkTensor* lerp(const Scope& s, NetworkTensor* a, NetworkTensor* b, const Operand& weight);

}  // namespace atenrt::conversion::impl::math
