// Elementwise math built from a few layers (impl/math): logaddexp, xlogy, hypot, copysign, fmax,
// heaviside, the shrink functions, threshold, log_sigmoid, round(decimals), lerp, ...
#include <numbers>

#include "conversion/aten_ops/common.h"
#include "conversion/impl/elementwise.h"
#include "conversion/impl/math.h"
#include "conversion/impl/unary.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace mt = impl::math;
using network::ElementwiseOp;
using network::UnaryOp;
constexpr Family kFamily{.name = "math", .supports_dynamic_shapes = true};

ATENRT_CONVERTER(kFamily, "aten.logaddexp.default")(const Scope& s, const NodeArgs& args) {
  return one(mt::logaddexp(s, args.operand("self"), args.operand("other"), false));
}
ATENRT_CONVERTER(kFamily, "aten.logaddexp2.default")(const Scope& s, const NodeArgs& args) {
  return one(mt::logaddexp(s, args.operand("self"), args.operand("other"), true));
}
ATENRT_CONVERTER(kFamily, keys("aten.xlogy.Tensor", "aten.xlogy.Scalar_Self", "aten.xlogy.Scalar_Other"))(const Scope& s, const NodeArgs& args) {
  return one(mt::xlogy(s, args.operand("self"), args.operand("other"), false));
}
ATENRT_CONVERTER(kFamily, keys("aten.special_xlog1py.default", "aten.special_xlog1py.self_scalar",
                               "aten.special_xlog1py.other_scalar"))(const Scope& s, const NodeArgs& args) {
  return one(mt::xlogy(s, args.operand("self"), args.operand("other"), true));
}
ATENRT_CONVERTER(kFamily, "aten.hypot.default")(const Scope& s, const NodeArgs& args) {
  return one(mt::hypot(s, args.operand("self"), args.operand("other")));
}
ATENRT_CONVERTER(kFamily, keys("aten.copysign.Tensor", "aten.copysign.Scalar"))(const Scope& s, const NodeArgs& args) {
  return one(mt::copysign(s, args.operand("self"), args.operand("other")));
}
ATENRT_CONVERTER(kFamily, "aten.fmax.default")(const Scope& s, const NodeArgs& args) {
  return one(mt::fmax_fmin(s, args.operand("self"), args.operand("other"), true));
}
ATENRT_CONVERTER(kFamily, "aten.fmin.default")(const Scope& s, const NodeArgs& args) {
  return one(mt::fmax_fmin(s, args.operand("self"), args.operand("other"), false));
}
ATENRT_CONVERTER(kFamily, "aten.heaviside.default")(const Scope& s, const NodeArgs& args) {
  return one(mt::heaviside(s, args.tensor("self"), args.tensor("values")));
}
ATENRT_CONVERTER(kFamily, "aten.deg2rad.default")(const Scope& s, const NodeArgs& args) {
  return one(mt::scale(s, args.tensor("self"), std::numbers::pi / 180.0));
}
ATENRT_CONVERTER(kFamily, "aten.rad2deg.default")(const Scope& s, const NodeArgs& args) {
  return one(mt::scale(s, args.tensor("self"), 180.0 / std::numbers::pi));
}
ATENRT_CONVERTER(kFamily, "aten.exp2.default")(const Scope& s, const NodeArgs& args) { return one(mt::exp2(s, args.tensor("self"))); }
ATENRT_CONVERTER(kFamily, "aten.erfc.default")(const Scope& s, const NodeArgs& args) { return one(mt::erfc(s, args.tensor("self"))); }
ATENRT_CONVERTER(kFamily, "aten.frac.default")(const Scope& s, const NodeArgs& args) { return one(mt::frac(s, args.tensor("self"))); }
ATENRT_CONVERTER(kFamily, "aten.lgamma.default")(const Scope& s, const NodeArgs& args) {
  return one(impl::unary::unary(s, args.tensor("self"), UnaryOp::Lgamma));
}
ATENRT_CONVERTER(kFamily, "aten.digamma.default")(const Scope& s, const NodeArgs& args) {
  return one(impl::unary::unary(s, args.tensor("self"), UnaryOp::Digamma));
}
ATENRT_CONVERTER(kFamily, "aten.erfinv.default")(const Scope& s, const NodeArgs& args) {
  return one(impl::unary::unary(s, args.tensor("self"), UnaryOp::Erfinv));
}
ATENRT_CONVERTER(kFamily, "aten.i0.default")(const Scope& s, const NodeArgs& args) {
  return one(impl::unary::unary(s, args.tensor("self"), UnaryOp::I0));
}
ATENRT_CONVERTER(kFamily, "aten.mvlgamma.default")(const Scope& s, const NodeArgs& args) {
  return one(mt::mvlgamma(s, args.tensor("self"), args.i("p")));
}
ATENRT_CONVERTER(kFamily, "aten.special_log_ndtr.default")(const Scope& s, const NodeArgs& args) { return one(mt::log_ndtr(s, args.tensor("self"))); }
ATENRT_CONVERTER(kFamily, "aten.special_ndtri.default")(const Scope& s, const NodeArgs& args) { return one(mt::ndtri(s, args.tensor("self"))); }
ATENRT_CONVERTER(kFamily, "aten.sinc.default")(const Scope& s, const NodeArgs& args) { return one(mt::sinc(s, args.tensor("self"))); }
ATENRT_CONVERTER(kFamily, "aten.special_entr.default")(const Scope& s, const NodeArgs& args) { return one(mt::entr(s, args.tensor("self"))); }
ATENRT_CONVERTER(kFamily, "aten.logit.default")(const Scope& s, const NodeArgs& args) {
  return one(mt::logit(s, args.tensor("self"), args.opt_f("eps")));
}
ATENRT_CONVERTER(kFamily, "aten.isposinf.default")(const Scope& s, const NodeArgs& args) {
  return one(mt::is_inf_of_sign(s, args.tensor("self"), true));
}
ATENRT_CONVERTER(kFamily, "aten.isneginf.default")(const Scope& s, const NodeArgs& args) {
  return one(mt::is_inf_of_sign(s, args.tensor("self"), false));
}
ATENRT_CONVERTER(kFamily, "aten.signbit.default")(const Scope& s, const NodeArgs& args) { return one(mt::signbit(s, args.tensor("self"))); }
// sgn is sign for real tensors.
ATENRT_CONVERTER(kFamily, "aten.sgn.default")(const Scope& s, const NodeArgs& args) {
  return one(impl::unary::unary(s, args.tensor("self"), UnaryOp::Sign));
}
ATENRT_CONVERTER(kFamily, "aten.nan_to_num.default")(const Scope& s, const NodeArgs& args) {
  return one(mt::nan_to_num(s, args.tensor("self"), args.opt_f("nan"), args.opt_f("posinf"), args.opt_f("neginf")));
}
ATENRT_CONVERTER(kFamily, "aten.hardshrink.default")(const Scope& s, const NodeArgs& args) {
  return one(mt::hardshrink(s, args.tensor("self"), args.f("lambd")));
}
ATENRT_CONVERTER(kFamily, "aten.softshrink.default")(const Scope& s, const NodeArgs& args) {
  return one(mt::softshrink(s, args.tensor("self"), args.f("lambd")));
}
ATENRT_CONVERTER(kFamily, "aten.threshold.default")(const Scope& s, const NodeArgs& args) {
  return one(mt::threshold(s, args.tensor("self"), args.scalar("threshold"), args.scalar("value")));
}
Capability buffer_unused(const NodeView& node, const ConversionSettings&) {
  if (node.output_used(1)) return Capability::no("its buffer output (a backward-only value) is used");
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, "aten.log_sigmoid_forward.default", .validator = buffer_unused)(const Scope& s, const NodeArgs& args) {
  return {mt::log_sigmoid(s, args.tensor("self")), Value()};
}
ATENRT_CONVERTER(kFamily, "aten.round.decimals")(const Scope& s, const NodeArgs& args) {
  return one(mt::round_decimals(s, args.tensor("self"), args.i("decimals")));
}
ATENRT_CONVERTER(kFamily, keys("aten.lerp.Tensor", "aten.lerp.Scalar"))(const Scope& s, const NodeArgs& args) {
  return one(mt::lerp(s, args.tensor("self"), args.tensor("end"), args.operand("weight")));
}
ATENRT_CONVERTER(kFamily, "aten.clamp_min.Tensor")(const Scope& s, const NodeArgs& args) {
  return one(impl::elementwise::clamp(s, args.operand("self"), args.operand("min"), std::nullopt));
}
ATENRT_CONVERTER(kFamily, "aten.clamp_max.Tensor")(const Scope& s, const NodeArgs& args) {
  return one(impl::elementwise::clamp(s, args.operand("self"), std::nullopt, args.operand("max")));
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
