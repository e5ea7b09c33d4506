// Unary converters: one line each over impl::unary.
#include "conversion/aten_ops/common.h"
#include "conversion/impl/unary.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace un = impl::unary;
using network::UnaryOp;
constexpr const char* kFamily = "unary";

Outputs u(ConversionContext& ctx, const NodeArgs& args, UnaryOp op) {
  return one(un::unary(ctx, SourceIR::ATen, args.name(), args.tensor("self"), op));
}

ATENRT_CONVERTER("aten.abs.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Abs); }
ATENRT_CONVERTER("aten.acos.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Acos); }
ATENRT_CONVERTER("aten.acosh.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Acosh); }
ATENRT_CONVERTER("aten.asin.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Asin); }
ATENRT_CONVERTER("aten.asinh.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Asinh); }
ATENRT_CONVERTER("aten.atan.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Atan); }
ATENRT_CONVERTER("aten.atanh.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Atanh); }
ATENRT_CONVERTER("aten.ceil.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Ceil); }
ATENRT_CONVERTER("aten.cos.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Cos); }
ATENRT_CONVERTER("aten.cosh.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Cosh); }
ATENRT_CONVERTER("aten.erf.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Erf); }
ATENRT_CONVERTER("aten.exp.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Exp); }
ATENRT_CONVERTER("aten.expm1.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Expm1); }
ATENRT_CONVERTER("aten.floor.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Floor); }
ATENRT_CONVERTER("aten.isinf.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::IsInf); }
ATENRT_CONVERTER("aten.isnan.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::IsNan); }
ATENRT_CONVERTER("aten.log.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Log); }
ATENRT_CONVERTER("aten.log10.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Log10); }
ATENRT_CONVERTER("aten.log1p.default", .supports_dynamic_shapes = false) { return u(ctx, args, UnaryOp::Log1p); }
ATENRT_CONVERTER("aten.log2.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Log2); }
ATENRT_CONVERTER("aten.neg.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Neg); }
ATENRT_CONVERTER("aten.reciprocal.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Reciprocal); }
ATENRT_CONVERTER("aten.round.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Round); }
ATENRT_CONVERTER("aten.rsqrt.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Rsqrt); }
ATENRT_CONVERTER("aten.sign.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Sign); }
ATENRT_CONVERTER("aten.sin.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Sin); }
ATENRT_CONVERTER("aten.sinh.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Sinh); }
ATENRT_CONVERTER("aten.sqrt.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Sqrt); }
ATENRT_CONVERTER("aten.tan.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Tan); }
ATENRT_CONVERTER("aten.trunc.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Trunc); }
ATENRT_CONVERTER("aten.fix.default", .supports_dynamic_shapes = true) { return u(ctx, args, UnaryOp::Trunc); }
ATENRT_CONVERTER("aten.logical_not.default", .supports_dynamic_shapes = true) {
  return one(un::logical_not(ctx, SourceIR::ATen, args.name(), args.tensor("self")));
}
ATENRT_CONVERTER("aten.bitwise_not.default", .validator = requires_bool({"self"}), .supports_dynamic_shapes = true) {
  return one(un::bitwise_not(ctx, SourceIR::ATen, args.name(), args.tensor("self")));
}
ATENRT_CONVERTER("aten.square.default", .supports_dynamic_shapes = true) {
  return one(un::square(ctx, SourceIR::ATen, args.name(), args.tensor("self")));
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
