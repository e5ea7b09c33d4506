// The builder: optimizes a network::Network and emits an immutable Engine.
//
// Passes, in order, each switchable and usable on its own:
//   constant folding     layers whose inputs are all constants → Constant
//   batch-norm folding   Normalization(Batch) after a Convolution → new weights/bias
//   dead layer removal   layers no output depends on
//   to_program           Network → runtime::Program (static shapes required)
//   post-op fusion       bias/residual Add and activations into conv/deconv/matmul
//   precision            bf16 compute for conv/deconv/matmul (fp32 elsewhere), or
//                        int8 after calibration (int8.h)
// The Engine then chooses kernels and layouts, pre-packs weights and plans
// memory (runtime::EngineOptions, carried in the config).
#pragma once

#include <string>
#include <vector>

#include <memory>

#include "builder/int8.h"
#include "network/network.h"
#include "runtime/backend.h"
#include "runtime/engine.h"

namespace atenrt::builder {

struct BuilderConfig {
  bool constant_folding = true;
  bool fold_batchnorm = true;
  bool dead_layer_removal = true;
  bool fuse_post_ops = true;
  // BFloat16: conv/deconv/matmul compute in bf16 (AMX where present) with fp32
  // results; normalization, softmax and reductions stay fp32.
  runtime::Precision precision = runtime::Precision::Float32;
  // Int8: the scales to use (a calibration cache), or the batches to
  // calibrate on; one of them is required.
  std::shared_ptr<const CalibrationTable> calibration_table;
  std::shared_ptr<const CalibrationSettings> calibration;
  runtime::EngineOptions engine;  // threads, layout, weight pre-packing, memory reuse
};

struct BuildReport {
  int folded_constants = 0;
  int folded_batchnorms = 0;
  int removed_layers = 0;
  std::vector<std::string> fusions;  // "<fusion>: <layer> into <step>"
  int int8_steps = 0;
  // Why the requested bf16/int8 was not used (this CPU has no fast kernels
  // for it; runtime::Backend::precision_unavailable): empty when it was.
  std::string precision_note;
  CalibrationTable calibration;  // Int8: the scales used (what a cache file stores)
};

runtime::Engine build(network::Network net, const BuilderConfig& config = {},
                      BuildReport* report = nullptr);

// ---- the passes (each has its own tests)

// Throws an Error naming the tensor and its layer when a static tensor's size
// overflows or exceeds `limit` bytes (run before folding: it allocates).
void check_tensor_sizes(const network::Network& net, std::uint64_t limit);
// A folded layer's result is allocated on the host when the pass runs: a Fill
// or Expand of constants (its size given by a constant shape, or a range's max
// corner) could ask for more than the machine has, so its outputs' sizes,
// inferred from the known values, are checked first. Throws UnsupportedError
// naming the layer when one exceeds `limit` bytes.
void check_folded_size(const network::Layer& layer, const std::vector<network::NetworkTensor*>& inputs,
                       const std::vector<Tensor>& values, std::uint64_t limit);
// Replaces every layer whose inputs are all constants (and Shape layers of
// static tensors) by a Constant computed with the reference executor, each
// checked first with check_folded_size against `memory_limit` (0: the default
// limit, ir/memory_limit.h).
int fold_constants(network::Network& net, std::uint64_t memory_limit = 0);
// Folds Normalization(Batch) into the Convolution that feeds it when the
// conv output has no other use and every parameter is constant.
int fold_batchnorm(network::Network& net);
// Drops the taps of a convolution (constant weights, static shapes) that
// only ever read padding: DeepLab's atrous convolutions dilated past their
// input (rate 36 on a 14x14 map is a 1x1 convolution). The same sums, on a
// smaller kernel oneDNN runs on a faster path.
int trim_padding_taps(network::Network& net);
// Removes layers that copy their input unchanged: a padding by nothing, a
// cast to the dtype it has. Their consumers read the input.
int remove_identities(network::Network& net);
int remove_dead_layers(network::Network& net);
// Moves an activation, or an add of a same-shaped tensor or a single number,
// from after a pure reshape of a conv/matmul output to before it
// (`mm -> view -> relu` becomes `mm -> relu -> view`), so that post-op
// fusion finds it: transformer blocks reshape every linear's 2-d output
// back to [batch, seq, features] before the activation or residual add.
int sink_reshapes(network::Network& net);
// Reshape of a reshape reads the first one's input; a reshape to its input's
// own dims goes (sink_reshapes leaves such pairs between linear layers).
int collapse_reshapes(network::Network& net);
// A matmul operand that is a swap of the last two dims (`q @ k.transpose(-2,
// -1)`), possibly then reshaped in its leading dims, is read transposed by the
// matmul itself instead of being copied.
int fold_transposes_into_matmul(network::Network& net);
// Network → Program; throws UnsupportedError on dynamic dims unless
// `allow_dynamic` (a dynamic engine's network, written to its file).
runtime::Program to_program(const network::Network& net, bool allow_dynamic = false);
// Program → Network, the inverse of to_program for a program without
// post-ops (a dynamic engine's file): every id, role, layer and inferred
// tensor desc is checked; a program that does not hold is a FormatError.
network::Network network_from_program(const runtime::Program& program);
// Applies the fusion table until nothing matches, within what `backend`'s
// kernels apply exactly; returns what was fused.
std::vector<std::string> fuse_post_ops(runtime::Program& program,
                                       const runtime::Backend& backend = runtime::cpu_backend());
// Conv/deconv/matmul steps compute in `precision` where `backend` has fast
// kernels for it; otherwise every step stays fp32 and the reason is returned
// (empty when `precision` was used).
std::string set_precision(runtime::Program& program, runtime::Precision precision,
                          const runtime::Backend& backend = runtime::cpu_backend());

}  // namespace atenrt::builder
