// Reference kernels: activation, unary and elementwise binary ops.
#include <cmath>
#include <cstring>
#include <limits>

#include "runtime/reference/kernels.h"

namespace atenrt::reference::detail {

namespace {

double activate(ActivationOp op, double x, double alpha, double beta) {
  switch (op) {
    case ActivationOp::Relu: return x < 0 ? 0.0 : x;  // NaN passes through, as torch
    case ActivationOp::Sigmoid: return 1.0 / (1.0 + std::exp(-x));
    case ActivationOp::Tanh: return std::tanh(x);
    case ActivationOp::LeakyRelu: return x > 0 ? x : x * alpha;
    case ActivationOp::Elu: return x > 0 ? x : alpha * std::expm1(x);
    case ActivationOp::Selu: {
      constexpr double kAlpha = 1.6732632423543772848170429916717;
      constexpr double kScale = 1.0507009873554804934193349852946;
      return kScale * (x > 0 ? x : kAlpha * std::expm1(x));
    }
    case ActivationOp::Softplus: return x * alpha > beta ? x : std::log1p(std::exp(x * alpha)) / alpha;
    case ActivationOp::Clip: return std::min(std::max(x, alpha), beta);
    case ActivationOp::GeluErf: return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
    case ActivationOp::GeluTanh: {
      const double k = std::sqrt(2.0 / 3.14159265358979323846);
      return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
    }
    case ActivationOp::HardSigmoid: return std::min(std::max(alpha * x + beta, 0.0), 1.0);
    case ActivationOp::HardSwish: return x * std::min(std::max(x + 3.0, 0.0), 6.0) / 6.0;
    case ActivationOp::Silu: return x / (1.0 + std::exp(-x));
    case ActivationOp::Mish: return x * std::tanh(std::log1p(std::exp(x)));
  }
  return x;
}

double unary_f(UnaryOp op, double x) {
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
  }
  return x;
}

std::int64_t unary_i(UnaryOp op, std::int64_t x) {
  const auto u = static_cast<std::uint64_t>(x);
  switch (op) {
    case UnaryOp::Abs: return x < 0 ? static_cast<std::int64_t>(0 - u) : x;
    case UnaryOp::Neg: return static_cast<std::int64_t>(0 - u);
    case UnaryOp::Sign: return (x > 0) - (x < 0);
    case UnaryOp::Not: return x == 0;
    case UnaryOp::IsNan:
    case UnaryOp::IsInf: return 0;
    default: return x;  // floor/ceil/round/trunc of an integer
  }
}

// Python-style floor division of doubles, as torch's div_floor.
double floor_div(double a, double b) {
  if (b == 0.0) return a / b;
  const double mod = std::fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0.0 && (b < 0.0) != (mod < 0.0)) div -= 1.0;
  if (div == 0.0) return std::copysign(0.0, a / b);
  double floordiv = std::floor(div);
  if (div - floordiv > 0.5) floordiv += 1.0;
  return floordiv;
}

double binary_f(ElementwiseOp op, double a, double b) {
  switch (op) {
    case ElementwiseOp::Add: return a + b;
    case ElementwiseOp::Sub: return a - b;
    case ElementwiseOp::Mul: return a * b;
    case ElementwiseOp::Div: return a / b;
    case ElementwiseOp::Pow: return std::pow(a, b);
    case ElementwiseOp::Min: return (std::isnan(a) || std::isnan(b)) ? std::numeric_limits<double>::quiet_NaN() : std::min(a, b);
    case ElementwiseOp::Max: return (std::isnan(a) || std::isnan(b)) ? std::numeric_limits<double>::quiet_NaN() : std::max(a, b);
    case ElementwiseOp::FloorDiv: return floor_div(a, b);
    case ElementwiseOp::TruncDiv: return std::trunc(a / b);
    case ElementwiseOp::Remainder: {
      if (b == 0.0) return std::fmod(a, b);
      double mod = std::fmod(a, b);
      if (mod != 0.0 && (b < 0.0) != (mod < 0.0)) mod += b;
      return mod;
    }
    case ElementwiseOp::Fmod: return std::fmod(a, b);
    case ElementwiseOp::Equal: return a == b;
    case ElementwiseOp::NotEqual: return a != b;
    case ElementwiseOp::Less: return a < b;
    case ElementwiseOp::LessEqual: return a <= b;
    case ElementwiseOp::Greater: return a > b;
    case ElementwiseOp::GreaterEqual: return a >= b;
    case ElementwiseOp::And: return (a != 0.0) && (b != 0.0);
    case ElementwiseOp::Or: return (a != 0.0) || (b != 0.0);
    case ElementwiseOp::Xor: return (a != 0.0) != (b != 0.0);
  }
  return 0.0;
}

std::int64_t int_pow(std::int64_t a, std::int64_t b) {
  if (b < 0) {  // torch: only 1 and -1 survive a negative exponent
    if (a == 1) return 1;
    if (a == -1) return (b % 2) ? -1 : 1;
    return 0;
  }
  std::uint64_t result = 1, base = static_cast<std::uint64_t>(a);
  auto e = static_cast<std::uint64_t>(b);
  while (e) {  // wrapping arithmetic: torch overflows silently too
    if (e & 1u) result *= base;
    base *= base;
    e >>= 1;
  }
  return static_cast<std::int64_t>(result);
}

std::int64_t binary_i(const KernelContext& ctx, ElementwiseOp op, std::int64_t a, std::int64_t b) {
  const auto ua = static_cast<std::uint64_t>(a), ub = static_cast<std::uint64_t>(b);
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  switch (op) {
    case ElementwiseOp::Add: return static_cast<std::int64_t>(ua + ub);
    case ElementwiseOp::Sub: return static_cast<std::int64_t>(ua - ub);
    case ElementwiseOp::Mul: return static_cast<std::int64_t>(ua * ub);
    case ElementwiseOp::Pow: return int_pow(a, b);
    case ElementwiseOp::Min: return std::min(a, b);
    case ElementwiseOp::Max: return std::max(a, b);
    case ElementwiseOp::FloorDiv:
    case ElementwiseOp::TruncDiv:
    case ElementwiseOp::Remainder:
    case ElementwiseOp::Fmod: {
      if (b == 0) ctx.input_error("integer division by zero");
      if (a == kMin && b == -1) {  // the one overflowing case: wraps
        return (op == ElementwiseOp::FloorDiv || op == ElementwiseOp::TruncDiv) ? kMin : 0;
      }
      if (op == ElementwiseOp::TruncDiv) return a / b;
      if (op == ElementwiseOp::Fmod) return a % b;
      if (op == ElementwiseOp::FloorDiv) {
        std::int64_t q = a / b;
        if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
        return q;
      }
      std::int64_t r = a % b;
      if (r != 0 && ((r < 0) != (b < 0))) r += b;
      return r;
    }
    case ElementwiseOp::Equal: return a == b;
    case ElementwiseOp::NotEqual: return a != b;
    case ElementwiseOp::Less: return a < b;
    case ElementwiseOp::LessEqual: return a <= b;
    case ElementwiseOp::Greater: return a > b;
    case ElementwiseOp::GreaterEqual: return a >= b;
    case ElementwiseOp::And: return a != 0 && b != 0;
    case ElementwiseOp::Or: return a != 0 || b != 0;
    case ElementwiseOp::Xor: return (a != 0) != (b != 0);
    case ElementwiseOp::Div: break;  // rejected by shape inference
  }
  ctx.fail("integer " + std::string(elementwise_op_name(op)) + " is not defined");
}

}  // namespace

Outs kernel(const KernelContext& ctx, const ActivationParams& p) {
  const Tensor& x = ctx.in(0);
  if (is_floating(x.dtype())) {
    auto v = load_f64(x);
    for (auto& e : v) e = activate(p.op, e, p.alpha, p.beta);
    return {make_f64(ctx.out().dtype, ctx.out().dims, v)};
  }
  // Integer relu / clip: bounds are converted as torch.clamp does (truncated).
  auto v = load_i64(x);
  for (auto& e : v) {
    if (p.op == ActivationOp::Relu) {
      e = std::max<std::int64_t>(e, 0);
    } else {
      e = std::min(std::max(e, static_cast<std::int64_t>(std::ceil(p.alpha))),
                   static_cast<std::int64_t>(std::floor(p.beta)));
    }
  }
  return {make_i64(ctx.out().dtype, ctx.out().dims, v)};
}

Outs kernel(const KernelContext& ctx, const UnaryParams& p) {
  const Tensor& x = ctx.in(0);
  if (is_floating(x.dtype())) {
    auto v = load_f64(x);
    for (auto& e : v) e = unary_f(p.op, e);
    return {make_f64(ctx.out().dtype, ctx.out().dims, v)};
  }
  if (x.dtype() == DType::Bool && (p.op == UnaryOp::Neg)) ctx.fail("neg of bool is not defined");
  auto v = load_i64(x);
  for (auto& e : v) e = unary_i(p.op, e);
  return {make_i64(ctx.out().dtype, ctx.out().dims, v)};
}

Outs kernel(const KernelContext& ctx, const ElementwiseParams& p) {
  const Dims& out = ctx.out().dims;
  const auto ma = broadcast_map(out, ctx.in(0).sizes());
  const auto mb = broadcast_map(out, ctx.in(1).sizes());
  if (is_floating(ctx.in(0).dtype())) {
    const auto a = load_f64(ctx.in(0));
    const auto b = load_f64(ctx.in(1));
    std::vector<double> y(ma.size());
    for (std::size_t i = 0; i < y.size(); ++i) y[i] = binary_f(p.op, a[ma[i]], b[mb[i]]);
    return {make_f64(ctx.out().dtype, out, y)};
  }
  const auto a = load_i64(ctx.in(0));
  const auto b = load_i64(ctx.in(1));
  std::vector<std::int64_t> y(ma.size());
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = binary_i(ctx, p.op, a[ma[i]], b[mb[i]]);
  return {make_i64(ctx.out().dtype, out, y)};
}

Outs kernel(const KernelContext& ctx, const SelectParams&) {
  const Dims& out = ctx.out().dims;
  const auto mc = broadcast_map(out, ctx.in(0).sizes());
  const auto ma = broadcast_map(out, ctx.in(1).sizes());
  const auto mb = broadcast_map(out, ctx.in(2).sizes());
  const auto c = load_i64(ctx.in(0));
  // Copy raw elements so every dtype (and NaN payloads) passes unchanged.
  const Tensor a = ctx.in(1).contiguous(), b = ctx.in(2).contiguous();
  const std::size_t es = element_size(a.dtype());
  Tensor y(ctx.out().dtype, out);
  std::byte* dst = y.raw_mutable_data();
  for (std::size_t i = 0; i < mc.size(); ++i) {
    const std::byte* src = c[mc[i]] ? a.raw_data() + ma[i] * es : b.raw_data() + mb[i] * es;
    std::memcpy(dst + i * es, src, es);
  }
  return {y};
}

}  // namespace atenrt::reference::detail
