// Internal helpers of the reference kernels: element conversion, loading a
// tensor as a flat double/int64 vector, broadcasting index maps.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "atenrt/errors.h"
#include "atenrt/tensor.h"
#include "ir/element.h"
#include "network/network.h"

namespace atenrt::reference::detail {

using network::Dims;
using network::TensorDesc;

// Element conversion is the ground floor's (ir/element.h): torch's rules.
using ir::bf16_to_float;
using ir::float_to_bf16;
using ir::float_to_half;
using ir::half_to_float;
using ir::read_f64;
using ir::read_i64;
using ir::write_f64;
using ir::write_i64;

// Row-major values of any view.
std::vector<double> load_f64(const Tensor& t);
std::vector<std::int64_t> load_i64(const Tensor& t);
// New contiguous tensors.
Tensor make_f64(DType dtype, const Dims& dims, const std::vector<double>& values);
Tensor make_i64(DType dtype, const Dims& dims, const std::vector<std::int64_t>& values);

// For every flat index of `out` (row-major), the flat index of the element
// of `in` that broadcasting maps to it.
std::vector<std::int64_t> broadcast_map(const Dims& out, const Dims& in);

// Calls f(index) for every multi-index of `dims` in row-major order.
template <typename F>
void for_each_index(const Dims& dims, F&& f) {
  for (auto d : dims) {
    if (d == 0) return;
  }
  std::vector<std::int64_t> idx(dims.size(), 0);
  while (true) {
    f(idx);
    std::size_t k = dims.size();
    while (k > 0) {
      --k;
      if (++idx[k] < dims[k]) break;
      idx[k] = 0;
      if (k == 0) return;
    }
    if (dims.empty()) return;
  }
}

// The product of dims[begin, end).
std::int64_t prod(const Dims& dims, std::size_t begin, std::size_t end);

// A tensor as [outer, len, inner] around one axis (negative counts from the
// end; a 0-d tensor is [1, 1, 1]).
struct AxisSplit {
  std::int64_t axis = 0, outer = 1, len = 1, inner = 1;
};
AxisSplit split_at(const Dims& dims, std::int64_t axis);

// The layer being run, for messages.
struct KernelContext {
  std::string_view layer_name;
  network::LayerKind kind;
  const std::vector<Tensor>& inputs;
  const std::vector<TensorDesc>& outputs;  // inferred for these inputs

  [[noreturn]] void fail(const std::string& message) const;         // LayerError
  [[noreturn]] void input_error(const std::string& message) const;  // InputError
  const Tensor& in(std::size_t i) const { return inputs[i]; }
  const TensorDesc& out(std::size_t i = 0) const { return outputs[i]; }
};

}  // namespace atenrt::reference::detail
