// Reduction converters.
#include "conversion/aten_ops/common.h"
#include "conversion/impl/reduce.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace red = impl::reduce;
using network::ReduceOp;
constexpr Family kFamily{.name = "reduce", .supports_dynamic_shapes = true};

// Every reduction's `dim` (an int or a list) names distinct dims of self: the
// rule normalize_dim(s) applies at conversion, checked before it.
const Validator reduce_dims = all_of({dim_in_range("dim"), distinct_dims("dim")});

std::vector<std::int64_t> dims_of(const NodeArgs& args, const char* name) {
  if (!args.has(name) || args.is_none(name)) return {};
  return args.ints(name);
}
bool keepdim(const NodeArgs& args) { return args.has("keepdim") && args.b("keepdim"); }
std::optional<DType> dtype_of(const NodeArgs& args) {
  return args.has("dtype") ? args.opt_dtype("dtype") : std::nullopt;
}
Outputs full(const Scope& s, const NodeArgs& args, ReduceOp op) {
  return one(red::reduce(s, args.tensor("self"), op, {}, false, dtype_of(args)));
}
Outputs over(const Scope& s, const NodeArgs& args, ReduceOp op, const char* dim_arg) {
  return one(red::reduce(s, args.tensor("self"), op, dims_of(args, dim_arg), keepdim(args), dtype_of(args)));
}
// An empty dim list reduces everything for sum/mean (torch's int[1]? dim=[]).
Outputs over_one(const Scope& s, const NodeArgs& args, ReduceOp op) {
  return one(red::reduce(s, args.tensor("self"), op, {args.i("dim")}, keepdim(args), dtype_of(args)));
}
Outputs value_and_index(const Scope& s, const NodeArgs& args, ReduceOp value_op, ReduceOp index_op) {
  auto* x = args.tensor("self");
  const auto dim = args.i("dim");
  auto* values = red::reduce(s.child("values"), x, value_op, {dim}, keepdim(args));
  auto* indices = red::arg_reduce(s.child("indices"), x, index_op, dim, keepdim(args));
  return {values, indices};
}

ATENRT_CONVERTER(kFamily, "aten.sum.default", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) { return full(s, args, ReduceOp::Sum); }
ATENRT_CONVERTER(kFamily, "aten.sum.dim_IntList", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) { return over(s, args, ReduceOp::Sum, "dim"); }
ATENRT_CONVERTER(kFamily, "prims.sum.default", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) {
  auto dt = args.has("output_dtype") ? args.opt_dtype("output_dtype") : std::nullopt;
  return one(red::reduce(s, args.tensor("inp"), ReduceOp::Sum, dims_of(args, "dims"), false, dt));
}
ATENRT_CONVERTER(kFamily, "aten.mean.default", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) { return full(s, args, ReduceOp::Mean); }
ATENRT_CONVERTER(kFamily, "aten.mean.dim", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) { return over(s, args, ReduceOp::Mean, "dim"); }
ATENRT_CONVERTER(kFamily, "aten.prod.default", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) { return full(s, args, ReduceOp::Prod); }
ATENRT_CONVERTER(kFamily, "aten.prod.dim_int", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) { return over_one(s, args, ReduceOp::Prod); }
ATENRT_CONVERTER(kFamily, "aten.amax.default", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) { return over(s, args, ReduceOp::Max, "dim"); }
ATENRT_CONVERTER(kFamily, "aten.amin.default", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) { return over(s, args, ReduceOp::Min, "dim"); }
ATENRT_CONVERTER(kFamily, "aten.max.default", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) { return full(s, args, ReduceOp::Max); }
ATENRT_CONVERTER(kFamily, "aten.min.default", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) { return full(s, args, ReduceOp::Min); }
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
ATENRT_CONVERTER(kFamily, "aten.max.dim", .validator = all_of({reduce_dims, nonempty_reduced_dim}))(const Scope& s, const NodeArgs& args) {
  return value_and_index(s, args, ReduceOp::Max, ReduceOp::ArgMax);
}
ATENRT_CONVERTER(kFamily, "aten.min.dim", .validator = all_of({reduce_dims, nonempty_reduced_dim}))(const Scope& s, const NodeArgs& args) {
  return value_and_index(s, args, ReduceOp::Min, ReduceOp::ArgMin);
}
ATENRT_CONVERTER(kFamily, "aten.max.other", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) {
  auto* a = args.tensor("self");
  auto* b = args.tensor("other");
  const DType dt = impl::promote_types(a->dtype, b->dtype);
  return one(impl::ew(s, impl::cast(s, a, dt), impl::cast(s, b, dt), network::ElementwiseOp::Max));
}
ATENRT_CONVERTER(kFamily, "aten.min.other", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) {
  auto* a = args.tensor("self");
  auto* b = args.tensor("other");
  const DType dt = impl::promote_types(a->dtype, b->dtype);
  return one(impl::ew(s, impl::cast(s, a, dt), impl::cast(s, b, dt), network::ElementwiseOp::Min));
}
ATENRT_CONVERTER(kFamily, "aten.argmax.default", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) {
  return one(red::arg_reduce(s, args.tensor("self"), ReduceOp::ArgMax, args.opt_i("dim"), keepdim(args)));
}
ATENRT_CONVERTER(kFamily, "aten.argmin.default", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) {
  return one(red::arg_reduce(s, args.tensor("self"), ReduceOp::ArgMin, args.opt_i("dim"), keepdim(args)));
}
ATENRT_CONVERTER(kFamily, "aten.any.default", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) { return full(s, args, ReduceOp::Any); }
ATENRT_CONVERTER(kFamily, "aten.any.dim", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) { return over_one(s, args, ReduceOp::Any); }
ATENRT_CONVERTER(kFamily, "aten.any.dims", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) { return over(s, args, ReduceOp::Any, "dim"); }
ATENRT_CONVERTER(kFamily, "aten.all.default", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) { return full(s, args, ReduceOp::All); }
ATENRT_CONVERTER(kFamily, "aten.all.dim", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) { return over_one(s, args, ReduceOp::All); }
ATENRT_CONVERTER(kFamily, "aten.cumsum.default", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) {
  return one(red::cumulative(s, args.tensor("self"), network::CumulativeOp::Sum,
                             args.i("dim"), dtype_of(args)));
}
ATENRT_CONVERTER(kFamily, "aten.cumprod.default", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) {
  return one(red::cumulative(s, args.tensor("self"), network::CumulativeOp::Prod,
                             args.i("dim"), dtype_of(args)));
}
double correction_of(const NodeArgs& args) {
  if (args.has("correction")) return args.opt_f("correction").value_or(1.0);
  if (args.has("unbiased")) return args.b("unbiased") ? 1.0 : 0.0;
  return 1.0;
}
Outputs variance(const Scope& s, const NodeArgs& args, bool sqrt) {
  return one(red::var(s, args.tensor("self"), dims_of(args, "dim"), correction_of(args),
                      keepdim(args), sqrt));
}
ATENRT_CONVERTER(kFamily, keys("aten.var.correction", "aten.var.dim", "aten.var.default"), .validator = all_of({reduce_dims, requires_static({"self"})}), .supports_dynamic_shapes = false)(const Scope& s, const NodeArgs& args) { return variance(s, args, false); }
ATENRT_CONVERTER(kFamily, keys("aten.std.correction", "aten.std.dim", "aten.std.default"), .validator = all_of({reduce_dims, requires_static({"self"})}), .supports_dynamic_shapes = false)(const Scope& s, const NodeArgs& args) { return variance(s, args, true); }
ATENRT_CONVERTER(kFamily, "aten.linalg_vector_norm.default", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) {
  auto* x = args.tensor("self");
  if (auto dt = dtype_of(args)) x = impl::cast(s, x, *dt);
  return one(red::vector_norm(s, x, args.f("ord"), dims_of(args, "dim"), keepdim(args)));
}
// NaN-ignoring sum and mean: NaNs count as 0 and are left out of the count.
NetworkTensor* nan_to_zero(const Scope& s, NetworkTensor* x) {
  if (!is_floating(x->dtype)) return x;
  return s.add_select("nan_to_zero", s.add_unary("isnan", x, network::UnaryOp::IsNan), impl::scalar_constant(s, 0.0, x->dtype), x);
}
ATENRT_CONVERTER(kFamily, "aten.nansum.default", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) {
  return one(red::reduce(s, nan_to_zero(s, args.tensor("self")), ReduceOp::Sum, dims_of(args, "dim"), keepdim(args), dtype_of(args)));
}
ATENRT_CONVERTER(kFamily, "aten.nanmean.default", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) {
  auto* x = args.tensor("self");
  if (auto dt = dtype_of(args)) x = impl::cast(s, x, *dt);
  auto* sum = red::reduce(s.child("sum"), nan_to_zero(s, x), ReduceOp::Sum, dims_of(args, "dim"), keepdim(args), std::nullopt);
  auto* present = impl::cast(s, s.add_unary("not_nan", s.add_unary("isnan", x, network::UnaryOp::IsNan), network::UnaryOp::Not), x->dtype);
  auto* count = red::reduce(s.child("count"), present, ReduceOp::Sum, dims_of(args, "dim"), keepdim(args), std::nullopt);
  return one(s.add_elementwise("", sum, count, network::ElementwiseOp::Div));
}
Outputs count_nonzero(const Scope& s, const NodeArgs& args, std::vector<std::int64_t> dims) {
  auto* x = args.tensor("self");
  auto* nz = x->dtype == DType::Bool ? x : impl::ew_scalar(s, x, 0.0, network::ElementwiseOp::NotEqual);
  return one(red::reduce(s, impl::cast(s, nz, DType::Int64), ReduceOp::Sum, std::move(dims), false, std::nullopt));
}
ATENRT_CONVERTER(kFamily, "aten.count_nonzero.dim_IntList", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) {
  const auto dims = args.ints("dim");
  if (dims.empty()) return one(impl::identity(s, impl::cast(s, impl::ew_scalar(s, args.tensor("self"), 0.0, network::ElementwiseOp::NotEqual), DType::Int64)));
  return count_nonzero(s, args, dims);
}
ATENRT_CONVERTER(kFamily, "aten.count_nonzero.default", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) {
  return count_nonzero(s, args, args.opt_i("dim") ? std::vector<std::int64_t>{*args.opt_i("dim")} : std::vector<std::int64_t>{});
}
Capability aminmax_fits(const NodeView& node, const ConversionSettings& settings) {
  const ir::TensorMeta* m = node.meta("self");
  if (m && m->sizes.empty() && node.literal_int("dim") && node.literal_bool("keepdim").value_or(false)) {
    return Capability::no("aminmax of a 0-d tensor with dim and keepdim: PyTorch returns [1] where its export "
                          "records []");
  }
  return nonempty_reduced_dim(node, settings);
}
ATENRT_CONVERTER(kFamily, "aten.aminmax.default", .validator = all_of({reduce_dims, aminmax_fits}))(const Scope& s, const NodeArgs& args) {
  auto* x = args.tensor("self");
  const auto dims = args.opt_i("dim") ? std::vector<std::int64_t>{*args.opt_i("dim")} : std::vector<std::int64_t>{};
  auto* lo = red::reduce(s.child("min"), x, ReduceOp::Min, dims, keepdim(args), std::nullopt);
  auto* hi = red::reduce(s.child("max"), x, ReduceOp::Max, dims, keepdim(args), std::nullopt);
  return {lo, hi};
}
ATENRT_CONVERTER(kFamily, "aten.dist.default", .validator = reduce_dims)(const Scope& s, const NodeArgs& args) {
  const Operand a = args.operand("self"), b = args.operand("other");
  const DType dt = impl::result_type(a, b);
  auto* d = impl::ew(s, impl::as_tensor(s, a, dt), impl::as_tensor(s, b, dt), network::ElementwiseOp::Sub);
  return one(red::vector_norm(s, d, args.f("p"), {}, false));
}
// torch.norm's overloads: p=None is the 2-norm; no dim list reduces every dim.
ATENRT_CONVERTER(kFamily, keys("aten.norm.Scalar", "aten.norm.ScalarOpt_dim", "aten.norm.ScalarOpt_dtype",
                               "aten.norm.ScalarOpt_dim_dtype"), .validator = reduce_dims)(const Scope& s, const NodeArgs& args) {
  auto* x = args.tensor("self");
  if (args.has("dtype")) x = impl::cast(s, x, *args.opt_dtype("dtype"));
  const double p = args.opt_f("p").value_or(2.0);
  const auto dims = args.has("dim") ? dims_of(args, "dim") : std::vector<std::int64_t>{};
  return one(red::vector_norm(s, x, p, dims, args.has("keepdim") && args.b("keepdim")));
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
