// Vectorized activations where oneDNN 2.6's AVX2 form is slow (measured):
// GELU with the tanh approximation. Each is a plain loop the compiler
// vectorizes, built once per ISA and picked by CPUID, so the build runs on
// any x86-64.
#pragma once

#include <cstdint>

namespace atenrt::runtime::cpu::own {

// torch.nn.functional.gelu(x, approximate='tanh') over n floats (y may be x).
// Within 3.5 ulp of the exact formula; NaN, ±inf and ±0 as torch 1.13 gives
// them (gelu(-inf) is NaN there: 0.5 * -inf * (1 + tanh(-inf))).
void gelu_tanh(const float* x, float* y, std::int64_t n);

}  // namespace atenrt::runtime::cpu::own
