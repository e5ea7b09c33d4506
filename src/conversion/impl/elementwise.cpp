#include "conversion/impl/elementwise.h"

#include <cmath>
#include <numbers>
#include <vector>

#include "atenrt/errors.h"

namespace atenrt::conversion::impl::elementwise {

namespace {
std::string op_text(ElementwiseOp op) { return std::string(network::elementwise_op_name(op)); }
}  // namespace

NetworkTensor* arithmetic(const Scope& s, const Operand& a, const Operand& b, ElementwiseOp op) {
  check(!(a.is_scalar() && b.is_scalar()), op_text(op) + " of two numbers has no tensor operand");
  const DType dt = result_type(a, b);
  if (dt == DType::Bool) {
    if (op == ElementwiseOp::Add) op = ElementwiseOp::Or;
    else if (op == ElementwiseOp::Mul) op = ElementwiseOp::And;
    else if (op != ElementwiseOp::Min && op != ElementwiseOp::Max) {
      throw UnsupportedError(op_text(op) + " of bool tensors is not defined in PyTorch");
    }
  }
  auto* ta = as_tensor(s, a, dt);
  auto* tb = as_tensor(s, b, dt);
  return s.add_elementwise("", ta, tb, op);
}

namespace {
// b * alpha, folded into the number when b is one.
Operand scaled(const Scope& s, const Operand& a, const Operand& b, const Scalar& alpha) {
  if (alpha.f == 1.0 && alpha.kind != Scalar::Kind::Bool) return b;
  if (b.is_scalar()) {
    const Scalar v = *b.scalar;
    if (v.is_float() || alpha.is_float()) return {nullptr, Scalar::of_float(v.f * alpha.f)};
    return {nullptr, Scalar::of_int(v.i * alpha.i)};
  }
  const DType dt = result_type(a, b);
  auto* tb = cast(s, b.tensor, dt);
  return {ew(s, tb, scalar_constant(s, alpha, dt), ElementwiseOp::Mul), std::nullopt};
}
}  // namespace

NetworkTensor* add(const Scope& s, const Operand& a, const Operand& b, const Scalar& alpha) {
  return arithmetic(s, a, scaled(s, a, b, alpha), ElementwiseOp::Add);
}

NetworkTensor* sub(const Scope& s, const Operand& a, const Operand& b, const Scalar& alpha) {
  return arithmetic(s, a, scaled(s, a, b, alpha), ElementwiseOp::Sub);
}

NetworkTensor* mul(const Scope& s, const Operand& a, const Operand& b) {
  return arithmetic(s, a, b, ElementwiseOp::Mul);
}

NetworkTensor* div(const Scope& s, const Operand& a,
                   const Operand& b, std::optional<std::string> rounding_mode) {
  if (!rounding_mode) {
    DType dt = result_type(a, b);
    if (!is_floating(dt)) dt = DType::Float32;
    auto* ta = as_tensor(s, a, dt);
    auto* tb = as_tensor(s, b, dt);
    return s.add_elementwise("", ta, tb, ElementwiseOp::Div);
  }
  if (*rounding_mode == "trunc") return arithmetic(s, a, b, ElementwiseOp::TruncDiv);
  if (*rounding_mode == "floor") return arithmetic(s, a, b, ElementwiseOp::FloorDiv);
  throw UnsupportedError("div rounding_mode='" + *rounding_mode + "' (expected 'trunc' or 'floor')");
}

NetworkTensor* pow(const Scope& s, const Operand& a, const Operand& b) {
  return arithmetic(s, a, b, ElementwiseOp::Pow);
}

NetworkTensor* atan2(const Scope& s, const Operand& a, const Operand& b) {
  DType dt = result_type(a, b);
  if (!is_floating(dt)) dt = DType::Float32;
  auto* y = as_tensor(s, a, dt);
  auto* x = as_tensor(s, b, dt);
  // atan(y / x), moved to the right half-plane's complement when x < 0;
  // atan2(±0, +0) = ±0 (y / x is NaN there).
  auto* base = s.add_unary("atan", ew(s, y, x, ElementwiseOp::Div), network::UnaryOp::Atan);
  auto* y_nonneg = ew_scalar(s, y, 0.0, ElementwiseOp::GreaterEqual);
  auto* pi = scalar_constant(s, std::numbers::pi, dt);
  auto* minus_pi = scalar_constant(s, -std::numbers::pi, dt);
  auto* shift = s.add_select("shift", y_nonneg, pi, minus_pi);
  auto* x_neg = ew_scalar(s, x, 0.0, ElementwiseOp::Less);
  auto* shifted = ew(s, base, shift, ElementwiseOp::Add);
  auto* r = s.add_select("quadrant", x_neg, shifted, base);
  auto* both_zero = ew(s, ew_scalar(s, x, 0.0, ElementwiseOp::Equal),
                       ew_scalar(s, y, 0.0, ElementwiseOp::Equal), ElementwiseOp::And);
  return s.add_select("", both_zero, ew_scalar(s, y, 0.0, ElementwiseOp::Mul), r);
}

NetworkTensor* compare(const Scope& s, const Operand& a, const Operand& b, ElementwiseOp op) {
  check(!(a.is_scalar() && b.is_scalar()), op_text(op) + " of two numbers has no tensor operand");
  const DType dt = result_type(a, b);
  return s.add_elementwise("", as_tensor(s, a, dt), as_tensor(s, b, dt), op);
}

NetworkTensor* bitwise(const Scope& s, const Operand& a, const Operand& b, ElementwiseOp op,
                       std::optional<DType> out) {
  const DType dt = out.value_or(result_type(a, b));
  if (dt == DType::Bool) return logical(s, a, b, op);  // the same on bools
  check(is_integral(dt), "bitwise " + std::string(network::elementwise_op_name(op)) + " of " +
                             std::string(dtype_name(dt)) + " is not defined (integer and bool tensors only)");
  const ElementwiseOp bit = op == ElementwiseOp::And ? ElementwiseOp::BitAnd
                            : op == ElementwiseOp::Or ? ElementwiseOp::BitOr
                                                      : ElementwiseOp::BitXor;
  return s.add_elementwise("", as_tensor(s, a, dt), as_tensor(s, b, dt), bit);
}

NetworkTensor* shift(const Scope& s, const Operand& a, const Operand& b, bool left, std::optional<DType> out) {
  const char* name = left ? "bitwise_left_shift" : "bitwise_right_shift";
  check(!(a.is_scalar() && b.is_scalar()), std::string(name) + " of two numbers has no tensor operand");
  const DType dt = out.value_or(result_type(a, b));
  check(is_integral(dt), std::string(name) + " of " + std::string(dtype_name(dt)) +
                             " is not defined (torch 1.13 shifts integer tensors only)");
  Operand count = b;
  if (b.is_scalar()) {
    // torch casts the number to the dtype (wrapping), then the shift masks it:
    // the low 5 (6 for int64) bits are all that count, and they survive both.
    count.scalar = Scalar::of_int(b.scalar->i & (element_size(dt) == 8 ? 63 : 31));
  }
  return s.add_elementwise("", as_tensor(s, a, dt), as_tensor(s, count, dt),
                           left ? ElementwiseOp::ShiftLeft : ElementwiseOp::ShiftRight);
}

NetworkTensor* logical(const Scope& s, const Operand& a, const Operand& b, ElementwiseOp op) {
  // Non-zero is true in both inputs: compare in bool.
  auto* ta = as_tensor(s, a, DType::Bool);
  auto* tb = as_tensor(s, b, DType::Bool);
  return s.add_elementwise("", ta, tb, op);
}

NetworkTensor* clamp(const Scope& s, const Operand& x,
                     const std::optional<Operand>& min, const std::optional<Operand>& max) {
  check(min || max, "clamp needs at least one of min and max");
  std::vector<Operand> ops{x};
  if (min) ops.push_back(*min);
  if (max) ops.push_back(*max);
  const DType dt = result_type(ops);
  NetworkTensor* y = as_tensor(s, x, dt);
  if (min) y = s.add_elementwise(max ? "min" : "", y, as_tensor(s, *min, dt), ElementwiseOp::Max);
  if (max) y = s.add_elementwise("", y, as_tensor(s, *max, dt), ElementwiseOp::Min);
  return y;
}

}  // namespace atenrt::conversion::impl::elementwise
