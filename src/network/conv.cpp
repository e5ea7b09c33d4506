// Convolution and deconvolution (transposed convolution), 1d/2d/3d.
#include "network/infer.h"

namespace atenrt::network::detail {

namespace {

void check_vector(const InferContext& ctx, const Dims& v, std::size_t spatial, const char* what,
                  std::int64_t min) {
  if (v.size() != spatial) {
    ctx.fail(std::string(what) + " has " + std::to_string(v.size()) + " entries, expected " +
             std::to_string(spatial) + " (one per spatial dim)");
  }
  for (auto x : v) {
    if (x < min) ctx.fail(std::string(what) + " " + dims_to_string(v) + " has a value below " + std::to_string(min));
  }
}

// Checks shared by both kinds; returns the number of spatial dims.
std::size_t check_common(const InferContext& ctx, const Dims& stride, const Dims& pad_pre,
                         const Dims& pad_post, const Dims& dilation, std::int64_t groups) {
  ctx.expect_inputs(2, 3);
  const TensorDesc& x = ctx.in(0);
  const TensorDesc& w = ctx.in(1);
  if (x.dims.size() < 3 || x.dims.size() > 5) {
    ctx.fail("input must be [N, C, spatial...] with 1 to 3 spatial dims, got " + dims_to_string(x.dims));
  }
  ctx.expect_floating(0, "convolution");
  if (!is_floating(w.dtype)) ctx.fail("weight must be floating, got " + std::string(dtype_name(w.dtype)));
  if (w.dims.size() != x.dims.size()) {
    ctx.fail("weight " + dims_to_string(w.dims) + " must have the input's rank " +
             std::to_string(x.dims.size()));
  }
  for (auto d : w.dims) {
    if (d < 0) ctx.fail("weight dims must be static, got " + dims_to_string(w.dims));
  }
  const std::size_t spatial = x.dims.size() - 2;
  check_vector(ctx, stride, spatial, "stride", 1);
  check_vector(ctx, pad_pre, spatial, "padding_pre", 0);
  check_vector(ctx, pad_post, spatial, "padding_post", 0);
  check_vector(ctx, dilation, spatial, "dilation", 1);
  if (groups < 1) ctx.fail("groups must be positive, got " + std::to_string(groups));
  return spatial;
}

void check_bias(const InferContext& ctx, std::int64_t cout) {
  if (ctx.inputs.size() < 3) return;
  const TensorDesc& b = ctx.in(2);
  if (!is_floating(b.dtype)) ctx.fail("bias must be floating, got " + std::string(dtype_name(b.dtype)));
  if (b.dims != Dims{cout}) {
    ctx.fail("bias must be [" + std::to_string(cout) + "], got " + dims_to_string(b.dims));
  }
}

}  // namespace

Descs infer(const InferContext& ctx, const ConvolutionParams& p) {
  const std::size_t spatial =
      check_common(ctx, p.stride, p.padding_pre, p.padding_post, p.dilation, p.groups);
  const TensorDesc& x = ctx.in(0);
  const TensorDesc& w = ctx.in(1);
  const std::int64_t cout = w.dims[0];
  if (cout % p.groups != 0) {
    ctx.fail("output channels " + std::to_string(cout) + " not divisible by groups " + std::to_string(p.groups));
  }
  if (x.dims[1] >= 0 && x.dims[1] != __int128{w.dims[1]} * p.groups) {
    ctx.fail("input has " + std::to_string(x.dims[1]) + " channels but weight " +
             dims_to_string(w.dims) + " with groups " + std::to_string(p.groups) + " expects " +
             std::to_string(w.dims[1] * p.groups));
  }
  check_bias(ctx, cout);
  Dims out{x.dims[0], cout};
  for (std::size_t i = 0; i < spatial; ++i) {
    const std::int64_t o = window_output(ctx, x.dims[2 + i], w.dims[2 + i], p.stride[i], p.padding_pre[i],
                                         p.padding_post[i], p.dilation[i], false);
    if (o == 0 || (x.dims[2 + i] >= 0 && o < 0)) {
      ctx.fail("input " + dims_to_string(x.dims) + " is too small for kernel " + dims_to_string(w.dims) +
               " with this padding and dilation");
    }
    out.push_back(o);
  }
  return {{x.dtype, out}};
}

Descs infer(const InferContext& ctx, const DeconvolutionParams& p) {
  const std::size_t spatial =
      check_common(ctx, p.stride, p.padding_pre, p.padding_post, p.dilation, p.groups);
  check_vector(ctx, p.output_padding, spatial, "output_padding", 0);
  const TensorDesc& x = ctx.in(0);
  const TensorDesc& w = ctx.in(1);
  if (w.dims[0] % p.groups != 0) {
    ctx.fail("weight dim 0 (" + std::to_string(w.dims[0]) + ") not divisible by groups " +
             std::to_string(p.groups));
  }
  if (x.dims[1] >= 0 && x.dims[1] != w.dims[0]) {
    ctx.fail("input has " + std::to_string(x.dims[1]) + " channels but weight " +
             dims_to_string(w.dims) + " expects " + std::to_string(w.dims[0]));
  }
  const std::int64_t cout = ctx.fit(__int128{w.dims[1]} * p.groups, "output channels");
  check_bias(ctx, cout);
  Dims out{x.dims[0], cout};
  for (std::size_t i = 0; i < spatial; ++i) {
    if (p.output_padding[i] >= p.stride[i] && p.output_padding[i] >= p.dilation[i]) {
      ctx.fail("output_padding must be smaller than stride or dilation");
    }
    const std::int64_t in = x.dims[2 + i];
    if (in < 0) {
      out.push_back(kDynamicDim);
      continue;
    }
    using W = __int128;  // hostile strides and dilations must not wrap
    const std::int64_t o = ctx.fit(W{in - 1} * p.stride[i] - p.padding_pre[i] - p.padding_post[i] +
                                       W{p.dilation[i]} * (w.dims[2 + i] - 1) + p.output_padding[i] + 1,
                                   "transposed convolution output size");
    if (o <= 0) ctx.fail("output size would be " + std::to_string(o) + " in spatial dim " + std::to_string(i));
    out.push_back(o);
  }
  return {{x.dtype, out}};
}

}  // namespace atenrt::network::detail
