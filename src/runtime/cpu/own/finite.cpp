#include "runtime/cpu/own/finite.h"

#include <cstring>

namespace atenrt::runtime::cpu::own {

bool all_finite(const float* x, std::int64_t n) {
  // NaN and ±inf are the floats whose exponent bits are all set. Branch-free
  // over a block, so that it vectorizes; a non-finite value ends the scan at
  // the end of its block.
  constexpr std::int64_t kBlock = 4096;
  constexpr std::uint32_t kExponent = 0x7f800000u;
  for (std::int64_t begin = 0; begin < n; begin += kBlock) {
    const std::int64_t end = begin + kBlock < n ? begin + kBlock : n;
    std::uint32_t odd = 0;
    for (std::int64_t i = begin; i < end; ++i) {
      std::uint32_t bits;
      std::memcpy(&bits, x + i, sizeof bits);
      odd |= static_cast<std::uint32_t>((bits & kExponent) == kExponent);
    }
    if (odd) return false;
  }
  return true;
}

}  // namespace atenrt::runtime::cpu::own
