#include "conversion/host_tensor.h"

#include <cmath>
#include <cstring>

#include "atenrt/errors.h"

namespace atenrt::conversion {

std::uint16_t float_to_half(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t exp = (x >> 23) & 0xffu;
  std::uint32_t mant = x & 0x7fffffu;
  if (exp == 0xff) return static_cast<std::uint16_t>(sign | 0x7c00u | (mant ? 0x200u : 0u));
  int e = static_cast<int>(exp) - 127 + 15;
  if (e >= 31) return static_cast<std::uint16_t>(sign | 0x7c00u);  // overflow → inf
  if (e <= 0) {
    if (e < -10) return static_cast<std::uint16_t>(sign);  // underflow → ±0
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
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1u))) ++half;  // may carry into exp: fine
  return static_cast<std::uint16_t>(sign | half);
}

float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = (h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1fu;
  const std::uint32_t mant = h & 0x3ffu;
  float out;
  if (exp == 0) {
    out = std::ldexp(static_cast<float>(mant), -24);
    if (sign) out = -out;
    return out;
  }
  std::uint32_t x;
  if (exp == 31) {
    x = sign | 0x7f800000u | (mant << 13);
  } else {
    x = sign | ((exp - 15 + 127) << 23) | (mant << 13);
  }
  std::memcpy(&out, &x, 4);
  return out;
}

std::uint16_t float_to_bfloat16(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  if (std::isnan(f)) return static_cast<std::uint16_t>((x >> 16) | 0x40u);
  const std::uint32_t lsb = (x >> 16) & 1u;
  x += 0x7fffu + lsb;
  return static_cast<std::uint16_t>(x >> 16);
}

float bfloat16_to_float(std::uint16_t b) {
  const std::uint32_t x = static_cast<std::uint32_t>(b) << 16;
  float out;
  std::memcpy(&out, &x, 4);
  return out;
}

double element_as_double(const Tensor& t, std::int64_t i) {
  switch (t.dtype()) {
    case DType::Float32: return t.data<float>()[i];
    case DType::Float16: return half_to_float(t.data<std::uint16_t>()[i]);
    case DType::BFloat16: return bfloat16_to_float(t.data<std::uint16_t>()[i]);
    case DType::Float64: return t.data<double>()[i];
    case DType::Int64: return static_cast<double>(t.data<std::int64_t>()[i]);
    case DType::Int32: return t.data<std::int32_t>()[i];
    case DType::Int16: return t.data<std::int16_t>()[i];
    case DType::Int8: return t.data<std::int8_t>()[i];
    case DType::UInt8: return t.data<std::uint8_t>()[i];
    case DType::Bool: return t.data<std::uint8_t>()[i] ? 1.0 : 0.0;
  }
  return 0.0;
}

std::int64_t element_as_int(const Tensor& t, std::int64_t i) {
  switch (t.dtype()) {
    case DType::Int64: return t.data<std::int64_t>()[i];
    case DType::Int32: return t.data<std::int32_t>()[i];
    case DType::Int16: return t.data<std::int16_t>()[i];
    case DType::Int8: return t.data<std::int8_t>()[i];
    case DType::UInt8: return t.data<std::uint8_t>()[i];
    case DType::Bool: return t.data<std::uint8_t>()[i] ? 1 : 0;
    default: return static_cast<std::int64_t>(element_as_double(t, i));
  }
}

void set_element(Tensor& t, std::int64_t i, double v) {
  switch (t.dtype()) {
    case DType::Float32: t.mutable_data<float>()[i] = static_cast<float>(v); return;
    case DType::Float16: t.mutable_data<std::uint16_t>()[i] = float_to_half(static_cast<float>(v)); return;
    case DType::BFloat16: t.mutable_data<std::uint16_t>()[i] = float_to_bfloat16(static_cast<float>(v)); return;
    case DType::Float64: t.mutable_data<double>()[i] = v; return;
    case DType::Bool: t.mutable_data<std::uint8_t>()[i] = v != 0.0 ? 1 : 0; return;
    default: {
      if (!std::isfinite(v)) throw UnsupportedError("cannot store a non-finite value in an integer tensor");
      set_element_int(t, i, static_cast<std::int64_t>(v));
    }
  }
}

void set_element_int(Tensor& t, std::int64_t i, std::int64_t v) {
  switch (t.dtype()) {
    case DType::Int64: t.mutable_data<std::int64_t>()[i] = v; return;
    case DType::Int32: t.mutable_data<std::int32_t>()[i] = static_cast<std::int32_t>(v); return;
    case DType::Int16: t.mutable_data<std::int16_t>()[i] = static_cast<std::int16_t>(v); return;
    case DType::Int8: t.mutable_data<std::int8_t>()[i] = static_cast<std::int8_t>(v); return;
    case DType::UInt8: t.mutable_data<std::uint8_t>()[i] = static_cast<std::uint8_t>(v); return;
    case DType::Bool: t.mutable_data<std::uint8_t>()[i] = v != 0 ? 1 : 0; return;
    default: set_element(t, i, static_cast<double>(v));
  }
}

Tensor scalar_tensor(DType dtype, double v) {
  Tensor t(dtype, {});
  set_element(t, 0, v);
  return t;
}

Tensor scalar_tensor_int(DType dtype, std::int64_t v) {
  Tensor t(dtype, {});
  set_element_int(t, 0, v);
  return t;
}

Tensor tensor_from(DType dtype, std::vector<std::int64_t> sizes, const std::vector<double>& values) {
  Tensor t(dtype, std::move(sizes));
  if (static_cast<std::int64_t>(values.size()) != t.numel()) {
    throw Error("tensor_from: " + std::to_string(values.size()) + " values for " +
                std::to_string(t.numel()) + " elements");
  }
  for (std::size_t i = 0; i < values.size(); ++i) set_element(t, static_cast<std::int64_t>(i), values[i]);
  return t;
}

Tensor int64_tensor(std::vector<std::int64_t> sizes, const std::vector<std::int64_t>& values) {
  Tensor t(DType::Int64, std::move(sizes));
  if (static_cast<std::int64_t>(values.size()) != t.numel()) {
    throw Error("int64_tensor: " + std::to_string(values.size()) + " values for " +
                std::to_string(t.numel()) + " elements");
  }
  std::copy(values.begin(), values.end(), t.mutable_data<std::int64_t>());
  return t;
}

}  // namespace atenrt::conversion
