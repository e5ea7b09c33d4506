#include "reference/common.h"

namespace atenrt::reference::detail {

std::vector<double> load_f64(const Tensor& t) {
  const Tensor c = t.contiguous();
  const std::size_t es = element_size(c.dtype());
  std::vector<double> out(static_cast<std::size_t>(c.numel()));
  const std::byte* p = c.raw_data();
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = read_f64(p + i * es, c.dtype());
  return out;
}

std::vector<std::int64_t> load_i64(const Tensor& t) {
  const Tensor c = t.contiguous();
  const std::size_t es = element_size(c.dtype());
  std::vector<std::int64_t> out(static_cast<std::size_t>(c.numel()));
  const std::byte* p = c.raw_data();
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = read_i64(p + i * es, c.dtype());
  return out;
}

Tensor make_f64(DType dtype, const Dims& dims, const std::vector<double>& values) {
  Tensor t(dtype, dims);
  const std::size_t es = element_size(dtype);
  std::byte* p = t.raw_mutable_data();
  for (std::size_t i = 0; i < values.size(); ++i) write_f64(p + i * es, dtype, values[i]);
  return t;
}

Tensor make_i64(DType dtype, const Dims& dims, const std::vector<std::int64_t>& values) {
  Tensor t(dtype, dims);
  const std::size_t es = element_size(dtype);
  std::byte* p = t.raw_mutable_data();
  for (std::size_t i = 0; i < values.size(); ++i) write_i64(p + i * es, dtype, values[i]);
  return t;
}

std::vector<std::int64_t> broadcast_map(const Dims& out, const Dims& in) {
  // Strides of `in` aligned right to `out`, 0 where `in` broadcasts.
  const std::size_t rank = out.size();
  std::vector<std::int64_t> stride(rank, 0);
  const Dims in_strides = contiguous_strides(in);
  for (std::size_t i = 0; i < in.size(); ++i) {
    const std::size_t o = rank - in.size() + i;
    stride[o] = in[i] == 1 ? 0 : in_strides[i];
  }
  std::vector<std::int64_t> map;
  map.reserve(static_cast<std::size_t>(numel_of(out)));
  for_each_index(out, [&](const std::vector<std::int64_t>& idx) {
    std::int64_t off = 0;
    for (std::size_t k = 0; k < rank; ++k) off += idx[k] * stride[k];
    map.push_back(off);
  });
  return map;
}

std::int64_t prod(const Dims& dims, std::size_t begin, std::size_t end) {
  std::int64_t n = 1;
  for (std::size_t i = begin; i < end && i < dims.size(); ++i) n *= dims[i];
  return n;
}

AxisSplit split_at(const Dims& dims, std::int64_t axis) {
  const auto rank = static_cast<std::int64_t>(dims.size());
  AxisSplit s;
  if (rank == 0) return s;
  s.axis = axis < 0 ? axis + rank : axis;
  s.outer = prod(dims, 0, static_cast<std::size_t>(s.axis));
  s.len = dims[s.axis];
  s.inner = prod(dims, static_cast<std::size_t>(s.axis) + 1, dims.size());
  return s;
}

void KernelContext::fail(const std::string& message) const {
  throw network::LayerError("layer '" + std::string(layer_name) + "' (" +
                            std::string(network::layer_kind_name(kind)) + "): " + message);
}

void KernelContext::input_error(const std::string& message) const {
  throw InputError("layer '" + std::string(layer_name) + "' (" +
                   std::string(network::layer_kind_name(kind)) + "): " + message);
}

}  // namespace atenrt::reference::detail
