// The tests' one tensor comparison against an expected tensor (PyTorch's, or
// the reference executor's): the same dtype and sizes; floats within
// atol + rtol * |want| (NaN matches NaN, an infinity only itself); integers
// and bool exactly (compared as integers, never through a double).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <sstream>
#include <string>

#include "atenrt/tensor.h"

namespace atenrt::testing {

// Element `i` of a contiguous floating tensor as a double; nullopt for other dtypes.
inline std::optional<double> float_element(const Tensor& t, std::int64_t i) {
  const std::byte* p = t.raw_data() + i * static_cast<std::int64_t>(element_size(t.dtype()));
  auto load = [p](auto v) {
    std::memcpy(&v, p, sizeof v);
    return static_cast<double>(v);
  };
  std::uint16_t h;
  switch (t.dtype()) {
    case DType::Float32: return load(float{});
    case DType::Float64: return load(double{});
    case DType::BFloat16: {  // the high half of a float32
      std::memcpy(&h, p, 2);
      const std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
      float f;
      std::memcpy(&f, &bits, 4);
      return f;
    }
    case DType::Float16: {  // IEEE binary16
      std::memcpy(&h, p, 2);
      const int exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
      const double sign = (h & 0x8000) ? -1.0 : 1.0;
      if (exponent == 0x1f) return mantissa ? std::nan("") : sign * INFINITY;
      if (exponent == 0) return sign * std::ldexp(mantissa, -24);
      return sign * std::ldexp(mantissa + 1024, exponent - 25);
    }
    default: return std::nullopt;
  }
}

// Element `i` of a contiguous integer or bool tensor; nullopt for other dtypes.
inline std::optional<std::int64_t> int_element(const Tensor& t, std::int64_t i) {
  const std::byte* p = t.raw_data() + i * static_cast<std::int64_t>(element_size(t.dtype()));
  auto load = [p](auto v) {
    std::memcpy(&v, p, sizeof v);
    return static_cast<std::int64_t>(v);
  };
  switch (t.dtype()) {
    case DType::Int64: return load(std::int64_t{});
    case DType::Int32: return load(std::int32_t{});
    case DType::Int16: return load(std::int16_t{});
    case DType::Int8: return load(std::int8_t{});
    case DType::UInt8:
    case DType::Bool: return load(std::uint8_t{});
    default: return std::nullopt;
  }
}

// "" when `got` matches `want`, else the first difference.
inline std::string compare_tensors(const Tensor& got, const Tensor& want, double rtol, double atol) {
  std::ostringstream msg;
  if (got.dtype() != want.dtype() || got.sizes() != want.sizes()) {
    msg << "got " << dtype_name(got.dtype()) << shape_to_string(got.sizes()) << ", want " << dtype_name(want.dtype())
        << shape_to_string(want.sizes());
    return msg.str();
  }
  const Tensor g = got.contiguous(), w = want.contiguous();
  msg.precision(9);
  for (std::int64_t i = 0; i < w.numel(); ++i) {
    if (is_floating(want.dtype())) {
      const auto a = float_element(g, i), b = float_element(w, i);
      if (!a || !b) return "cannot compare " + std::string(dtype_name(want.dtype())) + " tensors";
      if (*a == *b || (std::isnan(*a) && std::isnan(*b))) continue;
      if (std::isinf(*a) || std::isinf(*b) || !(std::fabs(*a - *b) <= atol + rtol * std::fabs(*b))) {
        msg << "element " << i << ": got " << *a << ", want " << *b;
        return msg.str();
      }
    } else {
      const auto a = int_element(g, i), b = int_element(w, i);
      if (!a || !b) return "cannot compare " + std::string(dtype_name(want.dtype())) + " tensors";
      if (*a != *b) {
        msg << "element " << i << ": got " << *a << ", want " << *b;
        return msg.str();
      }
    }
  }
  return "";
}

}  // namespace atenrt::testing
