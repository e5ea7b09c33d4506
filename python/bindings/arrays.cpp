#include "arrays.h"

#include <cstdint>
#include <cstring>

#include "errors.h"
#include "ir/element.h"

namespace py = pybind11;

namespace atenrt::python {
namespace {

std::string describe_array(const py::array& a) {
  std::vector<std::int64_t> dims(a.shape(), a.shape() + a.ndim());
  return py::str(a.dtype().attr("name")).cast<std::string>() + shape_to_string(dims);
}

}  // namespace

std::string numpy_dtype_name(DType dtype) {
  return dtype == DType::BFloat16 ? "float32" : std::string(dtype_name(dtype));
}

BoundInput bind_input(const py::handle& value, const TensorSpec& spec) {
  const std::string expected = std::string(dtype_name(spec.dtype)) + shape_to_string(spec.dims);
  BoundInput in;
  try {
    in.array = py::array::ensure(value, py::array::c_style);
  } catch (py::error_already_set&) {
    in.array = py::array();
  }
  if (!in.array) {
    PyErr_Clear();
    input_error("input '" + spec.name + "': expected an array of " + expected + ", got a " +
                std::string(py::str(py::type::of(value).attr("__name__"))));
  }
  py::dtype dt = in.array.dtype();
  if (!dt.attr("isnative").cast<bool>()) {  // '>f4' on a little-endian machine: swap once
    in.array = py::array::ensure(in.array.attr("astype")(dt.attr("newbyteorder")("=")), py::array::c_style);
    dt = in.array.dtype();
  }
  const auto got = dtype_from_name(py::str(dt.attr("name")).cast<std::string>());
  bool dtype_ok = got && *got == spec.dtype;
  if (spec.dtype == DType::BFloat16 && got == DType::Float32) dtype_ok = in.to_bfloat16 = true;
  const std::vector<std::int64_t> dims(in.array.shape(), in.array.shape() + in.array.ndim());
  // A dynamic input's range is the engine's to check (its message names the dim and the range).
  const bool shape_ok = spec.is_dynamic() ? dims.size() == spec.dims.size() : dims == spec.dims;
  if (!dtype_ok || !shape_ok) {
    std::string hint;
    if (spec.dtype == DType::BFloat16 && !dtype_ok) hint = " (numpy has no bfloat16: pass float32)";
    input_error("input '" + spec.name + "': expected " + expected + ", got " + describe_array(in.array) + hint);
  }
  in.data = in.array.data();
  return in;
}

void copy_input(const BoundInput& in, Tensor& dst) {
  if (in.to_bfloat16) {
    const auto* src = static_cast<const float*>(in.data);
    auto* out = dst.mutable_data<std::uint16_t>();
    for (std::int64_t i = 0, n = dst.numel(); i < n; ++i) out[i] = ir::float_to_bf16(src[i]);
    return;
  }
  if (dst.nbytes()) std::memcpy(dst.raw_mutable_data(), in.data, dst.nbytes());
}

py::array to_numpy(const Tensor& t) {
  const Tensor c = t.contiguous();
  std::vector<py::ssize_t> shape(c.sizes().begin(), c.sizes().end());
  py::array out(py::dtype(numpy_dtype_name(c.dtype())), shape);
  if (c.numel() == 0) return out;
  if (c.dtype() == DType::BFloat16) {
    const auto* src = c.data<std::uint16_t>();
    auto* dst = static_cast<float*>(out.mutable_data());
    for (std::int64_t i = 0, n = c.numel(); i < n; ++i) dst[i] = ir::bf16_to_float(src[i]);
  } else if (c.dtype() == DType::Bool) {  // numpy bools must be exactly 0 or 1
    const auto* src = c.data<std::uint8_t>();
    auto* dst = static_cast<std::uint8_t*>(out.mutable_data());
    for (std::int64_t i = 0, n = c.numel(); i < n; ++i) dst[i] = src[i] != 0;
  } else {
    std::memcpy(out.mutable_data(), c.raw_data(), c.nbytes());
  }
  return out;
}

}  // namespace atenrt::python
