// MatMul with torch.matmul semantics: vectors as rows/columns, batch dims
// broadcast, transposes as strides; constant weights pre-packed.
#include "runtime/cpu/onednn/finite_form.h"
#include "runtime/cpu/onednn/makers.h"
#include "runtime/cpu/onednn/post_ops.h"

namespace atenrt::runtime::cpu::onednn {
namespace {

// Logical [.., M, K] (a) or [.., K, N] (b) dims and strides over the stored tensor.
void view(const Dims& dims, bool vector_is_row, bool transpose, memory::dims& d, memory::dims& s) {
  Dims dd = dims;
  if (dd.size() == 1) dd = vector_is_row ? Dims{1, dims[0]} : Dims{dims[0], 1};
  d = to_mdims(dd);
  s.assign(d.size(), 1);
  for (int i = static_cast<int>(d.size()) - 2; i >= 0; --i) s[i] = s[i + 1] * d[i + 1];
  if (transpose && dims.size() >= 2) {
    const std::size_t r0 = d.size() - 2;
    // stored as [.., K, M]: logical dims swapped, strides swapped
    std::swap(d[r0], d[r0 + 1]);
    s[r0] = 1;
    s[r0 + 1] = d[r0];
  }
}

// Leading 1s up to `rank`, over the whole tensor.
void expand(std::size_t rank, memory::dims& d, memory::dims& s) {
  const std::int64_t total = d[0] * s[0];
  while (d.size() < rank) {
    d.insert(d.begin(), 1);
    s.insert(s.begin(), total);
  }
}

// The weights' dims with the last two stored transposed ([.., N, K] in
// memory, as torch's Linear keeps them).
md_t n_major(const memory::dims& d) {
  memory::dims s(d.size());
  const std::size_t r = d.size();
  s[r - 2] = 1;
  s[r - 1] = d[r - 2];
  std::int64_t stride = d[r - 2] * d[r - 1];
  for (std::size_t i = r - 2; i-- > 0;) {
    s[i] = stride;
    stride *= d[i];
  }
  return md_t(d, dt::f32, s);
}

}  // namespace

KernelChoice make_matmul(const KernelRequest& r) {
  const auto& step = *r.step;
  const auto& p = std::get<network::MatMulParams>(step.params);
  const bool int8 = step.precision == Precision::Int8;
  if (int8 ? !int8_operands(r, 2) : !all_f32(r, 2)) return {};
  const auto& a = *r.inputs[0].tensor;
  const auto& b = *r.inputs[1].tensor;
  const auto& y = *r.outputs[0];
  if (!r.inputs[0].layout.is_plain() || !r.inputs[1].layout.is_plain()) return {};
  memory::dims ad, as, bd, bs;
  view(a.dims, true, p.transpose_a, ad, as);
  view(b.dims, false, p.transpose_b, bd, bs);
  const std::size_t rank = std::max(ad.size(), bd.size());
  expand(rank, ad, as);
  expand(rank, bd, bs);
  memory::dims yd(rank);
  for (std::size_t i = 0; i + 2 < rank; ++i) yd[i] = std::max(ad[i], bd[i]);
  yd[rank - 2] = ad[rank - 2];
  yd[rank - 1] = bd[rank - 1];
  const dt compute = step.precision == Precision::BFloat16 ? dt::bf16 : dt::f32;
  const md_t a_have(ad, dt::f32, as), b_have(bd, int8 ? dt::s8 : dt::f32, bs);
  Dims ydims(yd.begin(), yd.end());
  const md_t y_md = plain_md(ydims, dt::f32);
  const dt a_type = !int8 ? compute : step.quant.input_unsigned ? dt::u8 : dt::s8;
  const md_t a_want = a_type == dt::f32 ? a_have : plain_md(Dims(ad.begin(), ad.end()), a_type);
  const bool b_const = b.role == TensorRole::Constant && r.prepack_weights;
  const dt b_type = int8 ? dt::s8 : compute;
  const md_t b_want = b_const ? md_t(bd, b_type, memory::format_tag::any)
                              : (b_type == b_have.data_type() ? b_have : plain_md(Dims(bd.begin(), bd.end()), b_type));
  if (numel_of(y.dims) != numel_of(ydims)) return {};
  // Post-op operands broadcast against the stored output dims; only when
  // those are oneDNN's dst dims (no dropped vector dim).
  if (!step.post_ops.empty() && y.dims != ydims) return {};
  auto post = make_post_ops(r, ydims);
  if (!post) return {};
  dnnl::primitive_attr attr = make_attr(&post->ops);
  // int8: one scale per output column (the last dst dim).
  if (int8) compat::set_output_scales(attr, 1 << (static_cast<int>(rank) - 1), int8_output_scales(step));
  auto prim = compat::matmul(a_want, b_want, y_md, attr);
  if (!prim.ok) return {};
  // oneDNN 2.6's gemm-based matmul (all that AVX2 gets) packs "any" weights
  // as plain [K, N]. When N is a multiple of 256 (rows 1 KiB apart or a
  // multiple of it) [N, K] ran 1.2-3x faster on this Zen 3 (M 128, K 256, N
  // 768: 1.5 -> 0.8 ms; N 1024: 2.4 -> 0.9 ms; K 1024, N 256: 1.2 -> 1.0 ms;
  // M 4 and 16 gained too), but it ran 4-5x slower for N 1000 and for M 1-3
  // (classifier heads), so only there. Blocked (brgemm) choices stay.
  const bool n_major_pays = ad[rank - 2] >= 16 && bd[rank - 1] % 256 == 0;
  if (b_const && b_type == dt::f32 && n_major_pays && prim.impl.rfind("gemm", 0) == 0) {
    auto n_major_prim = compat::matmul(a_want, n_major(bd), y_md, attr);
    if (n_major_prim.ok) prim = std::move(n_major_prim);
  }
  // Relu and clip as oneDNN's max/min post-ops while the inputs are finite
  // (finite_form.h): cheaper than the NaN-keeping forms.
  compat::Primitive finite_form;
  const auto finite_post = finite_form_post_ops(r, ydims, *post);
  if (finite_post) {
    finite_form = compat::matmul(prim.src, prim.weights, prim.dst, make_attr(&finite_post->ops));
    finite_form.ok = finite_form_usable(prim, finite_form);
  }
  auto k = std::make_unique<PrimitiveKernel>();
  Args args;
  const int a_in = k->input(0, a_have);
  args.push_back({DNNL_ARG_SRC, int8 ? k->quantize(a_in, prim.src, step.quant.input_scale) : k->as(a_in, prim.src)});
  args.push_back({DNNL_ARG_WEIGHTS, source(*k, r, 1, b_have, prim.weights, b_const)});
  const int out = k->output(0, y_md);
  args.push_back({DNNL_ARG_DST, out});
  const int in_place = bind_post_ops(*k, r, *post, out, args);
  const auto checks = finite_form.ok ? finite_form_checks(*k, r, args, *post, out) : std::nullopt;
  if (checks) {
    k->primitive(prim, std::move(args), finite_form, *checks);
    k->finite_form_vouches = vouched_flags(*finite_post);
    k->exact_finals_from = k->finals.size();
  } else {
    k->primitive(prim, std::move(args));
  }
  add_tail(*k, *post, out);
  return {std::move(k), {Layout{}}, in_place};
}

}  // namespace atenrt::runtime::cpu::onednn
