// Index-driven updates (impl/index_ops): index_add, index_fill, put, masked_scatter.
#include "conversion/aten_ops/common.h"
#include "conversion/impl/index_ops.h"
#include "conversion/impl/indexing.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace io = impl::index_ops;
constexpr Family kFamily{.name = "indexing", .supports_dynamic_shapes = false};

Validator adds_ok(bool always) {
  return [always](const NodeView& node, const ConversionSettings&) {
    const auto dt = node.dtype_of("self");
    const bool adds = always || node.literal_bool("accumulate").value_or(false);
    return dt ? refuse_if(io::adds_bool_problem(*dt, adds)) : Capability::yes();
  };
}
ATENRT_CONVERTER(kFamily, "aten.index_add.default", .validator = all_of({adds_ok(true), dim_in_range()}))(const Scope& s, const NodeArgs& args) {
  return one(io::index_add(s, args.tensor("self"), args.i("dim"), args.tensor("index"), args.tensor("source"),
                           args.scalar("alpha").f));
}
ATENRT_CONVERTER(kFamily, keys("aten.index_fill.int_Scalar", "aten.index_fill.int_Tensor"), .validator = dim_in_range())(
    const Scope& s, const NodeArgs& args) {
  return one(io::index_fill(s, args.tensor("self"), args.i("dim"), args.tensor("index"), args.operand("value")));
}
Capability index_reduce_ok(const NodeView& node, const ConversionSettings&) {
  const auto r = node.literal_string("reduce");
  if (r && *r == "sum") return Capability::no("index_reduce reduce='sum' is not one of torch's");
  if (r) {
    if (auto why = impl::indexing::scatter_reduce_problem(*r)) return Capability::no(*why);
  }
  if (node.dtype_of("self") == DType::Bool) return Capability::no("bool index_reduce (logical reductions) is not supported");
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, "aten.index_reduce.default", .validator = all_of({index_reduce_ok, dim_in_range()}))(
    const Scope& s, const NodeArgs& args) {
  return one(io::index_reduce(s, args.tensor("self"), args.i("dim"), args.tensor("index"), args.tensor("source"),
                              args.str("reduce"), args.b("include_self")));
}
ATENRT_CONVERTER(kFamily, "aten.put.default", .validator = adds_ok(false))(const Scope& s, const NodeArgs& args) {
  return one(io::put(s, args.tensor("self"), args.tensor("index"), args.tensor("source"), args.b("accumulate")));
}
ATENRT_CONVERTER(kFamily, "aten.masked_scatter.default")(const Scope& s, const NodeArgs& args) {
  return one(io::masked_scatter(s, args.tensor("self"), args.tensor("mask"), args.tensor("source")));
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
