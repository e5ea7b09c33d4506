// Pooling (max/average, fixed windows or adaptive) and softmax.
#include "network/infer.h"

namespace atenrt::network::detail {

Descs infer(const InferContext& ctx, const PoolingParams& p) {
  ctx.expect_inputs(1, 1);
  const TensorDesc& x = ctx.in(0);
  ctx.expect_floating(0, "pooling");
  const std::size_t spatial = p.adaptive ? p.output_size.size() : p.kernel.size();
  if (spatial < 1 || spatial > 3) {
    ctx.fail(std::string(p.adaptive ? "output_size" : "kernel") + " must have 1 to 3 entries, got " +
             std::to_string(spatial));
  }
  if (x.dims.size() != spatial + 1 && x.dims.size() != spatial + 2) {
    ctx.fail("input " + dims_to_string(x.dims) + " must be [N, C, spatial...] or [C, spatial...] with " +
             std::to_string(spatial) + " spatial dims");
  }
  const std::size_t lead = x.dims.size() - spatial;
  Dims out(x.dims.begin(), x.dims.begin() + static_cast<std::ptrdiff_t>(lead));
  if (p.adaptive) {
    for (std::size_t i = 0; i < spatial; ++i) {
      if (p.output_size[i] < 1) ctx.fail("adaptive output_size " + dims_to_string(p.output_size) + " must be positive");
      if (x.dims[lead + i] == 0) ctx.fail("adaptive pooling of an empty dim");
      out.push_back(p.output_size[i]);
    }
    return {{x.dtype, out}};
  }
  auto check = [&](const Dims& v, const char* what, std::int64_t min) {
    if (v.size() != spatial) {
      ctx.fail(std::string(what) + " has " + std::to_string(v.size()) + " entries, expected " +
               std::to_string(spatial));
    }
    for (auto e : v) {
      if (e < min) ctx.fail(std::string(what) + " " + dims_to_string(v) + " has a value below " + std::to_string(min));
    }
  };
  check(p.kernel, "kernel", 1);
  check(p.stride, "stride", 1);
  check(p.padding_pre, "padding_pre", 0);
  check(p.padding_post, "padding_post", 0);
  check(p.dilation, "dilation", 1);
  if (p.op == PoolingOp::Average) {
    for (auto d : p.dilation) {
      if (d != 1) ctx.fail("average pooling has no dilation");
    }
    if (p.divisor_override && *p.divisor_override == 0) ctx.fail("divisor_override must not be 0");
  }
  for (std::size_t i = 0; i < spatial; ++i) {
    // torch: padding at most half of the (dilated) kernel, so no window is all padding.
    const __int128 eff = __int128{p.dilation[i]} * (p.kernel[i] - 1) + 1;
    if (__int128{p.padding_pre[i]} * 2 > eff || __int128{p.padding_post[i]} * 2 > eff) {
      ctx.fail("padding must be at most half of the kernel size");
    }
    const std::int64_t o = window_output(ctx, x.dims[lead + i], p.kernel[i], p.stride[i], p.padding_pre[i],
                                         p.padding_post[i], p.dilation[i], p.ceil_mode);
    if (o == 0) {
      ctx.fail("input " + dims_to_string(x.dims) + " is too small for kernel " + dims_to_string(p.kernel));
    }
    out.push_back(o);
  }
  return {{x.dtype, out}};
}

Descs infer(const InferContext& ctx, const SoftmaxParams& p) {
  ctx.expect_inputs(1, 1);
  ctx.expect_floating(0, p.log ? "log_softmax" : "softmax");
  ctx.axis(p.axis, static_cast<std::int64_t>(ctx.in(0).dims.size()), "axis");
  return {ctx.in(0)};
}

}  // namespace atenrt::network::detail
