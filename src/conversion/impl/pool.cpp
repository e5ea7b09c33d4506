#include "conversion/impl/pool.h"

#include "conversion/impl/conv.h"

namespace atenrt::conversion::impl::pool {

using conv::per_spatial;
using network::PoolingOp;
using network::PoolingParams;

namespace {
NetworkTensor* floating(const Scope& s, NetworkTensor* x) {
  return is_floating(x->dtype) ? x : cast(s, x, DType::Float32);
}
void check_rank(const NetworkTensor* x, std::size_t spatial) {
  const auto r = static_cast<std::size_t>(x->rank());
  check(r == spatial + 1 || r == spatial + 2, "pooling over " + std::to_string(spatial) +
                                                  " spatial dims needs a [N, C, ...] or [C, ...] input, got " +
                                                  network::desc_to_string(x->desc()));
}
}  // namespace

NetworkTensor* max_pool(const Scope& s, NetworkTensor* x,
                        std::size_t spatial, std::vector<std::int64_t> kernel, std::vector<std::int64_t> stride,
                        std::vector<std::int64_t> padding, std::vector<std::int64_t> dilation, bool ceil_mode) {
  check_rank(x, spatial);
  PoolingParams p;
  p.op = PoolingOp::Max;
  p.kernel = per_spatial(kernel, spatial, "kernel_size");
  p.stride = stride.empty() ? p.kernel : per_spatial(stride, spatial, "stride");
  p.padding_pre = per_spatial(padding, spatial, "padding");
  p.padding_post = p.padding_pre;
  p.dilation = per_spatial(dilation.empty() ? std::vector<std::int64_t>{1} : dilation, spatial, "dilation");
  p.ceil_mode = ceil_mode;
  for (std::size_t i = 0; i < spatial; ++i) {
    check(p.padding_pre[i] * 2 <= p.kernel[i], "max_pool padding " + shape_to_string(p.padding_pre) +
                                                   " must be at most half the kernel " + shape_to_string(p.kernel));
  }
  return s.add_pooling("", x, p);
}

NetworkTensor* avg_pool(const Scope& s, NetworkTensor* x,
                        std::size_t spatial, std::vector<std::int64_t> kernel, std::vector<std::int64_t> stride,
                        std::vector<std::int64_t> padding, bool ceil_mode, bool count_include_pad,
                        std::optional<std::int64_t> divisor_override) {
  check_rank(x, spatial);
  x = floating(s, x);
  PoolingParams p;
  p.op = PoolingOp::Average;
  p.kernel = per_spatial(kernel, spatial, "kernel_size");
  p.stride = stride.empty() ? p.kernel : per_spatial(stride, spatial, "stride");
  p.padding_pre = per_spatial(padding, spatial, "padding");
  p.padding_post = p.padding_pre;
  p.ceil_mode = ceil_mode;
  p.count_include_pad = count_include_pad;
  p.divisor_override = divisor_override;
  for (std::size_t i = 0; i < spatial; ++i) {
    check(p.padding_pre[i] * 2 <= p.kernel[i], "avg_pool padding " + shape_to_string(p.padding_pre) +
                                                   " must be at most half the kernel " + shape_to_string(p.kernel));
  }
  return s.add_pooling("", x, p);
}

NetworkTensor* adaptive_pool(const Scope& s, NetworkTensor* x,
                             std::size_t spatial, std::vector<std::int64_t> output_size, PoolingOp op) {
  check_rank(x, spatial);
  if (op == PoolingOp::Average) x = floating(s, x);
  PoolingParams p;
  p.op = op;
  p.adaptive = true;
  p.output_size = per_spatial(output_size, spatial, "output_size");
  // None entries (-1 after export) keep the input size.
  for (std::size_t i = 0; i < spatial; ++i) {
    if (p.output_size[i] < 0) p.output_size[i] = x->dims[x->dims.size() - spatial + i];
  }
  return s.add_pooling("", x, p);
}

}  // namespace atenrt::conversion::impl::pool
