// numpy arrays <-> atenrt tensors. numpy names its dtypes as atenrt does
// (float32, int64, bool, ...), except bfloat16, which numpy lacks: a bfloat16
// engine input takes a float32 array (rounded to nearest even) and a bfloat16
// output comes back as float32.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>

#include "atenrt/atenrt.h"

namespace atenrt::python {

// An input checked against its spec, ready to copy without the GIL.
struct BoundInput {
  pybind11::array array;        // C-contiguous, native byte order; keeps the data alive
  const void* data = nullptr;   // array's first element, read with the GIL held
  bool to_bfloat16 = false;
};

// Checks `value` against `spec` (numpy array or anything numpy converts);
// throws InputError naming the input on a dtype or shape mismatch.
BoundInput bind_input(const pybind11::handle& value, const TensorSpec& spec);

// Copies a bound input into the engine-shaped tensor `dst`. No Python calls.
void copy_input(const BoundInput& in, Tensor& dst);

// A new numpy array holding a copy of `t` (needs the GIL).
pybind11::array to_numpy(const Tensor& t);

// The numpy dtype name for an atenrt dtype (bfloat16 -> float32).
std::string numpy_dtype_name(DType dtype);

}  // namespace atenrt::python
