#include "ir/element.h"

#include <bit>
#include <cstring>
#include <limits>

#include "ir/unaligned.h"

namespace atenrt::ir {

float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1fu;
  std::uint32_t mant = h & 0x3ffu;
  std::uint32_t bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {  // subnormal half: a normal float, so shift the leading 1 out
      std::uint32_t e = 127 - 15 + 1;
      do {
        --e;
        mant <<= 1;
      } while ((mant & 0x400u) == 0);
      bits = sign | e << 23 | (mant & 0x3ffu) << 13;
    }
  } else if (exp == 0x1f) {
    bits = sign | 0x7f800000u | mant << 13;
  } else {
    bits = sign | (exp + 127 - 15) << 23 | mant << 13;
  }
  return std::bit_cast<float>(bits);
}

std::uint16_t float_to_half(float f) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t exp = (x >> 23) & 0xffu;
  std::uint32_t mant = x & 0x7fffffu;
  if (exp == 0xff) return static_cast<std::uint16_t>(sign | 0x7c00u | (mant ? 0x200u : 0u));
  const int e = static_cast<int>(exp) - 127 + 15;
  if (e >= 31) return static_cast<std::uint16_t>(sign | 0x7c00u);  // past the largest half
  if (e <= 0) {                                                    // a half subnormal (or zero)
    if (e < -10) return static_cast<std::uint16_t>(sign);          // below half of 2^-24
    mant |= 0x800000u;
    const int shift = 14 - e;
    std::uint32_t half = mant >> shift;
    const std::uint32_t rem = mant & ((1u << shift) - 1);
    const std::uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1u))) ++half;
    return static_cast<std::uint16_t>(sign | half);
  }
  std::uint32_t half = (static_cast<std::uint32_t>(e) << 10) | (mant >> 13);
  const std::uint32_t rem = mant & 0x1fffu;
  // A carry out of the mantissa steps the exponent (up to inf): still right.
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1u))) ++half;
  return static_cast<std::uint16_t>(sign | half);
}

namespace {

// Truncation into int64 / int32 as cvttsd2si does: NaN and out-of-range give
// the minimum. The comparisons are exact: both bounds are powers of two.
std::int64_t truncate_i64(double v) {
  if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) return std::numeric_limits<std::int64_t>::min();
  return static_cast<std::int64_t>(v);
}
std::int32_t truncate_i32(double v) {
  if (!(v > -2147483649.0 && v < 2147483648.0)) return std::numeric_limits<std::int32_t>::min();
  return static_cast<std::int32_t>(v);
}

}  // namespace

std::int64_t wrap_int(std::int64_t v, DType to) {
  const auto u = static_cast<std::uint64_t>(v);  // wrapping is defined on unsigned values
  switch (to) {
    case DType::Int32: return static_cast<std::int32_t>(static_cast<std::uint32_t>(u));
    case DType::Int16: return static_cast<std::int16_t>(static_cast<std::uint16_t>(u));
    case DType::Int8: return static_cast<std::int8_t>(static_cast<std::uint8_t>(u));
    case DType::UInt8: return static_cast<std::uint8_t>(u);
    case DType::Bool: return v != 0 ? 1 : 0;
    default: return v;
  }
}

std::int64_t float_to_int(double v, DType to) {
  switch (to) {
    case DType::Bool: return v != 0.0 ? 1 : 0;
    case DType::Int32: case DType::Int16: case DType::Int8: return wrap_int(truncate_i32(v), to);
    default: return wrap_int(truncate_i64(v), to);
  }
}

double read_f64(const std::byte* p, DType dtype) {
  switch (dtype) {
    case DType::Float32: return load_unaligned<float>(p);
    case DType::Float64: return load_unaligned<double>(p);
    case DType::Float16: return half_to_float(load_unaligned<std::uint16_t>(p));
    case DType::BFloat16: return bf16_to_float(load_unaligned<std::uint16_t>(p));
    default: return static_cast<double>(read_i64(p, dtype));
  }
}

std::int64_t read_i64(const std::byte* p, DType dtype) {
  switch (dtype) {
    case DType::Int64: return load_unaligned<std::int64_t>(p);
    case DType::Int32: return load_unaligned<std::int32_t>(p);
    case DType::Int16: return load_unaligned<std::int16_t>(p);
    case DType::Int8: return load_unaligned<std::int8_t>(p);
    case DType::UInt8: return load_unaligned<std::uint8_t>(p);
    case DType::Bool: return load_unaligned<std::uint8_t>(p) != 0 ? 1 : 0;
    default: return float_to_int(read_f64(p, dtype), DType::Int64);
  }
}

void write_f64(std::byte* p, DType dtype, double v) {
  switch (dtype) {
    case DType::Float32: store_unaligned<float>(p, static_cast<float>(v)); return;
    case DType::Float64: store_unaligned<double>(p, v); return;
    case DType::Float16: store_unaligned<std::uint16_t>(p, float_to_half(static_cast<float>(v))); return;
    case DType::BFloat16: store_unaligned<std::uint16_t>(p, float_to_bf16(static_cast<float>(v))); return;
    default: write_i64(p, dtype, float_to_int(v, dtype)); return;
  }
}

void write_i64(std::byte* p, DType dtype, std::int64_t v) {
  const auto u = static_cast<std::uint64_t>(v);
  switch (dtype) {
    case DType::Int64: store_unaligned<std::int64_t>(p, v); return;
    case DType::Int32: store_unaligned<std::uint32_t>(p, static_cast<std::uint32_t>(u)); return;
    case DType::Int16: store_unaligned<std::uint16_t>(p, static_cast<std::uint16_t>(u)); return;
    case DType::Int8: case DType::UInt8: store_unaligned<std::uint8_t>(p, static_cast<std::uint8_t>(u)); return;
    case DType::Bool: store_unaligned<std::uint8_t>(p, v != 0 ? 1 : 0); return;
    default: write_f64(p, dtype, static_cast<double>(v)); return;
  }
}

}  // namespace atenrt::ir
