// Layer normalization (as [outer, inner]), batch normalization (inference
// statistics) and reductions (sum, mean, prod over fp32).
#include "runtime/cpu/onednn/makers.h"
#include "runtime/cpu/onednn/primitive_kernel.h"

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
    if (inner == 0 || outer == 0) return {};
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
    const md_t md = plain_md(x.dims, dt::f32), vec = plain_md({x.dims[1]}, dt::f32);
    const auto prim = compat::batch_normalization(md, eps, flags | dnnl::normalization_flags::use_global_stats,
                                                  make_attr());
    if (!prim.ok) return {};
    auto k = std::make_unique<PrimitiveKernel>();
    k->primitive(prim, {{DNNL_ARG_SRC, k->input(0, md)},
                        {DNNL_ARG_SCALE, k->input(1, vec)},
                        {DNNL_ARG_SHIFT, k->input(2, vec)},
                        {DNNL_ARG_MEAN, k->input(3, vec)},
                        {DNNL_ARG_VARIANCE, k->input(4, vec)},
                        {DNNL_ARG_DST, k->output(0, md)}});
    return {std::move(k), {Layout{}}};
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
  const md_t src = plain_md(x.dims, dt::f32), dst = plain_md(kept, dt::f32);
  const auto prim = compat::reduction(alg, src, dst, make_attr());
  if (!prim.ok) return {};
  auto k = std::make_unique<PrimitiveKernel>();
  k->primitive(prim, {{DNNL_ARG_SRC, k->input(0, src)}, {DNNL_ARG_DST, k->output(0, dst)}});
  return {std::move(k), {Layout{}}};
}

}  // namespace atenrt::runtime::cpu::onednn
