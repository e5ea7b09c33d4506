// The kernel interface of the CPU runtime.
//
// A Kernel is made once per step when the Engine is made, and is immutable
// (shared by every ExecutionContext). Per-context mutable state (oneDNN
// memory objects, streams, staging tensors) lives in a KernelState made when a
// context is created, so running allocates nothing on our side.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "runtime/program.h"

namespace atenrt::runtime::cpu {

class BlockedDesc;  // a oneDNN memory descriptor (onednn/primitive_kernel.h)
class WeightPacks;

// How a tensor's buffer is laid out: plain row-major, or a oneDNN blocked
// format chosen by a primitive (only between layers that accept it).
struct Layout {
  std::shared_ptr<const BlockedDesc> blocked;  // null: plain
  bool is_plain() const { return blocked == nullptr; }
};
std::size_t layout_bytes(const Layout& layout, const ProgramTensor& t);
std::string layout_name(const Layout& layout);  // "plain" or "nChw16c"-like

class KernelState {
 public:
  virtual ~KernelState() = default;
};

// What a step vouches for the values it wrote this run (KernelArgs), as bits.
enum ValueFlags : std::uint8_t {
  kFinite = 1,             // no NaN, no ±inf (a clip to finite bounds ended it)
  kNoNanNoMinusInf = 2,    // no NaN, no -inf (a max(x, lo) ended it: +inf may remain)
};

struct KernelArgs {
  std::span<const void* const> inputs;  // one per step input, in its layout
  std::span<void* const> outputs;       // one per step output, in its layout
  void* scratch = nullptr;              // scratch_bytes() bytes, 64-byte aligned
  // Per step input, the ValueFlags an earlier step of this run vouched for it
  // (empty: nothing known): a kernel may skip its own check.
  std::span<const std::uint8_t> inputs_finite{};
  // Per step output (empty: not tracked), zero on entry: a kernel sets the
  // ValueFlags its output surely has this run (a finite clip ended it: kFinite),
  // so the steps that read it need not look at every value again.
  std::span<std::uint8_t> outputs_finite{};
};

class Kernel {
 public:
  virtual ~Kernel() = default;
  virtual std::unique_ptr<KernelState> make_state() const { return nullptr; }
  virtual void run(KernelState* state, const KernelArgs& args) const = 0;
  virtual std::size_t scratch_bytes() const { return 0; }
  // Weights the kernel derives and holds itself (Winograd's transformed
  // weights, made with the first context): counted with the packed weights.
  virtual std::size_t derived_weight_bytes() const { return 0; }
  // "onednn:<impl>", "own", "reference" (for reports and tests).
  virtual std::string implementation() const = 0;
  // Whether a fused relu or clip runs as oneDNN's max/min form while the
  // step's inputs are finite (onednn::Call::when_finite).
  virtual bool finite_input_form() const { return false; }
};

// What the engine knows about one input when it asks for a kernel.
struct KernelInput {
  const ProgramTensor* tensor = nullptr;
  Layout layout;  // inputs: the layout the tensor has
};

struct KernelRequest {
  const Step* step = nullptr;
  std::vector<KernelInput> inputs;
  std::vector<const ProgramTensor*> outputs;
  bool blocked_output_allowed = false;  // every consumer accepts a blocked layout
  // Blocked, and every consumer computes in bf16 from it (bf16_activations):
  // the output may be stored in bf16, so that activations stay bf16 from one
  // bf16 convolution to the next instead of a float32 round trip.
  bool bf16_output_allowed = false;
  // Blocked, produced by an int8 step and read only as the quantized source
  // of int8 steps with this input scale and signedness (int8 activations):
  // the output may be stored quantized, q = saturate(round_even(y / scale))
  // in uint8 or int8, which is what each reader would compute from float32.
  struct QuantizedOutput {
    float scale = 0.0f;
    bool is_unsigned = false;
  };
  std::optional<QuantizedOutput> int8_output;
  bool prepack_weights = true;
  WeightPacks* packs = nullptr;  // the engine's pre-packed weights (weight_packs.h)
};

struct KernelChoice {
  std::unique_ptr<Kernel> kernel;
  std::vector<Layout> output_layouts;  // plain unless blocked_output_allowed
  // Step input whose buffer output 0 may take (-1: none): the kernel first
  // copies that input into its output (a residual add as oneDNN's sum
  // post-op) and skips the copy when both are one buffer. The engine shares
  // the buffer only when the input dies at this step.
  int in_place_input = -1;
};

}  // namespace atenrt::runtime::cpu
