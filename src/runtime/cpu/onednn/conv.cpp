// Convolution and deconvolution: created with format_tag::any, weights
// reordered once into the chosen format (pre-packing), bias and fused
// post-ops as oneDNN attributes.
#include <functional>
#include <numeric>

#include "runtime/cpu/onednn/finite_form.h"
#include "runtime/cpu/onednn/makers.h"
#include "runtime/cpu/onednn/post_ops.h"

namespace atenrt::runtime::cpu::onednn {
namespace {

memory::dims minus_one(const Dims& d) {
  memory::dims out;
  for (auto v : d) out.push_back(v - 1);
  return out;
}

template <typename Params>
KernelChoice conv_like(const KernelRequest& r, bool deconv) {
  const auto& step = *r.step;
  const auto& p = std::get<Params>(step.params);
  const std::size_t n = step.layer_input_count();
  const bool int8 = step.precision == Precision::Int8;
  if (int8 ? deconv || !int8_operands(r, n) : !all_f32(r, n)) return {};
  const auto& x = *r.inputs[0].tensor;
  const auto& w = *r.inputs[1].tensor;
  const auto& y = *r.outputs[0];
  const int spatial = static_cast<int>(x.dims.size()) - 2;
  const std::int64_t g = p.groups;
  const dt compute = step.precision == Precision::BFloat16 ? dt::bf16 : dt::f32;
  const dt src_type = !int8 ? compute : step.quant.input_unsigned ? dt::u8 : dt::s8;
  const dt weight_type = int8 ? dt::s8 : compute;

  // Weights in oneDNN's logical order [g,] O, I, k...; torch's storage order
  // is O, I/g (conv) or I, O/g (deconv), described with strides.
  const std::int64_t cin = x.dims[1], cout = y.dims[1];
  const std::int64_t ksize = std::accumulate(w.dims.begin() + 2, w.dims.end(), std::int64_t{1},
                                             std::multiplies<>());
  memory::dims wd, ws;
  if (g > 1) wd = {g, cout / g, cin / g};
  else wd = {cout, cin};
  for (int i = 0; i < spatial; ++i) wd.push_back(w.dims[2 + i]);
  {
    // strides of the spatial part: row-major within a kernel
    memory::dims ks(spatial, 1);
    for (int i = spatial - 2; i >= 0; --i) ks[i] = ks[i + 1] * w.dims[3 + i];
    const std::int64_t o_stride = deconv ? ksize : (cin / g) * ksize;
    const std::int64_t i_stride = deconv ? (cout / g) * ksize : ksize;
    const std::int64_t g_stride = deconv ? (cin / g) * (cout / g) * ksize : (cout / g) * (cin / g) * ksize;
    if (g > 1) ws = {g_stride, o_stride, i_stride};
    else ws = {o_stride, i_stride};
    ws.insert(ws.end(), ks.begin(), ks.end());
  }
  const md_t w_have(wd, int8 ? dt::s8 : dt::f32, ws);
  const md_t w_any(wd, weight_type, memory::format_tag::any);
  const md_t x_any(to_mdims(x.dims), src_type, memory::format_tag::any);
  const md_t y_any(to_mdims(y.dims), dt::f32, memory::format_tag::any);
  const bool has_bias = n == 3;
  const md_t b_md = has_bias ? plain_md(r.inputs[2].tensor->dims, dt::f32) : md_t();

  Dims pad_post = p.padding_post;
  if constexpr (std::is_same_v<Params, network::DeconvolutionParams>) {
    // oneDNN derives the output size from the padding: fold output_padding in.
    for (int i = 0; i < spatial; ++i) pad_post[i] -= p.output_padding[i];
    for (auto v : pad_post) {
      if (v < 0) return {};
    }
  }
  auto post = make_post_ops(r, y.dims);
  if (!post) return {};
  dnnl::primitive_attr attr = make_attr(&post->ops);
  // int8: the accumulator times input_scale * weight_scale[oc] per output
  // channel. oneDNN 2.6 scales (accumulator + bias), so the bias goes in
  // divided by that scale; it must be a constant to be divided once.
  std::vector<float> scales;
  if (int8) {
    if (has_bias && !r.inputs[2].tensor->value.defined()) return {};
    scales = int8_output_scales(step);
    compat::set_output_scales(attr, 1 << 1, scales);
  }
  const auto prim = compat::convolution(deconv, x_any, w_any, has_bias ? &b_md : nullptr, y_any,
                                        to_mdims(p.stride), minus_one(p.dilation), to_mdims(p.padding_pre),
                                        to_mdims(pad_post), attr);
  if (!prim.ok) return {};
  // Relu and clip as oneDNN's max/min post-ops while the inputs are finite
  // (finite_form.h): cheaper than the NaN-keeping forms.
  compat::Primitive finite_form;
  if (const auto finite_post = finite_form_post_ops(r, y.dims, *post)) {
    finite_form = compat::convolution(deconv, prim.src, prim.weights, has_bias ? &b_md : nullptr, prim.dst,
                                      to_mdims(p.stride), minus_one(p.dilation), to_mdims(p.padding_pre),
                                      to_mdims(pad_post), make_attr(&finite_post->ops));
    finite_form.ok = finite_form_usable(prim, finite_form);
  }

  auto k = std::make_unique<PrimitiveKernel>();
  Args args;
  const int x_in = k->input(0, desc_of(r.inputs[0], dt::f32));
  args.push_back({DNNL_ARG_SRC, int8 ? k->quantize(x_in, prim.src, step.quant.input_scale) : k->as(x_in, prim.src)});
  args.push_back({DNNL_ARG_WEIGHTS, source(*k, r, 1, w_have, prim.weights, r.prepack_weights)});
  if (has_bias && int8) {
    memory bias(b_md, cpu_engine());
    const float* b = r.inputs[2].tensor->value.data<float>();
    for (std::size_t c = 0; c < scales.size(); ++c) static_cast<float*>(bias.get_data_handle())[c] = b[c] / scales[c];
    args.push_back({DNNL_ARG_BIAS, k->constant(bias)});
  } else if (has_bias) {
    args.push_back({DNNL_ARG_BIAS, k->input(2, b_md)});
  }
  const Destination dst = destination(*k, r, prim.dst, dt::f32, tail_keeps_zero(*post));
  args.push_back({DNNL_ARG_DST, dst.slot});
  const int in_place = bind_post_ops(*k, r, *post, dst.slot, args);
  const auto checks = finite_form.ok ? finite_form_checks(*k, r, args, *post, dst.slot) : std::nullopt;
  if (checks) {
    k->primitive(prim, std::move(args), finite_form, *checks);
  } else {
    k->primitive(prim, std::move(args));
  }
  finish(*k, dst);
  if (checks) k->exact_finals_from = k->finals.size();
  add_tail(*k, *post, dst.out_slot);
  return {std::move(k), {dst.layout}, in_place};
}

}  // namespace

KernelChoice make_convolution(const KernelRequest& r) { return conv_like<network::ConvolutionParams>(r, false); }
KernelChoice make_deconvolution(const KernelRequest& r) { return conv_like<network::DeconvolutionParams>(r, true); }

}  // namespace atenrt::runtime::cpu::onednn
