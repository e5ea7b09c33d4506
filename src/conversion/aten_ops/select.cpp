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

// tril / triu: where(j - i <= diagonal (tril) or >= (triu), x, 0) over the last two dims.
Outputs triangle(ConversionContext& ctx, const NodeArgs& args, bool lower) {
  auto* x = args.tensor("self");
  impl::check(x->rank() >= 2, "tril/triu need at least 2 dims");
  const auto r = x->dims[x->dims.size() - 2], c = x->dims.back();
  impl::check(r >= 0 && c >= 0, "tril/triu need static sizes on the last two dims");
  const auto diag = args.i("diagonal");
  Tensor keep(DType::Bool, {r, c});
  for (std::int64_t i = 0; i < r; ++i) {
    for (std::int64_t j = 0; j < c; ++j) {
      keep.mutable_data<std::uint8_t>()[i * c + j] = (lower ? j - i <= diag : j - i >= diag) ? 1 : 0;
    }
  }
  auto* mask = ctx.net().add_constant(ctx.layer_name(args.name(), "mask"), keep);
  auto* zero = impl::scalar_constant(ctx, args.name(), 0.0, x->dtype);
  return one(ctx.net().add_select(ctx.layer_name(args.name()), mask, x, zero));
}
ATENRT_CONVERTER("aten.tril.default", .supports_dynamic_shapes = true) { return triangle(ctx, args, true); }
ATENRT_CONVERTER("aten.triu.default", .supports_dynamic_shapes = true) { return triangle(ctx, args, false); }

}  // namespace
}  // namespace atenrt::conversion::aten_ops
