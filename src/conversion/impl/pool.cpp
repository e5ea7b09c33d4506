#include "conversion/impl/pool.h"

namespace atenrt::conversion::impl::pool {

using network::PoolingOp;
using network::PoolingParams;

namespace {

const char* op_name(const PoolArgs& a) {
  if (a.adaptive) return a.op == PoolingOp::Max ? "adaptive_max_pool" : "adaptive_avg_pool";
  return a.op == PoolingOp::Max ? "max_pool" : "avg_pool";
}

}  // namespace

std::optional<std::string> PoolArgs::problem(std::int64_t rank) const {
  const auto n = static_cast<std::int64_t>(spatial);
  if (rank >= 0 && rank != n + 1 && rank != n + 2) {
    return std::string(op_name(*this)) + " over " + std::to_string(spatial) +
           " spatial dims needs a [N, C, ...] or [C, ...] input, got rank " + std::to_string(rank);
  }
  auto entries = [&](const std::vector<std::int64_t>& v, const char* what) -> std::optional<std::string> {
    if (per_spatial(v, spatial)) return std::nullopt;
    return std::string(what) + " " + shape_to_string(v) + " needs " + std::to_string(spatial) + " entries";
  };
  if (adaptive) return entries(output_size, "output_size");
  if (auto why = entries(kernel, "kernel_size")) return why;
  if (!stride.empty()) {
    if (auto why = entries(stride, "stride")) return why;
  }
  if (auto why = entries(padding, "padding")) return why;
  if (!dilation.empty()) {
    if (auto why = entries(dilation, "dilation")) return why;
  }
  const Dims k = *per_spatial(kernel, spatial), p = *per_spatial(padding, spatial);
  for (std::size_t i = 0; i < spatial; ++i) {
    if (p[i] * 2 > k[i]) {
      return std::string(op_name(*this)) + " padding " + shape_to_string(p) + " must be at most half the kernel " +
             shape_to_string(k);
    }
  }
  return std::nullopt;
}

PoolingParams PoolArgs::params(const NetworkTensor* x) const {
  if (auto why = problem(x->rank())) check(false, *why);
  PoolingParams p;
  p.op = op;
  if (adaptive) {
    p.adaptive = true;
    p.output_size = *per_spatial(output_size, spatial);
    // None entries (-1 after export) keep the input size.
    for (std::size_t i = 0; i < spatial; ++i) {
      if (p.output_size[i] < 0) p.output_size[i] = x->dims[x->dims.size() - spatial + i];
    }
    return p;
  }
  p.kernel = *per_spatial(kernel, spatial);
  p.stride = stride.empty() ? p.kernel : *per_spatial(stride, spatial);
  p.padding_pre = *per_spatial(padding, spatial);
  p.padding_post = p.padding_pre;
  p.ceil_mode = ceil_mode;
  if (op == PoolingOp::Max) {
    p.dilation = *per_spatial(dilation.empty() ? std::vector<std::int64_t>{1} : dilation, spatial);
  } else {
    p.count_include_pad = count_include_pad;
    p.divisor_override = divisor_override;
  }
  return p;
}

NetworkTensor* pool(const Scope& s, NetworkTensor* x, const PoolArgs& a) {
  PoolingParams p = a.params(x);
  // Averages of integers are computed in float32 (torch refuses them; the
  // graph's recorded dtype decides what a converter may return).
  if (a.op == PoolingOp::Average && !is_floating(x->dtype)) x = cast(s, x, DType::Float32);
  return s.add_pooling("", x, std::move(p));
}

}  // namespace atenrt::conversion::impl::pool
