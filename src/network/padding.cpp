// Padding (constant, reflect, replicate, circular) and resize.
#include "network/infer.h"

namespace atenrt::network::detail {

Descs infer(const InferContext& ctx, const PaddingParams& p) {
  ctx.expect_inputs(1, 1);
  const TensorDesc& x = ctx.in(0);
  const std::size_t rank = x.dims.size();
  if (p.pre.size() != rank || p.post.size() != rank) {
    ctx.fail("pre and post need one entry per input dim (" + std::to_string(rank) + ")");
  }
  Dims out(rank);
  for (std::size_t d = 0; d < rank; ++d) {
    const std::int64_t in = x.dims[d];
    if (p.mode != PaddingMode::Constant && (p.pre[d] < 0 || p.post[d] < 0)) {
      ctx.fail("negative padding is only allowed in constant mode");
    }
    if (in < 0) {
      out[d] = kDynamicDim;
      continue;
    }
    if ((p.pre[d] || p.post[d]) && p.mode == PaddingMode::Reflect && (p.pre[d] >= in || p.post[d] >= in)) {
      ctx.fail("reflect padding " + std::to_string(std::max(p.pre[d], p.post[d])) + " must be smaller than dim " +
               std::to_string(d) + " (size " + std::to_string(in) + ")");
    }
    if ((p.pre[d] || p.post[d]) && p.mode == PaddingMode::Replicate && in == 0) {
      ctx.fail("replicate padding of an empty dim");
    }
    if ((p.pre[d] || p.post[d]) && p.mode == PaddingMode::Circular && (p.pre[d] > in || p.post[d] > in)) {
      ctx.fail("circular padding larger than dim " + std::to_string(d));
    }
    out[d] = in + p.pre[d] + p.post[d];
    if (out[d] < 0) ctx.fail("padding makes dim " + std::to_string(d) + " negative");
  }
  if (p.mode == PaddingMode::Constant && x.dtype == DType::Bool && p.value != 0.0 && p.value != 1.0) {
    ctx.fail("bool padding value must be 0 or 1");
  }
  return {{x.dtype, out}};
}

Descs infer(const InferContext& ctx, const ResizeParams& p) {
  ctx.expect_inputs(1, 2);
  const TensorDesc& x = ctx.in(0);
  ctx.expect_floating(0, "resize");
  const std::size_t spatial = p.output_size.size();
  Dims size = p.output_size;
  const bool run_time = ctx.inputs.size() == 2;
  if (run_time) {
    const TensorDesc& s = ctx.in(1);
    if (s.dtype != DType::Int64 || s.dims != Dims{static_cast<std::int64_t>(spatial)}) {
      ctx.fail("the size input must be int64[" + std::to_string(spatial) + "], got " + desc_to_string(s));
    }
    for (auto d : p.output_size) {
      if (d != kDynamicDim) ctx.fail("output_size must be -1s when a size input gives it");
    }
    if (const Tensor* v = ctx.value(1)) {
      const Tensor c = v->contiguous();
      size.assign(c.data<std::int64_t>(), c.data<std::int64_t>() + c.numel());
    }
  }
  if (spatial < 1 || spatial > 3) ctx.fail("output_size must have 1 to 3 entries");
  if (x.dims.size() != spatial + 2) {
    ctx.fail("input " + dims_to_string(x.dims) + " must be [N, C] + " + std::to_string(spatial) + " spatial dims");
  }
  if (p.mode == ResizeMode::Cubic && spatial != 2) ctx.fail("cubic resize needs 2 spatial dims");
  if (!p.scales.empty() && p.scales.size() != spatial) ctx.fail("scales need one entry per spatial dim");
  for (auto s : p.scales) {
    if (!(s > 0.0)) ctx.fail("scales must be positive");
  }
  if (p.align_corners && (p.mode == ResizeMode::Nearest || p.mode == ResizeMode::NearestExact)) {
    ctx.fail("align_corners is only for linear and cubic modes");
  }
  Dims out{x.dims[0], x.dims[1]};
  for (std::size_t i = 0; i < spatial; ++i) {
    if (x.dims[2 + i] == 0) ctx.fail("cannot resize an empty dim");
    out.push_back(size[i]);
    if (run_time && size[i] == kDynamicDim && !ctx.value(1)) continue;  // known when the engine runs
    if (size[i] < 1) ctx.fail("output_size " + dims_to_string(size) + " must be positive");
  }
  return {{x.dtype, out}};
}

}  // namespace atenrt::network::detail
