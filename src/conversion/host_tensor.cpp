#include "conversion/host_tensor.h"

#include <algorithm>

#include "atenrt/errors.h"
#include "ir/element.h"

namespace atenrt::conversion {

namespace {
std::byte* element(Tensor& t, std::int64_t i) {
  return t.raw_mutable_data() + i * static_cast<std::int64_t>(element_size(t.dtype()));
}
const std::byte* element(const Tensor& t, std::int64_t i) {
  return t.raw_data() + i * static_cast<std::int64_t>(element_size(t.dtype()));
}
}  // namespace

double element_as_double(const Tensor& t, std::int64_t i) { return ir::read_f64(element(t, i), t.dtype()); }
std::int64_t element_as_int(const Tensor& t, std::int64_t i) { return ir::read_i64(element(t, i), t.dtype()); }
void set_element(Tensor& t, std::int64_t i, double v) { ir::write_f64(element(t, i), t.dtype(), v); }
void set_element_int(Tensor& t, std::int64_t i, std::int64_t v) { ir::write_i64(element(t, i), t.dtype(), v); }

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
