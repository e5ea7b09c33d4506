#include "conversion/impl/activation.h"

#include <cmath>

#include "atenrt/errors.h"
#include "conversion/host_tensor.h"
#include "conversion/impl/elementwise.h"
#include "conversion/impl/reduce.h"
#include "conversion/impl/select.h"

namespace atenrt::conversion::impl::activation {

using network::ActivationOp;
using network::ElementwiseOp;
using network::ReduceOp;

NetworkTensor* activation(const Scope& s, NetworkTensor* x, ActivationOp op, double alpha, double beta) {
  const bool int_ok = op == ActivationOp::Relu || op == ActivationOp::Clip;
  if (!is_floating(x->dtype) && !int_ok) x = cast(s, x, DType::Float32);
  return s.add_activation("", x, op, alpha, beta);
}

NetworkTensor* relu(const Scope& s, NetworkTensor* x) {
  return activation(s, x, ActivationOp::Relu);
}
NetworkTensor* relu6(const Scope& s, NetworkTensor* x) {
  return activation(s, x, ActivationOp::Clip, 0.0, 6.0);
}
NetworkTensor* sigmoid(const Scope& s, NetworkTensor* x) {
  return activation(s, x, ActivationOp::Sigmoid);
}
NetworkTensor* tanh(const Scope& s, NetworkTensor* x) {
  return activation(s, x, ActivationOp::Tanh);
}
NetworkTensor* leaky_relu(const Scope& s, NetworkTensor* x, double negative_slope) {
  return activation(s, x, ActivationOp::LeakyRelu, negative_slope);
}

NetworkTensor* elu(const Scope& s, NetworkTensor* x, double alpha, double scale, double input_scale) {
  if (scale == 1.0 && input_scale == 1.0) return activation(s, x, ActivationOp::Elu, alpha);
  if (!is_floating(x->dtype)) x = cast(s, x, DType::Float32);
  // scale * (x > 0 ? x : alpha * (exp(input_scale * x) - 1))
  auto* scaled_in = ew_scalar(s, x, input_scale, ElementwiseOp::Mul);
  auto* e = s.add_unary("expm1", scaled_in, network::UnaryOp::Expm1);
  auto* neg = ew_scalar(s, e, alpha, ElementwiseOp::Mul);
  auto* pos_mask = ew_scalar(s, x, 0.0, ElementwiseOp::Greater);
  auto* sel = s.add_select("select", pos_mask, x, neg);
  return s.add_elementwise("", sel, scalar_constant(s, scale, x->dtype), ElementwiseOp::Mul);
}

NetworkTensor* selu(const Scope& s, NetworkTensor* x) {
  return activation(s, x, ActivationOp::Selu);
}

NetworkTensor* gelu(const Scope& s, NetworkTensor* x, std::string_view approximate) {
  if (approximate == "none") return activation(s, x, ActivationOp::GeluErf);
  if (approximate == "tanh") return activation(s, x, ActivationOp::GeluTanh);
  throw UnsupportedError("gelu approximate='" + std::string(approximate) + "' (expected 'none' or 'tanh')");
}

NetworkTensor* hardsigmoid(const Scope& s, NetworkTensor* x) {
  return activation(s, x, ActivationOp::HardSigmoid, 1.0 / 6.0, 0.5);
}
NetworkTensor* hardswish(const Scope& s, NetworkTensor* x) {
  return activation(s, x, ActivationOp::HardSwish);
}
NetworkTensor* hardtanh(const Scope& s, NetworkTensor* x, double min_val, double max_val) {
  if (min_val > max_val) {
    // torch clamps to min first, then max: every element becomes max_val.
    auto* lo = activation(s.child("lo"), x, ActivationOp::Clip, min_val, min_val);
    return ew_scalar(s, ew_scalar(s, lo, 0.0, ElementwiseOp::Mul), max_val, ElementwiseOp::Add);
  }
  return activation(s, x, ActivationOp::Clip, min_val, max_val);
}
NetworkTensor* softplus(const Scope& s, NetworkTensor* x, double beta, double threshold) {
  check(beta != 0.0, "softplus beta must not be 0");
  return activation(s, x, ActivationOp::Softplus, beta, threshold);
}
NetworkTensor* silu(const Scope& s, NetworkTensor* x) {
  return activation(s, x, ActivationOp::Silu);
}
NetworkTensor* mish(const Scope& s, NetworkTensor* x) {
  return activation(s, x, ActivationOp::Mish);
}

NetworkTensor* prelu(const Scope& s, NetworkTensor* x, NetworkTensor* weight, bool channel_weight) {
  if (weight->dtype != x->dtype) weight = cast(s, weight, x->dtype);
  if (channel_weight && x->rank() >= 2 && weight->rank() == 1 && weight->dims[0] != 1) {
    Dims wd(static_cast<std::size_t>(x->rank() - 1), 1);
    wd[0] = weight->dims[0];
    weight = reshape(s, weight, wd);
  }
  auto* scaled = ew(s, x, weight, ElementwiseOp::Mul);
  auto* pos = ew_scalar(s, x, 0.0, ElementwiseOp::Greater);
  return s.add_select("", pos, x, scaled);
}

NetworkTensor* softmax(const Scope& s, NetworkTensor* x, std::int64_t dim, bool log) {
  if (!is_floating(x->dtype)) x = cast(s, x, DType::Float32);
  const auto axis = normalize_dim(dim, x->rank());
  if (x->rank() == 0) {
    // softmax of a single element: 1 (log: 0).
    return s.add_elementwise("", ew_scalar(s, x, 0.0, ElementwiseOp::Mul),
                                     scalar_constant(s, log ? 0.0 : 1.0, x->dtype), ElementwiseOp::Add);
  }
  return s.add_softmax("", x, axis, log);
}

NetworkTensor* safe_softmax(const Scope& s, NetworkTensor* x, std::int64_t dim) {
  auto* soft = softmax(s, x, dim, false);
  auto* row_max = reduce::reduce(s.child("row_max"), x, ReduceOp::Max, {dim}, true);
  Tensor minus_inf(row_max->dtype, {});  // a tensor: a Scalar holding inf would be cast to int
  set_element(minus_inf, 0, -INFINITY);
  auto* masked = elementwise::compare(s.child("masked"), Operand{row_max, {}},
                                      Operand{s.constant(minus_inf, "minus_inf"), {}}, ElementwiseOp::Equal);
  return select::where(s.child("safe"), masked, Operand{nullptr, Scalar::of_float(0.0)}, Operand{soft, {}});
}

}  // namespace atenrt::conversion::impl::activation
