// The oneDNN kernel: a short list of primitive calls over "slots" (the step's
// inputs and outputs, regions of the context's scratch, and constants
// pre-packed at build time), then our own passes ("finals") over the slots'
// data: activations oneDNN gets wrong on NaN, and the NaN-exact repairs.
//
// Layouts: a source whose layout differs from what the primitive wants is
// reordered into scratch; a result in a blocked format is reordered to plain
// unless every consumer takes it as is (Destination).
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/cpu/kernel.h"
#include "runtime/cpu/onednn/compat.h"

namespace atenrt::runtime::cpu {

class BlockedDesc {
 public:
  explicit BlockedDesc(dnnl::memory::desc d, float quant_scale = 0.0f) : md(std::move(d)), scale(quant_scale) {}
  dnnl::memory::desc md;
  // A uint8/int8 md holds a float32 tensor quantized (KernelRequest::
  // int8_output): the value is q * scale. 0 for float32 and bf16.
  float scale = 0.0f;
};

namespace onednn {

using compat::cpu_engine;
using compat::md_t;
using dnnl::memory;
using dt = memory::data_type;
using Args = std::vector<std::pair<int, int>>;  // (DNNL_ARG_*, slot)

std::optional<dt> to_dt(DType d);
memory::dims mdims(const Dims& d);  // 0-d → {1}
memory::dims to_mdims(const Dims& d);
md_t plain_md(const Dims& dims, dt type);
md_t desc_of(const KernelInput& op, dt type);  // the operand's layout, or plain
// `dims` in the channel-blocked format of `like` (nChw8c, nChw16c, channels-
// last nhwc and their 1-d/3-d forms: what convolutions produce; oneDNN's
// avx512 brgconv kernels choose channels-last); null for any other layout.
std::optional<md_t> same_channel_blocking(const md_t& like, const Dims& dims);
// The channels of one interleaved run in `md`, a same_channel_blocking
// layout: 8 or 16 for channel blocks, all C for channels-last; 0 otherwise.
std::int64_t channel_run(const md_t& md, const Dims& dims);
// Whether the float32 or bf16 values `md` describes at `data` hold no NaN or ±inf.
bool all_finite(const md_t& md, const void* data);
// What one step of a quantized activation is worth (BlockedDesc::scale); 0
// for a float32, bf16 or plain layout.
float quant_scale(const Layout& layout);
// The integer type an int8 activation is stored in: uint8 or int8.
dt quantized_type(const KernelRequest::QuantizedOutput& q);

// A constant the kernel derives itself (Winograd's transformed weights), made
// when the first context is rather than when the engine is: an engine made
// only to be written to a file (`atenrt compile`) never holds it.
struct LazyConstant {
  std::function<memory()> make;
  std::once_flag once;
  memory made;
};

struct Slot {
  enum class Source { Input, Output, Scratch, Constant };
  Source source = Source::Scratch;
  int index = 0;           // Input/Output
  std::size_t offset = 0;  // Scratch
  md_t md;
  memory constant;  // Constant
  std::shared_ptr<LazyConstant> lazy{};  // Constant made by the first make_state (then `constant` is empty)
};

struct Call {
  dnnl::primitive prim;
  Args args;
  // A copy (copy_from → copy_to, one layout) that is skipped when both slots
  // point at the same buffer: the engine ran the step in place.
  int copy_from = -1, copy_to = -1;
  // When set, it runs in place of `prim` (same arguments) if every slot in
  // `finite_slots` (float32 or bf16, as the slot's md) holds no NaN or ±inf, checked before the
  // call each run: a form whose fused relu or clip is oneDNN's max/min, exact
  // on such inputs and cheaper, where `prim` keeps NaN as PyTorch does (with
  // a longer post-op chain, or our own pass after it: the kernel's finals
  // from exact_finals_from on, which are skipped then).
  dnnl::primitive when_finite{};
  std::vector<int> finite_slots{};
  // Or, when finite_path > 0, the next finite_path calls are the finite
  // form (an own algorithm: conv's Winograd), run in place of `prim` under
  // the same check and skipped otherwise.
  int finite_path = 0;
  // Our own pass in place of a primitive (`prim` empty), over the slots' data.
  std::function<void(std::span<void* const>)> own_pass{};
};

class PrimitiveKernel final : public Kernel {
 public:
  std::vector<Slot> slots;
  std::vector<Call> calls;
  // Our own passes after the calls, over the slots' data pointers.
  std::vector<std::function<void(std::span<void* const>)>> finals;
  std::size_t exact_finals_from = SIZE_MAX;  // finals only the exact form of a when_finite call needs
  // What the output holds whatever the primitive computed when the finite
  // form ran (ValueFlags, KernelArgs::outputs_finite): kFinite after a clip to
  // finite bounds, kNoNanNoMinusInf after any max(x, lo) (relu: an overflow to
  // +inf may remain), nothing otherwise.
  std::uint8_t finite_form_vouches = 0;
  // The finals are repairs that input `skip_finals_for_input` needs only when
  // it lacks the ValueFlags `skip_finals_flags` (max pooling's NaN repair).
  int skip_finals_for_input = -1;
  std::uint8_t skip_finals_flags = 0;
  std::size_t scratch = 0;
  std::size_t derived_weights = 0;  // bytes of the lazy constants
  std::string impl;

  int input(int i, const md_t& md) { return add({Slot::Source::Input, i, 0, md, {}}); }
  int output(int i, const md_t& md) { return add({Slot::Source::Output, i, 0, md, {}}); }
  int temp(const md_t& md);
  int constant(memory m) { return add({Slot::Source::Constant, 0, 0, m.get_desc(), m}); }
  // `slot`'s buffer seen as `md` (same bytes: another type of one size).
  int view(int slot, const md_t& md) {
    Slot s = slots[slot];
    s.md = md;
    return add(std::move(s));
  }
  // A constant of layout `md` that `make` returns when the first context is made.
  int lazy_constant(const md_t& md, std::function<memory()> make) {
    auto lazy = std::make_shared<LazyConstant>();
    lazy->make = std::move(make);
    derived_weights += md.get_size();
    return add({Slot::Source::Constant, 0, 0, md, {}, std::move(lazy)});
  }
  // The one way a primitive joins the kernel: its call, with a user
  // scratchpad when it wants one; the kernel reports its implementation.
  void primitive(const compat::Primitive& p, Args args);
  // The same, with `when_finite` (same layouts and arguments) run in its place
  // when the slots `finite` hold only finite values (Call::when_finite).
  void primitive(const compat::Primitive& p, Args args, const compat::Primitive& when_finite, std::vector<int> finite);
  // The exact primitive `p` (last call) with a finite form made of the calls
  // `path` adds after it (Call::finite_path), run when the slots `finite`
  // hold only finite values; `name` joins the implementation's name.
  void finite_path(std::vector<int> finite, const std::function<void()>& path, const std::string& name);
  // Our own pass as a call (Call::own_pass).
  void own_pass(std::function<void(std::span<void* const>)> f) {
    calls.push_back({dnnl::primitive{}, {}, -1, -1, {}, {}, 0, std::move(f)});
  }
  // Slot `from` reordered into a new slot of layout `want` (or `from` itself).
  int as(int from, const md_t& want);
  void reorder(int from, int to);
  // Slot `from` (uint8/int8, quantized with `scale`) into `to` as q * scale.
  void dequantize(int from, int to, float scale) { scaled_reorder(from, to, scale); }
  // Slot `from` copied into `to` (same layout) unless both are one buffer.
  void copy(int from, int to);
  // Slot `from` (float32) quantized into a new int8/uint8 slot of layout
  // `want`: round-half-even of x * (1 / scale), saturated (an Int8 step's
  // input). A `from` already quantized with `from_scale` (an int8
  // activation, BlockedDesc::scale) is rescaled, or taken as is when the
  // scales and types agree.
  int quantize(int from, const md_t& want, float scale, float from_scale = 0.0f);

  std::size_t scratch_bytes() const override { return scratch; }
  std::size_t derived_weight_bytes() const override { return derived_weights; }
  std::string implementation() const override { return "onednn:" + impl; }
  bool finite_input_form() const override {
    for (const auto& c : calls) {
      if (c.when_finite || c.finite_path > 0) return true;  // a max/min form, or a Winograd path
    }
    return false;
  }
  std::unique_ptr<KernelState> make_state() const override;
  void run(KernelState* state, const KernelArgs& a) const override;

 private:
  // A reorder from `from` into `to` that multiplies by `factor` (rounding
  // and saturating into an integer `to`).
  void scaled_reorder(int from, int to, float factor);
  // Adds the slots `finite` (f32) to the values `call` checks at run time.
  void check_finite(Call& call, const std::vector<int>& finite) const;
  int add(Slot s) {
    slots.push_back(std::move(s));
    return static_cast<int>(slots.size()) - 1;
  }
};

// Input i of the step as a slot in layout `want`: pre-packed now (reordered
// once, kept by the kernel) when it is a constant and `pack` holds.
int source(PrimitiveKernel& k, const KernelRequest& r, int i, const md_t& have, const md_t& want, bool pack);

// The slot the primitive writes its result to; `finish` reorders it to the
// step's output when the output must be plain and the primitive chose
// otherwise, or chose bf16 or int8 where the output may not be
// (bf16_output_allowed, int8_output).
struct Destination {
  int slot = -1;
  int out_slot = -1;
  Layout layout;
};
Destination destination(PrimitiveKernel& k, const KernelRequest& r, const md_t& produced, dt type,
                        bool allow_blocked = true);
// Whether a result of type `stored` may be the step's output, where the
// tensor is of type `type`: bf16 and uint8/int8 only where the request allows.
bool stored_type_allowed(const KernelRequest& r, dt stored, dt type);
void finish(PrimitiveKernel& k, const Destination& d);

// Attributes with a user scratchpad (and the post-ops, when given).
dnnl::primitive_attr make_attr(const dnnl::post_ops* ops = nullptr);
bool all_f32(const KernelRequest& r, std::size_t n_inputs);
// An Int8 step's operands (program.h): float32 layer inputs and outputs
// except input 1, the int8 weight; and int8_exact_here.
bool int8_operands(const KernelRequest& r, std::size_t n_inputs);
// Whether oneDNN's int8 kernel computes this int8 step exactly on this CPU
// (cpu/isa.h, int8_exactness).
bool int8_exact_here(const KernelRequest& r);
// input_scale * weight_scales[c]: the scale of each output channel's accumulator.
std::vector<float> int8_output_scales(const Step& step);

}  // namespace onednn
}  // namespace atenrt::runtime::cpu
