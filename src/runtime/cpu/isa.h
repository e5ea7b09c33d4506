// The machine's CPU as the kernels see it (onednn/isa.cpp).
#pragma once

#include <optional>
#include <string>

#include "runtime/program.h"
#include "runtime/quantization.h"

namespace atenrt::runtime::cpu {

// The best ISA oneDNN uses here ("avx512_core_amx", "avx2", ...; "other").
std::string cpu_isa_name();

// Why this CPU has no fast kernels for `precision`, in words (empty when it
// has; always empty for fp32). The builder keeps layers in fp32 then, as a
// TensorRT builder only uses the enabled precisions that pay; tests expect
// bf16/int8 steps from the same answer. oneDNN's limit on the ISA
// (ONEDNN_MAX_CPU_ISA=AVX2) changes it, which is how the fp32 fallback is
// tested on CPUs that have everything.
std::string precision_unavailable(Precision precision);

// Whether the CPU has int8 dot-product instructions (VNNI or AMX). Without
// them oneDNN's int8 kernels add pairs of u8*s8 products in 16 bits, which
// saturate for weights beyond +-63, and halve the weights of s8-input steps:
// an int8 step's definition (runtime/quantization.h) then holds in oneDNN only
// for unsigned inputs and weights within +-kInt8WeightLimitWithoutDotProduct.
bool cpu_has_int8_dot_product();
inline constexpr int kInt8WeightLimitWithoutDotProduct = 63;  // 255 * 63 * 2 < 2^15
// That rule as the builder and the kernel choice both read it.
Int8Exactness int8_exactness();
// Tests only: pretend the CPU has (true) or lacks (false) them; nullopt asks
// the CPU again. Not thread safe: set it before building engines.
void override_int8_dot_product_for_tests(std::optional<bool> has);

}  // namespace atenrt::runtime::cpu
