// Unary converters: one line each over impl::unary.
#include "conversion/aten_ops/common.h"
#include "conversion/impl/unary.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace un = impl::unary;
using network::UnaryOp;
constexpr Family kFamily{.name = "unary", .supports_dynamic_shapes = true};

Outputs u(const Scope& s, const NodeArgs& args, UnaryOp op) {
  return one(un::unary(s, args.tensor("self"), op));
}

ATENRT_CONVERTER(kFamily, "aten.abs.default")(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Abs); }
ATENRT_CONVERTER(kFamily, "aten.acos.default")(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Acos); }
ATENRT_CONVERTER(kFamily, "aten.acosh.default")(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Acosh); }
ATENRT_CONVERTER(kFamily, "aten.asin.default")(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Asin); }
ATENRT_CONVERTER(kFamily, "aten.asinh.default")(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Asinh); }
ATENRT_CONVERTER(kFamily, "aten.atan.default")(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Atan); }
ATENRT_CONVERTER(kFamily, "aten.atanh.default")(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Atanh); }
ATENRT_CONVERTER(kFamily, "aten.ceil.default")(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Ceil); }
ATENRT_CONVERTER(kFamily, "aten.cos.default")(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Cos); }
ATENRT_CONVERTER(kFamily, "aten.cosh.default")(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Cosh); }
ATENRT_CONVERTER(kFamily, "aten.erf.default")(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Erf); }
ATENRT_CONVERTER(kFamily, "aten.exp.default")(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Exp); }
ATENRT_CONVERTER(kFamily, "aten.expm1.default")(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Expm1); }
ATENRT_CONVERTER(kFamily, "aten.floor.default")(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Floor); }
ATENRT_CONVERTER(kFamily, "aten.isinf.default")(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::IsInf); }
ATENRT_CONVERTER(kFamily, "aten.isnan.default")(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::IsNan); }
ATENRT_CONVERTER(kFamily, "aten.log.default")(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Log); }
ATENRT_CONVERTER(kFamily, "aten.log10.default")(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Log10); }
ATENRT_CONVERTER(kFamily, "aten.log1p.default", .supports_dynamic_shapes = false)(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Log1p); }
ATENRT_CONVERTER(kFamily, "aten.log2.default")(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Log2); }
Capability not_bool(const NodeView& node, const ConversionSettings&) {
  if (node.dtype_of("self") == DType::Bool) return Capability::no("negation of a bool tensor is not defined in PyTorch");
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, "aten.neg.default", .validator = not_bool)(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Neg); }
ATENRT_CONVERTER(kFamily, "aten.reciprocal.default")(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Reciprocal); }
ATENRT_CONVERTER(kFamily, "aten.round.default")(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Round); }
ATENRT_CONVERTER(kFamily, "aten.rsqrt.default")(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Rsqrt); }
ATENRT_CONVERTER(kFamily, "aten.sign.default")(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Sign); }
ATENRT_CONVERTER(kFamily, "aten.sin.default")(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Sin); }
ATENRT_CONVERTER(kFamily, "aten.sinh.default")(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Sinh); }
ATENRT_CONVERTER(kFamily, "aten.sqrt.default")(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Sqrt); }
ATENRT_CONVERTER(kFamily, "aten.tan.default")(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Tan); }
ATENRT_CONVERTER(kFamily, keys("aten.trunc.default", "aten.fix.default"))(const Scope& s, const NodeArgs& args) { return u(s, args, UnaryOp::Trunc); }
ATENRT_CONVERTER(kFamily, "aten.logical_not.default")(const Scope& s, const NodeArgs& args) {
  return one(un::logical_not(s, args.tensor("self")));
}
ATENRT_CONVERTER(kFamily, "aten.bitwise_not.default", .validator = requires_integer_or_bool({"self"}))(const Scope& s, const NodeArgs& args) {
  return one(un::bitwise_not(s, args.tensor("self")));
}
ATENRT_CONVERTER(kFamily, "aten.square.default")(const Scope& s, const NodeArgs& args) {
  return one(un::square(s, args.tensor("self")));
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
