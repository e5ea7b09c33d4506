#include "conversion/impl/reduce.h"

#include <cmath>

namespace atenrt::conversion::impl::reduce {

using network::ElementwiseOp;

NetworkTensor* reduce(ConversionContext& ctx, SourceIR, std::string_view name, NetworkTensor* x, ReduceOp op,
                      std::vector<std::int64_t> dims, bool keepdim, std::optional<DType> dtype) {
  if (dtype) x = cast(ctx, name, x, *dtype);
  if (op == ReduceOp::Mean && !is_floating(x->dtype)) x = cast(ctx, name, x, DType::Float32);
  if ((op == ReduceOp::Sum || op == ReduceOp::Prod) && !is_floating(x->dtype) && x->dtype != DType::Int64) {
    x = cast(ctx, name, x, DType::Int64);
  }
  if ((op == ReduceOp::Any || op == ReduceOp::All) && x->dtype != DType::Bool) x = cast(ctx, name, x, DType::Bool);
  if (x->rank() == 0) {
    // Reducing a 0-d tensor (over dim 0 / -1, or all) gives the value itself.
    for (auto d : dims) normalize_dim(d, 0);
    return identity(ctx, name, x);
  }
  Dims axes = normalize_dims(dims, x->rank());
  if (axes.empty()) {
    for (int d = 0; d < x->rank(); ++d) axes.push_back(d);
  }
  return ctx.net().add_reduce(ctx.layer_name(name), x, op, axes, keepdim);
}

NetworkTensor* arg_reduce(ConversionContext& ctx, SourceIR, std::string_view name, NetworkTensor* x, ReduceOp op,
                          std::optional<std::int64_t> dim, bool keepdim) {
  if (x->dtype == DType::Bool) x = cast(ctx, name, x, DType::UInt8);
  if (x->rank() == 0) {
    if (dim) normalize_dim(*dim, 0);
    return ctx.net().add_constant(ctx.layer_name(name), Tensor(DType::Int64, {}));
  }
  if (!dim) {
    const Dims& d = static_dims(x, "argmax/argmin over every dim");
    auto* flat = reshape(ctx, name, x, {numel(d)});
    auto* r = ctx.net().add_reduce(ctx.layer_name(name, keepdim ? "flat" : ""), flat, op, {0}, false);
    if (!keepdim) return r;
    return ctx.net().add_reshape(ctx.layer_name(name), r, Dims(static_cast<std::size_t>(x->rank()), 1));
  }
  const auto axis = normalize_dim(*dim, x->rank());
  return ctx.net().add_reduce(ctx.layer_name(name), x, op, {axis}, keepdim);
}

NetworkTensor* cumulative(ConversionContext& ctx, SourceIR, std::string_view name, NetworkTensor* x,
                          network::CumulativeOp op, std::int64_t dim, std::optional<DType> dtype) {
  if (dtype) x = cast(ctx, name, x, *dtype);
  if (!is_floating(x->dtype) && x->dtype != DType::Int64) x = cast(ctx, name, x, DType::Int64);
  if (x->rank() == 0) {
    normalize_dim(dim, 0);
    return identity(ctx, name, x);
  }
  return ctx.net().add_cumulative(ctx.layer_name(name), x, op, normalize_dim(dim, x->rank()));
}

NetworkTensor* var(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x,
                   std::vector<std::int64_t> dims, double correction, bool keepdim, bool take_sqrt) {
  if (!is_floating(x->dtype)) x = cast(ctx, name, x, DType::Float32);
  Dims axes = normalize_dims(dims, x->rank());
  if (axes.empty()) {
    for (int d = 0; d < x->rank(); ++d) axes.push_back(d);
  }
  std::int64_t n = 1;
  for (auto a : axes) {
    const auto s = x->dims[static_cast<std::size_t>(a)];
    check(s >= 0, "var/std needs static sizes on the reduced dims");
    n *= s;
  }
  auto* mean = ctx.net().add_reduce(ctx.layer_name(name, "mean"), x, ReduceOp::Mean, axes, true);
  auto* d = ew(ctx, name, x, mean, ElementwiseOp::Sub);
  auto* ss = ctx.net().add_reduce(ctx.layer_name(name, "sumsq"), ew(ctx, name, d, d, ElementwiseOp::Mul),
                                  ReduceOp::Sum, axes, keepdim);
  const double denom = std::max(0.0, static_cast<double>(n) - correction);
  // denom 0 gives inf/nan as torch does.
  auto* v = ew_scalar(ctx, std::string(name) + (take_sqrt ? ".var" : ""), ss, denom, ElementwiseOp::Div);
  (void)src;
  if (!take_sqrt) return v;
  return ctx.net().add_unary(ctx.layer_name(name), v, network::UnaryOp::Sqrt);
}

NetworkTensor* vector_norm(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x, double ord,
                           std::vector<std::int64_t> dims, bool keepdim) {
  if (!is_floating(x->dtype)) x = cast(ctx, name, x, DType::Float32);
  auto* a = ctx.net().add_unary(ctx.layer_name(name, "abs"), x, network::UnaryOp::Abs);
  if (std::isinf(ord)) {
    return reduce(ctx, src, name, a, ord > 0 ? ReduceOp::Max : ReduceOp::Min, std::move(dims), keepdim);
  }
  if (ord == 0.0) {
    auto* nz = cast(ctx, name, ew_scalar(ctx, name, x, 0.0, ElementwiseOp::NotEqual), x->dtype);
    return reduce(ctx, src, name, nz, ReduceOp::Sum, std::move(dims), keepdim);
  }
  if (ord == 1.0) return reduce(ctx, src, name, a, ReduceOp::Sum, std::move(dims), keepdim);
  auto* p = ew_scalar(ctx, name, a, ord, ElementwiseOp::Pow);
  auto* s = reduce(ctx, src, std::string(name) + ".sum", p, ReduceOp::Sum, std::move(dims), keepdim);
  return ctx.net().add_elementwise(ctx.layer_name(name), s, scalar_constant(ctx, name, 1.0 / ord, s->dtype),
                                   ElementwiseOp::Pow);
}

}  // namespace atenrt::conversion::impl::reduce
