// Whether float data holds NaN or ±inf: the check before a primitive whose
// fused relu or clip is exact only on finite inputs (onednn::Call::when_finite).
#pragma once

#include <cstdint>

namespace atenrt::runtime::cpu::own {

// True when none of the n floats at x is NaN or ±inf: on the engine's
// threads, 8 floats wide on AVX2 (nan_repair.cpp, beside the NaN repairs'
// own checks, which softmax's repair shares).
bool all_finite(const float* x, std::int64_t n);
// The same for n bf16 values (bit patterns), bf16 activations' checks.
bool all_finite_bf16(const std::uint16_t* x, std::int64_t n);

}  // namespace atenrt::runtime::cpu::own
