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
// The dimension in range, and the window fitting its (static) length.
Capability unfold_ok(const NodeView& node, const ConversionSettings& st) {
  if (Capability c = requires_static({"self"})(node, st); !c) return c;
  if (Capability c = dim_in_range("dimension")(node, st); !c) return c;
  const ir::TensorMeta* m = node.meta("self");
  auto dim = node.literal_int("dimension");
  auto size = node.literal_int("size"), step = node.literal_int("step");
  if (!m || m->sizes.empty() || !dim || !size || !step) return Capability::yes();
  const auto r = static_cast<std::int64_t>(m->sizes.size());
  const auto len = m->sizes[static_cast<std::size_t>(*dim < 0 ? *dim + r : *dim)].value.value_or(-1);
  return refuse_if(ix::unfold_problem(len, *size, *step));
}
Capability max_unpool_ok(const NodeView& node, const ConversionSettings& st) {
  if (Capability c = requires_static({"self", "indices"})(node, st); !c) return c;
  auto size = node.literal_ints("output_size");
  if (!size) return Capability::yes();
  return refuse_if(ix::max_unpool_problem(rank_of(node, "self"), size->size()));
}

ATENRT_CONVERTER(kFamily, "aten.unfold.default", .validator = unfold_ok)(const Scope& s, const NodeArgs& args) {
  return one(ix::unfold(s, args.tensor("self"), args.i("dimension"), args.i("size"), args.i("step")));
}
ATENRT_CONVERTER(kFamily, keys("aten.max_unpool2d.default", "aten.max_unpool3d.default"), .validator = max_unpool_ok)(const Scope& s, const NodeArgs& args) {
  return one(ix::max_unpool(s, args.tensor("self"), args.tensor("indices"), args.ints("output_size")));
}
Capability scatter_reduce_mode(const NodeView& node, const ConversionSettings& settings) {
  const auto r = node.literal_string("reduce").value_or("");
  if (auto why = ix::scatter_reduce_problem(r)) return Capability::no(*why);
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
