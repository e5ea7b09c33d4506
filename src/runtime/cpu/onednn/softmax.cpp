// Softmax (fp32 statistics always), with the NaN-exact
// repair of rows whose max is NaN or ±inf (own/nan_repair.h).
#include "runtime/cpu/onednn/makers.h"
#include "runtime/cpu/onednn/primitive_kernel.h"
#include "runtime/cpu/own/nan_repair.h"

namespace atenrt::runtime::cpu::onednn {

KernelChoice make_softmax(const KernelRequest& r) {
  const auto& p = std::get<network::SoftmaxParams>(r.step->params);
  // Log-softmax is ours (own/layers.cpp): oneDNN's log(1) is -1.4e-6, not 0.
  if (!all_f32(r, 1) || p.log) return {};
  const auto& x = *r.inputs[0].tensor;
  if (x.dims.empty() || numel_of(x.dims) == 0) return {};
  const int rank = static_cast<int>(x.dims.size());
  const int axis = static_cast<int>(p.axis < 0 ? p.axis + rank : p.axis);
  const md_t md = plain_md(x.dims, dt::f32);
  const auto prim = compat::softmax(p.log, md, axis, make_attr());
  if (!prim.ok) return {};
  auto k = std::make_unique<PrimitiveKernel>();
  const int src = k->input(0, md), dst = k->output(0, md);
  std::int64_t outer = 1, inner = 1;
  for (int i = 0; i < axis; ++i) outer *= x.dims[i];
  for (int i = axis + 1; i < rank; ++i) inner *= x.dims[i];
  const std::int64_t len = x.dims[axis];
  k->finals.push_back([=](std::span<void* const> data) {
    own::repair_softmax(static_cast<const float*>(data[src]), static_cast<float*>(data[dst]), outer, len, inner);
  });
  k->primitive(prim, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
  return {std::move(k), {Layout{}}};
}

}  // namespace atenrt::runtime::cpu::onednn
