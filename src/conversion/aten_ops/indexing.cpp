// Indexing converters over impl/indexing: take, unfold, max_unpool, scatter_reduce; narrow_copy, zero.
#include "conversion/aten_ops/common.h"
#include "conversion/impl/indexing.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace ix = impl::indexing;
constexpr Family kFamily{.name = "indexing", .supports_dynamic_shapes = false};

ATENRT_CONVERTER(kFamily, "aten.take.default", .validator = requires_static({"self", "index"}))(const Scope& s, const NodeArgs& args) {
  return one(ix::take(s, args.tensor("self"), args.tensor("index")));
}
ATENRT_CONVERTER(kFamily, "aten.unfold.default", .validator = requires_static({"self"}))(const Scope& s, const NodeArgs& args) {
  return one(ix::unfold(s, args.tensor("self"), args.i("dimension"), args.i("size"), args.i("step")));
}
ATENRT_CONVERTER(kFamily, keys("aten.max_unpool2d.default", "aten.max_unpool3d.default"), .validator = requires_static({"self", "indices"}))(const Scope& s, const NodeArgs& args) {
  return one(ix::max_unpool(s, args.tensor("self"), args.tensor("indices"), args.ints("output_size")));
}
Capability scatter_reduce_mode(const NodeView& node, const ConversionSettings& settings) {
  const auto r = node.literal_string("reduce").value_or("");
  if (r != "sum" && r != "prod" && r != "mean") {
    return Capability::no("scatter_reduce reduce='" + r + "' (only 'sum', 'prod' and 'mean'; the scatter layer has no max/min)");
  }
  if (node.dtype_of("self") == DType::Bool) return Capability::no("bool scatter_reduce (logical reductions) is not supported");
  return requires_static({"self", "index", "src"})(node, settings);
}
ATENRT_CONVERTER(kFamily, "aten.scatter_reduce.two", .validator = scatter_reduce_mode)(const Scope& s, const NodeArgs& args) {
  return one(ix::scatter_reduce(s, args.tensor("self"), args.i("dim"), args.tensor("index"), args.tensor("src"),
                                args.str("reduce"), args.b("include_self")));
}
ATENRT_CONVERTER(kFamily, "aten.narrow_copy.default", .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) {
  auto* x = args.tensor("self");
  const auto d = impl::normalize_dim(args.i("dim"), x->rank());
  const auto n = x->dims[static_cast<std::size_t>(d)];
  auto start = args.i("start");
  if (start < 0 && n >= 0) start += n;
  return one(impl::slice_axis(s, x, d, start, start + args.i("length")));
}
ATENRT_CONVERTER(kFamily, "aten.zero.default", .validator = requires_static({"self"}))(const Scope& s, const NodeArgs& args) {
  auto* x = args.tensor("self");
  return one(impl::fill(s, x->dims, 0.0, x->dtype));
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
