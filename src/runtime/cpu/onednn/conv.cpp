// Convolution and deconvolution: created with format_tag::any, weights
// reordered once into the chosen format (pre-packing), bias and fused
// post-ops as oneDNN attributes.
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>

#include "runtime/cpu/onednn/finite_form.h"
#include "runtime/cpu/onednn/makers.h"
#include "runtime/cpu/onednn/post_ops.h"
#include "runtime/cpu/own/winograd.h"

namespace atenrt::runtime::cpu::onednn {
namespace {

memory::dims minus_one(const Dims& d) {
  memory::dims out;
  for (auto v : d) out.push_back(v - 1);
  return out;
}

// oneDNN 2.6 has Winograd only from avx512_core on (and then only for
// shapes it picks itself): below it, ours (own/winograd.h).
bool onednn_lacks_winograd() {
  const auto isa = dnnl::get_effective_cpu_isa();
  return isa == dnnl::cpu_isa::avx2 || isa == dnnl::cpu_isa::avx2_vnni;
}

// oneDNN 2.6's fp32 Winograd kernels: avx512_core and up.
bool onednn_has_winograd() {
  switch (dnnl::get_effective_cpu_isa()) {
    case dnnl::cpu_isa::avx512_core:
    case dnnl::cpu_isa::avx512_core_vnni:
    case dnnl::cpu_isa::avx512_core_bf16:
    case dnnl::cpu_isa::avx512_core_amx: return true;
    default: return false;
  }
}

// Whether oneDNN's Winograd serves this fp32 conv (onednn_winograd): 3x3,
// stride 1, groups 1, channels in 16-blocks, and weights of at most 256x256
// taps. Its transformed weights are 16/9 or 4x the conv's, made when the
// first context is; for 512-channel convs (ResNet's last stage) they cost
// 9-38 MB each, and its gain there was least (0.59 -> 0.49 ms at 512@7²).
bool winograd_conv(const Dims& x, const Dims& w, const network::ConvolutionParams& p) {
  if (x.size() != 4 || p.groups != 1 || w[2] != 3 || w[3] != 3) return false;
  if (p.stride != Dims{1, 1} || p.dilation != Dims{1, 1}) return false;
  return x[1] % 16 == 0 && w[0] % 16 == 0 && x[1] * w[0] <= 256 * 256;
}

// Whether this fp32 2-d conv takes nChw16c source and result on a CPU where
// oneDNN has Winograd (avx512_core and up): a Winograd conv, and a 1x1 conv
// whose source already is nChw16c (what follows one: its nChw16c kernel is
// as fast as brgconv's channels-last there, and a reorder back would eat the
// gain). Others keep oneDNN's pick: depthwise convs in nChw16c made
// MobileNetV2 20% slower, and 3x3 ones not taking Winograd run slower there.
template <typename Params>
bool blocked16_conv(const KernelRequest& r, const Params& p, bool deconv) {
  if constexpr (!std::is_same_v<Params, network::ConvolutionParams>) {
    return false;
  } else {
    if (deconv || r.step->precision != Precision::Float32 || !onednn_has_winograd() || p.groups != 1) return false;
    const auto& x = r.inputs[0].tensor->dims;
    const auto& y = r.outputs[0]->dims;
    const auto& w = r.inputs[1].tensor->dims;
    if (x.size() != 4 || x[1] % 16 != 0 || y[1] % 16 != 0) return false;
    if (winograd_conv(x, w, p)) return true;
    const md_t blocked(to_mdims(x), dt::f32, memory::format_tag::nChw16c);
    return w[2] == 1 && w[3] == 1 && !r.inputs[0].layout.is_plain() && desc_of(r.inputs[0], dt::f32) == blocked;
  }
}

// The post-ops our Winograd's output transform applies (on finite values):
// a leading residual sum, then relu and clip; null for any other list.
std::optional<own::winograd::Epilogue> winograd_epilogue(const KernelRequest& r, const PostOps& post) {
  using A = network::ActivationOp;
  if (!post.binary.empty()) return std::nullopt;
  own::winograd::Epilogue e;
  const auto& ops = r.step->post_ops;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (ops[i].kind == PostOpKind::Add) {
      if (i != 0 || ops[i].operand != post.sum_input) return std::nullopt;
      e.sum = true;
      continue;
    }
    const auto& a = ops[i].activation;
    if (a.op == A::Relu || (a.op == A::LeakyRelu && a.alpha == 0.0)) {
      e.clamps.push_back({0.f, std::numeric_limits<float>::infinity()});
    } else if (a.op == A::Clip) {
      e.clamps.push_back({static_cast<float>(a.alpha), static_cast<float>(a.beta)});  // rounded to float, as torch's
    } else {
      return std::nullopt;
    }
  }
  return e;
}

// kFinite when the epilogue's last clamp has finite bounds (as vouched_flags).
std::uint8_t epilogue_vouched_flags(const own::winograd::Epilogue& e) {
  const bool finite = !e.clamps.empty() && std::isfinite(e.clamps.back().lo) && std::isfinite(e.clamps.back().hi);
  return finite ? kFinite | kNoNanNoMinusInf : 0;
}

// Our Winograd convolution as the finite form of this fp32 conv (the direct
// primitive `prim` stays the exact form, for NaN and ±inf): the shape for it,
// or null where it does not apply or did not measure faster.
std::optional<own::winograd::Shape> winograd_shape(const KernelRequest& r, const network::ConvolutionParams& p,
                                                   const compat::Primitive& prim) {
  if (r.step->precision != Precision::Float32 || !onednn_lacks_winograd()) return std::nullopt;
  const auto& x = r.inputs[0].tensor->dims;
  const auto& w = r.inputs[1].tensor->dims;
  const auto& y = r.outputs[0]->dims;
  if (x.size() != 4 || p.groups != 1 || w[2] != 3 || w[3] != 3) return std::nullopt;
  if (p.stride != Dims{1, 1} || p.dilation != Dims{1, 1}) return std::nullopt;
  if (r.inputs[1].tensor->role != TensorRole::Constant || !r.prepack_weights) return std::nullopt;
  using tag = memory::format_tag;
  if (prim.src != md_t(to_mdims(x), dt::f32, tag::nChw8c) || prim.dst != md_t(to_mdims(y), dt::f32, tag::nChw8c)) {
    return std::nullopt;
  }
  own::winograd::Shape s;
  s.m = own::winograd::choose_tile(x[1], y[1], y[2], y[3]);
  if (s.m == 0) return std::nullopt;
  s.n = x[0], s.c_in = x[1], s.c_out = y[1], s.h = x[2], s.w = x[3], s.oh = y[2], s.ow = y[3];
  s.pad_top = p.padding_pre[0], s.pad_left = p.padding_pre[1];
  return s;
}

// oneDNN's own Winograd (avx512_core and up) for this fp32 3x3 stride-1
// conv, in the direct primitive `prim`'s source and result layouts, with
// `ops` as its post-ops: the finite form (a Winograd transform turns one
// ±inf into NaN across its tile, so the direct primitive stays the exact
// form for NaN and ±inf). 1.2-2x faster than oneDNN's direct kernels on
// ResNet's 3x3 shapes here (2 threads), within fp32's error bar.
std::optional<compat::Primitive> onednn_winograd(const KernelRequest& r, const network::ConvolutionParams& p,
                                                 const compat::Primitive& prim, const md_t* bias, const Dims& pad_post,
                                                 const dnnl::post_ops& ops) {
  if (r.step->precision != Precision::Float32 || !onednn_has_winograd()) return std::nullopt;
  if (!winograd_conv(r.inputs[0].tensor->dims, r.inputs[1].tensor->dims, p)) return std::nullopt;
  if (r.inputs[1].tensor->role != TensorRole::Constant || !r.prepack_weights) return std::nullopt;
  const md_t w_any(prim.weights.dims(), dt::f32, memory::format_tag::any);
  auto wino = compat::convolution_winograd(prim.src, w_any, bias, prim.dst, to_mdims(p.padding_pre), to_mdims(pad_post),
                                           make_attr(&ops));
  if (!wino.ok || wino.impl.find("wino") == std::string::npos || wino.src != prim.src || wino.dst != prim.dst) {
    return std::nullopt;
  }
  return wino;
}

// A conv's pre-packed float32 weights back in plain oihw, what both
// Winograds transform.
memory unpacked_oihw(memory packed) {
  memory plain(md_t(packed.get_desc().dims(), dt::f32, memory::format_tag::oihw), cpu_engine());
  dnnl::stream stream(cpu_engine());
  dnnl::reorder(packed, plain).execute(stream, packed, plain);
  stream.wait();
  return plain;
}

// oneDNN's Winograd weights (their own opaque format: oneDNN reorders into it
// only from plain) from the direct primitive's packed ones.
memory onednn_winograd_weights(memory packed, const md_t& want) {
  memory plain = unpacked_oihw(std::move(packed));
  memory out(want, cpu_engine());
  dnnl::stream stream(cpu_engine());
  dnnl::reorder(plain, out).execute(stream, plain, out);
  stream.wait();
  return out;
}

// The GEMMs of a Winograd convolution: one batched matmul V (tiles × Cin)
// · U (Cin × Cout) per point of the (m+2)² tile; null when oneDNN makes no
// such matmul.
std::optional<compat::Primitive> winograd_gemms(const own::winograd::Shape& s) {
  const std::int64_t aa = s.alpha() * s.alpha(), tiles = s.tiles();
  const md_t v_md({aa, tiles, s.c_in}, dt::f32, memory::format_tag::abc);
  const md_t m_md({aa, tiles, s.c_out}, dt::f32, memory::format_tag::abc);
  auto mm = compat::matmul(v_md, md_t({aa, s.c_in, s.c_out}, dt::f32, memory::format_tag::any), m_md, make_attr());
  if (!mm.ok || mm.impl.find("ref") != std::string::npos) return std::nullopt;
  return mm;
}

// U = G g G^T from the conv's packed weights `packed`, in the matmul's layout.
memory winograd_weights(const own::winograd::Shape& s, memory packed, const md_t& want) {
  const std::int64_t aa = s.alpha() * s.alpha();
  const memory plain = unpacked_oihw(std::move(packed));
  dnnl::stream stream(cpu_engine());
  std::vector<float> u = own::winograd::transform_weights(s, static_cast<const float*>(plain.get_data_handle()));
  memory u_plain(md_t({aa, s.c_in, s.c_out}, dt::f32, memory::format_tag::abc), cpu_engine(), u.data());
  memory out(want, cpu_engine());
  dnnl::reorder(u_plain, out).execute(stream, u_plain, out);
  stream.wait();
  return out;
}

// The Winograd calls (after the exact primitive): input transform, the
// GEMMs, output transform with the epilogue.
void add_winograd(PrimitiveKernel& k, const own::winograd::Shape& s, const own::winograd::Epilogue& e,
                  const compat::Primitive& mm, int src, int weights, int bias, int dst) {
  const int v = k.temp(mm.src), m = k.temp(mm.dst);
  const int u = k.lazy_constant(mm.weights, [s, packed = k.slots[weights].constant, want = mm.weights] {
    return winograd_weights(s, packed, want);
  });
  k.own_pass([s, src, v](std::span<void* const> d) {
    own::winograd::transform_input(s, static_cast<const float*>(d[src]), static_cast<float*>(d[v]));
  });
  k.primitive(mm, {{DNNL_ARG_SRC, v}, {DNNL_ARG_WEIGHTS, u}, {DNNL_ARG_DST, m}});
  k.own_pass([s, e, m, bias, dst](std::span<void* const> d) {
    own::winograd::transform_output(s, static_cast<const float*>(d[m]),
                                    bias >= 0 ? static_cast<const float*>(d[bias]) : nullptr, e,
                                    static_cast<float*>(d[dst]));
  });
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
  md_t x_any(to_mdims(x.dims), src_type, memory::format_tag::any);
  md_t y_any(to_mdims(y.dims), dt::f32, memory::format_tag::any);
  // fp32 on avx512: oneDNN 2.6 would pick brgconv's channels-last, but its
  // Winograd (onednn_winograd) takes only nChw16c; its nChw16c jit kernels
  // are as fast as brgconv on ResNet's 1x1 shapes (blocked16_conv).
  const bool blocked16 = blocked16_conv(r, p, deconv);
  if (blocked16) {
    x_any = md_t(to_mdims(x.dims), dt::f32, memory::format_tag::nChw16c);
    y_any = md_t(to_mdims(y.dims), dt::f32, memory::format_tag::nChw16c);
  }
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
  const auto make_prim = [&](const md_t& dst, const dnnl::primitive_attr& with) {
    return compat::convolution(deconv, x_any, w_any, has_bias ? &b_md : nullptr, dst, to_mdims(p.stride),
                               minus_one(p.dilation), to_mdims(p.padding_pre), to_mdims(pad_post), with);
  };
  // bf16 activations: where every reader is a bf16 convolution, the result
  // is stored in bf16 (in its blocked layout, which a tail may run over:
  // tail_keeps_zero). A bf16 source and result made oneDNN's bf16 kernels
  // about twice as fast as fp32 here; with a float32 round trip around each
  // (a reorder in, float32 out) they were slower than fp32 on MobileNetV2.
  compat::Primitive prim;
  if (r.bf16_output_allowed && !deconv && compute == dt::bf16 && tail_keeps_zero(*post)) {
    prim = make_prim(md_t(to_mdims(y.dims), dt::bf16, memory::format_tag::any), attr);
    if (prim.ok && prim.impl.find("ref") != std::string::npos) prim.ok = false;
  }
  // int8 activations: where every reader is an int8 step quantizing this
  // result with one scale (KernelRequest::int8_output), it is quantized here
  // instead: a linear post-op multiplies by 1 / scale and the store rounds
  // to nearest even and saturates, what the readers' quantize reorder does
  // to the float32 result. Relu and clip as oneDNN's max/min: NaN has no
  // int8 form, and oneDNN 2.6 wrote wrong uint8 values after the
  // NaN-keeping elu chain. A residual (sum post-op) is read from dst: a
  // quantized one (an int8 activation, uint8 or int8 whatever dst's type)
  // is added times its own scale; a float32 one is a binary post-op instead
  // (a ResNet downsample branch calibration gave no output scale). A tail
  // runs over float32: those write float32.
  std::optional<PostOps> q_post;
  if (int8 && r.int8_output && r.blocked_output_allowed) {
    if (post->sum_input < 0) {
      q_post = make_post_ops(r, y.dims, true);
    } else if (const Layout& residual = r.inputs[post->sum_input].layout; quant_scale(residual) == 0.0f) {
      q_post = make_post_ops(r, y.dims, true, 1.0f, /*residual_as_binary=*/true);
    } else if (const dt type = residual.blocked->md.data_type(); type == quantized_type(*r.int8_output)) {
      q_post = make_post_ops(r, y.dims, true, quant_scale(residual));
    } else {  // the other integer type (an int8 downsample branch into a uint8 result)
      q_post = make_post_ops(r, y.dims, true, quant_scale(residual), false, type);
    }
  }
  if (q_post && q_post->tail.empty()) {
    dnnl::post_ops ops = q_post->ops;
    compat::append_eltwise(ops, dnnl::algorithm::eltwise_linear, 1.0f / r.int8_output->scale, 0.0f);
    dnnl::primitive_attr q_attr = make_attr(&ops);
    compat::set_output_scales(q_attr, 1 << 1, scales);
    prim = make_prim(md_t(to_mdims(y.dims), quantized_type(*r.int8_output), memory::format_tag::any), q_attr);
    if (prim.ok && prim.impl.find("ref") != std::string::npos) prim.ok = false;
    if (prim.ok) post = std::move(q_post);  // what binds the operands below
  }
  if (!prim.ok) prim = make_prim(y_any, attr);
  if (blocked16 && (!prim.ok || prim.impl.find("ref") != std::string::npos)) {
    x_any = md_t(to_mdims(x.dims), src_type, memory::format_tag::any);  // nChw16c found no kernel: oneDNN's pick
    y_any = md_t(to_mdims(y.dims), dt::f32, memory::format_tag::any);
    prim = make_prim(y_any, attr);
  }
  if (!prim.ok) return {};
  // Relu and clip as oneDNN's max/min post-ops while the inputs are finite
  // (finite_form.h): cheaper than the NaN-keeping forms.
  compat::Primitive finite_form;
  const auto finite_post = finite_form_post_ops(r, y.dims, *post);
  if (finite_post) {
    finite_form = compat::convolution(deconv, prim.src, prim.weights, has_bias ? &b_md : nullptr, prim.dst,
                                      to_mdims(p.stride), minus_one(p.dilation), to_mdims(p.padding_pre),
                                      to_mdims(pad_post), make_attr(&finite_post->ops));
    finite_form.ok = finite_form_usable(prim, finite_form);
  }

  auto k = std::make_unique<PrimitiveKernel>();
  Args args;
  const int x_in = k->input(0, desc_of(r.inputs[0], dt::f32));
  args.push_back({DNNL_ARG_SRC, int8 ? k->quantize(x_in, prim.src, step.quant.input_scale,
                                                  quant_scale(r.inputs[0].layout))
                                     : k->as(x_in, prim.src)});
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
  if constexpr (std::is_same_v<Params, network::ConvolutionParams>) {
    const auto wino = winograd_shape(r, p, prim);
    const auto epilogue = wino ? winograd_epilogue(r, *post) : std::nullopt;
    const auto wino_checks = epilogue ? finite_form_checks(*k, r, args, *post, dst.slot) : std::nullopt;
    auto slot_of = [&](int arg) {
      for (auto [a, slot] : args) {
        if (a == arg) return slot;
      }
      return -1;
    };
    const int weights = slot_of(DNNL_ARG_WEIGHTS);
    const bool packed = weights >= 0 && k->slots[weights].source == Slot::Source::Constant;
    const auto gemms = wino_checks && packed ? winograd_gemms(*wino) : std::nullopt;
    if (gemms) {
      const int src = slot_of(DNNL_ARG_SRC), bias = slot_of(DNNL_ARG_BIAS);
      k->primitive(prim, std::move(args));
      k->finite_path(*wino_checks, [&] { add_winograd(*k, *wino, *epilogue, *gemms, src, weights, bias, dst.slot); },
                     "wino_f" + std::to_string(wino->m) + "3");
      k->finite_form_vouches = epilogue_vouched_flags(*epilogue);
      finish(*k, dst);
      k->exact_finals_from = k->finals.size();
      add_tail(*k, *post, dst.out_slot);
      return {std::move(k), {dst.layout}, in_place};
    }
    // Relu/clip as max/min where they are (finite_post), else the exact
    // post-ops when nothing of ours follows the primitive.
    const dnnl::post_ops* wino_ops = finite_post ? &finite_post->ops : post->tail.empty() ? &post->ops : nullptr;
    const auto dnnl_wino = wino_ops && packed ? onednn_winograd(r, p, prim, has_bias ? &b_md : nullptr, pad_post, *wino_ops)
                                               : std::nullopt;
    const auto dnnl_wino_checks = dnnl_wino ? finite_form_checks(*k, r, args, *post, dst.slot) : std::nullopt;
    if (dnnl_wino_checks) {
      Args wino_args = args;
      const int wino_weights = k->lazy_constant(
          dnnl_wino->weights, [packed_weights = k->slots[weights].constant, want = dnnl_wino->weights] {
            return onednn_winograd_weights(packed_weights, want);
          });
      for (auto& [arg, slot] : wino_args) {
        if (arg == DNNL_ARG_WEIGHTS) slot = wino_weights;
      }
      k->primitive(prim, std::move(args));
      k->finite_path(*dnnl_wino_checks, [&] { k->primitive(*dnnl_wino, std::move(wino_args)); }, "onednn_wino");
      k->finite_form_vouches = finite_post ? vouched_flags(*finite_post) : 0;
      finish(*k, dst);
      k->exact_finals_from = k->finals.size();
      add_tail(*k, *post, dst.out_slot);
      return {std::move(k), {dst.layout}, in_place};
    }
  }
  const auto checks = finite_form.ok ? finite_form_checks(*k, r, args, *post, dst.slot) : std::nullopt;
  if (checks) {
    k->primitive(prim, std::move(args), finite_form, *checks);
    k->finite_form_vouches = vouched_flags(*finite_post);
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
