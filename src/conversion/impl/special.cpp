#include "conversion/impl/special.h"

#include <cmath>

#include "conversion/impl/math.h"
#include "conversion/impl/unary.h"

namespace atenrt::conversion::impl::special {

using network::ElementwiseOp;
using network::UnaryOp;

namespace {
bool reduced(DType dt) { return dt == DType::BFloat16 || dt == DType::Float16; }
}  // namespace

NetworkTensor* unary(const Scope& s, NetworkTensor* x, UnaryOp op) { return impl::unary::unary(s, x, op); }

NetworkTensor* binary(const Scope& s, const Operand& a, const Operand& b, ElementwiseOp op) {
  auto [x, y] = math::floating_pair(s, a, b);
  return s.add_elementwise("", x, y, op);
}

std::optional<std::string> polygamma_problem(std::int64_t n) {
  if (n < 0) return "polygamma of a negative order n = " + std::to_string(n) + " is not defined";
  return std::nullopt;
}

NetworkTensor* polygamma(const Scope& s, NetworkTensor* x, std::int64_t n) {
  if (const auto why = polygamma_problem(n)) check(false, *why);
  if (n == 0) return unary(s, x, UnaryOp::Digamma);
  if (n == 1) return unary(s, x, UnaryOp::Trigamma);
  x = math::floating(s, x);
  const DType dt = x->dtype;
  // PyTorch computes bfloat16/float16 in float32 and rounds once.
  auto* xf = reduced(dt) ? cast(s, x, DType::Float32) : x;
  const double order = static_cast<double>(n);
  auto* z = s.add_elementwise("zeta", scalar_constant(s, order + 1.0, xf->dtype), xf, ElementwiseOp::Zeta);
  const double factor = (n % 2 == 1 ? 1.0 : -1.0) * std::exp(std::lgamma(order + 1.0));
  if (!reduced(dt)) return s.add_elementwise("", z, scalar_constant(s, factor, xf->dtype), ElementwiseOp::Mul);
  auto* y = s.add_elementwise("f32", z, scalar_constant(s, factor, xf->dtype), ElementwiseOp::Mul);
  return s.add_cast("", y, dt);
}

std::pair<NetworkTensor*, NetworkTensor*> frexp(const Scope& s, NetworkTensor* x) {
  x = math::floating(s, x);
  auto* mantissa = s.add_unary("mantissa", x, UnaryOp::FrexpMantissa);
  auto* exponent = s.add_cast("exponent", s.add_unary("exponent_value", x, UnaryOp::FrexpExponent), DType::Int32);
  return {mantissa, exponent};
}

}  // namespace atenrt::conversion::impl::special
