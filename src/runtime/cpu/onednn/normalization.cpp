// Layer normalization (as [outer, inner]), batch normalization (inference
// statistics: our own pass, in any channel blocking) and reductions (sum,
// mean, prod over fp32).
#include "runtime/cpu/onednn/makers.h"
#include "runtime/cpu/onednn/primitive_kernel.h"
#include "runtime/cpu/own/util.h"

namespace atenrt::runtime::cpu::onednn {

KernelChoice make_normalization(const KernelRequest& r) {
  using N = network::NormalizationOp;
  const auto& p = std::get<network::NormalizationParams>(r.step->params);
  if (!all_f32(r, r.step->inputs.size())) return {};
  const auto& x = *r.inputs[0].tensor;
  const auto eps = static_cast<float>(p.epsilon);
  const auto flags = dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift;
  if (p.op == N::Layer) {
    const int rank = static_cast<int>(x.dims.size());
    const int axis = static_cast<int>(p.axis < 0 ? p.axis + rank : p.axis);
    std::int64_t outer = 1, inner = 1;
    for (int i = 0; i < rank; ++i) (i < axis ? outer : inner) *= x.dims[i];
    // A one-element row's result is PyTorch's rounding alone (torch: beta + gamma * the rounding error
    // of x*rstd; oneDNN's (x - mean)*rstd: exactly beta): our own kernel computes torch's form.
    if (inner <= 1 || outer == 0) return {};
    const md_t md = plain_md({outer, inner}, dt::f32), vec = plain_md({inner}, dt::f32);
    const auto prim = compat::layer_normalization(md, eps, flags, make_attr());
    if (!prim.ok) return {};
    auto k = std::make_unique<PrimitiveKernel>();
    k->primitive(prim, {{DNNL_ARG_SRC, k->input(0, md)},
                        {DNNL_ARG_SCALE, k->input(1, vec)},
                        {DNNL_ARG_SHIFT, k->input(2, vec)},
                        {DNNL_ARG_DST, k->output(0, md)}});
    return {std::move(k), {Layout{}}};
  }
  if (p.op == N::Batch && x.dims.size() >= 2 && numel_of(x.dims) > 0) {
    // Our own pass (own::make_batch_norm) in the input's layout, plain,
    // channel-blocked or channels-last (a conv's or a concatenation's output, DenseNet's
    // pre-activation batch norms), with the relu after it fused: one read
    // and one write, where oneDNN's jit batch norm and a relu step took two
    // of each (and its plain NCHW kernel was 5-6x slower again).
    // Channels-last (avx512's brgconv output) is one run of all C channels.
    std::int64_t block = 1;
    if (!r.inputs[0].layout.is_plain()) {
      block = channel_run(desc_of(r.inputs[0], dt::f32), x.dims);
      if (block == 0) return {};
    }
    const std::int64_t out_block = r.blocked_output_allowed ? block : 1;
    auto k = own::make_batch_norm(r, block, out_block);
    if (!k) return {};
    Layout layout;
    if (out_block > 1) layout.blocked = std::make_shared<BlockedDesc>(desc_of(r.inputs[0], dt::f32));
    return {std::move(k), {layout}};
  }
  return {};
}

KernelChoice make_reduction(const KernelRequest& r) {
  using R = network::ReduceOp;
  const auto& p = std::get<network::ReduceParams>(r.step->params);
  dnnl::algorithm alg;
  switch (p.op) {
    case R::Sum: alg = dnnl::algorithm::reduction_sum; break;
    case R::Mean: alg = dnnl::algorithm::reduction_mean; break;
    case R::Prod: alg = dnnl::algorithm::reduction_mul; break;
    // Max/Min: oneDNN's drop NaN and start at -FLT_MAX; ours (own/reduce.cpp) follow torch.
    default: return {};
  }
  if (!all_f32(r, 1)) return {};
  const auto& x = *r.inputs[0].tensor;
  if (x.dims.empty() || numel_of(x.dims) == 0) return {};
  const int rank = static_cast<int>(x.dims.size());
  Dims kept = x.dims;
  if (p.axes.empty()) {
    kept.assign(rank, 1);
  } else {
    for (auto a : p.axes) kept[a < 0 ? a + rank : a] = 1;
  }
  if (kept == x.dims) return {};  // nothing reduced: oneDNN refuses, our copy handles it
  // The source in its layout (a blocked conv output: SE blocks' mean over
  // H, W); a blocked source gets a result in its own format (oneDNN's jit
  // reduction wants both alike; the reference one is slow), reordered to
  // plain when the consumers need it.
  const md_t src = desc_of(r.inputs[0], dt::f32);
  const md_t plain = plain_md(kept, dt::f32);
  const bool blocked = !r.inputs[0].layout.is_plain();
  const md_t dst_any(to_mdims(kept), dt::f32, memory::format_tag::any);
  // oneDNN 2.6's jit reduction takes plain sources only; a mean over every
  // spatial dim of a blocked one is a global average pooling, which it runs
  // in any layout.
  bool spatial_mean = p.op == R::Mean && rank >= 3 && rank <= 5;
  for (int d = 0; d < rank; ++d) spatial_mean = spatial_mean && (kept[d] == 1) == (d >= 2 || x.dims[d] == 1);
  const auto make_prim = [&](const md_t& dst) {
    if (blocked && spatial_mean) {
      const memory::dims window(x.dims.begin() + 2, x.dims.end());
      const memory::dims none(window.size(), 0);
      return compat::pooling(dnnl::algorithm::pooling_avg_exclude_padding, src, dst, window, window, none, none, none,
                             make_attr());
    }
    return compat::reduction(alg, src, blocked ? dst : plain, make_attr());
  };
  compat::Primitive prim = make_prim(dst_any);
  // A bf16 source (an SE block's depthwise output, providers.h): oneDNN's jit
  // pooling wants the result in bf16 too; finish() converts it to float32.
  if (blocked && src.data_type() == dt::bf16 && (!prim.ok || prim.impl.find("ref") != std::string::npos)) {
    prim = make_prim(md_t(to_mdims(kept), dt::bf16, memory::format_tag::any));
  }
  if (!prim.ok || (blocked && prim.impl.find("ref") != std::string::npos)) return {};
  auto k = std::make_unique<PrimitiveKernel>();
  if (kept.size() != r.outputs[0]->dims.size()) {  // keepdim=False: the result's dims differ from oneDNN's
    const int out = prim.dst == plain ? k->output(0, plain) : k->temp(prim.dst);
    k->primitive(prim, {{DNNL_ARG_SRC, k->input(0, src)}, {DNNL_ARG_DST, out}});
    if (prim.dst != plain) k->reorder(out, k->output(0, plain));
    return {std::move(k), {Layout{}}};
  }
  const Destination dst = destination(*k, r, prim.dst, dt::f32);
  k->primitive(prim, {{DNNL_ARG_SRC, k->input(0, src)}, {DNNL_ARG_DST, dst.slot}});
  finish(*k, dst);
  return {std::move(k), {dst.layout}};
}

}  // namespace atenrt::runtime::cpu::onednn
