#include "runtime/cpu/onednn/primitive_kernel.h"

#include <malloc.h>

#include <cstdlib>

#include "runtime/cpu/isa.h"
#include "runtime/cpu/onednn/weight_packs.h"
#include "runtime/cpu/own/finite.h"

namespace atenrt::runtime::cpu {

std::size_t layout_bytes(const Layout& layout, const ProgramTensor& t) {
  if (layout.is_plain()) return tensor_bytes(t);
  return layout.blocked->md.get_size();
}

std::string layout_name(const Layout& layout) {
  if (layout.is_plain()) return "plain";
  const auto b = onednn::compat::blocking_of(layout.blocked->md);
  // A bf16 or quantized activation says so: "channels_last bf16", "channels_last u8".
  using dt = dnnl::memory::data_type;
  const dt t = layout.blocked->md.data_type();
  const std::string type = t == dt::bf16 ? " bf16" : t == dt::u8 ? " u8" : t == dt::s8 ? " s8" : "";
  if (b.inner_nblks == 0 && b.ndims >= 3 && b.strides[1] == 1) return "channels_last" + type;
  std::string s = "blocked(";
  for (int i = 0; i < b.inner_nblks; ++i) {
    s += std::to_string(b.inner_blks[i]) + (i + 1 < b.inner_nblks ? "x" : "");
  }
  return s + ")" + type;
}

namespace onednn {

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

memory::dims to_mdims(const Dims& d) { return memory::dims(d.begin(), d.end()); }

md_t plain_md(const Dims& dims, dt type) {
  const auto d = mdims(dims);
  memory::dims strides(d.size(), 1);
  for (int i = static_cast<int>(d.size()) - 2; i >= 0; --i) strides[i] = strides[i + 1] * d[i + 1];
  return md_t(d, type, strides);
}

md_t desc_of(const KernelInput& op, dt type) {
  if (!op.layout.is_plain()) return op.layout.blocked->md;
  return plain_md(op.tensor->dims, type);
}

std::optional<md_t> same_channel_blocking(const md_t& like, const Dims& dims) {
  using tag = memory::format_tag;
  const memory::dims like_dims = like.dims();
  if (like_dims.size() != dims.size()) return std::nullopt;
  const auto in_format = [&](tag t) -> std::optional<md_t> {
    if (md_t(like_dims, like.data_type(), t) == like) return md_t(mdims(dims), like.data_type(), t);
    return std::nullopt;
  };
  switch (dims.size()) {
    case 3:
      for (tag t : {tag::nCw8c, tag::nCw16c, tag::nwc}) {
        if (auto md = in_format(t)) return md;
      }
      break;
    case 4:
      for (tag t : {tag::nChw8c, tag::nChw16c, tag::nhwc}) {
        if (auto md = in_format(t)) return md;
      }
      break;
    case 5:
      for (tag t : {tag::nCdhw8c, tag::nCdhw16c, tag::ndhwc}) {
        if (auto md = in_format(t)) return md;
      }
      break;
    default: break;
  }
  return std::nullopt;
}

std::int64_t channel_run(const md_t& md, const Dims& dims) {
  if (dims.size() < 3 || same_channel_blocking(md, dims) != md) return 0;
  const auto b = compat::blocking_of(md);
  if (b.inner_nblks == 0) return dims[1];  // channels-last: one pixel's channels
  return b.inner_blks[0];
}

bool all_finite(const md_t& md, const void* data) {
  if (md.data_type() == dt::bf16) {
    return own::all_finite_bf16(static_cast<const std::uint16_t*>(data),
                                static_cast<std::int64_t>(md.get_size() / sizeof(std::uint16_t)));
  }
  return own::all_finite(static_cast<const float*>(data), static_cast<std::int64_t>(md.get_size() / sizeof(float)));
}

float quant_scale(const Layout& layout) { return layout.is_plain() ? 0.0f : layout.blocked->scale; }

dt quantized_type(const KernelRequest::QuantizedOutput& q) { return q.is_unsigned ? dt::u8 : dt::s8; }

namespace {
std::size_t align64(std::size_t n) { return (n + 63) / 64 * 64; }
}  // namespace

int PrimitiveKernel::temp(const md_t& md) {
  const std::size_t offset = align64(scratch);
  scratch = offset + md.get_size();
  return add({Slot::Source::Scratch, 0, offset, md, {}});
}

void PrimitiveKernel::primitive(const compat::Primitive& p, Args args) {
  impl = p.impl;
  if (p.scratchpad.get_size() > 0) args.push_back({DNNL_ARG_SCRATCHPAD, temp(p.scratchpad)});
  calls.push_back({p.prim, std::move(args)});
}

void PrimitiveKernel::primitive(const compat::Primitive& p, Args args, const compat::Primitive& when_finite,
                                std::vector<int> finite) {
  impl = when_finite.impl;
  const md_t& pad = when_finite.scratchpad.get_size() > p.scratchpad.get_size() ? when_finite.scratchpad : p.scratchpad;
  if (pad.get_size() > 0) args.push_back({DNNL_ARG_SCRATCHPAD, temp(pad)});  // one region, the larger
  Call call{p.prim, std::move(args)};
  call.when_finite = when_finite.prim;
  check_finite(call, finite);
  calls.push_back(std::move(call));
}

namespace {
// Whether `slot` is a step input that an earlier step vouched finite this run.
bool vouched_finite(const Slot& slot, const KernelArgs& a) {
  return slot.source == Slot::Source::Input && static_cast<std::size_t>(slot.index) < a.inputs_finite.size() &&
         (a.inputs_finite[slot.index] & kFinite) != 0;
}
}  // namespace

void PrimitiveKernel::check_finite(Call& call, const std::vector<int>& finite) const {
  call.finite_slots.insert(call.finite_slots.end(), finite.begin(), finite.end());
}

void PrimitiveKernel::finite_path(std::vector<int> finite, const std::function<void()>& path, const std::string& name) {
  const std::size_t exact = calls.size() - 1;
  check_finite(calls[exact], finite);
  const std::string exact_impl = impl;
  path();
  calls[exact].finite_path = static_cast<int>(calls.size() - 1 - exact);
  impl = exact_impl + "+" + name;
}

int PrimitiveKernel::as(int from, const md_t& want) {
  if (slots[from].md == want) return from;
  const int to = temp(want);
  reorder(from, to);
  return to;
}

int PrimitiveKernel::quantize(int from, const md_t& want, float scale, float from_scale) {
  // Already quantized with this scale and type (an int8 activation): as is.
  if (from_scale == scale && slots[from].md.data_type() == want.data_type()) return as(from, want);
  const int to = temp(want);
  scaled_reorder(from, to, from_scale > 0.0f ? from_scale / scale : 1.0f / scale);
  return to;
}

void PrimitiveKernel::scaled_reorder(int from, int to, float factor) {
  dnnl::primitive_attr attr;
  compat::set_output_scales(attr, 0, {factor});
  dnnl::reorder::primitive_desc pd(cpu_engine(), slots[from].md, cpu_engine(), slots[to].md, attr);
  calls.push_back({dnnl::reorder(pd), {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}}});
}

void PrimitiveKernel::reorder(int from, int to) {
  dnnl::reorder::primitive_desc pd(cpu_engine(), slots[from].md, cpu_engine(), slots[to].md);
  calls.push_back({dnnl::reorder(pd), {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}}});
}

void PrimitiveKernel::copy(int from, int to) {
  reorder(from, to);
  if (slots[from].md == slots[to].md) {
    calls.back().copy_from = from;
    calls.back().copy_to = to;
  }
}

namespace {
struct State final : KernelState {
  dnnl::stream stream;
  std::vector<memory> mems;
  std::vector<std::unordered_map<int, memory>> args;
  std::vector<void*> data;  // per slot, for the finals
};
}  // namespace

std::unique_ptr<KernelState> PrimitiveKernel::make_state() const {
  auto s = std::make_unique<State>();
  s->stream = dnnl::stream(cpu_engine());
  for (const auto& slot : slots) {
    const bool constant = slot.source == Slot::Source::Constant;
    memory m = constant ? slot.constant : memory(slot.md, cpu_engine(), DNNL_MEMORY_NONE);
    if (slot.lazy) {
      LazyConstant& lazy = *slot.lazy;
      std::call_once(lazy.once, [&lazy] {
        lazy.made = lazy.make();
        lazy.make = nullptr;  // lets go of what it was made from
        // The make's temporaries (a plain copy of a conv's weights, MBs) end
        // in malloc's heap once its mmap threshold has grown: give them back.
        malloc_trim(0);
      });
      m = lazy.made;
    }
    s->data.push_back(constant ? m.get_data_handle() : nullptr);
    s->mems.push_back(std::move(m));
  }
  for (const auto& c : calls) {
    std::unordered_map<int, memory> args;
    for (auto [arg, slot] : c.args) args.emplace(arg, s->mems[slot]);
    s->args.push_back(std::move(args));
  }
  return s;
}

void PrimitiveKernel::run(KernelState* state, const KernelArgs& a) const {
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
  bool finite_form_ran = false;
  for (std::size_t c = 0; c < calls.size(); ++c) {
    const Call& call = calls[c];
    if (call.copy_from >= 0 && s->data[call.copy_from] == s->data[call.copy_to]) continue;
    if (call.when_finite || call.finite_path > 0) {
      s->stream.wait();  // the calls before it wrote what it checks
      bool finite = true;
      for (int slot : call.finite_slots) {
        if (vouched_finite(slots[slot], a)) continue;  // an earlier step's clip bounded it this run
        if (!finite) break;
        finite = all_finite(slots[slot].md, s->data[slot]);
      }
      if (finite) {
        if (call.when_finite) call.when_finite.execute(s->stream, s->args[c]);
        finite_form_ran = true;
        continue;  // into the finite path's calls, if any
      }
    }
    if (call.own_pass) {
      s->stream.wait();
      call.own_pass(s->data);
    } else {
      call.prim.execute(s->stream, s->args[c]);
    }
    c += call.finite_path;  // the exact form ran: skip the finite one
  }
  s->stream.wait();
  const bool repairs_needless = skip_finals_for_input >= 0 &&
                                static_cast<std::size_t>(skip_finals_for_input) < a.inputs_finite.size() &&
                                (a.inputs_finite[skip_finals_for_input] & skip_finals_flags) == skip_finals_flags;
  for (std::size_t f = 0; f < finals.size() && !repairs_needless; ++f) {
    if (finite_form_ran && f >= exact_finals_from) continue;
    finals[f](s->data);
  }
  if (finite_form_ran && !a.outputs_finite.empty()) a.outputs_finite[0] = finite_form_vouches;
}

int source(PrimitiveKernel& k, const KernelRequest& r, int i, const md_t& have, const md_t& want, bool pack) {
  const auto* t = r.inputs[i].tensor;
  if (pack && t->role == TensorRole::Constant) return k.constant(packed_weight(r.packs, *t, have, want));
  return k.as(k.input(i, have), want);
}

bool stored_type_allowed(const KernelRequest& r, dt stored, dt type) {
  if (stored == type) return true;
  if (stored == dt::bf16) return r.bf16_output_allowed;
  return r.int8_output && stored == quantized_type(*r.int8_output);
}

Destination destination(PrimitiveKernel& k, const KernelRequest& r, const md_t& produced, dt type,
                        bool allow_blocked) {
  Destination d;
  const md_t plain = plain_md(r.outputs[0]->dims, type);
  if (produced == plain) {
    d.slot = d.out_slot = k.output(0, plain);
  } else if (r.blocked_output_allowed && allow_blocked && stored_type_allowed(r, produced.data_type(), type)) {
    d.slot = d.out_slot = k.output(0, produced);
    const bool quantized = produced.data_type() == dt::u8 || produced.data_type() == dt::s8;
    d.layout.blocked = std::make_shared<BlockedDesc>(produced, quantized ? r.int8_output->scale : 0.0f);
  } else {
    d.slot = k.temp(produced);
    d.out_slot = k.output(0, plain);
  }
  return d;
}

void finish(PrimitiveKernel& k, const Destination& d) {
  if (d.slot != d.out_slot) k.reorder(d.slot, d.out_slot);
}

dnnl::primitive_attr make_attr(const dnnl::post_ops* ops) {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  if (ops) attr.set_post_ops(*ops);
  return attr;
}

bool int8_operands(const KernelRequest& r, std::size_t n_inputs) {
  if (r.step->precision != Precision::Int8 || n_inputs < 2) return false;
  for (std::size_t i = 0; i < n_inputs; ++i) {
    if (r.inputs[i].tensor->dtype != (i == 1 ? DType::Int8 : DType::Float32)) return false;
  }
  for (const auto* t : r.outputs) {
    if (t->dtype != DType::Float32) return false;
  }
  return int8_exact_here(r);
}

bool int8_exact_here(const KernelRequest& r) {
  // Steps outside what this CPU computes exactly (isa.h) go to the reference
  // kernel, which computes them exactly (an engine built elsewhere, or by hand).
  const Int8Exactness exact = int8_exactness();
  if (!exact.admits_input(r.step->quant.input_unsigned)) return false;
  const Tensor& w = r.inputs[1].tensor->value;
  return !w.defined() || exact.admits_weight(w);  // undefined: packed here, so checked when packed
}

std::vector<float> int8_output_scales(const Step& step) {
  std::vector<float> out;
  for (float w : step.quant.weight_scales) out.push_back(step.quant.input_scale * w);
  return out;
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

}  // namespace onednn
}  // namespace atenrt::runtime::cpu
