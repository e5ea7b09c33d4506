// Math ops composed of reductions, scans and matmuls (impl/math_composites): angle, renorm,
// logcumsumexp, _euclidean_dist.
#include "conversion/aten_ops/common.h"
#include "conversion/impl/math_composites.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace mc = impl::math_composites;
constexpr Family kFamily{.name = "math", .supports_dynamic_shapes = true};

ATENRT_CONVERTER(kFamily, "aten.angle.default")(const Scope& s, const NodeArgs& args) {
  return one(mc::angle(s, args.tensor("self")));
}
Capability renorm_ok(const NodeView& node, const ConversionSettings&) {
  const auto p = node.literal_number("p"), maxnorm = node.literal_number("maxnorm");
  if (p && maxnorm) return refuse_if(mc::renorm_problem(*p, *maxnorm));
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, "aten.renorm.default", .validator = all_of({renorm_ok, dim_in_range()}))(
    const Scope& s, const NodeArgs& args) {
  return one(mc::renorm(s, args.tensor("self"), args.scalar("p").f, args.i("dim"), args.scalar("maxnorm").f));
}
ATENRT_CONVERTER(kFamily, "aten.logcumsumexp.default", .validator = dim_in_range())(const Scope& s, const NodeArgs& args) {
  return one(mc::logcumsumexp(s, args.tensor("self"), args.i("dim")));
}
ATENRT_CONVERTER(kFamily, keys("aten.cummax.default", "aten.cummin.default"), .validator = all_of({dim_in_range(), requires_static({"self"})}))(
    const Scope& s, const NodeArgs& args) {
  auto [values, indices] = mc::cumulative_extreme(s, args.tensor("self"), args.i("dim"), s.target() == "aten.cummax.default");
  return {values, indices};
}
Capability histc_ok(const NodeView& node, const ConversionSettings& settings) {
  const auto bins = node.literal_int("bins");
  const auto lo = node.literal_number("min"), hi = node.literal_number("max");
  if (bins && lo && hi) {
    if (auto why = mc::histc_problem(*bins, *lo, *hi)) return Capability::no(*why);
  }
  return requires_static({"self"})(node, settings);
}
ATENRT_CONVERTER(kFamily, "aten.histc.default", .validator = histc_ok, .supports_dynamic_shapes = false)(
    const Scope& s, const NodeArgs& args) {
  return one(mc::histc(s, args.tensor("self"), args.i("bins"), args.scalar("min").f, args.scalar("max").f));
}
ATENRT_CONVERTER(kFamily, "aten._trilinear.default", .validator = requires_static({"i1", "i2", "i3"}),
                 .supports_dynamic_shapes = false)(const Scope& s, const NodeArgs& args) {
  return one(mc::trilinear(s, args.tensor("i1"), args.tensor("i2"), args.tensor("i3"), args.ints("expand1"),
                           args.ints("expand2"), args.ints("expand3"), args.ints("sumdim")));
}
ATENRT_CONVERTER(kFamily, "aten._euclidean_dist.default")(const Scope& s, const NodeArgs& args) {
  return one(mc::euclidean_dist(s, args.tensor("x1"), args.tensor("x2")));
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
