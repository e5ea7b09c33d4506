// The one file that talks to oneDNN 2.6 (DESIGN.md §4: an upgrade touches one
// place). Each supported step becomes an OnednnKernel: a short list of
// primitive calls over "slots" (the step's inputs and outputs, regions of the
// context's scratch, and constants pre-packed at build time).
//
// Layouts: conv/deconv are created with format_tag::any; their weights are
// reordered once into the chosen format (pre-packing). A source whose layout
// differs from what the primitive wants is reordered into scratch; a result in
// a blocked format is reordered to plain unless every consumer takes it as is.
//
// NaN: PyTorch semantics win. oneDNN 2.6's relu (alpha 0), clip and binary/
// reduction max/min drop NaN (max(x, 0) with vmaxps), and its max pooling and
// max reduction start from -FLT_MAX; its softmax keeps a row's other entries
// when the row holds NaN or +inf. So: those activations run as our own pass
// ("finals", after the primitives, in place on the hot result) instead of
// oneDNN post-ops, max/min binary and reduction are ours, and max pooling and
// softmax keep oneDNN with a check that redoes the rare non-finite cases.
// relu stays a fused post-op through an exact NaN-keeping chain (relu_chain)
// instead of our own pass, which reads and writes every conv output again.
#include <dnnl.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <unordered_map>

#include "atenrt/errors.h"
#include "runtime/cpu/kernel.h"
#include "runtime/cpu/own_util.h"
#include "runtime/reference/scalar_math.h"

namespace atenrt::runtime::cpu {

using dnnl::memory;
using network::LayerKind;

class BlockedDesc {
 public:
  explicit BlockedDesc(memory::desc d) : md(std::move(d)) {}
  memory::desc md;
};

namespace {

using md_t = memory::desc;
using dt = memory::data_type;

const dnnl::engine& cpu_engine() {
  static const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

std::optional<dt> to_dt(DType d) {
  switch (d) {
    case DType::Float32: return dt::f32;
    case DType::BFloat16: return dt::bf16;
    case DType::Int32: return dt::s32;
    case DType::Int8: return dt::s8;
    case DType::UInt8:
    case DType::Bool: return dt::u8;
    default: return std::nullopt;
  }
}

memory::dims mdims(const Dims& d) {
  if (d.empty()) return {1};  // oneDNN has no 0-d memory
  return memory::dims(d.begin(), d.end());
}

md_t plain_md(const Dims& dims, dt type) {
  const auto d = mdims(dims);
  memory::dims strides(d.size(), 1);
  for (int i = static_cast<int>(d.size()) - 2; i >= 0; --i) strides[i] = strides[i + 1] * d[i + 1];
  return md_t(d, type, strides);
}

md_t desc_of(const Operand& op, dt type) {
  if (!op.layout.is_plain()) return op.layout.blocked->md;
  return plain_md(op.tensor->dims, type);
}

std::size_t align64(std::size_t n) { return (n + 63) / 64 * 64; }

// ---- the kernel: slots and calls

struct Slot {
  enum class Source { Input, Output, Scratch, Constant };
  Source source = Source::Scratch;
  int index = 0;            // Input/Output
  std::size_t offset = 0;   // Scratch
  md_t md;
  memory constant;          // Constant
};

struct Call {
  dnnl::primitive prim;
  std::vector<std::pair<int, int>> args;  // (DNNL_ARG_*, slot)
};

class OnednnKernel final : public Kernel {
 public:
  std::vector<Slot> slots;
  std::vector<Call> calls;
  // Our own passes after the calls, over the slots' data pointers.
  std::vector<std::function<void(std::span<void* const>)>> finals;
  std::size_t scratch = 0;
  std::string impl;

  int input(int i, const md_t& md) { return add({Slot::Source::Input, i, 0, md, {}}); }
  int output(int i, const md_t& md) { return add({Slot::Source::Output, i, 0, md, {}}); }
  int temp(const md_t& md) {
    const std::size_t offset = align64(scratch);
    scratch = offset + md.get_size();
    return add({Slot::Source::Scratch, 0, offset, md, {}});
  }
  int constant(memory m) { return add({Slot::Source::Constant, 0, 0, m.get_desc(), m}); }
  void call(dnnl::primitive p, std::vector<std::pair<int, int>> args) {
    calls.push_back({std::move(p), std::move(args)});
  }
  // Slot `from` reordered into a new slot of layout `want` (or `from` itself).
  int as(int from, const md_t& want) {
    if (slots[from].md == want) return from;
    const int to = temp(want);
    reorder(from, to);
    return to;
  }
  void reorder(int from, int to) {
    dnnl::reorder::primitive_desc pd(cpu_engine(), slots[from].md, cpu_engine(), slots[to].md);
    call(dnnl::reorder(pd), {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}});
  }
  // A user scratchpad for a primitive, when it wants one.
  void scratchpad(std::vector<std::pair<int, int>>& args, const md_t& md) {
    if (md.get_size() > 0) args.push_back({DNNL_ARG_SCRATCHPAD, temp(md)});
  }

  std::size_t scratch_bytes() const override { return scratch; }
  std::string implementation() const override { return "onednn:" + impl; }

  struct State final : KernelState {
    dnnl::stream stream;
    std::vector<memory> mems;
    std::vector<std::unordered_map<int, memory>> args;
    std::vector<void*> data;  // per slot, for the finals
  };

  std::unique_ptr<KernelState> make_state() const override {
    auto s = std::make_unique<State>();
    s->stream = dnnl::stream(cpu_engine());
    for (const auto& slot : slots) {
      s->mems.push_back(slot.source == Slot::Source::Constant
                            ? slot.constant
                            : memory(slot.md, cpu_engine(), DNNL_MEMORY_NONE));
      s->data.push_back(slot.source == Slot::Source::Constant ? slot.constant.get_data_handle() : nullptr);
    }
    for (const auto& c : calls) {
      std::unordered_map<int, memory> args;
      for (auto [arg, slot] : c.args) args.emplace(arg, s->mems[slot]);
      s->args.push_back(std::move(args));
    }
    return s;
  }

  void run(KernelState* state, const KernelArgs& a) const override {
    auto* s = static_cast<State*>(state);
    for (std::size_t i = 0; i < slots.size(); ++i) {
      const Slot& slot = slots[i];
      void* p = nullptr;
      switch (slot.source) {
        case Slot::Source::Input: p = const_cast<void*>(a.inputs[slot.index]); break;
        case Slot::Source::Output: p = a.outputs[slot.index]; break;
        case Slot::Source::Scratch: p = static_cast<std::byte*>(a.scratch) + slot.offset; break;
        case Slot::Source::Constant: continue;
      }
      s->mems[i].set_data_handle(p);
      s->data[i] = p;
    }
    for (std::size_t c = 0; c < calls.size(); ++c) calls[c].prim.execute(s->stream, s->args[c]);
    s->stream.wait();
    for (const auto& f : finals) f(s->data);
  }

 private:
  int add(Slot s) {
    slots.push_back(std::move(s));
    return static_cast<int>(slots.size()) - 1;
  }
};

// A constant reordered now into `want` (pre-packing) and kept by the kernel.
memory pack_constant(const Tensor& value, const md_t& have, const md_t& want) {
  memory src(have, cpu_engine(), const_cast<std::byte*>(value.raw_data()));
  memory dst(want, cpu_engine());
  dnnl::stream stream(cpu_engine());
  dnnl::reorder(src, dst).execute(stream, src, dst);
  stream.wait();
  return dst;
}

// Input i of the step as a slot in layout `want`: pre-packed when constant.
int source(OnednnKernel& k, const KernelRequest& r, int i, const md_t& have, const md_t& want,
           bool pack) {
  const auto* t = r.inputs[i].tensor;
  if (pack && t->role == TensorRole::Constant) {
    return k.constant(pack_constant(t->value, have, want));
  }
  return k.as(k.input(i, have), want);
}

// The slot the primitive writes its result to; `finish` reorders it to the
// step's output when the output must be plain and the primitive chose otherwise.
struct Destination {
  int slot = -1;
  int out_slot = -1;
  Layout layout;
};

Destination destination(OnednnKernel& k, const KernelRequest& r, const md_t& produced,
                        dt type, bool allow_blocked = true) {
  Destination d;
  const md_t plain = plain_md(r.outputs[0]->dims, type);
  if (produced == plain) {
    d.slot = d.out_slot = k.output(0, plain);
  } else if (r.blocked_output_allowed && allow_blocked) {
    d.slot = d.out_slot = k.output(0, produced);
    d.layout.blocked = std::make_shared<BlockedDesc>(produced);
  } else {
    d.slot = k.temp(produced);
    d.out_slot = k.output(0, plain);
  }
  return d;
}

void finish(OnednnKernel& k, const Destination& d) {
  if (d.slot != d.out_slot) k.reorder(d.slot, d.out_slot);
}

// ---- eltwise mapping of activations

struct Elt {
  dnnl::algorithm alg;
  float alpha = 0.f;
  float beta = 0.f;
};

// relu that keeps NaN, exactly: oneDNN's relu is a max instruction that turns
// NaN into 0, but elu with alpha 0 gives x for x > 0 and 0 * (exp(x) - 1) =
// -0 (NaN for NaN) otherwise; linear(1, 0) then turns -0 into +0.
std::vector<Elt> relu_chain() {
  return {{dnnl::algorithm::eltwise_elu, 0.f, 0.f}, {dnnl::algorithm::eltwise_linear, 1.f, 0.f}};
}

// Null for activations oneDNN has not, or gets wrong on NaN (clip is a pair
// of max/min instructions that turns NaN into a bound).
std::optional<std::vector<Elt>> eltwise_chain(const network::ActivationParams& p) {
  using A = network::ActivationOp;
  using dnnl::algorithm;
  const auto a = static_cast<float>(p.alpha);
  const auto b = static_cast<float>(p.beta);
  if (!onednn_activation_matches_torch(p)) return std::nullopt;
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
      return std::vector<Elt>{{algorithm::eltwise_linear, a, b},
                              {algorithm::eltwise_clip_v2, 0.f, 1.f}};
    case A::HardSwish: return std::vector<Elt>{{algorithm::eltwise_hardswish}};
    case A::Silu: return std::vector<Elt>{{algorithm::eltwise_swish, 1.f, 0.f}};
    case A::Mish: return std::vector<Elt>{{algorithm::eltwise_mish}};
    case A::Softplus: return std::nullopt;  // 2.6 soft_relu has no beta/threshold
  }
  return std::nullopt;
}

// Post-ops of a conv/deconv/matmul step. `dst_rank`: rank of the primitive's dst.
struct PostOps {
  dnnl::post_ops ops;
  std::vector<network::ActivationParams> tail;          // ours, after the primitive
  int sum_input = -1;                                   // step input copied into dst first
  std::vector<std::pair<int, int>> binary;              // (post-op index, step input)
  std::vector<md_t> binary_md;
};

std::optional<PostOps> make_post_ops(const KernelRequest& r, const Dims& dst_dims) {
  PostOps p;
  int index = 0;
  for (const auto& op : r.step->post_ops) {
    if (!p.tail.empty() || (op.kind == PostOpKind::Activation && !onednn_activation_matches_torch(op.activation))) {
      // From the first activation oneDNN gets wrong on, the rest is ours: activations only.
      if (op.kind != PostOpKind::Activation) return std::nullopt;
      p.tail.push_back(op.activation);
      continue;
    }
    if (op.kind == PostOpKind::Activation) {
      auto chain = eltwise_chain(op.activation);
      if (!chain) return std::nullopt;
      for (const auto& e : *chain) {
        p.ops.append_eltwise(1.f, e.alg, e.alpha, e.beta);
        ++index;
      }
    } else {
      const auto* t = r.inputs[op.operand].tensor;
      if (t->dims == r.outputs[0]->dims && p.sum_input < 0) {
        p.ops.append_sum(1.f);
        p.sum_input = op.operand;
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

// Whether act(0) == 0 for the whole tail: only then may it run over a blocked
// buffer, whose padding must stay zero.
bool tail_keeps_zero(const PostOps& post) {
  for (const auto& a : post.tail) {
    if (reference::math::activate(a.op, 0.0, a.alpha, a.beta) != 0.0) return false;
  }
  return true;
}

// The tail activations, in place over every element of `slot`.
void add_tail(OnednnKernel& k, const PostOps& post, int slot) {
  if (post.tail.empty()) return;
  const auto n = static_cast<std::int64_t>(k.slots[slot].md.get_size() / sizeof(float));
  k.finals.push_back([tail = post.tail, slot, n](std::span<void* const> data) {
    auto* y = static_cast<float*>(data[slot]);
    for (const auto& a : tail) own::apply_activation(a, y, y, n);
  });
}

dnnl::primitive_attr make_attr(const PostOps* post) {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  if (post) attr.set_post_ops(post->ops);
  return attr;
}

// Binary post-op operands and the residual copy into dst (before the call).
void bind_post_ops(OnednnKernel& k, const KernelRequest& r, const PostOps& post, int dst_slot,
                   std::vector<std::pair<int, int>>& args) {
  for (std::size_t i = 0; i < post.binary.size(); ++i) {
    const int slot = k.input(post.binary[i].second, post.binary_md[i]);
    args.push_back({DNNL_ARG_ATTR_MULTIPLE_POST_OP(post.binary[i].first) | DNNL_ARG_SRC_1, slot});
  }
  if (post.sum_input >= 0) {
    const auto& op = r.inputs[post.sum_input];
    k.reorder(k.input(post.sum_input, desc_of(op, dt::f32)), dst_slot);
  }
}

bool all_f32(const KernelRequest& r, std::size_t n_inputs) {
  for (std::size_t i = 0; i < n_inputs; ++i) {
    if (r.inputs[i].tensor->dtype != DType::Float32) return false;
  }
  for (const auto* t : r.outputs) {
    if (t->dtype != DType::Float32) return false;
  }
  return true;
}

memory::dims to_mdims(const Dims& d) { return memory::dims(d.begin(), d.end()); }
memory::dims minus_one(const Dims& d) {
  memory::dims out;
  for (auto v : d) out.push_back(v - 1);
  return out;
}

// ---- convolution and deconvolution

template <typename Params>
KernelChoice conv_like(const KernelRequest& r, bool deconv) {
  const auto& step = *r.step;
  const auto& p = std::get<Params>(step.params);
  const std::size_t n = step.layer_input_count();
  if (!all_f32(r, n)) return {};
  const auto& x = *r.inputs[0].tensor;
  const auto& w = *r.inputs[1].tensor;
  const auto& y = *r.outputs[0];
  const int spatial = static_cast<int>(x.dims.size()) - 2;
  const std::int64_t g = p.groups;
  const dt compute = step.precision == Precision::BFloat16 ? dt::bf16 : dt::f32;

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
  const md_t w_have(wd, dt::f32, ws);
  const md_t w_any(wd, compute, memory::format_tag::any);
  const md_t x_any(to_mdims(x.dims), compute, memory::format_tag::any);
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
  const auto attr = make_attr(&*post);
  const auto strides = to_mdims(p.stride), dil = minus_one(p.dilation);
  const auto pl = to_mdims(p.padding_pre), pr = to_mdims(pad_post);

  auto k = std::make_unique<OnednnKernel>();
  md_t src_md, wei_md, dst_md, pad_md;
  dnnl::primitive prim;
  if (!deconv) {
    using C = dnnl::convolution_forward;
    auto d = has_bias ? C::desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                                x_any, w_any, b_md, y_any, strides, dil, pl, pr)
                      : C::desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                                x_any, w_any, y_any, strides, dil, pl, pr);
    C::primitive_desc pd(d, attr, cpu_engine(), true);
    if (!pd) return {};
    src_md = pd.src_desc(), wei_md = pd.weights_desc(), dst_md = pd.dst_desc(), pad_md = pd.scratchpad_desc();
    prim = C(pd);
    k->impl = pd.impl_info_str();
  } else {
    using D = dnnl::deconvolution_forward;
    auto d = has_bias ? D::desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::deconvolution_direct,
                                x_any, w_any, b_md, y_any, strides, dil, pl, pr)
                      : D::desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::deconvolution_direct,
                                x_any, w_any, y_any, strides, dil, pl, pr);
    D::primitive_desc pd(d, attr, cpu_engine(), true);
    if (!pd) return {};
    src_md = pd.src_desc(), wei_md = pd.weights_desc(), dst_md = pd.dst_desc(), pad_md = pd.scratchpad_desc();
    prim = D(pd);
    k->impl = pd.impl_info_str();
  }
  std::vector<std::pair<int, int>> args;
  args.push_back({DNNL_ARG_SRC, k->as(k->input(0, desc_of(r.inputs[0], dt::f32)), src_md)});
  args.push_back({DNNL_ARG_WEIGHTS, source(*k, r, 1, w_have, wei_md, r.prepack_weights)});
  if (has_bias) args.push_back({DNNL_ARG_BIAS, k->input(2, b_md)});
  const Destination dst = destination(*k, r, dst_md, dt::f32, tail_keeps_zero(*post));
  args.push_back({DNNL_ARG_DST, dst.slot});
  bind_post_ops(*k, r, *post, dst.slot, args);
  k->scratchpad(args, pad_md);
  k->call(prim, std::move(args));
  finish(*k, dst);
  add_tail(*k, *post, dst.out_slot);
  return {std::move(k), {dst.layout}};
}

// ---- matmul (torch.matmul semantics, transposes as strides)

KernelChoice matmul(const KernelRequest& r) {
  const auto& step = *r.step;
  const auto& p = std::get<network::MatMulParams>(step.params);
  if (!all_f32(r, 2)) return {};
  const auto& a = *r.inputs[0].tensor;
  const auto& b = *r.inputs[1].tensor;
  const auto& y = *r.outputs[0];
  if (!r.inputs[0].layout.is_plain() || !r.inputs[1].layout.is_plain()) return {};
  // Logical [.., M, K] and [.., K, N] with strides over the stored tensors.
  auto view = [](const Dims& dims, bool vector_is_row, bool transpose, memory::dims& d,
                 memory::dims& s) {
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
  };
  memory::dims ad, as, bd, bs;
  view(a.dims, true, p.transpose_a, ad, as);
  view(b.dims, false, p.transpose_b, bd, bs);
  const std::size_t rank = std::max(ad.size(), bd.size());
  auto expand = [rank](memory::dims& d, memory::dims& s) {
    const std::int64_t total = d[0] * s[0];
    while (d.size() < rank) {
      d.insert(d.begin(), 1);
      s.insert(s.begin(), total);
    }
  };
  expand(ad, as);
  expand(bd, bs);
  memory::dims yd(rank);
  for (std::size_t i = 0; i + 2 < rank; ++i) yd[i] = std::max(ad[i], bd[i]);
  yd[rank - 2] = ad[rank - 2];
  yd[rank - 1] = bd[rank - 1];
  const dt compute = step.precision == Precision::BFloat16 ? dt::bf16 : dt::f32;
  const md_t a_have(ad, dt::f32, as), b_have(bd, dt::f32, bs);
  Dims ydims(yd.begin(), yd.end());
  const md_t y_md = plain_md(ydims, dt::f32);
  const md_t a_want = compute == dt::f32 ? a_have : plain_md(Dims(ad.begin(), ad.end()), compute);
  const bool b_const = b.role == TensorRole::Constant && r.prepack_weights;
  const md_t b_want = b_const ? md_t(bd, compute, memory::format_tag::any)
                              : (compute == dt::f32 ? b_have : plain_md(Dims(bd.begin(), bd.end()), compute));
  Dims y_dims_expected = ydims;
  if (numel_of(y.dims) != numel_of(ydims)) return {};
  // Post-op operands broadcast against the stored output dims; only when
  // those are oneDNN's dst dims (no dropped vector dim).
  if (!step.post_ops.empty() && y.dims != ydims) return {};
  auto post = make_post_ops(r, ydims);
  if (!post) return {};
  dnnl::matmul::desc d(a_want, b_want, y_md);
  dnnl::matmul::primitive_desc pd(d, make_attr(&*post), cpu_engine(), true);
  if (!pd) return {};
  auto k = std::make_unique<OnednnKernel>();
  k->impl = pd.impl_info_str();
  std::vector<std::pair<int, int>> args;
  args.push_back({DNNL_ARG_SRC, k->as(k->input(0, a_have), pd.src_desc())});
  args.push_back({DNNL_ARG_WEIGHTS, source(*k, r, 1, b_have, pd.weights_desc(), b_const)});
  const int out = k->output(0, y_md);
  args.push_back({DNNL_ARG_DST, out});
  bind_post_ops(*k, r, *post, out, args);
  k->scratchpad(args, pd.scratchpad_desc());
  k->call(dnnl::matmul(pd), std::move(args));
  add_tail(*k, *post, out);
  return {std::move(k), {Layout{}}};
}

// Logical index → element offset in a oneDNN memory (plain or blocked).
class BlockedIndex {
 public:
  explicit BlockedIndex(const md_t& md) {
    const auto& d = md.data;
    const auto& b = d.format_desc.blocking;
    rank_ = d.ndims;
    offset0_ = d.offset0;
    for (int i = 0; i < rank_; ++i) {
      strides_[i] = b.strides[i];
      block_[i] = 1;
    }
    nblks_ = b.inner_nblks;
    for (int i = 0; i < nblks_; ++i) {
      blks_[i] = b.inner_blks[i];
      idxs_[i] = b.inner_idxs[i];
      block_[idxs_[i]] *= blks_[i];
    }
  }
  std::int64_t operator()(const std::int64_t* idx) const {
    std::int64_t off = offset0_, rem[DNNL_MAX_NDIMS], div[DNNL_MAX_NDIMS];
    for (int d = 0; d < rank_; ++d) {
      off += idx[d] / block_[d] * strides_[d];
      rem[d] = idx[d] % block_[d];
      div[d] = block_[d];
    }
    std::int64_t inner = 0;  // inner blocks are row-major, outermost block first
    for (int i = 0; i < nblks_; ++i) {
      const int d = idxs_[i];
      div[d] /= blks_[i];
      inner = inner * blks_[i] + rem[d] / div[d];
      rem[d] %= div[d];
    }
    return off + inner;
  }

 private:
  int rank_ = 0, nblks_ = 0;
  std::int64_t offset0_ = 0;
  std::int64_t strides_[DNNL_MAX_NDIMS] = {}, block_[DNNL_MAX_NDIMS] = {}, blks_[DNNL_MAX_NDIMS] = {};
  int idxs_[DNNL_MAX_NDIMS] = {};
};

// The windows of a max pooling as oneDNN got them (dilation as oneDNN's d-1).
struct MaxPoolWindows {
  Dims in, out, kernel, stride, pre, dil;
};

// torch's max pooling: the first NaN in a window wins, else the largest;
// padding never counts. Used only when the input holds NaN or -inf.
void torch_max_pool(const MaxPoolWindows& w, const float* x, const BlockedIndex& xi, float* y,
                    const BlockedIndex& yi) {
  const int rank = static_cast<int>(w.in.size()), spatial = rank - 2;
  std::int64_t o[DNNL_MAX_NDIMS] = {}, i[DNNL_MAX_NDIMS] = {}, k[DNNL_MAX_NDIMS] = {};
  const std::int64_t count = numel_of(w.out);
  for (std::int64_t flat = 0; flat < count; ++flat) {
    std::int64_t rest = flat;
    for (int d = rank - 1; d >= 0; --d) {
      o[d] = rest % w.out[d];
      rest /= w.out[d];
    }
    i[0] = o[0], i[1] = o[1];
    float best = -INFINITY;
    bool seen = false;
    std::int64_t taps = 1;
    for (int s = 0; s < spatial; ++s) taps *= w.kernel[s];
    for (std::int64_t t = 0; t < taps; ++t) {
      std::int64_t r = t;
      bool inside = true;
      for (int s = spatial - 1; s >= 0; --s) {
        k[s] = r % w.kernel[s];
        r /= w.kernel[s];
        i[2 + s] = o[2 + s] * w.stride[s] - w.pre[s] + k[s] * (w.dil[s] + 1);
        inside = inside && i[2 + s] >= 0 && i[2 + s] < w.in[2 + s];
      }
      if (!inside) continue;
      const float v = x[xi(i)];
      if (!seen || reference::math::beats(v, best, true)) best = v;
      seen = true;
    }
    y[yi(o)] = best;
  }
}

// ---- pooling (fixed windows, and adaptive ones that divide evenly)

KernelChoice pooling(const KernelRequest& r) {
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
    if (need != p.padding_post[i]) {
      // Extra ceil_mode padding changes the divisor of an average that counts padding.
      if (p.op == network::PoolingOp::Average && p.count_include_pad) return {};
    }
    post.push_back(std::max<std::int64_t>(need, 0));
    if (need < 0 && p.op == network::PoolingOp::Average) return {};
  }
  if (p.divisor_override) return {};
  dnnl::algorithm alg = p.op == network::PoolingOp::Max ? dnnl::algorithm::pooling_max
                        : p.count_include_pad           ? dnnl::algorithm::pooling_avg_include_padding
                                                        : dnnl::algorithm::pooling_avg_exclude_padding;
  const md_t src = desc_of(r.inputs[0], dt::f32);
  const md_t dst_any(to_mdims(y.dims), dt::f32, memory::format_tag::any);
  dnnl::pooling_v2_forward::desc d(dnnl::prop_kind::forward_inference, alg, src, dst_any,
                                   to_mdims(stride), to_mdims(kernel), to_mdims(dil),
                                   to_mdims(pre), to_mdims(post));
  dnnl::pooling_v2_forward::primitive_desc pd(d, make_attr(nullptr), cpu_engine(), true);
  if (!pd) return {};
  auto k = std::make_unique<OnednnKernel>();
  k->impl = pd.impl_info_str();
  const int src_slot = k->input(0, src);
  std::vector<std::pair<int, int>> args{{DNNL_ARG_SRC, src_slot}};
  const Destination dst = destination(*k, r, pd.dst_desc(), dt::f32);
  args.push_back({DNNL_ARG_DST, dst.slot});
  k->scratchpad(args, pd.scratchpad_desc());
  k->call(dnnl::pooling_v2_forward(pd), std::move(args));
  finish(*k, dst);
  if (p.op == network::PoolingOp::Max) {
    // oneDNN drops NaN and starts from -FLT_MAX: exact unless the input holds
    // NaN or -inf, which one read finds; then the windows are redone as torch.
    MaxPoolWindows w{x.dims, y.dims, kernel, stride, pre, dil};
    const BlockedIndex in_index(k->slots[src_slot].md), out_index(k->slots[dst.out_slot].md);
    const auto n = static_cast<std::int64_t>(k->slots[src_slot].md.get_size() / sizeof(float));
    k->finals.push_back([=, out_slot = dst.out_slot](std::span<void* const> data) {
      const auto* in = static_cast<const float*>(data[src_slot]);
      bool plain_numbers = true;
      for (std::int64_t i = 0; i < n; ++i) plain_numbers = plain_numbers && !(in[i] != in[i] || in[i] == -INFINITY);
      if (!plain_numbers) torch_max_pool(w, in, in_index, static_cast<float*>(data[out_slot]), out_index);
    });
  }
  return {std::move(k), {dst.layout}};
}

// ---- activation: a chain of eltwise primitives, in place after the first

KernelChoice activation(const KernelRequest& r) {
  if (!all_f32(r, 1)) return {};
  auto chain = eltwise_chain(std::get<network::ActivationParams>(r.step->params));
  if (!chain) return {};
  const md_t src = desc_of(r.inputs[0], dt::f32);
  auto k = std::make_unique<OnednnKernel>();
  const Destination dst = destination(*k, r, src, dt::f32);
  int from = k->input(0, src);
  for (const auto& e : *chain) {
    dnnl::eltwise_forward::desc d(dnnl::prop_kind::forward_inference, e.alg, src, e.alpha, e.beta);
    dnnl::eltwise_forward::primitive_desc pd(d, make_attr(nullptr), cpu_engine(), true);
    if (!pd) return {};
    k->impl = pd.impl_info_str();
    std::vector<std::pair<int, int>> args{{DNNL_ARG_SRC, from}, {DNNL_ARG_DST, dst.slot}};
    k->scratchpad(args, pd.scratchpad_desc());
    k->call(dnnl::eltwise_forward(pd), std::move(args));
    from = dst.slot;
  }
  finish(*k, dst);
  return {std::move(k), {dst.layout}};
}

// ---- elementwise f32 arithmetic through binary (src1 may broadcast)

KernelChoice binary(const KernelRequest& r) {
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
  const md_t a = expanded(i0), b = expanded(i1), c = plain_md(y.dims, dt::f32);
  dnnl::binary::desc d(alg, a, b, c);
  dnnl::binary::primitive_desc pd(d, make_attr(nullptr), cpu_engine(), true);
  if (!pd) return {};
  auto k = std::make_unique<OnednnKernel>();
  k->impl = pd.impl_info_str();
  std::vector<std::pair<int, int>> args{
      {DNNL_ARG_SRC_0, k->input(i0, a)}, {DNNL_ARG_SRC_1, k->input(i1, b)}, {DNNL_ARG_DST, k->output(0, c)}};
  k->scratchpad(args, pd.scratchpad_desc());
  k->call(dnnl::binary(pd), std::move(args));
  return {std::move(k), {Layout{}}};
}

// ---- softmax / log-softmax (fp32 statistics always)

KernelChoice softmax(const KernelRequest& r) {
  const auto& p = std::get<network::SoftmaxParams>(r.step->params);
  if (!all_f32(r, 1)) return {};
  const auto& x = *r.inputs[0].tensor;
  if (x.dims.empty() || numel_of(x.dims) == 0) return {};
  const int rank = static_cast<int>(x.dims.size());
  const int axis = static_cast<int>(p.axis < 0 ? p.axis + rank : p.axis);
  const md_t md = plain_md(x.dims, dt::f32);
  auto k = std::make_unique<OnednnKernel>();
  const int src = k->input(0, md), dst = k->output(0, md);
  std::vector<std::pair<int, int>> args{{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}};
  // torch: a row whose max is NaN or ±inf is all NaN (x - max is NaN somewhere,
  // so the sum is); oneDNN keeps the row's other entries. One read of x finds them.
  std::int64_t outer = 1, inner = 1;
  for (int i = 0; i < axis; ++i) outer *= x.dims[i];
  for (int i = axis + 1; i < rank; ++i) inner *= x.dims[i];
  const std::int64_t len = x.dims[axis];
  k->finals.push_back([=](std::span<void* const> data) {
    const auto* in = static_cast<const float*>(data[src]);
    auto* out = static_cast<float*>(data[dst]);
    for (std::int64_t o = 0; o < outer; ++o) {
      for (std::int64_t i = 0; i < inner; ++i) {
        const std::int64_t base = o * len * inner + i;
        float mx = in[base];  // NaN-propagating max of the row
        for (std::int64_t j = 1; j < len; ++j) {
          const float v = in[base + j * inner];
          mx = (v > mx || std::isnan(v)) && !std::isnan(mx) ? v : mx;
        }
        if (std::isfinite(mx)) continue;
        for (std::int64_t j = 0; j < len; ++j) out[base + j * inner] = std::numeric_limits<float>::quiet_NaN();
      }
    }
  });
  if (p.log) {
    dnnl::logsoftmax_forward::desc d(dnnl::prop_kind::forward_inference, md, axis);
    dnnl::logsoftmax_forward::primitive_desc pd(d, make_attr(nullptr), cpu_engine(), true);
    if (!pd) return {};
    k->impl = pd.impl_info_str();
    k->scratchpad(args, pd.scratchpad_desc());
    k->call(dnnl::logsoftmax_forward(pd), std::move(args));
  } else {
    dnnl::softmax_forward::desc d(dnnl::prop_kind::forward_inference, md, axis);
    dnnl::softmax_forward::primitive_desc pd(d, make_attr(nullptr), cpu_engine(), true);
    if (!pd) return {};
    k->impl = pd.impl_info_str();
    k->scratchpad(args, pd.scratchpad_desc());
    k->call(dnnl::softmax_forward(pd), std::move(args));
  }
  return {std::move(k), {Layout{}}};
}

// ---- normalization: layer (as [outer, inner]) and batch (inference stats)

KernelChoice normalization(const KernelRequest& r) {
  using N = network::NormalizationOp;
  const auto& p = std::get<network::NormalizationParams>(r.step->params);
  if (!all_f32(r, r.step->inputs.size())) return {};
  const auto& x = *r.inputs[0].tensor;
  const auto eps = static_cast<float>(p.epsilon);
  const auto flags = dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift;
  auto k = std::make_unique<OnednnKernel>();
  if (p.op == N::Layer) {
    const int rank = static_cast<int>(x.dims.size());
    const int axis = static_cast<int>(p.axis < 0 ? p.axis + rank : p.axis);
    std::int64_t outer = 1, inner = 1;
    for (int i = 0; i < rank; ++i) (i < axis ? outer : inner) *= x.dims[i];
    if (inner == 0 || outer == 0) return {};
    const md_t md = plain_md({outer, inner}, dt::f32), vec = plain_md({inner}, dt::f32);
    dnnl::layer_normalization_forward::desc d(dnnl::prop_kind::forward_inference, md, eps, flags);
    dnnl::layer_normalization_forward::primitive_desc pd(d, make_attr(nullptr), cpu_engine(), true);
    if (!pd) return {};
    k->impl = pd.impl_info_str();
    std::vector<std::pair<int, int>> args{{DNNL_ARG_SRC, k->input(0, md)},
                                          {DNNL_ARG_SCALE, k->input(1, vec)},
                                          {DNNL_ARG_SHIFT, k->input(2, vec)},
                                          {DNNL_ARG_DST, k->output(0, md)}};
    k->scratchpad(args, pd.scratchpad_desc());
    k->call(dnnl::layer_normalization_forward(pd), std::move(args));
    return {std::move(k), {Layout{}}};
  }
  if (p.op == N::Batch && x.dims.size() >= 2 && numel_of(x.dims) > 0) {
    const md_t md = plain_md(x.dims, dt::f32), vec = plain_md({x.dims[1]}, dt::f32);
    dnnl::batch_normalization_forward::desc d(dnnl::prop_kind::forward_inference, md, eps,
                                              flags | dnnl::normalization_flags::use_global_stats);
    dnnl::batch_normalization_forward::primitive_desc pd(d, make_attr(nullptr), cpu_engine(), true);
    if (!pd) return {};
    k->impl = pd.impl_info_str();
    std::vector<std::pair<int, int>> args{{DNNL_ARG_SRC, k->input(0, md)},
                                          {DNNL_ARG_SCALE, k->input(1, vec)},
                                          {DNNL_ARG_SHIFT, k->input(2, vec)},
                                          {DNNL_ARG_MEAN, k->input(3, vec)},
                                          {DNNL_ARG_VARIANCE, k->input(4, vec)},
                                          {DNNL_ARG_DST, k->output(0, md)}};
    k->scratchpad(args, pd.scratchpad_desc());
    k->call(dnnl::batch_normalization_forward(pd), std::move(args));
    return {std::move(k), {Layout{}}};
  }
  return {};
}

// ---- reduce (sum, mean, prod, max, min over fp32)

KernelChoice reduction(const KernelRequest& r) {
  using R = network::ReduceOp;
  const auto& p = std::get<network::ReduceParams>(r.step->params);
  dnnl::algorithm alg;
  switch (p.op) {
    case R::Sum: alg = dnnl::algorithm::reduction_sum; break;
    case R::Mean: alg = dnnl::algorithm::reduction_mean; break;
    case R::Prod: alg = dnnl::algorithm::reduction_mul; break;
    // Max/Min: oneDNN's drop NaN and start at -FLT_MAX; ours (own_reduce.cpp) follow torch.
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
  dnnl::reduction::desc d(alg, src, dst, 0.f, 0.f);
  dnnl::reduction::primitive_desc pd(d, make_attr(nullptr), cpu_engine(), true);
  if (!pd) return {};
  auto k = std::make_unique<OnednnKernel>();
  k->impl = pd.impl_info_str();
  std::vector<std::pair<int, int>> args{{DNNL_ARG_SRC, k->input(0, src)}, {DNNL_ARG_DST, k->output(0, dst)}};
  k->scratchpad(args, pd.scratchpad_desc());
  k->call(dnnl::reduction(pd), std::move(args));
  return {std::move(k), {Layout{}}};
}

// ---- cast between f32 and bf16 through reorder

KernelChoice cast(const KernelRequest& r) {
  const auto& x = *r.inputs[0].tensor;
  const auto& y = *r.outputs[0];
  const bool ok = (x.dtype == DType::Float32 && y.dtype == DType::BFloat16) ||
                  (x.dtype == DType::BFloat16 && y.dtype == DType::Float32);
  if (!ok || numel_of(x.dims) == 0) return {};
  auto k = std::make_unique<OnednnKernel>();
  k->impl = "reorder";
  k->reorder(k->input(0, plain_md(x.dims, *to_dt(x.dtype))), k->output(0, plain_md(y.dims, *to_dt(y.dtype))));
  return {std::move(k), {Layout{}}};
}

bool has_zero_dim(const KernelRequest& r) {
  for (const auto& op : r.inputs) {
    if (numel_of(op.tensor->dims) == 0) return true;
  }
  for (const auto* t : r.outputs) {
    if (numel_of(t->dims) == 0) return true;
  }
  return false;
}

}  // namespace

std::size_t layout_bytes(const Layout& layout, const ProgramTensor& t) {
  if (layout.is_plain()) return tensor_bytes(t);
  return layout.blocked->md.get_size();
}

std::string layout_name(const Layout& layout) {
  if (layout.is_plain()) return "plain";
  const auto& d = layout.blocked->md.data;
  std::string s = "blocked(";
  for (int i = 0; i < d.format_desc.blocking.inner_nblks; ++i) {
    s += std::to_string(d.format_desc.blocking.inner_blks[i]) + (i + 1 < d.format_desc.blocking.inner_nblks ? "x" : "");
  }
  return s + ")";
}

KernelChoice make_onednn_kernel(const KernelRequest& r) {
  if (has_zero_dim(r)) return {};
  try {
    switch (r.step->kind()) {
      case LayerKind::Convolution: return conv_like<network::ConvolutionParams>(r, false);
      case LayerKind::Deconvolution: return conv_like<network::DeconvolutionParams>(r, true);
      case LayerKind::MatMul: return matmul(r);
      case LayerKind::Pooling: return pooling(r);
      case LayerKind::Activation: return activation(r);
      case LayerKind::Elementwise: return binary(r);
      case LayerKind::Softmax: return softmax(r);
      case LayerKind::Normalization: return normalization(r);
      case LayerKind::Reduce: return reduction(r);
      case LayerKind::Cast: return cast(r);
      default: return {};
    }
  } catch (const dnnl::error& e) {
    // A case oneDNN refuses (e.g. an unsupported broadcast): the caller falls back.
    return {};
  }
}

bool onednn_accepts_blocked(const Step& step, std::size_t input, const Program& program) {
  const auto& t = program.tensors[step.inputs[input]];
  if (t.dtype != DType::Float32 || t.dims.size() < 3 || t.dims.size() > 5) return false;
  switch (step.kind()) {
    case LayerKind::Convolution:
    case LayerKind::Deconvolution: {
      if (input == 0) return true;
      // residual operands copied into dst by a reorder (sum post-op)
      for (const auto& op : step.post_ops) {
        if (op.kind == PostOpKind::Add && op.operand == static_cast<int>(input)) {
          return t.dims == program.tensors[step.outputs[0]].dims;
        }
      }
      return false;
    }
    case LayerKind::Pooling: return input == 0;
    case LayerKind::Activation:
      return eltwise_chain(std::get<network::ActivationParams>(step.params)).has_value();
    default: return false;
  }
}

bool onednn_may_produce_blocked(const Step& step, const Program& program) {
  const auto& t = program.tensors[step.outputs[0]];
  if (t.dtype != DType::Float32 || t.dims.size() < 3 || t.dims.size() > 5) return false;
  switch (step.kind()) {
    case LayerKind::Convolution:
    case LayerKind::Deconvolution:
    case LayerKind::Pooling: return true;
    case LayerKind::Activation:
      return eltwise_chain(std::get<network::ActivationParams>(step.params)).has_value();
    default: return false;
  }
}

std::unique_ptr<Kernel> make_to_plain_kernel(const Layout& from, const ProgramTensor& tensor) {
  auto k = std::make_unique<OnednnKernel>();
  k->impl = "reorder";
  k->reorder(k->input(0, from.blocked->md), k->output(0, plain_md(tensor.dims, *to_dt(tensor.dtype))));
  return k;
}

bool onednn_activation_matches_torch(const network::ActivationParams& p) {
  using A = network::ActivationOp;
  switch (p.op) {
    case A::Clip:
    case A::HardSigmoid:
    case A::Softplus: return false;
    case A::LeakyRelu: return p.alpha != 0.0;  // slope 0 is oneDNN's NaN-dropping max
    default: return true;  // relu: see relu_chain()
  }
}

std::string cpu_isa_name() {
  switch (dnnl::get_effective_cpu_isa()) {
    case dnnl::cpu_isa::avx512_core_amx: return "avx512_core_amx";
    case dnnl::cpu_isa::avx512_core_bf16: return "avx512_core_bf16";
    case dnnl::cpu_isa::avx512_core_vnni: return "avx512_core_vnni";
    case dnnl::cpu_isa::avx512_core: return "avx512_core";
    case dnnl::cpu_isa::avx2_vnni: return "avx2_vnni";
    case dnnl::cpu_isa::avx2: return "avx2";
    case dnnl::cpu_isa::avx: return "avx";
    case dnnl::cpu_isa::sse41: return "sse41";
    default: return "other";
  }
}

bool cpu_has_bf16() {
  const auto isa = dnnl::get_effective_cpu_isa();
  return isa == dnnl::cpu_isa::avx512_core_amx || isa == dnnl::cpu_isa::avx512_core_bf16;
}

}  // namespace atenrt::runtime::cpu
