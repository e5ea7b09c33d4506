// Binary elementwise converters (arithmetic, comparison, logical, clamp).
#include "conversion/aten_ops/common.h"
#include "conversion/impl/elementwise.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace ew = impl::elementwise;
using network::ElementwiseOp;
constexpr Family kFamily{.name = "elementwise", .supports_dynamic_shapes = true};

Scalar alpha(const NodeArgs& args) { return args.opt_scalar("alpha").value_or(Scalar::of_int(1)); }

Outputs binary(const Scope& s, const NodeArgs& args, const char* a, const char* b, ElementwiseOp op) {
  return one(ew::arithmetic(s, args.operand(a), args.operand(b), op));
}
Outputs comparison(const Scope& s, const NodeArgs& args, ElementwiseOp op) {
  return one(ew::compare(s, args.operand("self"), args.operand("other"), op));
}
Outputs logical(const Scope& s, const NodeArgs& args, ElementwiseOp op) {
  return one(ew::logical(s, args.operand("self"), args.operand("other"), op));
}
Outputs clamp(const Scope& s, const NodeArgs& args) {
  std::optional<Operand> lo, hi;
  if (!args.is_none("min")) lo = args.operand("min");
  if (!args.is_none("max")) hi = args.operand("max");
  return one(ew::clamp(s, args.operand("self"), lo, hi));
}
Capability clamp_bound(const NodeView& node, const ConversionSettings&) {
  if (node.is_none("min") && node.is_none("max")) return Capability::no("clamp needs min or max (both are None)");
  return Capability::yes();
}
Outputs divide(const Scope& s, const NodeArgs& args) {
  return one(ew::div(s, args.operand("self"), args.operand("other"),
                     args.has("rounding_mode") ? args.opt_str("rounding_mode") : std::nullopt));
}
Capability rounding_mode(const NodeView& node, const ConversionSettings&) {
  const auto m = node.literal_string("rounding_mode");
  if (m && *m != "trunc" && *m != "floor") return Capability::no("rounding_mode='" + *m + "' is not 'trunc' or 'floor'");
  return Capability::yes();
}


ATENRT_CONVERTER(kFamily, keys("aten.add.Tensor", "aten.add.Scalar"))(const Scope& s, const NodeArgs& args) {
  return one(ew::add(s, args.operand("self"), args.operand("other"), alpha(args)));
}
ATENRT_CONVERTER(kFamily, keys("aten.sub.Tensor", "aten.sub.Scalar"))(const Scope& s, const NodeArgs& args) {
  return one(ew::sub(s, args.operand("self"), args.operand("other"), alpha(args)));
}
// rsub(self, other, alpha) = other - alpha * self
ATENRT_CONVERTER(kFamily, keys("aten.rsub.Tensor", "aten.rsub.Scalar"))(const Scope& s, const NodeArgs& args) {
  return one(ew::sub(s, args.operand("other"), args.operand("self"), alpha(args)));
}
ATENRT_CONVERTER(kFamily, keys("aten.mul.Tensor", "aten.mul.Scalar"))(const Scope& s, const NodeArgs& args) { return binary(s, args, "self", "other", ElementwiseOp::Mul); }
ATENRT_CONVERTER(kFamily, keys("aten.div.Tensor", "aten.div.Scalar"))(const Scope& s, const NodeArgs& args) { return divide(s, args); }
ATENRT_CONVERTER(kFamily, keys("aten.div.Tensor_mode", "aten.div.Scalar_mode"), .validator = rounding_mode)(const Scope& s, const NodeArgs& args) { return divide(s, args); }
ATENRT_CONVERTER(kFamily, "aten.true_divide.Tensor")(const Scope& s, const NodeArgs& args) { return divide(s, args); }
// prims.div: true division for floats, truncating for integers.
ATENRT_CONVERTER(kFamily, "prims.div.default")(const Scope& s, const NodeArgs& args) {
  const Operand a = args.operand("self"), b = args.operand("other");
  const DType dt = impl::result_type(a, b);
  return one(ew::div(s, a, b, is_floating(dt) ? std::nullopt : std::optional<std::string>("trunc")));
}
ATENRT_CONVERTER(kFamily, keys("aten.floor_divide.default", "aten.floor_divide.Scalar"))(const Scope& s, const NodeArgs& args) { return binary(s, args, "self", "other", ElementwiseOp::FloorDiv); }
ATENRT_CONVERTER(kFamily, keys("aten.fmod.Tensor", "aten.fmod.Scalar"))(const Scope& s, const NodeArgs& args) { return binary(s, args, "self", "other", ElementwiseOp::Fmod); }
ATENRT_CONVERTER(kFamily, keys("aten.remainder.Tensor", "aten.remainder.Scalar", "aten.remainder.Scalar_Tensor"))(const Scope& s, const NodeArgs& args) { return binary(s, args, "self", "other", ElementwiseOp::Remainder); }
ATENRT_CONVERTER(kFamily, keys("aten.pow.Tensor_Tensor", "aten.pow.Tensor_Scalar", "aten.pow.Scalar"))(const Scope& s, const NodeArgs& args) { return binary(s, args, "self", "exponent", ElementwiseOp::Pow); }
ATENRT_CONVERTER(kFamily, "aten.maximum.default")(const Scope& s, const NodeArgs& args) { return binary(s, args, "self", "other", ElementwiseOp::Max); }
ATENRT_CONVERTER(kFamily, "aten.minimum.default")(const Scope& s, const NodeArgs& args) { return binary(s, args, "self", "other", ElementwiseOp::Min); }
ATENRT_CONVERTER(kFamily, "aten.atan2.default")(const Scope& s, const NodeArgs& args) {
  return one(ew::atan2(s, args.operand("self"), args.operand("other")));
}
ATENRT_CONVERTER(kFamily, "aten.atan2.out", .validator = refuse_out_variant, .supports_dynamic_shapes = false)(const Scope& s, const NodeArgs& args) {
  return one(ew::atan2(s, args.operand("self"), args.operand("other")));
}

ATENRT_CONVERTER(kFamily, keys("aten.eq.Tensor", "aten.eq.Scalar"))(const Scope& s, const NodeArgs& args) { return comparison(s, args, ElementwiseOp::Equal); }
ATENRT_CONVERTER(kFamily, keys("aten.ne.Tensor", "aten.ne.Scalar"))(const Scope& s, const NodeArgs& args) { return comparison(s, args, ElementwiseOp::NotEqual); }
ATENRT_CONVERTER(kFamily, keys("aten.lt.Tensor", "aten.lt.Scalar"))(const Scope& s, const NodeArgs& args) { return comparison(s, args, ElementwiseOp::Less); }
ATENRT_CONVERTER(kFamily, keys("aten.le.Tensor", "aten.le.Scalar"))(const Scope& s, const NodeArgs& args) { return comparison(s, args, ElementwiseOp::LessEqual); }
ATENRT_CONVERTER(kFamily, keys("aten.gt.Tensor", "aten.gt.Scalar"))(const Scope& s, const NodeArgs& args) { return comparison(s, args, ElementwiseOp::Greater); }
ATENRT_CONVERTER(kFamily, keys("aten.ge.Tensor", "aten.ge.Scalar"))(const Scope& s, const NodeArgs& args) { return comparison(s, args, ElementwiseOp::GreaterEqual); }

ATENRT_CONVERTER(kFamily, "aten.logical_and.default")(const Scope& s, const NodeArgs& args) { return logical(s, args, ElementwiseOp::And); }
ATENRT_CONVERTER(kFamily, "aten.logical_or.default")(const Scope& s, const NodeArgs& args) { return logical(s, args, ElementwiseOp::Or); }
ATENRT_CONVERTER(kFamily, "aten.logical_xor.default")(const Scope& s, const NodeArgs& args) { return logical(s, args, ElementwiseOp::Xor); }
// Bitwise ops (and Python's & | ^ on tensors: __and__/__or__/__xor__): logical
// on bool, bitwise layers on integers; torch defines neither on floats.
Outputs bitwise(const Scope& s, const NodeArgs& args, ElementwiseOp op) {
  const ir::TensorMeta* out = args.output_meta(0);
  return one(ew::bitwise(s, args.operand("self"), args.operand("other"), op, out ? out->dtype : std::nullopt));
}
ATENRT_CONVERTER(kFamily, keys("aten.bitwise_and.Tensor", "aten.__and__.Tensor", "aten.bitwise_and.Scalar", "aten.__and__.Scalar",
                               "aten.bitwise_and.Scalar_Tensor"), .validator = requires_integer_or_bool({"self", "other"}))
(const Scope& s, const NodeArgs& args) { return bitwise(s, args, ElementwiseOp::And); }
ATENRT_CONVERTER(kFamily, keys("aten.bitwise_or.Tensor", "aten.__or__.Tensor", "aten.bitwise_or.Scalar", "aten.__or__.Scalar",
                               "aten.bitwise_or.Scalar_Tensor"), .validator = requires_integer_or_bool({"self", "other"}))
(const Scope& s, const NodeArgs& args) { return bitwise(s, args, ElementwiseOp::Or); }
ATENRT_CONVERTER(kFamily, keys("aten.bitwise_xor.Tensor", "aten.__xor__.Tensor", "aten.bitwise_xor.Scalar", "aten.__xor__.Scalar",
                               "aten.bitwise_xor.Scalar_Tensor"), .validator = requires_integer_or_bool({"self", "other"}))
(const Scope& s, const NodeArgs& args) { return bitwise(s, args, ElementwiseOp::Xor); }

// Bit shifts (and Python's << >> on tensors): integers only, with torch 1.13's
// x86 results for counts at or past the width and negative counts.
Outputs shift(const Scope& s, const NodeArgs& args, bool left) {
  const ir::TensorMeta* out = args.output_meta(0);
  return one(ew::shift(s, args.operand("self"), args.operand("other"), left, out ? out->dtype : std::nullopt));
}
ATENRT_CONVERTER(kFamily, keys("aten.bitwise_left_shift.Tensor", "aten.bitwise_left_shift.Tensor_Scalar",
                               "aten.bitwise_left_shift.Scalar_Tensor", "aten.__lshift__.Tensor", "aten.__lshift__.Scalar"),
                 .validator = requires_integer({"self", "other"}))
(const Scope& s, const NodeArgs& args) { return shift(s, args, true); }
ATENRT_CONVERTER(kFamily, keys("aten.bitwise_right_shift.Tensor", "aten.bitwise_right_shift.Tensor_Scalar",
                               "aten.bitwise_right_shift.Scalar_Tensor", "aten.__rshift__.Tensor", "aten.__rshift__.Scalar"),
                 .validator = requires_integer({"self", "other"}))
(const Scope& s, const NodeArgs& args) { return shift(s, args, false); }

ATENRT_CONVERTER(kFamily, keys("aten.clamp.default", "aten.clamp.Tensor", "aten.clip.default", "aten.clip.Tensor"), .validator = clamp_bound)(const Scope& s, const NodeArgs& args) { return clamp(s, args); }
ATENRT_CONVERTER(kFamily, "aten.clamp_min.default")(const Scope& s, const NodeArgs& args) {
  return one(ew::clamp(s, args.operand("self"), args.operand("min"), std::nullopt));
}
ATENRT_CONVERTER(kFamily, "aten.clamp_max.default")(const Scope& s, const NodeArgs& args) {
  return one(ew::clamp(s, args.operand("self"), std::nullopt, args.operand("max")));
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
