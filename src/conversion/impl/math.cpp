#include "conversion/impl/math.h"

#include <cmath>
#include <limits>
#include <numbers>

namespace atenrt::conversion::impl::math {

using network::ElementwiseOp;
using network::UnaryOp;

namespace {
NetworkTensor* un(const Scope& s, NetworkTensor* x, UnaryOp op) { return s.add_unary("", x, op); }
NetworkTensor* k(const Scope& s, double v, DType dt) { return scalar_constant(s, v, dt); }
NetworkTensor* where(const Scope& s, NetworkTensor* cond, NetworkTensor* a, NetworkTensor* b) {
  return s.add_select("where", cond, a, b);
}
NetworkTensor* both(const Scope& s, NetworkTensor* a, NetworkTensor* b) { return ew(s, a, b, ElementwiseOp::And); }
NetworkTensor* isnan(const Scope& s, NetworkTensor* x) { return un(s, x, UnaryOp::IsNan); }
bool reduced(DType dt) { return dt == DType::BFloat16 || dt == DType::Float16; }
// PyTorch computes bfloat16/float16 math in float32 and rounds once: do the same.
NetworkTensor* up(const Scope& s, NetworkTensor* x) { return reduced(x->dtype) ? cast(s, x, DType::Float32) : x; }
NetworkTensor* down(const Scope& s, NetworkTensor* y, DType dt) { return y->dtype == dt ? y : s.add_cast("", y, dt); }
}  // namespace

NetworkTensor* floating(const Scope& s, NetworkTensor* x) {
  return is_floating(x->dtype) ? x : cast(s, x, DType::Float32);
}

std::pair<NetworkTensor*, NetworkTensor*> floating_pair(const Scope& s, const Operand& a, const Operand& b) {
  DType dt = result_type(a, b);
  if (!is_floating(dt)) dt = DType::Float32;
  return {as_tensor(s, a, dt), as_tensor(s, b, dt)};
}

NetworkTensor* logaddexp(const Scope& s, const Operand& a, const Operand& b, bool base2) {
  auto [x0, y0] = floating_pair(s, a, b);
  const DType dt = x0->dtype;
  auto* x = up(s, x0);
  auto* y = up(s, y0);
  auto* m = ew(s, x, y, ElementwiseOp::Max);
  auto* neg_d = un(s, un(s, ew(s, x, y, ElementwiseOp::Sub), UnaryOp::Abs), UnaryOp::Neg);
  NetworkTensor* r;
  if (base2) {
    auto* p = un(s, ew_scalar(s, neg_d, std::numbers::ln2, ElementwiseOp::Mul), UnaryOp::Exp);
    r = ew(s, m, ew_scalar(s, un(s, p, UnaryOp::Log1p), 1.0 / std::numbers::ln2, ElementwiseOp::Mul), ElementwiseOp::Add);
  } else {
    r = ew(s, m, un(s, un(s, neg_d, UnaryOp::Exp), UnaryOp::Log1p), ElementwiseOp::Add);
  }
  // Equal infinities: inf - inf is NaN, PyTorch returns the infinity.
  auto* same_inf = both(s, un(s, x, UnaryOp::IsInf), ew(s, x, y, ElementwiseOp::Equal));
  return down(s, s.add_select(reduced(dt) ? "f32" : "", same_inf, x, r), dt);
}

NetworkTensor* xlogy(const Scope& s, const Operand& xo, const Operand& yo, bool log1p) {
  auto [x0, y0] = floating_pair(s, xo, yo);
  const DType dt = x0->dtype;
  auto* x = up(s, x0);
  auto* y = up(s, y0);
  auto* prod = ew(s, x, un(s, y, log1p ? UnaryOp::Log1p : UnaryOp::Log), ElementwiseOp::Mul);
  auto* zero_x = both(s, ew_scalar(s, x, 0.0, ElementwiseOp::Equal), un(s, isnan(s, y), UnaryOp::Not));
  return down(s, s.add_select(reduced(dt) ? "f32" : "", zero_x, k(s, 0.0, x->dtype), prod), dt);
}

NetworkTensor* hypot(const Scope& s, const Operand& a, const Operand& b) {
  auto [x0, y0] = floating_pair(s, a, b);
  auto* x = up(s, x0);
  auto* y = up(s, y0);
  auto* sum = ew(s, ew(s, x, x, ElementwiseOp::Mul), ew(s, y, y, ElementwiseOp::Mul), ElementwiseOp::Add);
  return down(s, un(s, sum, UnaryOp::Sqrt), x0->dtype);
}

NetworkTensor* signbit(const Scope& s, NetworkTensor* x) {
  if (x->dtype == DType::Bool) return ew(s, x, x, ElementwiseOp::NotEqual);  // all false
  auto* neg = ew_scalar(s, x, 0.0, ElementwiseOp::Less);
  if (!is_floating(x->dtype)) return neg;
  // -0.0: 1 / x is -inf.
  auto* neg_zero = both(s, ew_scalar(s, x, 0.0, ElementwiseOp::Equal),
                        ew_scalar(s, un(s, x, UnaryOp::Reciprocal), 0.0, ElementwiseOp::Less));
  return ew(s, neg, neg_zero, ElementwiseOp::Or);
}

NetworkTensor* copysign(const Scope& s, const Operand& a, const Operand& b) {
  auto [x, y] = floating_pair(s, a, b);
  auto* mag = un(s, x, UnaryOp::Abs);
  return s.add_select("", signbit(s, y), un(s, mag, UnaryOp::Neg), mag);
}

NetworkTensor* fmax_fmin(const Scope& s, const Operand& a, const Operand& b, bool max) {
  const DType dt = result_type(a, b);
  auto* x = as_tensor(s, a, dt);
  auto* y = as_tensor(s, b, dt);
  auto* m = ew(s, x, y, max ? ElementwiseOp::Max : ElementwiseOp::Min);
  if (!is_floating(dt)) return m;
  return s.add_select("", isnan(s, x), y, where(s, isnan(s, y), x, m));
}

NetworkTensor* heaviside(const Scope& s, NetworkTensor* x, NetworkTensor* values) {
  const DType dt = x->dtype;
  auto* xc = dt == DType::Bool ? cast(s, x, DType::UInt8) : x;
  auto* step = cast(s, ew_scalar(s, xc, 0.0, ElementwiseOp::Greater), dt);
  return s.add_select("", ew_scalar(s, xc, 0.0, ElementwiseOp::Equal), cast(s, values, dt), step);
}

NetworkTensor* scale(const Scope& s, NetworkTensor* x, double factor) {
  return s.add_elementwise("", floating(s, x), k(s, factor, floating(s, x)->dtype), ElementwiseOp::Mul);
}

NetworkTensor* exp2(const Scope& s, NetworkTensor* x) {
  x = floating(s, x);
  return s.add_elementwise("", k(s, 2.0, x->dtype), x, ElementwiseOp::Pow);
}

NetworkTensor* erfc(const Scope& s, NetworkTensor* x) {
  return s.add_unary("", floating(s, x), UnaryOp::Erfc);
}

NetworkTensor* mvlgamma(const Scope& s, NetworkTensor* x, std::int64_t p) {
  x = floating(s, x);
  // sum over j < p of lgamma(x - j/2), plus p(p-1)/4 * log(pi)
  NetworkTensor* sum = un(s, x, UnaryOp::Lgamma);
  for (std::int64_t j = 1; j < p; ++j) {
    sum = ew(s, sum, un(s, ew_scalar(s, x, -0.5 * static_cast<double>(j), ElementwiseOp::Add), UnaryOp::Lgamma),
             ElementwiseOp::Add);
  }
  const double c = static_cast<double>(p * (p - 1)) / 4.0 * std::log(std::numbers::pi);
  return s.add_elementwise("", sum, k(s, c, x->dtype), ElementwiseOp::Add);
}

NetworkTensor* log_ndtr(const Scope& s, NetworkTensor* x) {
  x = floating(s, x);
  // log(erfc(-x / sqrt 2) / 2)
  auto* e = un(s, ew_scalar(s, x, -1.0 / std::numbers::sqrt2, ElementwiseOp::Mul), UnaryOp::Erfc);
  return s.add_unary("", ew_scalar(s, e, 0.5, ElementwiseOp::Mul), UnaryOp::Log);
}

NetworkTensor* ndtri(const Scope& s, NetworkTensor* x) {
  x = floating(s, x);
  // sqrt(2) * erfinv(2p - 1)
  auto* y = ew_scalar(s, ew_scalar(s, x, 2.0, ElementwiseOp::Mul), 1.0, ElementwiseOp::Sub);
  return s.add_elementwise("", un(s, y, UnaryOp::Erfinv), k(s, std::numbers::sqrt2, x->dtype), ElementwiseOp::Mul);
}

NetworkTensor* frac(const Scope& s, NetworkTensor* x) {
  return s.add_elementwise("", x, un(s, x, UnaryOp::Trunc), ElementwiseOp::Sub);
}

NetworkTensor* sinc(const Scope& s, NetworkTensor* x) {
  x = floating(s, x);
  auto* px = ew_scalar(s, x, std::numbers::pi, ElementwiseOp::Mul);
  auto* q = ew(s, un(s, px, UnaryOp::Sin), px, ElementwiseOp::Div);
  return s.add_select("", ew_scalar(s, x, 0.0, ElementwiseOp::Equal), k(s, 1.0, x->dtype), q);
}

NetworkTensor* logit(const Scope& s, NetworkTensor* x, std::optional<double> eps) {
  x = floating(s, x);
  if (eps) {
    x = ew_scalar(s, ew_scalar(s, x, *eps, ElementwiseOp::Max), 1.0 - *eps, ElementwiseOp::Min);
  }
  auto* odds = ew(s, x, ew(s, k(s, 1.0, x->dtype), x, ElementwiseOp::Sub), ElementwiseOp::Div);
  return un(s, odds, UnaryOp::Log);
}

NetworkTensor* entr(const Scope& s, NetworkTensor* x) {
  x = floating(s, x);
  const DType dt = x->dtype;
  auto* pos = un(s, ew(s, x, un(s, x, UnaryOp::Log), ElementwiseOp::Mul), UnaryOp::Neg);
  auto* rest = where(s, ew_scalar(s, x, 0.0, ElementwiseOp::Equal), k(s, 0.0, dt),
                     k(s, -std::numeric_limits<double>::infinity(), dt));
  rest = where(s, isnan(s, x), x, rest);
  return s.add_select("", ew_scalar(s, x, 0.0, ElementwiseOp::Greater), pos, rest);
}

NetworkTensor* is_inf_of_sign(const Scope& s, NetworkTensor* x, bool positive) {
  if (!is_floating(x->dtype)) return ew(s, x, x, ElementwiseOp::NotEqual);  // integers: never infinite
  const double inf = std::numeric_limits<double>::infinity();
  return ew_scalar(s, x, positive ? inf : -inf, ElementwiseOp::Equal);
}

NetworkTensor* nan_to_num(const Scope& s, NetworkTensor* x, std::optional<double> nan, std::optional<double> posinf,
                          std::optional<double> neginf) {
  if (!is_floating(x->dtype)) return identity(s, x);
  const DType dt = x->dtype;
  double hi = std::numeric_limits<float>::max();
  if (dt == DType::Float64) hi = std::numeric_limits<double>::max();
  if (dt == DType::Float16) hi = 65504.0;
  if (dt == DType::BFloat16) hi = 3.3895313892515355e38;
  auto* y = where(s, isnan(s, x), k(s, nan.value_or(0.0), dt), x);
  y = where(s, is_inf_of_sign(s, x, true), k(s, posinf.value_or(hi), dt), y);
  return s.add_select("", is_inf_of_sign(s, x, false), k(s, neginf.value_or(-hi), dt), y);
}

NetworkTensor* hardshrink(const Scope& s, NetworkTensor* x, double lambd) {
  auto* inside = both(s, ew_scalar(s, x, -lambd, ElementwiseOp::GreaterEqual), ew_scalar(s, x, lambd, ElementwiseOp::LessEqual));
  return s.add_select("", inside, k(s, 0.0, x->dtype), x);
}

NetworkTensor* softshrink(const Scope& s, NetworkTensor* x, double lambd) {
  auto* mid = k(s, 0.0, x->dtype);  // NaN falls through both comparisons to 0, as in PyTorch
  auto* low = where(s, ew_scalar(s, x, -lambd, ElementwiseOp::Less), ew_scalar(s, x, lambd, ElementwiseOp::Add), mid);
  return s.add_select("", ew_scalar(s, x, lambd, ElementwiseOp::Greater), ew_scalar(s, x, lambd, ElementwiseOp::Sub), low);
}

NetworkTensor* threshold(const Scope& s, NetworkTensor* x, const Scalar& th, const Scalar& value) {
  auto* below = ew(s, x, scalar_constant(s, th, x->dtype), ElementwiseOp::LessEqual);
  return s.add_select("", below, scalar_constant(s, value, x->dtype), x);
}

NetworkTensor* log_sigmoid(const Scope& s, NetworkTensor* x) {
  x = floating(s, x);
  auto* lo = ew_scalar(s, x, 0.0, ElementwiseOp::Min);
  auto* z = un(s, un(s, un(s, x, UnaryOp::Abs), UnaryOp::Neg), UnaryOp::Exp);
  return s.add_elementwise("", lo, un(s, z, UnaryOp::Log1p), ElementwiseOp::Sub);
}

NetworkTensor* round_decimals(const Scope& s, NetworkTensor* x, std::int64_t decimals) {
  if (!is_floating(x->dtype)) return identity(s, x);
  if (decimals == 0) return un(s, x, UnaryOp::Round);
  const double ten = std::pow(10.0, static_cast<double>(decimals > 0 ? decimals : -decimals));
  auto* k_ten = k(s, ten, x->dtype);
  if (decimals > 0) {
    return s.add_elementwise("", un(s, ew(s, x, k_ten, ElementwiseOp::Mul), UnaryOp::Round), k_ten, ElementwiseOp::Div);
  }
  return s.add_elementwise("", un(s, ew(s, x, k_ten, ElementwiseOp::Div), UnaryOp::Round), k_ten, ElementwiseOp::Mul);
}

NetworkTensor* lerp(const Scope& s, NetworkTensor* a, NetworkTensor* b, const Operand& weight) {
  const DType out = promote_types(a->dtype, b->dtype);
  const DType dt = reduced(out) ? DType::Float32 : out;
  a = cast(s, a, dt);
  b = cast(s, b, dt);
  auto* w = as_tensor(s, weight, dt);
  auto* diff = ew(s, b, a, ElementwiseOp::Sub);
  auto* low = ew(s, a, ew(s, w, diff, ElementwiseOp::Mul), ElementwiseOp::Add);
  auto* high = ew(s, b, ew(s, diff, ew(s, k(s, 1.0, dt), w, ElementwiseOp::Sub), ElementwiseOp::Mul), ElementwiseOp::Sub);
  // lerp's shape broadcasts a, b and the weight together.
  auto* small = ew_scalar(s, w, 0.5, ElementwiseOp::Less);
  return down(s, s.add_select(dt != out ? "f32" : "", small, low, high), out);
}

}  // namespace atenrt::conversion::impl::math
