// Selection / indexing converters.
#include "conversion/aten_ops/common.h"
#include "conversion/impl/select.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace se = impl::select;
constexpr const char* kFamily = "select";

Capability no_mask_index(const NodeView& node, const ConversionSettings& s) {
  const ir::Argument& a = node.arg("indices");
  std::vector<std::string> names;
  if (const auto* l = a.get_if<ir::OptionalTensorList>()) {
    for (const auto& t : *l) {
      if (t) names.push_back(t->name);
    }
  } else if (const auto* l = a.get_if<ir::TensorList>()) {
    for (const auto& t : *l) names.push_back(t.name);
  }
  if (names.empty()) return Capability::no("no index tensor");
  for (const auto& n : names) {
    const ir::TensorMeta* m = node.graph().meta(n);
    if (m && m->dtype && (*m->dtype == DType::Bool || *m->dtype == DType::UInt8)) {
      return Capability::no("boolean mask index: the output shape depends on the data");
    }
  }
  return requires_static({"self"})(node, s);
}

ATENRT_CONVERTER("aten.select.int", .supports_dynamic_shapes = true) {
  return one(se::select(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.i("dim"), args.i("index")));
}
ATENRT_CONVERTER("aten.index_select.default", .supports_dynamic_shapes = true) {
  return one(se::index_select(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.i("dim"), args.tensor("index")));
}
ATENRT_CONVERTER("aten.gather.default") {
  return one(se::gather(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.i("dim"), args.tensor("index")));
}
ATENRT_CONVERTER("aten.scatter.src", .supports_dynamic_shapes = true) {
  return one(se::scatter(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.i("dim"), args.tensor("index"),
                         args.operand("src"), network::ScatterReduce::None));
}
ATENRT_CONVERTER("aten.scatter.value", .supports_dynamic_shapes = true) {
  return one(se::scatter(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.i("dim"), args.tensor("index"),
                         args.operand("value"), network::ScatterReduce::None));
}
ATENRT_CONVERTER("aten.scatter_add.default", .supports_dynamic_shapes = true) {
  return one(se::scatter(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.i("dim"), args.tensor("index"),
                         args.operand("src"), network::ScatterReduce::Add));
}
Capability reduce_mode(const NodeView& node, const ConversionSettings&) {
  const auto r = node.literal_string("reduce").value_or("");
  if (r != "add" && r != "multiply") return Capability::no("scatter reduce='" + r + "' (only 'add' and 'multiply')");
  return Capability::yes();
}
network::ScatterReduce reduce_of(const NodeArgs& args) {
  return args.str("reduce") == "add" ? network::ScatterReduce::Add : network::ScatterReduce::Mul;
}
ATENRT_CONVERTER("aten.scatter.reduce", .validator = reduce_mode, .supports_dynamic_shapes = true) {
  return one(se::scatter(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.i("dim"), args.tensor("index"),
                         args.operand("src"), reduce_of(args)));
}
ATENRT_CONVERTER("aten.scatter.value_reduce", .validator = reduce_mode, .supports_dynamic_shapes = true) {
  return one(se::scatter(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.i("dim"), args.tensor("index"),
                         args.operand("value"), reduce_of(args)));
}
Outputs where(ConversionContext& ctx, const NodeArgs& args) {
  return one(se::where(ctx, SourceIR::ATen, args.name(), args.tensor("condition"), args.operand("self"),
                       args.operand("other")));
}
ATENRT_CONVERTER("aten.where.self", .supports_dynamic_shapes = true) { return where(ctx, args); }
ATENRT_CONVERTER("aten.where.ScalarSelf", .supports_dynamic_shapes = true) { return where(ctx, args); }
ATENRT_CONVERTER("aten.where.ScalarOther", .supports_dynamic_shapes = true) { return where(ctx, args); }
ATENRT_CONVERTER("aten.where.Scalar", .supports_dynamic_shapes = true) { return where(ctx, args); }
Capability nonzero_refused(const NodeView&, const ConversionSettings&) {
  return Capability::no("the output shape depends on the data (number of non-zero elements)");
}
ATENRT_CONVERTER("aten.where.default", .validator = nonzero_refused) { return {}; }
ATENRT_CONVERTER("aten.nonzero.default", .validator = nonzero_refused) { return {}; }
ATENRT_CONVERTER("aten.masked_fill.Scalar", .supports_dynamic_shapes = true) {
  return one(se::masked_fill(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.tensor("mask"), args.operand("value")));
}
ATENRT_CONVERTER("aten.masked_fill.Tensor", .supports_dynamic_shapes = true) {
  return one(se::masked_fill(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.tensor("mask"), args.operand("value")));
}
ATENRT_CONVERTER("aten.index.Tensor", .validator = no_mask_index) {
  return one(se::index(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.opt_tensors("indices")));
}
ATENRT_CONVERTER("aten.index.Tensor_hacked_twin", .validator = no_mask_index) {
  return one(se::index(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.opt_tensors("indices")));
}
ATENRT_CONVERTER("aten.index_put.default", .validator = no_mask_index) {
  return one(se::index_put(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.opt_tensors("indices"),
                           args.tensor("values"), args.b("accumulate")));
}
ATENRT_CONVERTER("aten.index_put.hacked_twin", .validator = no_mask_index) {
  return one(se::index_put(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.opt_tensors("indices"),
                           args.tensor("values"), args.b("accumulate")));
}
Capability index_copy_ok(const NodeView& node, const ConversionSettings& s) {
  const ir::TensorMeta* m = node.meta("index");
  if (m && m->sizes.size() != 1) return Capability::no("index must be 1-d");
  return requires_static({"self", "source", "index"})(node, s);
}
ATENRT_CONVERTER("aten.index_copy.default", .validator = index_copy_ok) {
  return one(se::index_copy(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.i("dim"), args.tensor("index"),
                            args.tensor("source")));
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
