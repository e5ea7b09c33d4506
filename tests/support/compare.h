// The tests' one tensor comparison against an expected tensor (PyTorch's, or
// the reference executor's): the same dtype and sizes; floats within
// atol + rtol * |want| (NaN matches NaN, an infinity only itself); integers
// and bool exactly (compared as integers, never through a double).
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>

#include "atenrt/tensor.h"
#include "ir/element.h"

namespace atenrt::testing {

// Element `i` of a contiguous floating tensor as a double; nullopt for other dtypes.
inline std::optional<double> float_element(const Tensor& t, std::int64_t i) {
  if (!is_floating(t.dtype())) return std::nullopt;
  return ir::read_f64(t.raw_data() + i * static_cast<std::int64_t>(element_size(t.dtype())), t.dtype());
}

// Element `i` of a contiguous integer or bool tensor; nullopt for other dtypes.
inline std::optional<std::int64_t> int_element(const Tensor& t, std::int64_t i) {
  if (is_floating(t.dtype())) return std::nullopt;
  return ir::read_i64(t.raw_data() + i * static_cast<std::int64_t>(element_size(t.dtype())), t.dtype());
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
