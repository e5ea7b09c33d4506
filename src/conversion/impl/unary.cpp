#include "conversion/impl/unary.h"

#include "atenrt/errors.h"

namespace atenrt::conversion::impl::unary {


NetworkTensor* unary(ConversionContext& ctx, SourceIR, std::string_view name, NetworkTensor* x, UnaryOp op) {
  if (x->dtype == DType::Bool) {
    if (op == UnaryOp::Neg) throw UnsupportedError("negation of a bool tensor is not defined in PyTorch");
    if (op == UnaryOp::Floor || op == UnaryOp::Ceil || op == UnaryOp::Round || op == UnaryOp::Trunc ||
        op == UnaryOp::Abs) {
      return identity(ctx, name, x);  // torch returns the bool values unchanged
    }
    if (op == UnaryOp::Sign) return cast(ctx, name, x, DType::Bool);
  }
  const bool int_ok = network::unary_takes_integers(op);
  if (!is_floating(x->dtype) && !int_ok) x = cast(ctx, name, x, DType::Float32);
  if (x->dtype == DType::Bool && op != UnaryOp::Not && op != UnaryOp::IsNan && op != UnaryOp::IsInf) {
    x = cast(ctx, name, x, DType::UInt8);
  }
  if (!is_floating(x->dtype) && (op == UnaryOp::Floor || op == UnaryOp::Ceil || op == UnaryOp::Round ||
                                 op == UnaryOp::Trunc)) {
    return identity(ctx, name, x);  // integers are already whole
  }
  return ctx.net().add_unary(ctx.layer_name(name), x, op);
}

NetworkTensor* logical_not(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x) {
  return unary(ctx, src, name, x, UnaryOp::Not);
}

NetworkTensor* bitwise_not(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x) {
  check(x->dtype == DType::Bool, "bitwise_not of " + std::string(dtype_name(x->dtype)) +
                                     " is not supported (only bool)");
  return unary(ctx, src, name, x, UnaryOp::Not);
}

NetworkTensor* square(ConversionContext& ctx, SourceIR, std::string_view name, NetworkTensor* x) {
  if (x->dtype == DType::Bool) x = cast(ctx, name, x, DType::Int64);
  return ctx.net().add_elementwise(ctx.layer_name(name), x, x, network::ElementwiseOp::Mul);
}

}  // namespace atenrt::conversion::impl::unary
