#include "conversion/impl/normalization.h"

#include "conversion/host_tensor.h"
#include "conversion/impl/reduce.h"

namespace atenrt::conversion::impl::normalization {

std::optional<std::string> layer_norm_shape_problem(const std::vector<std::int64_t>& normalized_shape,
                                                    const std::vector<std::int64_t>& input_dims) {
  const auto k = normalized_shape.size();
  if (k < 1 || k > input_dims.size()) {
    return "layer_norm normalized_shape " + shape_to_string(normalized_shape) + " does not fit an input of rank " +
           std::to_string(input_dims.size());
  }
  const std::size_t axis = input_dims.size() - k;
  for (std::size_t i = 0; i < k; ++i) {
    const auto have = input_dims[axis + i];
    if (have >= 0 && have != normalized_shape[i]) {
      return "layer_norm normalized_shape " + shape_to_string(normalized_shape) + " does not match input " +
             shape_to_string(input_dims);
    }
  }
  return std::nullopt;
}

std::optional<std::string> group_norm_problem(std::int64_t channels, std::int64_t groups) {
  if (groups > 0 && (channels < 0 || channels % groups == 0)) return std::nullopt;
  return "group_norm: " + std::to_string(channels) + " channels do not split into " + std::to_string(groups) +
         " groups";
}

using network::ElementwiseOp;
using network::NormalizationOp;
using network::NormalizationParams;

namespace {
// `t` as x's dtype, or a constant of `value` with `dims` when t is null.
NetworkTensor* param_or(const Scope& s, NetworkTensor* t, const Dims& dims,
                        double value, DType dtype, std::string_view what) {
  if (t) return cast(s, t, dtype);
  Tensor c(dtype, dims);
  for (std::int64_t i = 0; i < c.numel(); ++i) set_element(c, i, value);
  return s.add_constant(what, c);
}

std::int64_t channels(const NetworkTensor* x) {
  check(x->rank() >= 2, "normalization input must be [N, C, ...], got " + network::desc_to_string(x->desc()));
  check(x->dims[1] >= 0, "normalization needs a static channel dim");
  return x->dims[1];
}

// The dtype PyTorch's CPU norm kernels compute in: float32 for bfloat16/float16 inputs (their
// statistics, and the result before its one rounding to the input's dtype) and for integers.
DType compute_dtype(DType input) {
  return input == DType::Float32 || input == DType::Float64 ? input : DType::Float32;
}

// The result's dtype: the input's, float32 for integer inputs.
DType result_dtype(DType input) { return is_floating(input) ? input : DType::Float32; }

// [C] → [1, C, 1, ...] to broadcast over x.
NetworkTensor* per_channel(const Scope& s, NetworkTensor* t, int rank) {
  Dims d(static_cast<std::size_t>(rank), 1);
  d[1] = t->dims[0];
  return reshape(s, t, d);
}
}  // namespace

BatchNormResult batch_norm(const Scope& s, NetworkTensor* x,
                           NetworkTensor* weight, NetworkTensor* bias, NetworkTensor* running_mean,
                           NetworkTensor* running_var, bool use_batch_stats, double eps) {
  const DType out_dt = result_dtype(x->dtype);
  x = cast(s, x, compute_dtype(x->dtype));
  const DType dt = x->dtype;
  const std::int64_t c = channels(x);
  auto* w = param_or(s, weight, {c}, 1.0, dt, "ones");
  auto* b = param_or(s, bias, {c}, 0.0, dt, "zeros");
  if (!use_batch_stats) {
    check(running_mean && running_var, "batch_norm without batch statistics needs running_mean and running_var");
    NormalizationParams p;
    p.op = NormalizationOp::Batch;
    p.epsilon = eps;
    auto* y = s.add_normalization(out_dt == dt ? "" : "f32", x, w, b, p, cast(s, running_mean, dt),
                                  cast(s, running_var, dt));
    return {cast(s, y, out_dt), nullptr, nullptr};
  }
  // Batch statistics over every dim but the channel dim (biased variance).
  Dims axes{0};
  for (int d = 2; d < x->rank(); ++d) axes.push_back(d);
  auto* mean = s.add_reduce("mean", x, network::ReduceOp::Mean, axes, true);
  auto* centered = ew(s, x, mean, ElementwiseOp::Sub);
  auto* var = s.add_reduce("var", ew(s, centered, centered, ElementwiseOp::Mul),
                             network::ReduceOp::Mean, axes, true);
  auto* invstd = s.add_unary("rsqrt", ew_scalar(s, var, eps, ElementwiseOp::Add), network::UnaryOp::Rsqrt);
  auto* normed = ew(s, centered, invstd, ElementwiseOp::Mul);
  auto* scaled = ew(s, normed, per_channel(s, w, x->rank()), ElementwiseOp::Mul);
  auto* out = s.add_elementwise(out_dt == dt ? "" : "f32", scaled, per_channel(s, b, x->rank()), ElementwiseOp::Add);
  return {cast(s, out, out_dt), reshape(s, mean, {c}), reshape(s, invstd, {c}), reshape(s, var, {c})};
}

RunningStats updated_running_stats(const Scope& s, NetworkTensor* x, const BatchNormResult& batch,
                                   NetworkTensor* running_mean, NetworkTensor* running_var, double momentum) {
  check(batch.mean && batch.var, "the running statistics are updated from batch statistics");
  check(running_mean && running_var, "updating the running statistics needs running_mean and running_var");
  const Dims& dims = static_dims(x, "the unbiased variance of the running statistics divides by the elements per channel");
  const double n = static_cast<double>(numel(dims)) / static_cast<double>(channels(x));
  // n == 1 gives var * inf: 0 * inf is nan, as torch's var_sum / 0 is.
  const double unbias = n / (n - 1.0);
  auto blend = [&](NetworkTensor* running, NetworkTensor* stat, double scale, const char* what) {
    auto* r = running;
    auto* b = cast(s, stat, r->dtype);
    if (scale != 1.0) b = ew_scalar(s, b, scale, ElementwiseOp::Mul);
    auto* kept = ew_scalar(s, r, 1.0 - momentum, ElementwiseOp::Mul);
    return s.add_elementwise(what, ew_scalar(s, b, momentum, ElementwiseOp::Mul), kept, ElementwiseOp::Add);
  };
  return {blend(running_mean, batch.mean, 1.0, "running_mean"), blend(running_var, batch.var, unbias, "running_var")};
}

NetworkTensor* layer_norm(const Scope& s, NetworkTensor* x,
                          const std::vector<std::int64_t>& normalized_shape, NetworkTensor* weight,
                          NetworkTensor* bias, double eps) {
  const DType out_dt = result_dtype(x->dtype);
  x = cast(s, x, compute_dtype(x->dtype));
  if (auto why = layer_norm_shape_problem(normalized_shape, x->dims)) check(false, *why);
  const auto k = static_cast<std::int64_t>(normalized_shape.size());
  const std::int64_t axis = x->rank() - k;
  const Dims pd(normalized_shape.begin(), normalized_shape.end());
  auto* w = param_or(s, weight, pd, 1.0, x->dtype, "ones");
  auto* b = param_or(s, bias, pd, 0.0, x->dtype, "zeros");
  NormalizationParams p;
  p.op = NormalizationOp::Layer;
  p.epsilon = eps;
  p.axis = axis;
  return cast(s, s.add_normalization(out_dt == x->dtype ? "" : "f32", x, w, b, p), out_dt);
}

NetworkTensor* group_norm(const Scope& s, NetworkTensor* x,
                          std::int64_t groups, NetworkTensor* weight, NetworkTensor* bias, double eps) {
  const DType out_dt = result_dtype(x->dtype);
  x = cast(s, x, compute_dtype(x->dtype));
  const std::int64_t c = channels(x);
  if (auto why = group_norm_problem(c, groups)) check(false, *why);
  auto* w = param_or(s, weight, {c}, 1.0, x->dtype, "ones");
  auto* b = param_or(s, bias, {c}, 0.0, x->dtype, "zeros");
  NormalizationParams p;
  p.op = NormalizationOp::Group;
  p.epsilon = eps;
  p.num_groups = groups;
  return cast(s, s.add_normalization(out_dt == x->dtype ? "" : "f32", x, w, b, p), out_dt);
}

namespace {
struct Moments {
  NetworkTensor* centered;
  NetworkTensor* mean;
  NetworkTensor* rstd;
};
// Mean and 1/sqrt(biased var + eps) over `axes` (kept as 1s), and x - mean.
Moments moments(const Scope& s, NetworkTensor* x, const Dims& axes, double eps) {
  auto* mean = s.add_reduce("mean", x, network::ReduceOp::Mean, axes, true);
  auto* centered = ew(s, x, mean, ElementwiseOp::Sub);
  auto* var = s.add_reduce("var", ew(s, centered, centered, ElementwiseOp::Mul), network::ReduceOp::Mean, axes, true);
  auto* rstd = s.add_unary("rsqrt", ew_scalar(s, var, eps, ElementwiseOp::Add), network::UnaryOp::Rsqrt);
  return {centered, mean, rstd};
}
}  // namespace

NormWithStats layer_norm_with_stats(const Scope& s, NetworkTensor* x,
                                    const std::vector<std::int64_t>& normalized_shape, NetworkTensor* weight,
                                    NetworkTensor* bias, double eps) {
  const DType out_dt = result_dtype(x->dtype);
  x = cast(s, x, compute_dtype(x->dtype));
  if (auto why = layer_norm_shape_problem(normalized_shape, x->dims)) check(false, *why);
  const auto k = static_cast<std::int64_t>(normalized_shape.size());
  Dims axes;
  for (std::int64_t a = x->rank() - k; a < x->rank(); ++a) axes.push_back(a);
  const Moments m = moments(s, x, axes, eps);
  // The result from the layer, whose kernels compute it in PyTorch's arithmetic (a row that barely
  // varies gives torch's rounding); the layer takes eps >= 0 only.
  if (eps >= 0) {
    return {identity(s, cast(s, layer_norm(s.child("f32"), x, normalized_shape, weight, bias, eps), out_dt)), m.mean,
            m.rstd};
  }
  NetworkTensor* y = ew(s, m.centered, m.rstd, ElementwiseOp::Mul);
  // weight/bias have the normalized shape: they broadcast over the leading dims as they are.
  if (weight) y = ew(s, y, cast(s, weight, x->dtype), ElementwiseOp::Mul);
  if (bias) y = ew(s, y, cast(s, bias, x->dtype), ElementwiseOp::Add);
  return {identity(s, cast(s, y, out_dt)), m.mean, m.rstd};
}

NormWithStats group_norm_with_stats(const Scope& s, NetworkTensor* x, std::int64_t groups,
                                    NetworkTensor* weight, NetworkTensor* bias, double eps) {
  const DType out_dt = result_dtype(x->dtype);
  x = cast(s, x, compute_dtype(x->dtype));
  const std::int64_t c = channels(x);
  const Dims& dims = static_dims(x, "group_norm with statistics");
  if (auto why = group_norm_problem(c, groups)) check(false, *why);
  const std::int64_t n = dims[0];
  auto* grouped = reshape(s, x, {n, groups, numel(dims) / std::max<std::int64_t>(n * groups, 1)});
  const Moments m = moments(s, grouped, {2}, eps);
  NetworkTensor* y = reshape(s, ew(s, m.centered, m.rstd, ElementwiseOp::Mul), dims);
  if (weight) y = ew(s, y, per_channel(s, cast(s, weight, x->dtype), x->rank()), ElementwiseOp::Mul);
  if (bias) y = ew(s, y, per_channel(s, cast(s, bias, x->dtype), x->rank()), ElementwiseOp::Add);
  return {identity(s, cast(s, y, out_dt)), reshape(s, m.mean, {n, groups}), reshape(s, m.rstd, {n, groups})};
}

WeightNorm weight_norm(const Scope& s, NetworkTensor* v, NetworkTensor* g, std::int64_t dim) {
  if (!is_floating(v->dtype)) v = cast(s, v, DType::Float32);
  std::vector<std::int64_t> axes;
  if (dim != -1) {
    const auto d = normalize_dim(dim, v->rank());
    for (std::int64_t a = 0; a < v->rank(); ++a) {
      if (a != d) axes.push_back(a);
    }
  } else {
    for (std::int64_t a = 0; a < v->rank(); ++a) axes.push_back(a);
  }
  auto* norm = reduce::vector_norm(s.child("norm"), v, 2.0, axes, dim != -1);
  auto* gain = cast(s, g, v->dtype);
  auto* w = s.add_elementwise("", v, ew(s, gain, norm, ElementwiseOp::Div), ElementwiseOp::Mul);
  if (norm->dims != g->dims && numel(norm->dims) == numel(g->dims)) norm = reshape(s, norm, g->dims);
  return {w, norm};
}

NetworkTensor* instance_norm(const Scope& s, NetworkTensor* x,
                             NetworkTensor* weight, NetworkTensor* bias, double eps) {
  const DType out_dt = result_dtype(x->dtype);
  x = cast(s, x, compute_dtype(x->dtype));
  const std::int64_t c = channels(x);
  auto* w = param_or(s, weight, {c}, 1.0, x->dtype, "ones");
  auto* b = param_or(s, bias, {c}, 0.0, x->dtype, "zeros");
  NormalizationParams p;
  p.op = NormalizationOp::Instance;
  p.epsilon = eps;
  return cast(s, s.add_normalization(out_dt == x->dtype ? "" : "f32", x, w, b, p), out_dt);
}

}  // namespace atenrt::conversion::impl::normalization
