// Small host-tensor helpers for values made at conversion time (constants,
// folded evaluators): element access in any dtype through double/int64.
#pragma once

#include <cstdint>
#include <vector>

#include "atenrt/tensor.h"

namespace atenrt::conversion {

// Element `flat` of a contiguous tensor, converted.
double element_as_double(const Tensor& t, std::int64_t flat);
std::int64_t element_as_int(const Tensor& t, std::int64_t flat);
// Stores `v` into element `flat` of a contiguous tensor as a cast to the
// dtype would (ir/element.h: float -> int as torch does on x86).
void set_element(Tensor& t, std::int64_t flat, double v);
void set_element_int(Tensor& t, std::int64_t flat, std::int64_t v);

// A 0-d tensor holding `v`.
Tensor scalar_tensor(DType dtype, double v);
Tensor scalar_tensor_int(DType dtype, std::int64_t v);
// A contiguous tensor of `sizes` filled from `values` (row-major).
Tensor tensor_from(DType dtype, std::vector<std::int64_t> sizes, const std::vector<double>& values);
Tensor int64_tensor(std::vector<std::int64_t> sizes, const std::vector<std::int64_t>& values);

}  // namespace atenrt::conversion
