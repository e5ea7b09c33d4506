// The one element conversion every room uses: fp16 / bf16 bit patterns and
// one element of any dtype read or written through double or int64, with the
// values PyTorch gives on x86 (the reference kernels, the own runtime kernels,
// conversion-time constants and lowering's constant folder all go through here).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

#include "atenrt/dtype.h"

namespace atenrt::ir {

// IEEE binary16 and bfloat16 <-> float32: round to nearest, ties to even;
// subnormals kept (never flushed); too large rounds to inf; NaN stays a quiet
// NaN of the same sign.
float half_to_float(std::uint16_t h);
std::uint16_t float_to_half(float f);
// (bf16's two inline: kernels convert every element of a bf16 tensor.)
inline float bf16_to_float(std::uint16_t b) { return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16); }
inline std::uint16_t float_to_bf16(float f) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((x >> 16) | 0x40u);  // quiet NaN
  const std::uint32_t odd = (x >> 16) & 1u;
  return static_cast<std::uint16_t>((x + 0x7fffu + odd) >> 16);  // never wraps: NaN is handled above
}

// A float value as the integer dtype `to` holds it, the rule torch's casts
// follow on x86 (what cvttsd2si does), without C++'s undefined behaviour:
// truncate toward zero; Int64 and UInt8 go through int64 and Int32, Int16 and
// Int8 through int32, where NaN, ±inf and values outside that intermediate's
// range give its minimum (INT64_MIN / INT32_MIN); then the value wraps to the
// dtype's width (300.0 -> int8 44, 3e9 -> int32 INT32_MIN -> int16 0).
// Bool is v != 0 (NaN is true). Returns the stored value widened to int64.
std::int64_t float_to_int(double v, DType to);
// An int64 narrowed to an integer dtype by wrapping (two's complement), or to
// bool as v != 0.
std::int64_t wrap_int(std::int64_t v, DType to);

// One element at `p` (no alignment needed) as double or int64: a float
// element read as int64 follows float_to_int(v, Int64).
double read_f64(const std::byte* p, DType dtype);
std::int64_t read_i64(const std::byte* p, DType dtype);
// Stores `v` at `p` as a cast to `dtype` would: double -> float32 rounds to
// nearest (inf past the range), -> fp16/bf16 through float32 (as torch does),
// -> integers by float_to_int, int64 -> narrower integers by wrapping.
void write_f64(std::byte* p, DType dtype, double v);
void write_i64(std::byte* p, DType dtype, std::int64_t v);

}  // namespace atenrt::ir
