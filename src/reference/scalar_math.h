// Scalar formulas with PyTorch semantics (NaN, ±inf and -0 included), shared
// by the reference kernels and our own CPU kernels so that the two cannot
// drift apart. Floating math runs in double; callers round once.
//
// NaN rules (torch 1.13 on CPU): relu/clamp/hardtanh/hardsigmoid keep NaN,
// maximum/minimum propagate NaN from either side, sign(NaN) = 0.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>

#include "ir/element.h"
#include "network/layers.h"
#include "reference/special_functions.h"

namespace atenrt::reference::math {

using network::ActivationOp;
using network::ElementwiseOp;
using network::UnaryOp;
using ir::bf16_to_float;
using ir::float_to_bf16;
using ir::float_to_half;
using ir::half_to_float;

inline constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
inline constexpr double kSeluScale = 1.0507009873554804934193349852946;
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// min(max(x, lo), hi) with NaN passing through (std::max/min keep their first
// argument when the comparison is false, and NaN compares false).
inline double clamp_nan(double x, double lo, double hi) { return std::min(std::max(x, lo), hi); }

inline double softplus(double x, double beta, double threshold) {
  return x * beta > threshold ? x : std::log1p(std::exp(x * beta)) / beta;
}

// alpha/beta as network::ActivationParams documents them per op.
inline double activate(ActivationOp op, double x, double alpha, double beta) {
  switch (op) {
    case ActivationOp::Relu: return x < 0 ? 0.0 : x;
    case ActivationOp::Sigmoid: return 1.0 / (1.0 + std::exp(-x));
    case ActivationOp::Tanh: return std::tanh(x);
    case ActivationOp::LeakyRelu: return x > 0 ? x : x * alpha;
    case ActivationOp::Elu: return x > 0 ? x : alpha * std::expm1(x);
    case ActivationOp::Selu: return kSeluScale * (x > 0 ? x : kSeluAlpha * std::expm1(x));
    case ActivationOp::Softplus: return softplus(x, alpha, beta);
    case ActivationOp::Clip: return clamp_nan(x, alpha, beta);
    case ActivationOp::GeluErf: return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
    case ActivationOp::GeluTanh: {
      const double k = std::sqrt(2.0 / 3.14159265358979323846);
      return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
    }
    case ActivationOp::HardSigmoid: return clamp_nan(alpha * x + beta, 0.0, 1.0);
    case ActivationOp::HardSwish: return x * clamp_nan(x + 3.0, 0.0, 6.0) / 6.0;
    case ActivationOp::Silu: return x / (1.0 + std::exp(-x));
    case ActivationOp::Mish: return x * std::tanh(softplus(x, 1.0, 20.0));
  }
  return x;
}

// torch.digamma: -inf at +0, +inf at -0, NaN at negative integers and -inf; reflection below 0,
// recurrence up to 6, then the asymptotic series.
inline double digamma(double x) {
  constexpr double kPi = 3.14159265358979323846;
  if (x == 0.0) return std::signbit(x) ? HUGE_VAL : -HUGE_VAL;
  if (std::isnan(x) || x == -HUGE_VAL) return std::nan("");
  if (x == HUGE_VAL) return x;
  if (x < 0.0) {
    if (x == std::floor(x)) return std::nan("");
    return digamma(1.0 - x) - kPi / std::tan(kPi * x);
  }
  double r = 0.0;
  while (x < 6.0) {
    r -= 1.0 / x;
    x += 1.0;
  }
  const double f = 1.0 / (x * x);
  return r + std::log(x) - 0.5 / x -
         f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f * (1.0 / 132)))));
}

// torch.erfinv: Giles' single-precision approximation refined by two Newton steps on std::erf.
inline double erfinv(double y) {
  if (std::isnan(y) || y < -1.0 || y > 1.0) return std::nan("");
  if (y == 1.0 || y == -1.0) return y * HUGE_VAL;
  double w = -std::log((1.0 - y) * (1.0 + y));
  double x;
  if (w < 5.0) {
    w -= 2.5;
    x = 2.81022636e-08;
    for (double c : {3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
                     -0.00417768164, 0.246640727, 1.50140941}) {
      x = c + x * w;
    }
  } else {
    w = std::sqrt(w) - 3.0;
    x = -0.000200214257;
    for (double c : {0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613, 0.00943887047,
                     1.00167406, 2.83297682}) {
      x = c + x * w;
    }
  }
  x *= y;
  constexpr double kTwoOverSqrtPi = 1.12837916709551257390;
  for (int i = 0; i < 2; ++i) x -= (std::erf(x) - y) / (kTwoOverSqrtPi * std::exp(-x * x));
  return x;
}

// torch.i0 (modified Bessel function of the first kind, order 0): its power series up to 30, the
// asymptotic expansion beyond (std::cyl_bessel_i throws for large arguments).
inline double bessel_i0(double x) {
  x = std::fabs(x);
  if (std::isnan(x) || x == HUGE_VAL) return std::nan("");  // torch.i0(inf) is NaN
  if (x <= 30.0) {
    const double q = x * x / 4.0;
    double term = 1.0, sum = 1.0;
    for (int k = 1; k < 500 && term > sum * 1e-17; ++k) {
      term *= q / (static_cast<double>(k) * k);
      sum += term;
    }
    return sum;
  }
  double term = 1.0, sum = 1.0;
  for (int k = 1; k < 12; ++k) {
    term *= (2.0 * k - 1.0) * (2.0 * k - 1.0) / (8.0 * x * k);
    sum += term;
  }
  return std::exp(x) / std::sqrt(2.0 * 3.14159265358979323846 * x) * sum;
}

inline double unary(UnaryOp op, double x) {
  switch (op) {
    case UnaryOp::Exp: return std::exp(x);
    case UnaryOp::Log: return std::log(x);
    case UnaryOp::Log2: return std::log2(x);
    case UnaryOp::Log10: return std::log10(x);
    case UnaryOp::Log1p: return std::log1p(x);
    case UnaryOp::Expm1: return std::expm1(x);
    case UnaryOp::Sqrt: return std::sqrt(x);
    case UnaryOp::Rsqrt: return 1.0 / std::sqrt(x);
    case UnaryOp::Abs: return std::fabs(x);
    case UnaryOp::Neg: return -x;
    case UnaryOp::Reciprocal: return 1.0 / x;
    case UnaryOp::Sin: return std::sin(x);
    case UnaryOp::Cos: return std::cos(x);
    case UnaryOp::Tan: return std::tan(x);
    case UnaryOp::Asin: return std::asin(x);
    case UnaryOp::Acos: return std::acos(x);
    case UnaryOp::Atan: return std::atan(x);
    case UnaryOp::Sinh: return std::sinh(x);
    case UnaryOp::Cosh: return std::cosh(x);
    case UnaryOp::Asinh: return std::asinh(x);
    case UnaryOp::Acosh: return std::acosh(x);
    case UnaryOp::Atanh: return std::atanh(x);
    case UnaryOp::Erf: return std::erf(x);
    case UnaryOp::Floor: return std::floor(x);
    case UnaryOp::Ceil: return std::ceil(x);
    case UnaryOp::Round: return std::nearbyint(x);  // default rounding: half to even
    case UnaryOp::Trunc: return std::trunc(x);
    case UnaryOp::Sign: return std::isnan(x) ? 0.0 : static_cast<double>((x > 0) - (x < 0));
    case UnaryOp::Not: return x == 0.0;
    case UnaryOp::IsNan: return std::isnan(x);
    case UnaryOp::IsInf: return std::isinf(x);
    case UnaryOp::Lgamma: return std::lgamma(x);
    case UnaryOp::Digamma: return digamma(x);
    case UnaryOp::Erfinv: return erfinv(x);
    case UnaryOp::Erfc: return std::erfc(x);
    case UnaryOp::I0: return bessel_i0(x);
    case UnaryOp::I0e: return bessel_i0e(x);
    case UnaryOp::I1: return bessel_i1(x);
    case UnaryOp::I1e: return bessel_i1e(x);
    case UnaryOp::BesselJ0: return bessel_j0(x);
    case UnaryOp::BesselJ1: return bessel_j1(x);
    case UnaryOp::BesselY0: return bessel_y0(x);
    case UnaryOp::BesselY1: return bessel_y1(x);
    case UnaryOp::K0: return bessel_k0(x);
    case UnaryOp::K1: return bessel_k1(x);
    case UnaryOp::K0e: return bessel_k0e(x);
    case UnaryOp::K1e: return bessel_k1e(x);
    case UnaryOp::SphericalBesselJ0: return spherical_bessel_j0(x);
    case UnaryOp::AiryAi: return airy_ai(x);
    case UnaryOp::Erfcx: return erfcx(x);
    case UnaryOp::Trigamma: return trigamma(x);
    case UnaryOp::FrexpMantissa: {
      if (!std::isfinite(x)) return x;
      int e = 0;
      return std::frexp(x, &e);
    }
    case UnaryOp::FrexpExponent: {
      if (!std::isfinite(x)) return 0.0;
      int e = 0;
      std::frexp(x, &e);
      return e;
    }
  }
  return x;
}

// unary() for a value of the given dtype: what torch computes in float for a float32 tensor
// (where rounding decides a result, as trigamma next to its poles) runs in float here too.
inline double unary_in(DType dt, UnaryOp op, double x) {
  const bool single = dt == DType::Float32 || dt == DType::BFloat16 || dt == DType::Float16;  // torch: float math
  if (single && op == UnaryOp::Trigamma) return trigamma(static_cast<float>(x));
  return unary(op, x);
}

// Python-style floor division of doubles, as torch's div_floor.
inline double floor_div(double a, double b) {
  if (b == 0.0) return a / b;
  const double mod = std::fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0.0 && (b < 0.0) != (mod < 0.0)) div -= 1.0;
  if (div == 0.0) return std::copysign(0.0, a / b);
  double floordiv = std::floor(div);
  if (div - floordiv > 0.5) floordiv += 1.0;
  return floordiv;
}

// Comparisons and logical ops, the same for every number type (NaN compares
// false); nullopt for the arithmetic ops.
template <typename T>
std::optional<bool> compare(ElementwiseOp op, T a, T b) {
  switch (op) {
    case ElementwiseOp::Equal: return a == b;
    case ElementwiseOp::NotEqual: return a != b;
    case ElementwiseOp::Less: return a < b;
    case ElementwiseOp::LessEqual: return a <= b;
    case ElementwiseOp::Greater: return a > b;
    case ElementwiseOp::GreaterEqual: return a >= b;
    case ElementwiseOp::And: return a != T(0) && b != T(0);
    case ElementwiseOp::Or: return a != T(0) || b != T(0);
    case ElementwiseOp::Xor: return (a != T(0)) != (b != T(0));
    default: return std::nullopt;
  }
}

// a << b and a >> b on an integer dtype as torch 1.13 computes them on x86
// (a C++ shift of the values, types narrower than 64 bits promoted to int):
// the count is taken modulo the width the shift runs in (b & 31 for int8/16/32
// and uint8, b & 63 for int64: x86's SHL/SAR mask it), so a count at or past
// the width, or a negative one, is not 0 but wraps; a left shift then keeps the
// dtype's low bits, a right shift is arithmetic for signed dtypes. `a` and `b`
// hold the dtype's values (sign- or zero-extended), the result wraps to it.
inline std::int64_t shift(ElementwiseOp op, std::int64_t a, std::int64_t b, std::size_t element_bytes) {
  const int count = static_cast<int>(static_cast<std::uint64_t>(b) & (element_bytes == 8 ? 63u : 31u));
  if (op == ElementwiseOp::ShiftLeft) return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) << count);
  return a >> count;
}

// Mean and 1/sqrt(biased variance + eps) of n values, two passes in double
// (layer/group/instance norm).
template <typename T>
std::pair<double, double> mean_inv_std(const T* v, std::int64_t n, double eps) {
  double mean = 0.0;
  for (std::int64_t i = 0; i < n; ++i) mean += v[i];
  mean /= static_cast<double>(n);
  double var = 0.0;
  for (std::int64_t i = 0; i < n; ++i) var += (v[i] - mean) * (v[i] - mean);
  var /= static_cast<double>(n);
  return {mean, 1.0 / std::sqrt(var + eps)};
}

// One row of layer norm as aten's CPU kernel computes it, in the row's
// precision T (float for float32 and the 16-bit formats, double for float64):
// mean and variance (ours: two passes in double, rounded to T), then
// rstd = 1 / sqrt(max(var, 0) + eps) and y = (x*rstd + (-rstd*mean))*gamma + beta
// with each a*b+c fused as torch's compiled kernel fuses it. Where a row barely
// varies the form decides the result: a one-element row gives torch's
// beta + gamma*(rounding error of x*rstd), where (x - mean)*rstd gives exactly beta.
template <typename T, typename X, typename P, typename Y>
void layer_norm_row(const X* x, std::int64_t n, double eps, const P* gamma, const P* beta, Y* y) {
  double mean64 = 0.0, var64 = 0.0;
  for (std::int64_t i = 0; i < n; ++i) mean64 += x[i];
  mean64 /= static_cast<double>(n);
  for (std::int64_t i = 0; i < n; ++i) var64 += (x[i] - mean64) * (x[i] - mean64);
  var64 /= static_cast<double>(n);
  const T mean = static_cast<T>(mean64);
  const T rstd = T(1) / std::sqrt(std::max(static_cast<T>(var64), T(0)) + static_cast<T>(eps));
  const T shift = -rstd * mean;
  for (std::int64_t i = 0; i < n; ++i) {
    const T t = std::fma(static_cast<T>(x[i]), rstd, shift);
    y[i] = static_cast<Y>(std::fma(t, static_cast<T>(gamma[i]), static_cast<T>(beta[i])));
  }
}

// The next value of the dtype after a toward b (torch.nextafter): one step of the format's bits.
inline double next_after(DType dt, double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return kNaN;
  if (a == b) return b;
  // Sign-magnitude 16-bit formats: away from zero is +1 on the magnitude, toward it -1.
  auto step16 = [up = b > a](std::uint16_t bits) -> std::uint16_t {
    if ((bits & 0x7fffu) == 0) return up ? 0x0001u : 0x8001u;
    const bool negative = (bits & 0x8000u) != 0;
    return static_cast<std::uint16_t>(up != negative ? bits + 1u : bits - 1u);
  };
  switch (dt) {
    case DType::Float32: return std::nextafter(static_cast<float>(a), static_cast<float>(b));
    case DType::BFloat16: return bf16_to_float(step16(float_to_bf16(static_cast<float>(a))));
    case DType::Float16: return half_to_float(step16(float_to_half(static_cast<float>(a))));
    default: return std::nextafter(a, b);
  }
}

inline std::optional<Polynomial> polynomial_of(ElementwiseOp op) {
  const int k = static_cast<int>(op) - static_cast<int>(ElementwiseOp::ChebyshevT);
  if (k < 0 || k > static_cast<int>(Polynomial::LegendreP)) return std::nullopt;
  return static_cast<Polynomial>(k);
}

inline double binary(ElementwiseOp op, double a, double b) {
  if (const auto c = compare(op, a, b)) return *c;
  if (const auto kind = polynomial_of(op)) return orthogonal_polynomial(*kind, a, b);
  switch (op) {
    case ElementwiseOp::Add: return a + b;
    case ElementwiseOp::Sub: return a - b;
    case ElementwiseOp::Mul: return a * b;
    case ElementwiseOp::Div: return a / b;
    case ElementwiseOp::Pow: return std::pow(a, b);
    case ElementwiseOp::Min: return (std::isnan(a) || std::isnan(b)) ? kNaN : std::min(a, b);
    case ElementwiseOp::Max: return (std::isnan(a) || std::isnan(b)) ? kNaN : std::max(a, b);
    case ElementwiseOp::FloorDiv: return floor_div(a, b);
    case ElementwiseOp::TruncDiv: return std::trunc(a / b);
    case ElementwiseOp::Remainder: {
      if (b == 0.0) return std::fmod(a, b);
      double mod = std::fmod(a, b);
      if (mod != 0.0 && (b < 0.0) != (mod < 0.0)) mod += b;
      return mod;
    }
    case ElementwiseOp::Fmod: return std::fmod(a, b);
    case ElementwiseOp::Zeta: return hurwitz_zeta(a, b);
    case ElementwiseOp::Igamma: return igamma(a, b);
    case ElementwiseOp::Igammac: return igammac(a, b);
    case ElementwiseOp::NextAfter: return next_after(DType::Float64, a, b);
    default: return 0.0;  // comparisons and polynomials: above
  }
}

// binary() for values of the given dtype: nextafter steps in that dtype, and the polynomials'
// recurrences run in float for float32 as torch's do (overflow there turns into NaN).
inline double binary_in(DType dt, ElementwiseOp op, double a, double b) {
  if (op == ElementwiseOp::NextAfter) return next_after(dt, a, b);
  if (const auto kind = polynomial_of(op); kind && dt == DType::Float32) {
    return orthogonal_polynomial(*kind, static_cast<float>(a), static_cast<float>(b));
  }
  return binary(op, a, b);
}

// Max/min selection as torch's max/amax/argmax/max_pool: NaN beats every
// number (the first NaN wins), otherwise strictly greater (less) wins.
inline bool beats(double v, double best, bool want_max) {
  if (std::isnan(v)) return !std::isnan(best);
  if (std::isnan(best)) return false;
  return want_max ? v > best : v < best;
}

}  // namespace atenrt::reference::math
