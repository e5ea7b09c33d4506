// The oneDNN 2.6 API idioms, in one place: a move to oneDNN 3.x changes this
// file and nothing else under onednn/.
//
// 2.6 makes a primitive from an operation descriptor (convolution_forward::desc,
// ...) and a primitive_desc over it; 3.x drops the operation descriptors and
// takes the same arguments in the primitive_desc constructor, merges
// logsoftmax into softmax (algorithm softmax_log) and pooling_v2 into pooling,
// drops the scale of eltwise post-ops, and replaces memory::desc::data with
// query functions. Everything here returns a Primitive (or plain data), so the
// makers never name a 2.6 type.
#pragma once

#include <dnnl.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace atenrt::runtime::cpu::onednn::compat {

using md_t = dnnl::memory::desc;
using dims_t = dnnl::memory::dims;

// A created primitive with what the makers ask of its primitive_desc; `ok` is
// false when oneDNN has no implementation for the case.
struct Primitive {
  bool ok = false;
  dnnl::primitive prim;
  std::string impl;
  md_t src, weights, dst, scratchpad;
};

inline const dnnl::engine& cpu_engine() {
  static const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

// Scales on a primitive's result: common (mask 0) or one per index of a dim
// (mask 1 << dim). 2.6 applies them to the accumulator plus bias, before the
// post-ops; 3.x replaces output scales by per-argument scales.
inline void set_output_scales(dnnl::primitive_attr& attr, int mask, const std::vector<float>& scales) {
  attr.set_output_scales(mask, scales);
}

namespace detail {
// Whether a layout stores its values scaled (2.6's int8 weights for kernels
// that would overflow their 16-bit pair sums: scaled by 1/2 when packed).
inline bool weights_scale_adjusted(const md_t& md) {
  return (md.data.extra.flags & dnnl_memory_extra_flag_scale_adjust) != 0 && md.data.extra.scale_adjust != 1.0f;
}

// Empty (ok false) when the primitive_desc is empty.
template <typename Prim, typename Pd>
Primitive made(Pd pd) {
  Primitive p;
  if (!pd) return p;
  // A primitive_desc can still fail to make its primitive (2.6: some grouped
  // int8 convolutions' JIT kernels): the next implementation then does. One
  // that halves the weights (2.6's int8 kernels without dot-product
  // instructions for signed sources: the weights' scale_adjust) computes
  // something else than the step's definition: the next one too.
  for (;;) {
    if (weights_scale_adjusted(pd.weights_desc())) {
      if (!pd.next_impl()) return p;
      continue;
    }
    try {
      p.prim = Prim(pd);
      break;
    } catch (const dnnl::error&) {
      if (!pd.next_impl()) return p;
    }
  }
  p.ok = true;
  p.impl = pd.impl_info_str();
  p.src = pd.src_desc();
  p.weights = pd.weights_desc();  // a zero desc for primitives without weights
  p.dst = pd.dst_desc();
  p.scratchpad = pd.scratchpad_desc();
  return p;
}
template <typename Prim, typename Desc>
Primitive make(const Desc& d, const dnnl::primitive_attr& attr) {
  return made<Prim>(typename Prim::primitive_desc(d, attr, cpu_engine(), true));
}
}  // namespace detail

// Convolution (deconv false) or deconvolution, direct algorithm, inference.
// `bias` may be null; dilation as oneDNN counts it (0: dense).
inline Primitive convolution(bool deconv, const md_t& src, const md_t& weights, const md_t* bias,
                             const md_t& dst, const dims_t& strides, const dims_t& dilation,
                             const dims_t& pad_l, const dims_t& pad_r, const dnnl::primitive_attr& attr) {
  const auto inference = dnnl::prop_kind::forward_inference;
  if (!deconv) {
    using C = dnnl::convolution_forward;
    const auto alg = dnnl::algorithm::convolution_direct;
    const auto d = bias ? C::desc(inference, alg, src, weights, *bias, dst, strides, dilation, pad_l, pad_r)
                        : C::desc(inference, alg, src, weights, dst, strides, dilation, pad_l, pad_r);
    return detail::make<C>(d, attr);
  }
  using D = dnnl::deconvolution_forward;
  const auto alg = dnnl::algorithm::deconvolution_direct;
  const auto d = bias ? D::desc(inference, alg, src, weights, *bias, dst, strides, dilation, pad_l, pad_r)
                      : D::desc(inference, alg, src, weights, dst, strides, dilation, pad_l, pad_r);
  return detail::make<D>(d, attr);
}

// oneDNN's Winograd convolution (2.6: avx512_core and up; 3x3, stride 1).
inline Primitive convolution_winograd(const md_t& src, const md_t& weights, const md_t* bias, const md_t& dst,
                                      const dims_t& pad_l, const dims_t& pad_r, const dnnl::primitive_attr& attr) {
  using C = dnnl::convolution_forward;
  const auto inference = dnnl::prop_kind::forward_inference;
  const auto alg = dnnl::algorithm::convolution_winograd;
  const dims_t one{1, 1};
  const auto d = bias ? C::desc(inference, alg, src, weights, *bias, dst, one, pad_l, pad_r)
                      : C::desc(inference, alg, src, weights, dst, one, pad_l, pad_r);
  return detail::make<C>(d, attr);
}

inline Primitive matmul(const md_t& a, const md_t& b, const md_t& c, const dnnl::primitive_attr& attr) {
  return detail::make<dnnl::matmul>(dnnl::matmul::desc(a, b, c), attr);
}

// Pooling with dilation (2.6: pooling_v2; 3.x: pooling_forward).
inline Primitive pooling(dnnl::algorithm alg, const md_t& src, const md_t& dst, const dims_t& strides,
                         const dims_t& kernel, const dims_t& dilation, const dims_t& pad_l,
                         const dims_t& pad_r, const dnnl::primitive_attr& attr) {
  using P = dnnl::pooling_v2_forward;
  return detail::make<P>(P::desc(dnnl::prop_kind::forward_inference, alg, src, dst, strides, kernel,
                                 dilation, pad_l, pad_r),
                         attr);
}

// dst has src's desc in 2.6.
inline Primitive eltwise(dnnl::algorithm alg, const md_t& src, float alpha, float beta,
                         const dnnl::primitive_attr& attr) {
  using E = dnnl::eltwise_forward;
  return detail::make<E>(E::desc(dnnl::prop_kind::forward_inference, alg, src, alpha, beta), attr);
}

inline Primitive binary(dnnl::algorithm alg, const md_t& a, const md_t& b, const md_t& c,
                        const dnnl::primitive_attr& attr) {
  return detail::make<dnnl::binary>(dnnl::binary::desc(alg, a, b, c), attr);
}

// Softmax or log-softmax over `axis` (3.x: one primitive, two algorithms).
inline Primitive softmax(bool log, const md_t& md, int axis, const dnnl::primitive_attr& attr) {
  const auto inference = dnnl::prop_kind::forward_inference;
  if (log) {
    using L = dnnl::logsoftmax_forward;
    return detail::make<L>(L::desc(inference, md, axis), attr);
  }
  using S = dnnl::softmax_forward;
  return detail::make<S>(S::desc(inference, md, axis), attr);
}

inline Primitive layer_normalization(const md_t& md, float eps, dnnl::normalization_flags flags,
                                     const dnnl::primitive_attr& attr) {
  using L = dnnl::layer_normalization_forward;
  return detail::make<L>(L::desc(dnnl::prop_kind::forward_inference, md, eps, flags), attr);
}

inline Primitive reduction(dnnl::algorithm alg, const md_t& src, const md_t& dst,
                           const dnnl::primitive_attr& attr) {
  return detail::make<dnnl::reduction>(dnnl::reduction::desc(alg, src, dst, 0.f, 0.f), attr);
}

// An eltwise post-op (2.6 has a leading scale, always 1 here).
inline void append_eltwise(dnnl::post_ops& ops, dnnl::algorithm alg, float alpha, float beta) {
  ops.append_eltwise(1.f, alg, alpha, beta);
}

// The algorithm and bounds of eltwise post-op `index` (2.6 also returns the scale).
struct EltwiseParams {
  dnnl::algorithm alg{};
  float alpha = 0.f, beta = 0.f;
};
inline EltwiseParams eltwise_params(const dnnl::post_ops& ops, int index) {
  EltwiseParams e;
  float scale = 1.f;
  ops.get_params_eltwise(index, scale, e.alg, e.alpha, e.beta);
  return e;
}

// A memory descriptor's blocking, as plain numbers (2.6: md.data).
struct Blocking {
  int ndims = 0;
  std::int64_t offset0 = 0;
  std::int64_t strides[DNNL_MAX_NDIMS] = {};
  int inner_nblks = 0;
  std::int64_t inner_blks[DNNL_MAX_NDIMS] = {};
  int inner_idxs[DNNL_MAX_NDIMS] = {};
};

inline Blocking blocking_of(const md_t& md) {
  const auto& d = md.data;
  const auto& b = d.format_desc.blocking;
  Blocking out;
  out.ndims = d.ndims;
  out.offset0 = d.offset0;
  for (int i = 0; i < d.ndims; ++i) out.strides[i] = b.strides[i];
  out.inner_nblks = b.inner_nblks;
  for (int i = 0; i < b.inner_nblks; ++i) {
    out.inner_blks[i] = b.inner_blks[i];
    out.inner_idxs[i] = b.inner_idxs[i];
  }
  return out;
}

// A plain blocked layout (no compensation or other extra data): one that a
// format tag can name (engine files store packed weights by tag).
inline bool is_blocked_without_extra(const md_t& md) {
  return md.data.format_kind == dnnl_blocked && md.data.extra.flags == 0;
}

// `md`'s layout holding another data type (a float32 activation's format
// for its bf16 copy); strides count elements, so they stay as they are.
inline md_t with_data_type(const md_t& md, dnnl::memory::data_type type) {
  md_t out = md;
  out.data.data_type = static_cast<dnnl_data_type_t>(type);
  return out;
}

}  // namespace atenrt::runtime::cpu::onednn::compat
