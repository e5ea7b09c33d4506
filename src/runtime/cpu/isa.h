// The machine's CPU as the kernels see it (onednn/isa.cpp).
#pragma once

#include <string>

#include "runtime/program.h"

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

}  // namespace atenrt::runtime::cpu
