#include "runtime/cpu/onednn/post_ops.h"

#include <algorithm>

#include "ir/element.h"
#include "runtime/cpu/own/parallel.h"
#include "runtime/cpu/own/util.h"
#include "reference/scalar_math.h"

namespace atenrt::runtime::cpu::onednn {

bool activation_matches_torch(const network::ActivationParams& p) {
  using A = network::ActivationOp;
  switch (p.op) {
    case A::Clip:
    case A::HardSigmoid:
    case A::Softplus: return false;
    case A::LeakyRelu: return p.alpha != 0.0;  // slope 0 is oneDNN's NaN-dropping max
    // oneDNN 2.6 forms tanh(softplus(x)) as ((1+e^x)^2-1)/((1+e^x)^2+1): the
    // subtraction cancels below x ~ -10 and gives 0 below -16 (torch: x*e^x).
    case A::Mish: return false;
    // Matches, but its AVX2 form is 2.6x slower than our own pass after the
    // primitive (own/fast_activations.cpp).
    case A::GeluTanh: return false;
    default: return true;  // relu: see relu_chain()
  }
}

namespace {
// relu that keeps NaN, exactly: oneDNN's relu is a max instruction that turns
// NaN into 0, but elu with alpha 0 gives x for x > 0 and 0 * (exp(x) - 1) =
// -0 (NaN for NaN) otherwise; linear(1, 0) then turns -0 into +0. It keeps
// relu a fused post-op instead of our own pass, which reads and writes every
// conv output again.
std::vector<Elt> relu_chain() {
  return {{dnnl::algorithm::eltwise_elu, 0.f, 0.f}, {dnnl::algorithm::eltwise_linear, 1.f, 0.f}};
}
}  // namespace

std::optional<std::vector<Elt>> eltwise_chain(const network::ActivationParams& p) {
  using A = network::ActivationOp;
  using dnnl::algorithm;
  const auto a = static_cast<float>(p.alpha);
  const auto b = static_cast<float>(p.beta);
  if (!activation_matches_torch(p)) return std::nullopt;
  switch (p.op) {
    case A::Relu: return relu_chain();
    case A::LeakyRelu: return std::vector<Elt>{{algorithm::eltwise_relu, a, 0.f}};
    case A::Sigmoid: return std::vector<Elt>{{algorithm::eltwise_logistic}};
    case A::Tanh: return std::vector<Elt>{{algorithm::eltwise_tanh}};
    case A::Elu: return std::vector<Elt>{{algorithm::eltwise_elu, a, 0.f}};
    case A::Selu:  // scale * elu(x, alpha), torch's constants
      return std::vector<Elt>{{algorithm::eltwise_elu, 1.6732632423543772f, 0.f},
                              {algorithm::eltwise_linear, 1.0507009873554805f, 0.f}};
    case A::Clip: return std::vector<Elt>{{algorithm::eltwise_clip_v2, a, b}};
    case A::GeluErf: return std::vector<Elt>{{algorithm::eltwise_gelu_erf}};
    case A::GeluTanh: return std::vector<Elt>{{algorithm::eltwise_gelu_tanh}};
    case A::HardSigmoid:  // clip(alpha*x + beta, 0, 1)
      return std::vector<Elt>{{algorithm::eltwise_linear, a, b}, {algorithm::eltwise_clip_v2, 0.f, 1.f}};
    case A::HardSwish: return std::vector<Elt>{{algorithm::eltwise_hardswish}};
    case A::Silu: return std::vector<Elt>{{algorithm::eltwise_swish, 1.f, 0.f}};
    case A::Mish: return std::vector<Elt>{{algorithm::eltwise_mish}};
    case A::Softplus: return std::nullopt;  // 2.6 soft_relu has no beta/threshold
  }
  return std::nullopt;
}

namespace {
// The position of the first full-size Add when only Adds precede it, else -1.
// oneDNN's gemm-based matmul (what AVX2 CPUs get) takes a sum only as the
// first post-op and otherwise falls back to its reference kernel, hundreds of
// times slower: a linear layer's bias add before a residual add did that.
// Adds commute (NaN and inf included), so that sum goes first.
int leading_sum_position(const KernelRequest& r) {
  const auto& ops = r.step->post_ops;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (ops[i].kind != PostOpKind::Add) return -1;
    if (r.inputs[ops[i].operand].tensor->dims == r.outputs[0]->dims) return static_cast<int>(i);
  }
  return -1;
}
}  // namespace

namespace {
// Relu and clip as oneDNN's max/min forms (make_post_ops, for_finite_inputs).
std::optional<Elt> finite_input_form(const network::ActivationParams& p) {
  using A = network::ActivationOp;
  const auto a = static_cast<float>(p.alpha), b = static_cast<float>(p.beta);
  if (p.op == A::Relu || (p.op == A::LeakyRelu && p.alpha == 0.0)) return Elt{dnnl::algorithm::eltwise_relu, 0.f, 0.f};
  if (p.op == A::Clip) return Elt{dnnl::algorithm::eltwise_clip_v2, a, b};  // bounds rounded to float, as torch's
  return std::nullopt;
}
}  // namespace

std::optional<PostOps> make_post_ops(const KernelRequest& r, const Dims& dst_dims, bool for_finite_inputs,
                                     float sum_scale, bool residual_as_binary, dt sum_type) {
  PostOps p;
  int index = 0;
  const int leading_sum = residual_as_binary ? -1 : leading_sum_position(r);
  if (leading_sum >= 0) {
    p.ops.append_sum(sum_scale, sum_type);
    p.sum_input = r.step->post_ops[leading_sum].operand;
    ++index;
  }
  for (int i = 0; i < static_cast<int>(r.step->post_ops.size()); ++i) {
    if (i == leading_sum) continue;  // already the first post-op
    const PostOp& op = r.step->post_ops[i];
    if (for_finite_inputs && p.tail.empty() && op.kind == PostOpKind::Activation) {
      if (const auto e = finite_input_form(op.activation)) {
        compat::append_eltwise(p.ops, e->alg, e->alpha, e->beta);
        p.drops_nan = true;
        ++index;
        continue;
      }
    }
    if (!p.tail.empty() || (op.kind == PostOpKind::Activation && !activation_matches_torch(op.activation))) {
      // From the first activation oneDNN gets wrong on, the rest is ours: activations only.
      if (op.kind != PostOpKind::Activation) return std::nullopt;
      p.tail.push_back(op.activation);
      continue;
    }
    if (op.kind == PostOpKind::Activation) {
      auto chain = eltwise_chain(op.activation);
      if (!chain) return std::nullopt;
      for (const auto& e : *chain) {
        compat::append_eltwise(p.ops, e.alg, e.alpha, e.beta);
        ++index;
      }
    } else {
      const auto* t = r.inputs[op.operand].tensor;
      if (t->dims == dst_dims) {
        // A full-size operand after an activation (a leading one is the sum
        // above): a binary add in the operand's own layout, since a sum there
        // sends AVX2 convolutions and the gemm-based matmul to oneDNN's
        // reference kernels (EfficientNetV2's silu-then-residual convs did).
        const md_t md = desc_of(r.inputs[op.operand], dt::f32);
        if (quant_scale(r.inputs[op.operand].layout) > 0.0f) return std::nullopt;  // integers q, not q * scale
        p.ops.append_binary(dnnl::algorithm::binary_add, md);
        p.binary.push_back({index, op.operand});
        p.binary_md.push_back(md);
      } else {
        if (!r.inputs[op.operand].layout.is_plain() || t->dims.size() > dst_dims.size()) {
          return std::nullopt;
        }
        Dims d(dst_dims.size() - t->dims.size(), 1);
        d.insert(d.end(), t->dims.begin(), t->dims.end());
        const md_t md = plain_md(d, dt::f32);
        p.ops.append_binary(dnnl::algorithm::binary_add, md);
        p.binary.push_back({index, op.operand});
        p.binary_md.push_back(md);
      }
      ++index;
    }
  }
  return p;
}

bool tail_keeps_zero(const PostOps& post) {
  for (const auto& a : post.tail) {
    if (reference::math::activate(a.op, 0.0, a.alpha, a.beta) != 0.0) return false;
  }
  return true;
}

void add_tail(PrimitiveKernel& k, const PostOps& post, int slot) {
  if (post.tail.empty()) return;
  std::int64_t grain = own::kSimpleGrain;
  for (const auto& a : post.tail) grain = std::min(grain, own::activation_grain(a));
  if (k.slots[slot].md.data_type() == dt::bf16) {  // a bf16 result (bf16 activations): in float chunks
    const auto n = static_cast<std::int64_t>(k.slots[slot].md.get_size() / sizeof(std::uint16_t));
    k.finals.push_back([tail = post.tail, slot, n, grain](std::span<void* const> data) {
      auto* y = static_cast<std::uint16_t*>(data[slot]);
      own::parallel_for(n, grain, [&](std::int64_t begin, std::int64_t end) {
        constexpr std::int64_t kChunk = 512;
        float buf[kChunk];
        for (std::int64_t at = begin; at < end; at += kChunk) {
          const std::int64_t m = std::min(kChunk, end - at);
          for (std::int64_t i = 0; i < m; ++i) buf[i] = ir::bf16_to_float(y[at + i]);
          for (const auto& a : tail) own::apply_activation_here(a, buf, buf, m);
          for (std::int64_t i = 0; i < m; ++i) y[at + i] = ir::float_to_bf16(buf[i]);
        }
      });
    });
    return;
  }
  const auto n = static_cast<std::int64_t>(k.slots[slot].md.get_size() / sizeof(float));
  k.finals.push_back([tail = post.tail, slot, n, grain](std::span<void* const> data) {
    auto* y = static_cast<float*>(data[slot]);
    // One region for the whole tail; each thread runs every activation over
    // its chunk while the chunk is in its cache. Blocked padding goes through
    // too: it stays 0 (tail_keeps_zero).
    own::parallel_for(n, grain, [&](std::int64_t begin, std::int64_t end) {
      for (const auto& a : tail) own::apply_activation_here(a, y + begin, y + begin, end - begin);
    });
  });
}

int bind_post_ops(PrimitiveKernel& k, const KernelRequest& r, const PostOps& post, int dst_slot, Args& args) {
  for (std::size_t i = 0; i < post.binary.size(); ++i) {
    const int slot = k.input(post.binary[i].second, post.binary_md[i]);
    args.push_back({DNNL_ARG_ATTR_MULTIPLE_POST_OP(post.binary[i].first) | DNNL_ARG_SRC_1, slot});
  }
  if (post.sum_input < 0) return -1;
  const KernelInput& in = r.inputs[post.sum_input];
  const int residual = k.input(post.sum_input, desc_of(in, dt::f32));
  const float residual_scale = quant_scale(in.layout);
  if (residual_scale > 0.0f && k.slots[dst_slot].md.data_type() == dt::f32) {
    k.dequantize(residual, dst_slot, residual_scale);  // an int8 activation into a float32 result
    return -1;
  }
  // A quantized result's sum post-op scales the quantized residual itself
  // (conv.cpp), read in the residual's own integer type: so it is copied
  // byte for byte, into dst seen as that type.
  const md_t& dst_md = k.slots[dst_slot].md;
  const dt residual_type = k.slots[residual].md.data_type();
  const int into = residual_scale > 0.0f && residual_type != dst_md.data_type()
                       ? k.view(dst_slot, compat::with_data_type(dst_md, residual_type))
                       : dst_slot;
  k.copy(residual, into);
  const Slot& dst = k.slots[into];
  const bool same_buffer_possible = dst.source == Slot::Source::Output && dst.index == 0 &&
                                    k.slots[residual].md == dst.md;
  return same_buffer_possible ? post.sum_input : -1;
}

}  // namespace atenrt::runtime::cpu::onednn
