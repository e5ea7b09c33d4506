// The machine's CPU as the kernels see it (onednn/isa.cpp).
#pragma once

#include <string>

namespace atenrt::runtime::cpu {

// The best ISA oneDNN uses here ("avx512_core_amx", "avx2", ...; "other").
std::string cpu_isa_name();

}  // namespace atenrt::runtime::cpu
