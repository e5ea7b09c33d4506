// What an Int8 step computes (program.h, Quantization), written once: the
// builder quantizes weights with it, the reference kernel runs int8 steps
// through it, and the oneDNN kernels are tested against it.
#pragma once

#include <cstdint>
#include <vector>

#include "atenrt/tensor.h"
#include "runtime/program.h"

namespace atenrt::runtime {

// round-half-even(x * inv_scale), saturated to [lo, hi] (NaN gives 0).
float quantize_value(float x, float inv_scale, float lo, float hi);

// The step's input as the int8 kernel sees it, back in float32: each value
// quantized with the step's input scale and multiplied by it again.
Tensor fake_quantize_input(const Tensor& x, const Quantization& q);

// The step's int8 weight as float32: w_q * weight_scales[c] along the
// output-channel dim (`channel_dim`).
Tensor dequantize_weight(const Tensor& w, const std::vector<float>& scales, int channel_dim);

// The output-channel dim of an Int8 step's weight (convolution 0; matmul 0
// when the weight is transposed, else 1).
int weight_channel_dim(const Step& step);

// A float32 weight quantized symmetrically per output channel: scale =
// max|w| / limit over the channel (1 for an all-zero channel), w_q =
// round-half-even(w / scale) in [-limit, limit]; limit is 127, or 63 for a CPU
// without int8 dot-product instructions (cpu/isa.h).
struct QuantizedWeight {
  Tensor values;  // int8, the weight's dims
  std::vector<float> scales;
};
QuantizedWeight quantize_weight(const Tensor& w, int channel_dim, int limit = 127);

// Which int8 steps a backend computes exactly as defined above: weights
// within +-weight_limit, and signed inputs or only unsigned ones (the CPU
// without int8 dot-product instructions: 63, unsigned only; cpu/isa.h says
// why). The builder quantizes within it and the kernels choose by it, so one
// answer (Backend::int8_exactness) serves both.
struct Int8Exactness {
  int weight_limit = 127;
  bool signed_inputs = true;

  bool admits_input(bool input_unsigned) const { return signed_inputs || input_unsigned; }
  // Whether every value of the int8 weight `w` is within the limit.
  bool admits_weight(const Tensor& w) const;
};

}  // namespace atenrt::runtime
