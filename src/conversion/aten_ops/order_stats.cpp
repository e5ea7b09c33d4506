// Order statistics (impl/order_stats): median, nanmedian, kthvalue.
#include "conversion/aten_ops/common.h"
#include "conversion/impl/order_stats.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace os = impl::order_stats;
using os::Statistic;
constexpr Family kFamily{.name = "reduce", .supports_dynamic_shapes = false};

Capability not_bool(const NodeView& node, const ConversionSettings& settings) {
  if (node.dtype_of("self") == DType::Bool) return Capability::no("order statistics of bool tensors are not supported");
  return requires_static({"self"})(node, settings);
}
Statistic statistic_of(const Scope& s) { return s.target().find("nanmedian") != std::string::npos ? Statistic::NanMedian : Statistic::Median; }

ATENRT_CONVERTER(kFamily, keys("aten.median.default", "aten.nanmedian.default"), .validator = not_bool)(
    const Scope& s, const NodeArgs& args) {
  return one(os::order_statistic(s, args.tensor("self"), statistic_of(s), std::nullopt, false).first);
}
ATENRT_CONVERTER(kFamily, keys("aten.median.dim", "aten.nanmedian.dim"), .validator = all_of({not_bool, dim_in_range()}))(
    const Scope& s, const NodeArgs& args) {
  auto [values, indices] = os::order_statistic(s, args.tensor("self"), statistic_of(s), args.i("dim"), args.b("keepdim"));
  return {values, indices};
}
Capability kth_ok(const NodeView& node, const ConversionSettings& settings) {
  const ir::TensorMeta* m = node.meta("self");
  const auto k = node.literal_int("k"), dim = node.literal_int("dim");
  if (m && k && dim && m->is_static()) {
    const auto rank = static_cast<std::int64_t>(m->sizes.size());
    if (!impl::dim_problem(*dim, rank)) {
      const auto sizes = m->static_sizes();
      const auto size = rank == 0 ? 1 : sizes[static_cast<std::size_t>(impl::normalize_dim(*dim, rank))];
      if (auto why = os::kth_problem(*k, size)) return Capability::no(*why);
    }
  }
  if (const auto dt = node.dtype_of("self")) {
    if (auto why = os::kth_dtype_problem(*dt)) return Capability::no(*why);
  }
  return all_of({not_bool, dim_in_range()})(node, settings);
}
ATENRT_CONVERTER(kFamily, "aten.kthvalue.default", .validator = kth_ok)(const Scope& s, const NodeArgs& args) {
  auto [values, indices] =
      os::order_statistic(s, args.tensor("self"), Statistic::KthValue, args.i("dim"), args.b("keepdim"), args.i("k"));
  return {values, indices};
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
