#include "runtime/cpu/own/util.h"

namespace atenrt::runtime::cpu::own {

bool numeric(DType d) {
  switch (d) {
    case DType::Float32: case DType::Float64: case DType::Int64: case DType::Int32:
    case DType::Int16: case DType::Int8: case DType::UInt8: case DType::Bool: return true;
    default: return false;
  }
}

Dims contiguous(const Dims& dims) {
  Dims s(dims.size(), 1);
  for (int i = static_cast<int>(dims.size()) - 2; i >= 0; --i) s[i] = s[i + 1] * dims[i + 1];
  return s;
}

Dims broadcast_strides(const Dims& dims, const Dims& out_dims) {
  const Dims own = contiguous(dims);
  Dims s(out_dims.size(), 0);
  const std::size_t shift = out_dims.size() - dims.size();
  for (std::size_t i = 0; i < dims.size(); ++i) s[shift + i] = dims[i] == 1 ? 0 : own[i];
  return s;
}

void strided_copy(void* dst, const void* src, const Dims& dims, const Dims& strides,
                  std::size_t elem) {
  const std::int64_t n = numel_of(dims);
  if (n == 0) return;
  const int rank = static_cast<int>(dims.size());
  auto* out = static_cast<std::byte*>(dst);
  const auto* in = static_cast<const std::byte*>(src);
  const auto e = static_cast<std::int64_t>(elem);
  if (rank == 0) {
    std::memcpy(out, in, elem);
    return;
  }
  // Inner dim as a run (memcpy when unit stride), outer dims by a counter.
  const std::int64_t inner = dims[rank - 1], inner_stride = strides[rank - 1];
  std::vector<std::int64_t> idx(rank, 0);
  std::int64_t offset = 0;  // in elements
  for (std::int64_t done = 0; done < n; done += inner) {
    if (inner_stride == 1) {
      std::memcpy(out, in + offset * e, elem * inner);
      out += elem * inner;
    } else {
      for (std::int64_t j = 0; j < inner; ++j, out += elem) {
        std::memcpy(out, in + (offset + j * inner_stride) * e, elem);
      }
    }
    for (int d = rank - 2; d >= 0; --d) {
      offset += strides[d];
      if (++idx[d] < dims[d]) break;
      offset -= strides[d] * dims[d];
      idx[d] = 0;
    }
  }
}

}  // namespace atenrt::runtime::cpu::own
