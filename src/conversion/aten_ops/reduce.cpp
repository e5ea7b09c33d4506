// Reduction converters.
#include "conversion/aten_ops/common.h"
#include "conversion/impl/reduce.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace red = impl::reduce;
using network::ReduceOp;
constexpr const char* kFamily = "reduce";

std::vector<std::int64_t> dims_of(const NodeArgs& args, const char* name) {
  if (!args.has(name) || args.is_none(name)) return {};
  return args.ints(name);
}
bool keepdim(const NodeArgs& args) { return args.has("keepdim") && args.b("keepdim"); }
std::optional<DType> dtype_of(const NodeArgs& args) {
  return args.has("dtype") ? args.opt_dtype("dtype") : std::nullopt;
}
Outputs full(ConversionContext& ctx, const NodeArgs& args, ReduceOp op) {
  return one(red::reduce(ctx, SourceIR::ATen, args.name(), args.tensor("self"), op, {}, false, dtype_of(args)));
}
Outputs over(ConversionContext& ctx, const NodeArgs& args, ReduceOp op, const char* dim_arg) {
  return one(red::reduce(ctx, SourceIR::ATen, args.name(), args.tensor("self"), op, dims_of(args, dim_arg),
                         keepdim(args), dtype_of(args)));
}
// An empty dim list reduces everything for sum/mean (torch's int[1]? dim=[]).
Outputs over_one(ConversionContext& ctx, const NodeArgs& args, ReduceOp op) {
  return one(red::reduce(ctx, SourceIR::ATen, args.name(), args.tensor("self"), op, {args.i("dim")}, keepdim(args),
                         dtype_of(args)));
}
Outputs value_and_index(ConversionContext& ctx, const NodeArgs& args, ReduceOp value_op, ReduceOp index_op) {
  auto* x = args.tensor("self");
  const auto dim = args.i("dim");
  auto* values = red::reduce(ctx, SourceIR::ATen, args.name() + ".values", x, value_op, {dim}, keepdim(args));
  auto* indices = red::arg_reduce(ctx, SourceIR::ATen, args.name() + ".indices", x, index_op, dim, keepdim(args));
  return {values, indices};
}

constexpr bool kDyn = true;
ATENRT_CONVERTER("aten.sum.default", .supports_dynamic_shapes = kDyn) { return full(ctx, args, ReduceOp::Sum); }
ATENRT_CONVERTER("aten.sum.dim_IntList", .supports_dynamic_shapes = kDyn) { return over(ctx, args, ReduceOp::Sum, "dim"); }
ATENRT_CONVERTER("prims.sum.default", .supports_dynamic_shapes = kDyn) {
  auto dt = args.has("output_dtype") ? args.opt_dtype("output_dtype") : std::nullopt;
  return one(red::reduce(ctx, SourceIR::Prims, args.name(), args.tensor("inp"), ReduceOp::Sum, dims_of(args, "dims"),
                         false, dt));
}
ATENRT_CONVERTER("aten.mean.default", .supports_dynamic_shapes = kDyn) { return full(ctx, args, ReduceOp::Mean); }
ATENRT_CONVERTER("aten.mean.dim", .supports_dynamic_shapes = kDyn) { return over(ctx, args, ReduceOp::Mean, "dim"); }
ATENRT_CONVERTER("aten.prod.default", .supports_dynamic_shapes = kDyn) { return full(ctx, args, ReduceOp::Prod); }
ATENRT_CONVERTER("aten.prod.dim_int", .supports_dynamic_shapes = kDyn) { return over_one(ctx, args, ReduceOp::Prod); }
ATENRT_CONVERTER("aten.amax.default", .supports_dynamic_shapes = kDyn) { return over(ctx, args, ReduceOp::Max, "dim"); }
ATENRT_CONVERTER("aten.amin.default", .supports_dynamic_shapes = kDyn) { return over(ctx, args, ReduceOp::Min, "dim"); }
ATENRT_CONVERTER("aten.max.default", .supports_dynamic_shapes = kDyn) { return full(ctx, args, ReduceOp::Max); }
ATENRT_CONVERTER("aten.min.default", .supports_dynamic_shapes = kDyn) { return full(ctx, args, ReduceOp::Min); }
Capability nonempty_reduced_dim(const NodeView& node, const ConversionSettings&) {
  const ir::TensorMeta* m = node.meta("self");
  auto dim = node.literal_int("dim");
  if (m && dim && !m->sizes.empty()) {
    const auto r = static_cast<std::int64_t>(m->sizes.size());
    const auto d = *dim < 0 ? *dim + r : *dim;
    if (d >= 0 && d < r && m->sizes[static_cast<std::size_t>(d)].value == 0) {
      return Capability::no("reducing an empty dim has no maximum / minimum");
    }
  }
  return Capability::yes();
}
ATENRT_CONVERTER("aten.max.dim", .validator = nonempty_reduced_dim, .supports_dynamic_shapes = kDyn) {
  return value_and_index(ctx, args, ReduceOp::Max, ReduceOp::ArgMax);
}
ATENRT_CONVERTER("aten.min.dim", .validator = nonempty_reduced_dim, .supports_dynamic_shapes = kDyn) {
  return value_and_index(ctx, args, ReduceOp::Min, ReduceOp::ArgMin);
}
ATENRT_CONVERTER("aten.max.other", .supports_dynamic_shapes = kDyn) {
  auto* a = args.tensor("self");
  auto* b = args.tensor("other");
  const DType dt = impl::promote_types(a->dtype, b->dtype);
  return one(impl::ew(ctx, args.name(), impl::cast(ctx, args.name(), a, dt), impl::cast(ctx, args.name(), b, dt),
                      network::ElementwiseOp::Max));
}
ATENRT_CONVERTER("aten.min.other", .supports_dynamic_shapes = kDyn) {
  auto* a = args.tensor("self");
  auto* b = args.tensor("other");
  const DType dt = impl::promote_types(a->dtype, b->dtype);
  return one(impl::ew(ctx, args.name(), impl::cast(ctx, args.name(), a, dt), impl::cast(ctx, args.name(), b, dt),
                      network::ElementwiseOp::Min));
}
ATENRT_CONVERTER("aten.argmax.default", .supports_dynamic_shapes = kDyn) {
  return one(red::arg_reduce(ctx, SourceIR::ATen, args.name(), args.tensor("self"), ReduceOp::ArgMax, args.opt_i("dim"),
                             keepdim(args)));
}
ATENRT_CONVERTER("aten.argmin.default", .supports_dynamic_shapes = kDyn) {
  return one(red::arg_reduce(ctx, SourceIR::ATen, args.name(), args.tensor("self"), ReduceOp::ArgMin, args.opt_i("dim"),
                             keepdim(args)));
}
ATENRT_CONVERTER("aten.any.default", .supports_dynamic_shapes = kDyn) { return full(ctx, args, ReduceOp::Any); }
ATENRT_CONVERTER("aten.any.dim", .supports_dynamic_shapes = kDyn) { return over_one(ctx, args, ReduceOp::Any); }
ATENRT_CONVERTER("aten.any.dims", .supports_dynamic_shapes = kDyn) { return over(ctx, args, ReduceOp::Any, "dim"); }
ATENRT_CONVERTER("aten.all.default", .supports_dynamic_shapes = kDyn) { return full(ctx, args, ReduceOp::All); }
ATENRT_CONVERTER("aten.all.dim", .supports_dynamic_shapes = kDyn) { return over_one(ctx, args, ReduceOp::All); }
ATENRT_CONVERTER("aten.cumsum.default", .supports_dynamic_shapes = kDyn) {
  return one(red::cumulative(ctx, SourceIR::ATen, args.name(), args.tensor("self"), network::CumulativeOp::Sum,
                             args.i("dim"), dtype_of(args)));
}
ATENRT_CONVERTER("aten.cumprod.default", .supports_dynamic_shapes = kDyn) {
  return one(red::cumulative(ctx, SourceIR::ATen, args.name(), args.tensor("self"), network::CumulativeOp::Prod,
                             args.i("dim"), dtype_of(args)));
}
double correction_of(const NodeArgs& args) {
  if (args.has("correction")) return args.opt_f("correction").value_or(1.0);
  if (args.has("unbiased")) return args.b("unbiased") ? 1.0 : 0.0;
  return 1.0;
}
Outputs variance(ConversionContext& ctx, const NodeArgs& args, bool sqrt) {
  return one(red::var(ctx, SourceIR::ATen, args.name(), args.tensor("self"), dims_of(args, "dim"), correction_of(args),
                      keepdim(args), sqrt));
}
ATENRT_CONVERTER("aten.var.correction", .validator = requires_static({"self"})) { return variance(ctx, args, false); }
ATENRT_CONVERTER("aten.var.dim", .validator = requires_static({"self"})) { return variance(ctx, args, false); }
ATENRT_CONVERTER("aten.var.default", .validator = requires_static({"self"})) { return variance(ctx, args, false); }
ATENRT_CONVERTER("aten.std.correction", .validator = requires_static({"self"})) { return variance(ctx, args, true); }
ATENRT_CONVERTER("aten.std.dim", .validator = requires_static({"self"})) { return variance(ctx, args, true); }
ATENRT_CONVERTER("aten.std.default", .validator = requires_static({"self"})) { return variance(ctx, args, true); }
ATENRT_CONVERTER("aten.linalg_vector_norm.default", .supports_dynamic_shapes = kDyn) {
  auto* x = args.tensor("self");
  if (auto dt = dtype_of(args)) x = impl::cast(ctx, args.name(), x, *dt);
  return one(red::vector_norm(ctx, SourceIR::ATen, args.name(), x, args.f("ord"), dims_of(args, "dim"), keepdim(args)));
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
