// Reference kernels: activation, unary and elementwise binary ops.
#include <cmath>
#include <cstring>
#include <limits>

#include "reference/kernels.h"
#include "reference/scalar_math.h"

namespace atenrt::reference::detail {

namespace {

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

std::int64_t binary_i(const KernelContext& ctx, ElementwiseOp op, std::int64_t a, std::int64_t b, DType dtype) {
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
    case ElementwiseOp::BitAnd: return a & b;
    case ElementwiseOp::BitOr: return a | b;
    case ElementwiseOp::BitXor: return a ^ b;
    case ElementwiseOp::ShiftLeft:
    case ElementwiseOp::ShiftRight: return math::shift(op, a, b, element_size(dtype));
    case ElementwiseOp::Div: break;  // rejected by shape inference
    default: {
      if (const auto c = math::compare(op, a, b)) return *c;
      break;
    }
  }
  ctx.fail("integer " + std::string(elementwise_op_name(op)) + " is not defined");
}

}  // namespace

Outs kernel(const KernelContext& ctx, const ActivationParams& p) {
  const Tensor& x = ctx.in(0);
  if (is_floating(x.dtype())) {
    auto v = load_f64(x);
    for (auto& e : v) e = math::activate(p.op, e, p.alpha, p.beta);
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
    for (auto& e : v) e = math::unary_in(x.dtype(), p.op, e);
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
    const DType dt = ctx.in(0).dtype();
    for (std::size_t i = 0; i < y.size(); ++i) y[i] = math::binary_in(dt, p.op, a[ma[i]], b[mb[i]]);
    return {make_f64(ctx.out().dtype, out, y)};
  }
  const auto a = load_i64(ctx.in(0));
  const auto b = load_i64(ctx.in(1));
  std::vector<std::int64_t> y(ma.size());
  const DType dtype = ctx.in(0).dtype();
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = binary_i(ctx, p.op, a[ma[i]], b[mb[i]], dtype);
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
