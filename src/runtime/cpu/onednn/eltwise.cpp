// Elementwise work: activations as eltwise chains, f32 arithmetic through
// binary (src1 may broadcast), and f32 <-> bf16 casts through reorder.
#include "runtime/cpu/onednn/makers.h"
#include "runtime/cpu/onednn/post_ops.h"

namespace atenrt::runtime::cpu::onednn {

// A chain of eltwise primitives, in place after the first.
KernelChoice make_activation(const KernelRequest& r) {
  if (!all_f32(r, 1)) return {};
  auto chain = eltwise_chain(std::get<network::ActivationParams>(r.step->params));
  if (!chain) return {};
  const md_t src = desc_of(r.inputs[0], dt::f32);
  auto k = std::make_unique<PrimitiveKernel>();
  const Destination dst = destination(*k, r, src, dt::f32);
  int from = k->input(0, src);
  for (const auto& e : *chain) {
    const auto prim = compat::eltwise(e.alg, src, e.alpha, e.beta, make_attr());
    if (!prim.ok) return {};
    k->primitive(prim, {{DNNL_ARG_SRC, from}, {DNNL_ARG_DST, dst.slot}});
    from = dst.slot;
  }
  finish(*k, dst);
  return {std::move(k), {dst.layout}};
}

KernelChoice make_binary(const KernelRequest& r) {
  using E = network::ElementwiseOp;
  const auto op = std::get<network::ElementwiseParams>(r.step->params).op;
  dnnl::algorithm alg;
  bool commutative = true;
  switch (op) {
    case E::Add: alg = dnnl::algorithm::binary_add; break;
    case E::Mul: alg = dnnl::algorithm::binary_mul; break;
    // Min/Max: oneDNN's drop NaN in src1; ours propagate it as torch.
    case E::Sub: alg = dnnl::algorithm::binary_sub, commutative = false; break;
    case E::Div: alg = dnnl::algorithm::binary_div, commutative = false; break;
    default: return {};
  }
  if (!all_f32(r, 2)) return {};
  const auto& y = *r.outputs[0];
  int i0 = 0, i1 = 1;
  if (r.inputs[0].tensor->dims != y.dims) {
    if (!commutative || r.inputs[1].tensor->dims != y.dims) return {};
    std::swap(i0, i1);
  }
  auto expanded = [&](int i) {
    Dims d(y.dims.size() - r.inputs[i].tensor->dims.size(), 1);
    d.insert(d.end(), r.inputs[i].tensor->dims.begin(), r.inputs[i].tensor->dims.end());
    return plain_md(d, dt::f32);
  };
  // Full-size operands in their own layout (blocked after a convolution),
  // the result in src0's; a broadcast operand plain.
  auto operand = [&](int i) {
    return r.inputs[i].tensor->dims == y.dims ? desc_of(r.inputs[i], dt::f32) : expanded(i);
  };
  const md_t a = operand(i0), b = operand(i1);
  // oneDNN's jit binary takes a channel-blocked operand (a convolution's
  // output) only with the other in the same layout, and otherwise falls back
  // to its reference kernel, several times slower than a reorder and the jit
  // kernel together: an SE block's per-channel scale, and ConvNeXt's residual
  // adds of a plain branch to a blocked one, ran there. So the plain operand
  // is reordered into the blocked one's layout first.
  // A full-size operand may be a bf16 activation (providers.h): it is read
  // as it is; the plain float32 operand takes its format, not its type.
  md_t a_want = a, b_want = b;
  const md_t plain = plain_md(y.dims, dt::f32);
  const memory::dims bd = b.dims();
  if (bd == a.dims()) {
    if (a == plain && same_channel_blocking(b, y.dims)) a_want = compat::with_data_type(b, dt::f32);
    if (b == plain && same_channel_blocking(a, y.dims)) b_want = compat::with_data_type(a, dt::f32);
  } else {
    bool per_channel = bd.size() >= 2;
    for (std::size_t d = 0; d < bd.size(); ++d) per_channel = per_channel && (d == 1 || bd[d] == 1);
    if (per_channel && a != plain) {
      if (auto blocked = same_channel_blocking(a, Dims(bd.begin(), bd.end()))) {
        b_want = compat::with_data_type(*blocked, dt::f32);
      }
    }
  }
  // The result in src0's format: bf16 where every reader is a bf16
  // convolution (oneDNN's jit binary then wants src0 in bf16 too: a float32
  // one, whose producer could not write bf16, gets a float32 result).
  md_t c = compat::with_data_type(a_want, r.bf16_output_allowed ? dt::bf16 : dt::f32);
  auto prim = compat::binary(alg, a_want, b_want, c, make_attr());
  if (c.data_type() == dt::bf16 && a_want.data_type() == dt::f32 &&
      (!prim.ok || prim.impl.find("ref") != std::string::npos)) {
    c = compat::with_data_type(a_want, dt::f32);
    prim = compat::binary(alg, a_want, b_want, c, make_attr());
  }
  // oneDNN's reference binary (its answer to a broadcast over a middle dim,
  // Swin's window mask [1, W, 1, N, N] onto [1, W, H, N, N]) is ~30x slower
  // than our own kernel's vectorized runs (own/math.cpp).
  if (!prim.ok || prim.impl.find("ref") != std::string::npos) return {};
  auto k = std::make_unique<PrimitiveKernel>();
  const Destination dst = destination(*k, r, c, dt::f32);
  k->primitive(prim, {{DNNL_ARG_SRC_0, k->as(k->input(i0, a), a_want)},
                      {DNNL_ARG_SRC_1, k->as(k->input(i1, b), b_want)},
                      {DNNL_ARG_DST, dst.slot}});
  finish(*k, dst);
  return {std::move(k), {dst.layout}};
}

KernelChoice make_cast(const KernelRequest& r) {
  const auto& x = *r.inputs[0].tensor;
  const auto& y = *r.outputs[0];
  if (numel_of(x.dims) == 0) return {};
  if (x.dtype == y.dtype && !r.inputs[0].layout.is_plain()) {  // a copy of a blocked tensor, in its layout
    auto k = std::make_unique<PrimitiveKernel>();
    k->impl = "reorder";
    const md_t src = desc_of(r.inputs[0], dt::f32);
    const int from = k->input(0, src);
    const Destination dst = destination(*k, r, r.blocked_output_allowed ? src : plain_md(y.dims, dt::f32), dt::f32);
    k->reorder(from, dst.slot);
    finish(*k, dst);
    return {std::move(k), {dst.layout}};
  }
  const bool ok = (x.dtype == DType::Float32 && y.dtype == DType::BFloat16) ||
                  (x.dtype == DType::BFloat16 && y.dtype == DType::Float32);
  if (!ok) return {};
  auto k = std::make_unique<PrimitiveKernel>();
  k->impl = "reorder";
  k->reorder(k->input(0, plain_md(x.dims, *to_dt(x.dtype))), k->output(0, plain_md(y.dims, *to_dt(y.dtype))));
  return {std::move(k), {Layout{}}};
}

}  // namespace atenrt::runtime::cpu::onednn
