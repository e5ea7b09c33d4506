#include "conversion/impl/normalization.h"

#include "conversion/host_tensor.h"

namespace atenrt::conversion::impl::normalization {

using network::ElementwiseOp;
using network::NormalizationOp;
using network::NormalizationParams;

namespace {
// `t` as x's dtype, or a constant of `value` with `dims` when t is null.
NetworkTensor* param_or(ConversionContext& ctx, std::string_view name, NetworkTensor* t, const Dims& dims,
                        double value, DType dtype, std::string_view what) {
  if (t) return cast(ctx, name, t, dtype);
  Tensor c(dtype, dims);
  for (std::int64_t i = 0; i < c.numel(); ++i) set_element(c, i, value);
  return ctx.net().add_constant(ctx.layer_name(name, what), c);
}

std::int64_t channels(const NetworkTensor* x) {
  check(x->rank() >= 2, "normalization input must be [N, C, ...], got " + network::desc_to_string(x->desc()));
  check(x->dims[1] >= 0, "normalization needs a static channel dim");
  return x->dims[1];
}

// [C] → [1, C, 1, ...] to broadcast over x.
NetworkTensor* per_channel(ConversionContext& ctx, std::string_view name, NetworkTensor* t, int rank) {
  Dims d(static_cast<std::size_t>(rank), 1);
  d[1] = t->dims[0];
  return reshape(ctx, name, t, d);
}
}  // namespace

BatchNormResult batch_norm(ConversionContext& ctx, SourceIR, std::string_view name, NetworkTensor* x,
                           NetworkTensor* weight, NetworkTensor* bias, NetworkTensor* running_mean,
                           NetworkTensor* running_var, bool use_batch_stats, double eps) {
  if (!is_floating(x->dtype)) x = cast(ctx, name, x, DType::Float32);
  const DType dt = x->dtype;
  const std::int64_t c = channels(x);
  auto* w = param_or(ctx, name, weight, {c}, 1.0, dt, "ones");
  auto* b = param_or(ctx, name, bias, {c}, 0.0, dt, "zeros");
  if (!use_batch_stats) {
    check(running_mean && running_var, "batch_norm without batch statistics needs running_mean and running_var");
    NormalizationParams p;
    p.op = NormalizationOp::Batch;
    p.epsilon = eps;
    return {ctx.net().add_normalization(ctx.layer_name(name), x, w, b, p, cast(ctx, name, running_mean, dt),
                                        cast(ctx, name, running_var, dt)),
            nullptr, nullptr};
  }
  // Batch statistics over every dim but the channel dim (biased variance).
  Dims axes{0};
  for (int d = 2; d < x->rank(); ++d) axes.push_back(d);
  auto& net = ctx.net();
  auto* mean = net.add_reduce(ctx.layer_name(name, "mean"), x, network::ReduceOp::Mean, axes, true);
  auto* centered = ew(ctx, name, x, mean, ElementwiseOp::Sub);
  auto* var = net.add_reduce(ctx.layer_name(name, "var"), ew(ctx, name, centered, centered, ElementwiseOp::Mul),
                             network::ReduceOp::Mean, axes, true);
  auto* invstd = net.add_unary(ctx.layer_name(name, "rsqrt"), ew_scalar(ctx, name, var, eps, ElementwiseOp::Add),
                               network::UnaryOp::Rsqrt);
  auto* normed = ew(ctx, name, centered, invstd, ElementwiseOp::Mul);
  auto* scaled = ew(ctx, name, normed, per_channel(ctx, name, w, x->rank()), ElementwiseOp::Mul);
  auto* out = net.add_elementwise(ctx.layer_name(name), scaled, per_channel(ctx, name, b, x->rank()), ElementwiseOp::Add);
  return {out, reshape(ctx, name, mean, {c}), reshape(ctx, name, invstd, {c})};
}

NetworkTensor* layer_norm(ConversionContext& ctx, SourceIR, std::string_view name, NetworkTensor* x,
                          const std::vector<std::int64_t>& normalized_shape, NetworkTensor* weight,
                          NetworkTensor* bias, double eps) {
  if (!is_floating(x->dtype)) x = cast(ctx, name, x, DType::Float32);
  const auto k = static_cast<std::int64_t>(normalized_shape.size());
  check(k >= 1 && k <= x->rank(), "layer_norm normalized_shape " + shape_to_string(normalized_shape) +
                                      " does not fit input " + network::desc_to_string(x->desc()));
  const std::int64_t axis = x->rank() - k;
  for (std::int64_t i = 0; i < k; ++i) {
    const auto have = x->dims[static_cast<std::size_t>(axis + i)];
    check(have < 0 || have == normalized_shape[static_cast<std::size_t>(i)],
          "layer_norm normalized_shape " + shape_to_string(normalized_shape) + " does not match input " +
              network::desc_to_string(x->desc()));
  }
  const Dims pd(normalized_shape.begin(), normalized_shape.end());
  auto* w = param_or(ctx, name, weight, pd, 1.0, x->dtype, "ones");
  auto* b = param_or(ctx, name, bias, pd, 0.0, x->dtype, "zeros");
  NormalizationParams p;
  p.op = NormalizationOp::Layer;
  p.epsilon = eps;
  p.axis = axis;
  return ctx.net().add_normalization(ctx.layer_name(name), x, w, b, p);
}

NetworkTensor* group_norm(ConversionContext& ctx, SourceIR, std::string_view name, NetworkTensor* x,
                          std::int64_t groups, NetworkTensor* weight, NetworkTensor* bias, double eps) {
  if (!is_floating(x->dtype)) x = cast(ctx, name, x, DType::Float32);
  const std::int64_t c = channels(x);
  auto* w = param_or(ctx, name, weight, {c}, 1.0, x->dtype, "ones");
  auto* b = param_or(ctx, name, bias, {c}, 0.0, x->dtype, "zeros");
  NormalizationParams p;
  p.op = NormalizationOp::Group;
  p.epsilon = eps;
  p.num_groups = groups;
  return ctx.net().add_normalization(ctx.layer_name(name), x, w, b, p);
}

NetworkTensor* instance_norm(ConversionContext& ctx, SourceIR, std::string_view name, NetworkTensor* x,
                             NetworkTensor* weight, NetworkTensor* bias, double eps) {
  if (!is_floating(x->dtype)) x = cast(ctx, name, x, DType::Float32);
  const std::int64_t c = channels(x);
  auto* w = param_or(ctx, name, weight, {c}, 1.0, x->dtype, "ones");
  auto* b = param_or(ctx, name, bias, {c}, 0.0, x->dtype, "zeros");
  NormalizationParams p;
  p.op = NormalizationOp::Instance;
  p.epsilon = eps;
  return ctx.net().add_normalization(ctx.layer_name(name), x, w, b, p);
}

}  // namespace atenrt::conversion::impl::normalization
