// Binary elementwise converters (arithmetic, comparison, logical, clamp).
#include "conversion/aten_ops/common.h"
#include "conversion/impl/elementwise.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace ew = impl::elementwise;
using network::ElementwiseOp;
constexpr const char* kFamily = "elementwise";

Scalar alpha(const NodeArgs& args) { return args.opt_scalar("alpha").value_or(Scalar::of_int(1)); }

Outputs binary(ConversionContext& ctx, const NodeArgs& args, const char* a, const char* b, ElementwiseOp op) {
  return one(ew::arithmetic(ctx, SourceIR::ATen, args.name(), args.operand(a), args.operand(b), op));
}
Outputs comparison(ConversionContext& ctx, const NodeArgs& args, ElementwiseOp op) {
  return one(ew::compare(ctx, SourceIR::ATen, args.name(), args.operand("self"), args.operand("other"), op));
}
Outputs logical(ConversionContext& ctx, const NodeArgs& args, ElementwiseOp op) {
  return one(ew::logical(ctx, SourceIR::ATen, args.name(), args.operand("self"), args.operand("other"), op));
}
Outputs clamp(ConversionContext& ctx, const NodeArgs& args) {
  std::optional<Operand> lo, hi;
  if (!args.is_none("min")) lo = args.operand("min");
  if (!args.is_none("max")) hi = args.operand("max");
  return one(ew::clamp(ctx, SourceIR::ATen, args.name(), args.operand("self"), lo, hi));
}
Capability clamp_bound(const NodeView& node, const ConversionSettings&) {
  if (node.is_none("min") && node.is_none("max")) return Capability::no("clamp needs min or max (both are None)");
  return Capability::yes();
}
Outputs divide(ConversionContext& ctx, const NodeArgs& args) {
  return one(ew::div(ctx, SourceIR::ATen, args.name(), args.operand("self"), args.operand("other"),
                     args.has("rounding_mode") ? args.opt_str("rounding_mode") : std::nullopt));
}
Capability rounding_mode(const NodeView& node, const ConversionSettings&) {
  const auto m = node.literal_string("rounding_mode");
  if (m && *m != "trunc" && *m != "floor") return Capability::no("rounding_mode='" + *m + "' is not 'trunc' or 'floor'");
  return Capability::yes();
}

constexpr bool kDyn = true;

ATENRT_CONVERTER("aten.add.Tensor", .supports_dynamic_shapes = kDyn) {
  return one(ew::add(ctx, SourceIR::ATen, args.name(), args.operand("self"), args.operand("other"), alpha(args)));
}
ATENRT_CONVERTER("aten.add.Scalar", .supports_dynamic_shapes = kDyn) {
  return one(ew::add(ctx, SourceIR::ATen, args.name(), args.operand("self"), args.operand("other"), alpha(args)));
}
ATENRT_CONVERTER("aten.sub.Tensor", .supports_dynamic_shapes = kDyn) {
  return one(ew::sub(ctx, SourceIR::ATen, args.name(), args.operand("self"), args.operand("other"), alpha(args)));
}
ATENRT_CONVERTER("aten.sub.Scalar", .supports_dynamic_shapes = kDyn) {
  return one(ew::sub(ctx, SourceIR::ATen, args.name(), args.operand("self"), args.operand("other"), alpha(args)));
}
// rsub(self, other, alpha) = other - alpha * self
ATENRT_CONVERTER("aten.rsub.Tensor", .supports_dynamic_shapes = kDyn) {
  return one(ew::sub(ctx, SourceIR::ATen, args.name(), args.operand("other"), args.operand("self"), alpha(args)));
}
ATENRT_CONVERTER("aten.rsub.Scalar", .supports_dynamic_shapes = kDyn) {
  return one(ew::sub(ctx, SourceIR::ATen, args.name(), args.operand("other"), args.operand("self"), alpha(args)));
}
ATENRT_CONVERTER("aten.mul.Tensor", .supports_dynamic_shapes = kDyn) { return binary(ctx, args, "self", "other", ElementwiseOp::Mul); }
ATENRT_CONVERTER("aten.mul.Scalar", .supports_dynamic_shapes = kDyn) { return binary(ctx, args, "self", "other", ElementwiseOp::Mul); }
ATENRT_CONVERTER("aten.div.Tensor", .supports_dynamic_shapes = kDyn) { return divide(ctx, args); }
ATENRT_CONVERTER("aten.div.Scalar", .supports_dynamic_shapes = kDyn) { return divide(ctx, args); }
ATENRT_CONVERTER("aten.div.Tensor_mode", .validator = rounding_mode, .supports_dynamic_shapes = kDyn) { return divide(ctx, args); }
ATENRT_CONVERTER("aten.div.Scalar_mode", .validator = rounding_mode, .supports_dynamic_shapes = kDyn) { return divide(ctx, args); }
ATENRT_CONVERTER("aten.true_divide.Tensor", .supports_dynamic_shapes = kDyn) { return divide(ctx, args); }
// prims.div: true division for floats, truncating for integers.
ATENRT_CONVERTER("prims.div.default", .supports_dynamic_shapes = kDyn) {
  const Operand a = args.operand("self"), b = args.operand("other");
  const DType dt = impl::result_type(a, b);
  return one(ew::div(ctx, SourceIR::Prims, args.name(), a, b,
                     is_floating(dt) ? std::nullopt : std::optional<std::string>("trunc")));
}
ATENRT_CONVERTER("aten.floor_divide.default", .supports_dynamic_shapes = kDyn) { return binary(ctx, args, "self", "other", ElementwiseOp::FloorDiv); }
ATENRT_CONVERTER("aten.floor_divide.Scalar", .supports_dynamic_shapes = kDyn) { return binary(ctx, args, "self", "other", ElementwiseOp::FloorDiv); }
ATENRT_CONVERTER("aten.fmod.Tensor", .supports_dynamic_shapes = kDyn) { return binary(ctx, args, "self", "other", ElementwiseOp::Fmod); }
ATENRT_CONVERTER("aten.fmod.Scalar", .supports_dynamic_shapes = kDyn) { return binary(ctx, args, "self", "other", ElementwiseOp::Fmod); }
ATENRT_CONVERTER("aten.remainder.Tensor", .supports_dynamic_shapes = kDyn) { return binary(ctx, args, "self", "other", ElementwiseOp::Remainder); }
ATENRT_CONVERTER("aten.remainder.Scalar", .supports_dynamic_shapes = kDyn) { return binary(ctx, args, "self", "other", ElementwiseOp::Remainder); }
ATENRT_CONVERTER("aten.remainder.Scalar_Tensor", .supports_dynamic_shapes = kDyn) { return binary(ctx, args, "self", "other", ElementwiseOp::Remainder); }
ATENRT_CONVERTER("aten.pow.Tensor_Tensor", .supports_dynamic_shapes = kDyn) { return binary(ctx, args, "self", "exponent", ElementwiseOp::Pow); }
ATENRT_CONVERTER("aten.pow.Tensor_Scalar", .supports_dynamic_shapes = kDyn) { return binary(ctx, args, "self", "exponent", ElementwiseOp::Pow); }
ATENRT_CONVERTER("aten.pow.Scalar", .supports_dynamic_shapes = kDyn) { return binary(ctx, args, "self", "exponent", ElementwiseOp::Pow); }
ATENRT_CONVERTER("aten.maximum.default", .supports_dynamic_shapes = kDyn) { return binary(ctx, args, "self", "other", ElementwiseOp::Max); }
ATENRT_CONVERTER("aten.minimum.default", .supports_dynamic_shapes = kDyn) { return binary(ctx, args, "self", "other", ElementwiseOp::Min); }
ATENRT_CONVERTER("aten.atan2.default", .supports_dynamic_shapes = kDyn) {
  return one(ew::atan2(ctx, SourceIR::ATen, args.name(), args.operand("self"), args.operand("other")));
}
ATENRT_CONVERTER("aten.atan2.out", .validator = refuse_out_variant) {
  return one(ew::atan2(ctx, SourceIR::ATen, args.name(), args.operand("self"), args.operand("other")));
}

ATENRT_CONVERTER("aten.eq.Tensor", .supports_dynamic_shapes = kDyn) { return comparison(ctx, args, ElementwiseOp::Equal); }
ATENRT_CONVERTER("aten.eq.Scalar", .supports_dynamic_shapes = kDyn) { return comparison(ctx, args, ElementwiseOp::Equal); }
ATENRT_CONVERTER("aten.ne.Tensor", .supports_dynamic_shapes = kDyn) { return comparison(ctx, args, ElementwiseOp::NotEqual); }
ATENRT_CONVERTER("aten.ne.Scalar", .supports_dynamic_shapes = kDyn) { return comparison(ctx, args, ElementwiseOp::NotEqual); }
ATENRT_CONVERTER("aten.lt.Tensor", .supports_dynamic_shapes = kDyn) { return comparison(ctx, args, ElementwiseOp::Less); }
ATENRT_CONVERTER("aten.lt.Scalar", .supports_dynamic_shapes = kDyn) { return comparison(ctx, args, ElementwiseOp::Less); }
ATENRT_CONVERTER("aten.le.Tensor", .supports_dynamic_shapes = kDyn) { return comparison(ctx, args, ElementwiseOp::LessEqual); }
ATENRT_CONVERTER("aten.le.Scalar", .supports_dynamic_shapes = kDyn) { return comparison(ctx, args, ElementwiseOp::LessEqual); }
ATENRT_CONVERTER("aten.gt.Tensor", .supports_dynamic_shapes = kDyn) { return comparison(ctx, args, ElementwiseOp::Greater); }
ATENRT_CONVERTER("aten.gt.Scalar", .supports_dynamic_shapes = kDyn) { return comparison(ctx, args, ElementwiseOp::Greater); }
ATENRT_CONVERTER("aten.ge.Tensor", .supports_dynamic_shapes = kDyn) { return comparison(ctx, args, ElementwiseOp::GreaterEqual); }
ATENRT_CONVERTER("aten.ge.Scalar", .supports_dynamic_shapes = kDyn) { return comparison(ctx, args, ElementwiseOp::GreaterEqual); }

ATENRT_CONVERTER("aten.logical_and.default", .supports_dynamic_shapes = kDyn) { return logical(ctx, args, ElementwiseOp::And); }
ATENRT_CONVERTER("aten.logical_or.default", .supports_dynamic_shapes = kDyn) { return logical(ctx, args, ElementwiseOp::Or); }
ATENRT_CONVERTER("aten.logical_xor.default", .supports_dynamic_shapes = kDyn) { return logical(ctx, args, ElementwiseOp::Xor); }
// Bitwise ops equal the logical ones on bool; integers have no layer.
ATENRT_CONVERTER("aten.bitwise_and.Tensor", .validator = requires_bool({"self", "other"}), .supports_dynamic_shapes = kDyn) { return logical(ctx, args, ElementwiseOp::And); }
ATENRT_CONVERTER("aten.bitwise_and.Scalar", .validator = requires_bool({"self"}), .supports_dynamic_shapes = kDyn) { return logical(ctx, args, ElementwiseOp::And); }
ATENRT_CONVERTER("aten.bitwise_and.Scalar_Tensor", .validator = requires_bool({"other"}), .supports_dynamic_shapes = kDyn) { return logical(ctx, args, ElementwiseOp::And); }
ATENRT_CONVERTER("aten.bitwise_or.Tensor", .validator = requires_bool({"self", "other"}), .supports_dynamic_shapes = kDyn) { return logical(ctx, args, ElementwiseOp::Or); }
ATENRT_CONVERTER("aten.bitwise_or.Scalar", .validator = requires_bool({"self"}), .supports_dynamic_shapes = kDyn) { return logical(ctx, args, ElementwiseOp::Or); }
ATENRT_CONVERTER("aten.bitwise_or.Scalar_Tensor", .validator = requires_bool({"other"}), .supports_dynamic_shapes = kDyn) { return logical(ctx, args, ElementwiseOp::Or); }
ATENRT_CONVERTER("aten.bitwise_xor.Tensor", .validator = requires_bool({"self", "other"}), .supports_dynamic_shapes = kDyn) { return logical(ctx, args, ElementwiseOp::Xor); }
ATENRT_CONVERTER("aten.bitwise_xor.Scalar", .validator = requires_bool({"self"}), .supports_dynamic_shapes = kDyn) { return logical(ctx, args, ElementwiseOp::Xor); }
ATENRT_CONVERTER("aten.bitwise_xor.Scalar_Tensor", .validator = requires_bool({"other"}), .supports_dynamic_shapes = kDyn) { return logical(ctx, args, ElementwiseOp::Xor); }

ATENRT_CONVERTER("aten.clamp.default", .validator = clamp_bound, .supports_dynamic_shapes = kDyn) { return clamp(ctx, args); }
ATENRT_CONVERTER("aten.clamp.Tensor", .validator = clamp_bound, .supports_dynamic_shapes = kDyn) { return clamp(ctx, args); }
ATENRT_CONVERTER("aten.clip.default", .validator = clamp_bound, .supports_dynamic_shapes = kDyn) { return clamp(ctx, args); }
ATENRT_CONVERTER("aten.clip.Tensor", .validator = clamp_bound, .supports_dynamic_shapes = kDyn) { return clamp(ctx, args); }
ATENRT_CONVERTER("aten.clamp_min.default", .supports_dynamic_shapes = kDyn) {
  return one(ew::clamp(ctx, SourceIR::ATen, args.name(), args.operand("self"), args.operand("min"), std::nullopt));
}
ATENRT_CONVERTER("aten.clamp_max.default", .supports_dynamic_shapes = kDyn) {
  return one(ew::clamp(ctx, SourceIR::ATen, args.name(), args.operand("self"), std::nullopt, args.operand("max")));
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
