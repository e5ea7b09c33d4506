#include "conversion/impl/elementwise.h"

#include <cmath>
#include <numbers>
#include <vector>

#include "atenrt/errors.h"

namespace atenrt::conversion::impl::elementwise {

namespace {
std::string op_text(ElementwiseOp op) { return std::string(network::elementwise_op_name(op)); }
}  // namespace

NetworkTensor* arithmetic(ConversionContext& ctx, SourceIR, std::string_view name, const Operand& a,
                          const Operand& b, ElementwiseOp op) {
  check(!(a.is_scalar() && b.is_scalar()), op_text(op) + " of two numbers has no tensor operand");
  const DType dt = result_type(a, b);
  if (dt == DType::Bool) {
    if (op == ElementwiseOp::Add) op = ElementwiseOp::Or;
    else if (op == ElementwiseOp::Mul) op = ElementwiseOp::And;
    else if (op != ElementwiseOp::Min && op != ElementwiseOp::Max) {
      throw UnsupportedError(op_text(op) + " of bool tensors is not defined in PyTorch");
    }
  }
  auto* ta = as_tensor(ctx, name, a, dt);
  auto* tb = as_tensor(ctx, name, b, dt);
  return ctx.net().add_elementwise(ctx.layer_name(name), ta, tb, op);
}

namespace {
// b * alpha, folded into the number when b is one.
Operand scaled(ConversionContext& ctx, std::string_view name, const Operand& a, const Operand& b,
               const Scalar& alpha) {
  if (alpha.f == 1.0 && alpha.kind != Scalar::Kind::Bool) return b;
  if (b.is_scalar()) {
    Scalar s = *b.scalar;
    if (s.is_float() || alpha.is_float()) return {nullptr, Scalar::of_float(s.f * alpha.f)};
    return {nullptr, Scalar::of_int(s.i * alpha.i)};
  }
  const DType dt = result_type(a, b);
  auto* tb = cast(ctx, name, b.tensor, dt);
  return {ew(ctx, name, tb, scalar_constant(ctx, name, alpha, dt), ElementwiseOp::Mul), std::nullopt};
}
}  // namespace

NetworkTensor* add(ConversionContext& ctx, SourceIR src, std::string_view name, const Operand& a,
                   const Operand& b, const Scalar& alpha) {
  return arithmetic(ctx, src, name, a, scaled(ctx, name, a, b, alpha), ElementwiseOp::Add);
}

NetworkTensor* sub(ConversionContext& ctx, SourceIR src, std::string_view name, const Operand& a,
                   const Operand& b, const Scalar& alpha) {
  return arithmetic(ctx, src, name, a, scaled(ctx, name, a, b, alpha), ElementwiseOp::Sub);
}

NetworkTensor* mul(ConversionContext& ctx, SourceIR src, std::string_view name, const Operand& a,
                   const Operand& b) {
  return arithmetic(ctx, src, name, a, b, ElementwiseOp::Mul);
}

NetworkTensor* div(ConversionContext& ctx, SourceIR src, std::string_view name, const Operand& a,
                   const Operand& b, std::optional<std::string> rounding_mode) {
  if (!rounding_mode) {
    DType dt = result_type(a, b);
    if (!is_floating(dt)) dt = DType::Float32;
    auto* ta = as_tensor(ctx, name, a, dt);
    auto* tb = as_tensor(ctx, name, b, dt);
    return ctx.net().add_elementwise(ctx.layer_name(name), ta, tb, ElementwiseOp::Div);
  }
  if (*rounding_mode == "trunc") return arithmetic(ctx, src, name, a, b, ElementwiseOp::TruncDiv);
  if (*rounding_mode == "floor") return arithmetic(ctx, src, name, a, b, ElementwiseOp::FloorDiv);
  throw UnsupportedError("div rounding_mode='" + *rounding_mode + "' (expected 'trunc' or 'floor')");
}

NetworkTensor* pow(ConversionContext& ctx, SourceIR src, std::string_view name, const Operand& a,
                   const Operand& b) {
  return arithmetic(ctx, src, name, a, b, ElementwiseOp::Pow);
}

NetworkTensor* atan2(ConversionContext& ctx, SourceIR, std::string_view name, const Operand& a,
                     const Operand& b) {
  DType dt = result_type(a, b);
  if (!is_floating(dt)) dt = DType::Float32;
  auto* y = as_tensor(ctx, name, a, dt);
  auto* x = as_tensor(ctx, name, b, dt);
  auto& net = ctx.net();
  // atan(y / x), moved to the right half-plane's complement when x < 0;
  // atan2(±0, +0) = ±0 (y / x is NaN there).
  auto* base = net.add_unary(ctx.layer_name(name, "atan"), ew(ctx, name, y, x, ElementwiseOp::Div),
                             network::UnaryOp::Atan);
  auto* y_nonneg = ew_scalar(ctx, name, y, 0.0, ElementwiseOp::GreaterEqual);
  auto* pi = scalar_constant(ctx, name, std::numbers::pi, dt);
  auto* minus_pi = scalar_constant(ctx, name, -std::numbers::pi, dt);
  auto* shift = net.add_select(ctx.layer_name(name, "shift"), y_nonneg, pi, minus_pi);
  auto* x_neg = ew_scalar(ctx, name, x, 0.0, ElementwiseOp::Less);
  auto* shifted = ew(ctx, name, base, shift, ElementwiseOp::Add);
  auto* r = net.add_select(ctx.layer_name(name, "quadrant"), x_neg, shifted, base);
  auto* both_zero = ew(ctx, name, ew_scalar(ctx, name, x, 0.0, ElementwiseOp::Equal),
                       ew_scalar(ctx, name, y, 0.0, ElementwiseOp::Equal), ElementwiseOp::And);
  return net.add_select(ctx.layer_name(name), both_zero, ew_scalar(ctx, name, y, 0.0, ElementwiseOp::Mul), r);
}

NetworkTensor* compare(ConversionContext& ctx, SourceIR, std::string_view name, const Operand& a,
                       const Operand& b, ElementwiseOp op) {
  check(!(a.is_scalar() && b.is_scalar()), op_text(op) + " of two numbers has no tensor operand");
  const DType dt = result_type(a, b);
  return ctx.net().add_elementwise(ctx.layer_name(name), as_tensor(ctx, name, a, dt), as_tensor(ctx, name, b, dt),
                                   op);
}

NetworkTensor* logical(ConversionContext& ctx, SourceIR, std::string_view name, const Operand& a,
                       const Operand& b, ElementwiseOp op) {
  // Non-zero is true in both inputs: compare in bool.
  auto* ta = as_tensor(ctx, name, a, DType::Bool);
  auto* tb = as_tensor(ctx, name, b, DType::Bool);
  return ctx.net().add_elementwise(ctx.layer_name(name), ta, tb, op);
}

NetworkTensor* clamp(ConversionContext& ctx, SourceIR, std::string_view name, const Operand& x,
                     const std::optional<Operand>& min, const std::optional<Operand>& max) {
  check(min || max, "clamp needs at least one of min and max");
  std::vector<Operand> ops{x};
  if (min) ops.push_back(*min);
  if (max) ops.push_back(*max);
  const DType dt = result_type(ops);
  NetworkTensor* y = as_tensor(ctx, name, x, dt);
  if (min) y = ctx.net().add_elementwise(ctx.layer_name(name, max ? "min" : ""), y, as_tensor(ctx, name, *min, dt),
                                         ElementwiseOp::Max);
  if (max) y = ctx.net().add_elementwise(ctx.layer_name(name), y, as_tensor(ctx, name, *max, dt), ElementwiseOp::Min);
  return y;
}

}  // namespace atenrt::conversion::impl::elementwise
