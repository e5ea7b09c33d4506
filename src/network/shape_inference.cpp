// Per-kind tables (names) and the shape-inference dispatch.
#include <algorithm>
#include <array>
#include <limits>
#include <sstream>

#include "network/infer.h"

namespace atenrt::network {

namespace {
constexpr std::array<std::string_view, kLayerKindCount> kKindNames = {
    "Activation", "Elementwise",   "Unary",  "MatMul",   "Convolution", "Deconvolution",
    "Pooling",    "Softmax",       "Normalization", "Reduce", "Shuffle", "Slice",
    "Concatenation", "Gather",     "Scatter", "Select",  "Constant",    "Cast",
    "Padding",    "Resize",        "TopK",   "Cumulative", "Shape",     "Fill",
    "Plugin",     "LinearAlgebra", "DataDependent", "Check"};
static_assert(kKindNames.size() == kLayerKindCount);
}  // namespace

std::string_view layer_kind_name(LayerKind kind) {
  const auto i = static_cast<std::size_t>(kind);
  return i < kKindNames.size() ? kKindNames[i] : "?";
}

std::string desc_to_string(const TensorDesc& desc) {
  return std::string(dtype_name(desc.dtype)) + detail::dims_to_string(desc.dims);
}

bool NetworkTensor::is_static() const {
  for (auto d : dims) {
    if (d < 0) return false;
  }
  return true;
}

std::optional<Dims> broadcast_dims(const Dims& a, const Dims& b) {
  const std::size_t rank = std::max(a.size(), b.size());
  Dims out(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    // Align from the right; a missing dim acts as 1.
    const std::int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const std::int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da == db) {
      out[i] = da;
    } else if (da == 1) {
      out[i] = db;
    } else if (db == 1) {
      out[i] = da;
    } else if (da == kDynamicDim || db == kDynamicDim) {
      out[i] = da == kDynamicDim ? db : da;  // the dynamic side must match at run time
    } else {
      return std::nullopt;
    }
  }
  return out;
}

std::vector<TensorDesc> infer_outputs(std::string_view layer_name, const LayerParams& params,
                                      std::span<const TensorDesc> inputs,
                                      std::span<const Tensor* const> values) {
  detail::InferContext ctx{layer_name, kind_of(params), inputs, values};
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    for (auto d : inputs[i].dims) {
      if (d < kDynamicDim) ctx.fail("input " + std::to_string(i) + " has invalid dims " +
                                    detail::dims_to_string(inputs[i].dims));
    }
  }
  return std::visit([&](const auto& p) { return detail::infer(ctx, p); }, params);
}

namespace detail {

std::string dims_to_string(const Dims& dims) { return shape_to_string(dims); }

std::string layer_prefix(std::string_view layer_name, LayerKind kind) {
  return "layer '" + std::string(layer_name) + "' (" + std::string(layer_kind_name(kind)) + "): ";
}

void InferContext::fail(const std::string& message) const {
  throw LayerError(layer_prefix(layer_name, kind) + message);
}

void InferContext::expect_inputs(std::size_t min, std::size_t max) const {
  if (inputs.size() < min || inputs.size() > max) {
    std::ostringstream msg;
    msg << "takes ";
    if (min == max) {
      msg << min;
    } else {
      msg << min << " to " << max;
    }
    msg << " inputs, got " << inputs.size();
    fail(msg.str());
  }
}

std::int64_t InferContext::axis(std::int64_t axis, std::int64_t rank, const char* what) const {
  const std::int64_t r = std::max<std::int64_t>(rank, 1);  // a scalar accepts 0 and -1 as torch
  if (axis < -r || axis >= r) {
    fail(std::string(what) + " " + std::to_string(axis) + " is out of range for rank " +
         std::to_string(rank));
  }
  return axis < 0 ? axis + r : axis;
}

void InferContext::expect_floating(std::size_t i, const char* why) const {
  if (!is_floating(inputs[i].dtype)) {
    fail(std::string(why) + " needs a floating input, got " +
         std::string(dtype_name(inputs[i].dtype)));
  }
}

std::int64_t InferContext::fit(__int128 v, const char* what) const {
  if (v > std::numeric_limits<std::int64_t>::max() || v < std::numeric_limits<std::int64_t>::min()) {
    fail(std::string(what) + " does not fit in int64");
  }
  return static_cast<std::int64_t>(v);
}

std::int64_t window_output(const InferContext& ctx, std::int64_t in, std::int64_t kernel,
                           std::int64_t stride, std::int64_t pad_pre, std::int64_t pad_post,
                           std::int64_t dilation, bool ceil_mode) {
  if (in < 0) return kDynamicDim;
  // 128-bit: kernel, dilation and padding may each be near 2^63 in a hostile file.
  using W = __int128;
  const W span = W{in} + pad_pre + pad_post - W{dilation} * (W{kernel} - 1) - 1;
  if (span < 0) return 0;
  W out = (ceil_mode ? (span + stride - 1) / stride : span / stride) + 1;
  // torch: the last window must start inside the input or left padding.
  if (ceil_mode && (out - 1) * stride >= W{in} + pad_pre) --out;
  return ctx.fit(out, "window output size");
}

Dims resolve_reshape(const InferContext& ctx, const Dims& target, std::int64_t numel) {
  Dims out = target;
  int infer_at = -1;
  // In 128 bits, saturated at 2^64: a hostile target's product must not wrap.
  __int128 product = 1;
  bool zero = false;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] == -1) {
      if (infer_at >= 0) ctx.fail("reshape dims " + dims_to_string(target) + " have more than one -1");
      infer_at = static_cast<int>(i);
    } else if (out[i] < 0) {
      ctx.fail("reshape dims " + dims_to_string(target) + " have a negative size");
    } else {
      zero = zero || out[i] == 0;
      product = std::min<__int128>(product * out[i], __int128{1} << 64);
    }
  }
  if (zero) product = 0;
  if (product > std::numeric_limits<std::int64_t>::max()) {
    ctx.fail("reshape dims " + dims_to_string(target) + " hold more than 2^63 - 1 elements");
  }
  const std::int64_t known = static_cast<std::int64_t>(product);
  if (numel < 0) return out;  // input size unknown: -1 stays dynamic
  if (infer_at >= 0) {
    if (known == 0 || numel % known != 0) {
      ctx.fail("cannot reshape " + std::to_string(numel) + " elements to " + dims_to_string(target));
    }
    out[infer_at] = numel / known;
  } else if (known != numel) {
    ctx.fail("cannot reshape " + std::to_string(numel) + " elements to " + dims_to_string(target));
  }
  return out;
}

}  // namespace detail
}  // namespace atenrt::network

namespace atenrt::network {

namespace {
void fill(Dims& v, std::size_t n, std::int64_t value) {
  if (v.empty()) v.assign(n, value);
}
}  // namespace

void fill_param_defaults(LayerParams& params, std::span<const TensorDesc> inputs) {
  const std::size_t rank = inputs.empty() ? 0 : inputs[0].dims.size();
  const std::size_t spatial = rank >= 2 ? rank - 2 : 0;
  if (auto* c = std::get_if<ConvolutionParams>(&params)) {
    fill(c->stride, spatial, 1);
    fill(c->dilation, spatial, 1);
    fill(c->padding_pre, spatial, 0);
    if (c->padding_post.empty()) c->padding_post = c->padding_pre;
  } else if (auto* d = std::get_if<DeconvolutionParams>(&params)) {
    fill(d->stride, spatial, 1);
    fill(d->dilation, spatial, 1);
    fill(d->padding_pre, spatial, 0);
    if (d->padding_post.empty()) d->padding_post = d->padding_pre;
    fill(d->output_padding, spatial, 0);
  } else if (auto* p = std::get_if<PoolingParams>(&params)) {
    if (!p->adaptive) {
      const std::size_t n = p->kernel.size();
      if (p->stride.empty()) p->stride = p->kernel;
      fill(p->dilation, n, 1);
      fill(p->padding_pre, n, 0);
      if (p->padding_post.empty()) p->padding_post = p->padding_pre;
    }
  }
}

}  // namespace atenrt::network
