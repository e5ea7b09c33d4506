// Winograd convolution F(m×m, 3×3), m = 2 or 4, for 3×3, stride 1,
// dilation 1, one-group f32 convolutions on AVX2 CPUs, where oneDNN 2.6 has
// only its direct convolution (its Winograd needs AVX-512).
//
// Source and destination are oneDNN's nChw8c (eight channels a block, one
// ymm register): the input transform B^T d B of each (m+2)² tile and the
// output transform A^T M A run on eight channels at once with no shuffles.
// Between them, (m+2)² independent GEMMs V[a] (tiles × Cin) · U[a] (Cin ×
// Cout), U = G g G^T made once from the weights (the caller runs them: one
// batched oneDNN matmul). V and M are [(m+2)², tiles, C] row-major.
//
// The transforms mix the tile's points, so one NaN or ±inf spreads to
// outputs whose window does not hold it (and inf - inf makes NaN): the
// caller runs this only on finite inputs and weights (onednn/conv.cpp), the
// direct convolution otherwise. Measured on this Zen 3 (bench/winograd_bench,
// 1 thread CPU time, batch 1): see choose_winograd_tile.
#pragma once

#include <cstdint>
#include <vector>

namespace atenrt::runtime::cpu::own::winograd {

struct Shape {
  std::int64_t n = 1, c_in = 0, c_out = 0;
  std::int64_t h = 0, w = 0;            // source
  std::int64_t oh = 0, ow = 0;          // destination
  std::int64_t pad_top = 0, pad_left = 0;
  int m = 2;                            // output tile side: 2 or 4
  int alpha() const { return m + 2; }
  std::int64_t tiles_y() const { return (oh + m - 1) / m; }
  std::int64_t tiles_x() const { return (ow + m - 1) / m; }
  std::int64_t tiles() const { return n * tiles_y() * tiles_x(); }
};

// What follows the convolution, in order, applied in the output transform:
// the bias, then `sum` (y = conv + y: the residual the caller copied into the
// destination), then each clamp y = min(max(y, lo), hi) (relu: lo 0, hi inf;
// exact on finite values only).
struct Epilogue {
  bool sum = false;
  struct Clamp {
    float lo, hi;
  };
  std::vector<Clamp> clamps;
};

// The tile side for a convolution of this shape on this CPU, 0 for none
// (oneDNN's direct convolution): AVX2 without AVX-512, channels in whole
// blocks of 8, and only the sizes where it measured faster.
int choose_tile(std::int64_t c_in, std::int64_t c_out, std::int64_t oh, std::int64_t ow);

// U[a][ci][co] ((m+2)² × Cin × Cout) from weights in torch's O, I, 3, 3 order.
std::vector<float> transform_weights(const Shape& s, const float* weights);

// x: nChw8c source; v: [(m+2)², tiles, Cin]. On the engine's threads.
void transform_input(const Shape& s, const float* x, float* v);
// mm: [(m+2)², tiles, Cout]; bias: Cout floats or null; y: nChw8c destination.
void transform_output(const Shape& s, const float* mm, const float* bias, const Epilogue& e, float* y);

}  // namespace atenrt::runtime::cpu::own::winograd
