// The Program: what an Engine executes and what an engine file stores.
//
// The builder turns an optimized network::Network into a Program (to_program): a flat list
// of tensors (inputs, constants, activations) and of steps in execution order.
// A step is a network layer plus what the builder attached to it: fused
// post-ops (activations and a residual/bias add) and the precision of its
// compute. The runtime turns each step into a kernel when the Engine is made
// (so a loaded file re-creates its oneDNN primitives on this machine).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "atenrt/tensor.h"
#include "network/layers.h"

namespace atenrt::runtime {

using network::Dims;

// Compute precision of conv/deconv/matmul steps; everything else runs fp32.
// Int8 (convolution, and matmul by a constant matrix): the step's input is
// quantized with Step::quant's per-tensor scale, its weight is stored as int8
// with per-output-channel scales, and the result is float32 again.
enum class Precision : std::uint8_t { Float32, BFloat16, Int8 };
inline constexpr int kPrecisionCount = 3;

enum class TensorRole : std::uint8_t { Input, Constant, Activation };

struct ProgramTensor {
  std::string name;
  DType dtype = DType::Float32;
  Dims dims;  // static
  TensorRole role = TensorRole::Activation;
  Tensor value;  // Constant only (contiguous); undefined when stored_packed
  // A float32 weight that a loaded engine file holds only pre-packed (in the
  // layout its kernel reads; cpu/weight_packs.h), with no plain bytes.
  bool stored_packed = false;
  // The address its packs are keyed by (cpu::weight_key) once a compiled
  // engine has released the plain bytes no kernel reads (engine_weights.cpp).
  const void* pack_key = nullptr;
};

// Applied, in order, to the result of a Convolution/Deconvolution/MatMul step.
enum class PostOpKind : std::uint8_t {
  Activation,  // y = act(y)
  Add,         // y = y + step.inputs[operand] (broadcast to y's dims)
};

struct PostOp {
  PostOpKind kind = PostOpKind::Activation;
  network::ActivationParams activation;  // Activation
  int operand = -1;                      // Add: index into Step::inputs
  std::string fused_layer;               // the layer it came from (for reports)
};

// How an Int8 step quantizes (symmetric, no zero points). The input becomes
// q = clamp(round_half_even(x * (1 / input_scale))) in [0, 255] when
// input_unsigned (calibration saw no negative value) and [-128, 127]
// otherwise; the weight tensor holds int8 values w_q with
// w = w_q * weight_scales[c] per output channel c (convolution: weight dim 0;
// matmul: the output column); the result is
// input_scale * weight_scales[c] * sum(q * w_q) + bias, then the post-ops.
// output_scale (0: none) is what calibration chose for the step's result
// where no int8 step reads it as its input but int8 steps add it as their
// residual (a ResNet downsample branch): the engine may then store it
// quantized with that scale (runtime/cpu/README.md, int8 activations).
struct Quantization {
  float input_scale = 0.0f;
  bool input_unsigned = false;
  std::vector<float> weight_scales;
  float output_scale = 0.0f;
  bool output_unsigned = false;
};

struct Step {
  std::string name;
  network::LayerParams params;
  std::vector<int> inputs;   // tensor ids: the layer's inputs, then post-op operands
  std::vector<int> outputs;  // tensor ids
  std::vector<PostOp> post_ops;
  Precision precision = Precision::Float32;
  Quantization quant;  // Int8 steps only

  network::LayerKind kind() const { return network::kind_of(params); }
  // Number of inputs the layer kind itself takes (the rest are post-op operands).
  std::size_t layer_input_count() const;
  // A batch normalization (inference statistics): it takes activation post-ops.
  bool is_batch_norm() const;
};

struct Program {
  std::vector<ProgramTensor> tensors;
  std::vector<Step> steps;   // execution order
  std::vector<int> inputs;   // tensor ids, binding order
  std::vector<int> outputs;  // tensor ids, result order

  // Checks ids, roles, kinds and shapes (re-running shape inference on every
  // step's layer inputs). Throws FormatError naming the step; used on load.
  void validate() const;
  // Fills parameters left at their defaults (stride, dilation, padding) the
  // way Network does, so kernels always see full parameter lists.
  void normalize();
};

std::size_t tensor_bytes(const ProgramTensor& t);

// The number of output channels an Int8 step's weight scales cover
// (convolution: weight dim 0; matmul: the result's columns).
std::size_t quantized_channels(const Step& step, const Dims& weight_dims);

}  // namespace atenrt::runtime
