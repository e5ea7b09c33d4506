// Pooling: fixed windows, and adaptive ones that divide evenly. Max pooling
// keeps oneDNN with a NaN-exact repair (own/nan_repair.h), and passes int8
// and bf16 activations through.
#include "runtime/cpu/onednn/makers.h"
#include "runtime/cpu/onednn/primitive_kernel.h"
#include "runtime/cpu/own/nan_repair.h"

namespace atenrt::runtime::cpu::onednn {
namespace {

own::BlockedIndex index_of(const md_t& md) {
  const auto b = compat::blocking_of(md);
  own::BlockedIndex::Block blocks[DNNL_MAX_NDIMS];
  for (int i = 0; i < b.inner_nblks; ++i) blocks[i] = {b.inner_idxs[i], b.inner_blks[i]};
  return own::BlockedIndex(b.ndims, b.offset0, b.strides, b.inner_nblks, blocks);
}

}  // namespace

KernelChoice make_pooling(const KernelRequest& r) {
  const auto& p = std::get<network::PoolingParams>(r.step->params);
  if (!all_f32(r, 1)) return {};
  const auto& x = *r.inputs[0].tensor;
  const auto& y = *r.outputs[0];
  const std::size_t spatial = p.adaptive ? p.output_size.size() : p.kernel.size();
  if (x.dims.size() != spatial + 2) return {};  // [C, *spatial] inputs go to our fallback
  Dims kernel, stride, pre, post, dil(spatial, 0);
  for (std::size_t i = 0; i < spatial; ++i) {
    const std::int64_t in = x.dims[2 + i], out = y.dims[2 + i];
    if (p.adaptive) {
      if (out == 0 || in % out != 0) return {};
      kernel.push_back(in / out);
      stride.push_back(in / out);
      pre.push_back(0);
      post.push_back(0);
      continue;
    }
    const std::int64_t d = p.dilation.empty() ? 1 : p.dilation[i];
    kernel.push_back(p.kernel[i]);
    stride.push_back(p.stride[i]);
    pre.push_back(p.padding_pre[i]);
    dil[i] = d - 1;
    // Right padding that makes oneDNN produce `out` (covers ceil_mode).
    const std::int64_t need = (out - 1) * p.stride[i] + (p.kernel[i] - 1) * d + 1 - in - p.padding_pre[i];
    // Extra ceil_mode padding changes the divisor of an average that counts
    // padding (torch counts only the real padding). Less than torch's right
    // padding is the same result: no window reaches the rest (MaxViT's
    // AvgPool2d(3, 2, padding=1) on even sizes).
    if (need > p.padding_post[i] && p.op == network::PoolingOp::Average && p.count_include_pad) return {};
    post.push_back(std::max<std::int64_t>(need, 0));
    if (need < 0 && p.op == network::PoolingOp::Average) return {};
  }
  if (p.divisor_override) return {};
  dnnl::algorithm alg = p.op == network::PoolingOp::Max ? dnnl::algorithm::pooling_max
                        : p.count_include_pad           ? dnnl::algorithm::pooling_avg_include_padding
                                                        : dnnl::algorithm::pooling_avg_exclude_padding;
  const md_t src = desc_of(r.inputs[0], dt::f32);
  // A quantized input (an int8 activation) passes through a max pooling
  // with its scale: max commutes with the monotone rounding, and there is
  // no NaN to repair. Only where the readers take it (int8_output, alike).
  const float in_scale = quant_scale(r.inputs[0].layout);
  const bool quantized = in_scale > 0.0f;
  if (quantized && (p.op != network::PoolingOp::Max || !r.int8_output || r.int8_output->scale != in_scale ||
                    src.data_type() != quantized_type(*r.int8_output))) {
    return {};  // the next provider gets it dequantized (ToPlain)
  }
  // A bf16 input (bf16 activations) passes through a max pooling as bf16:
  // max of bf16 values is one of them, and the readers (bf16 convolutions)
  // would round the float32 result to the same bf16 anyway. Only where the
  // result may be bf16; its NaN repair reads and writes bf16.
  const bool bf16 = src.data_type() == dt::bf16;
  if (bf16 && (p.op != network::PoolingOp::Max || !r.bf16_output_allowed)) return {};  // converted by ToPlain
  const dt stored = quantized || bf16 ? src.data_type() : dt::f32;
  const md_t dst_any(to_mdims(y.dims), stored, memory::format_tag::any);
  const auto prim = compat::pooling(alg, src, dst_any, to_mdims(stride), to_mdims(kernel), to_mdims(dil),
                                    to_mdims(pre), to_mdims(post), make_attr());
  if (!prim.ok) return {};
  auto k = std::make_unique<PrimitiveKernel>();
  const int src_slot = k->input(0, src);
  Args args{{DNNL_ARG_SRC, src_slot}};
  const Destination dst = destination(*k, r, prim.dst, dt::f32);
  args.push_back({DNNL_ARG_DST, dst.slot});
  k->primitive(prim, std::move(args));
  finish(*k, dst);
  if (p.op == network::PoolingOp::Max && !quantized) {
    const own::MaxPoolWindows w{x.dims, y.dims, kernel, stride, pre, dil};
    const own::BlockedIndex in_index = index_of(k->slots[src_slot].md);
    const own::BlockedIndex out_index = index_of(k->slots[dst.out_slot].md);
    const auto n = static_cast<std::int64_t>(k->slots[src_slot].md.get_size() / (bf16 ? 2 : sizeof(float)));
    // Needless when the input holds no NaN and no -inf (a conv's relu ended it this run).
    k->skip_finals_for_input = 0;
    k->skip_finals_flags = kNoNanNoMinusInf;
    k->finals.push_back([=, out_slot = dst.out_slot](std::span<void* const> data) {
      if (bf16) {
        own::repair_max_pool_bf16(w, static_cast<const std::uint16_t*>(data[src_slot]), in_index, n,
                                  static_cast<std::uint16_t*>(data[out_slot]), out_index);
      } else {
        own::repair_max_pool(w, static_cast<const float*>(data[src_slot]), in_index, n,
                             static_cast<float*>(data[out_slot]), out_index);
      }
    });
  }
  return {std::move(k), {dst.layout}};
}

}  // namespace atenrt::runtime::cpu::onednn
