#include "conversion/impl/activation.h"

#include <cmath>

#include "atenrt/errors.h"

namespace atenrt::conversion::impl::activation {

using network::ActivationOp;
using network::ElementwiseOp;

NetworkTensor* activation(ConversionContext& ctx, SourceIR, std::string_view name, NetworkTensor* x,
                          ActivationOp op, double alpha, double beta) {
  const bool int_ok = op == ActivationOp::Relu || op == ActivationOp::Clip;
  if (!is_floating(x->dtype) && !int_ok) x = cast(ctx, name, x, DType::Float32);
  return ctx.net().add_activation(ctx.layer_name(name), x, op, alpha, beta);
}

NetworkTensor* relu(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x) {
  return activation(ctx, src, name, x, ActivationOp::Relu);
}
NetworkTensor* relu6(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x) {
  return activation(ctx, src, name, x, ActivationOp::Clip, 0.0, 6.0);
}
NetworkTensor* sigmoid(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x) {
  return activation(ctx, src, name, x, ActivationOp::Sigmoid);
}
NetworkTensor* tanh(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x) {
  return activation(ctx, src, name, x, ActivationOp::Tanh);
}
NetworkTensor* leaky_relu(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x,
                          double negative_slope) {
  return activation(ctx, src, name, x, ActivationOp::LeakyRelu, negative_slope);
}

NetworkTensor* elu(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x, double alpha,
                   double scale, double input_scale) {
  if (scale == 1.0 && input_scale == 1.0) return activation(ctx, src, name, x, ActivationOp::Elu, alpha);
  if (!is_floating(x->dtype)) x = cast(ctx, name, x, DType::Float32);
  // scale * (x > 0 ? x : alpha * (exp(input_scale * x) - 1))
  auto* scaled_in = ew_scalar(ctx, name, x, input_scale, ElementwiseOp::Mul);
  auto* e = ctx.net().add_unary(ctx.layer_name(name, "expm1"), scaled_in, network::UnaryOp::Expm1);
  auto* neg = ew_scalar(ctx, name, e, alpha, ElementwiseOp::Mul);
  auto* pos_mask = ew_scalar(ctx, name, x, 0.0, ElementwiseOp::Greater);
  auto* sel = ctx.net().add_select(ctx.layer_name(name, "select"), pos_mask, x, neg);
  return ctx.net().add_elementwise(ctx.layer_name(name), sel, scalar_constant(ctx, name, scale, x->dtype),
                                   ElementwiseOp::Mul);
}

NetworkTensor* selu(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x) {
  return activation(ctx, src, name, x, ActivationOp::Selu);
}

NetworkTensor* gelu(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x,
                    std::string_view approximate) {
  if (approximate == "none") return activation(ctx, src, name, x, ActivationOp::GeluErf);
  if (approximate == "tanh") return activation(ctx, src, name, x, ActivationOp::GeluTanh);
  throw UnsupportedError("gelu approximate='" + std::string(approximate) + "' (expected 'none' or 'tanh')");
}

NetworkTensor* hardsigmoid(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x) {
  return activation(ctx, src, name, x, ActivationOp::HardSigmoid, 1.0 / 6.0, 0.5);
}
NetworkTensor* hardswish(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x) {
  return activation(ctx, src, name, x, ActivationOp::HardSwish);
}
NetworkTensor* hardtanh(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x,
                        double min_val, double max_val) {
  if (min_val > max_val) {
    // torch clamps to min first, then max: every element becomes max_val.
    auto* lo = activation(ctx, src, std::string(name) + ".lo", x, ActivationOp::Clip, min_val, min_val);
    return ew_scalar(ctx, name, ew_scalar(ctx, name, lo, 0.0, ElementwiseOp::Mul), max_val, ElementwiseOp::Add);
  }
  return activation(ctx, src, name, x, ActivationOp::Clip, min_val, max_val);
}
NetworkTensor* softplus(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x,
                        double beta, double threshold) {
  check(beta != 0.0, "softplus beta must not be 0");
  return activation(ctx, src, name, x, ActivationOp::Softplus, beta, threshold);
}
NetworkTensor* silu(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x) {
  return activation(ctx, src, name, x, ActivationOp::Silu);
}
NetworkTensor* mish(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x) {
  return activation(ctx, src, name, x, ActivationOp::Mish);
}

NetworkTensor* prelu(ConversionContext& ctx, SourceIR, std::string_view name, NetworkTensor* x,
                     NetworkTensor* weight, bool channel_weight) {
  if (weight->dtype != x->dtype) weight = cast(ctx, name, weight, x->dtype);
  if (channel_weight && x->rank() >= 2 && weight->rank() == 1 && weight->dims[0] != 1) {
    Dims wd(static_cast<std::size_t>(x->rank() - 1), 1);
    wd[0] = weight->dims[0];
    weight = reshape(ctx, name, weight, wd);
  }
  auto* scaled = ew(ctx, name, x, weight, ElementwiseOp::Mul);
  auto* pos = ew_scalar(ctx, name, x, 0.0, ElementwiseOp::Greater);
  return ctx.net().add_select(ctx.layer_name(name), pos, x, scaled);
}

NetworkTensor* softmax(ConversionContext& ctx, SourceIR, std::string_view name, NetworkTensor* x,
                       std::int64_t dim, bool log) {
  if (!is_floating(x->dtype)) x = cast(ctx, name, x, DType::Float32);
  const auto axis = normalize_dim(dim, x->rank());
  if (x->rank() == 0) {
    // softmax of a single element: 1 (log: 0).
    return ctx.net().add_elementwise(ctx.layer_name(name), ew_scalar(ctx, name, x, 0.0, ElementwiseOp::Mul),
                                     scalar_constant(ctx, name, log ? 0.0 : 1.0, x->dtype), ElementwiseOp::Add);
  }
  return ctx.net().add_softmax(ctx.layer_name(name), x, axis, log);
}

}  // namespace atenrt::conversion::impl::activation
