#include "runtime/cpu/own/util.h"

#include <cmath>
#include <limits>

namespace atenrt::runtime::cpu::own {

bool numeric(DType d) {
  switch (d) {
    case DType::Float32: case DType::Float64: case DType::Int64: case DType::Int32:
    case DType::Int16: case DType::Int8: case DType::UInt8: case DType::Bool: return true;
    default: return false;
  }
}

namespace {
template <typename T>
T at(const void* base, std::int64_t i) {
  T v;
  std::memcpy(&v, static_cast<const std::byte*>(base) + i * static_cast<std::int64_t>(sizeof(T)), sizeof(T));
  return v;
}
template <typename T>
void put(void* base, std::int64_t i, T v) {
  std::memcpy(static_cast<std::byte*>(base) + i * static_cast<std::int64_t>(sizeof(T)), &v, sizeof(T));
}
// Float to integer as x86 truncation does: out-of-range and NaN give the minimum.
template <typename T>
T trunc_to(double v) {
  if (!(v > static_cast<double>(std::numeric_limits<std::int64_t>::min()) - 1.0 &&
        v < static_cast<double>(std::numeric_limits<std::int64_t>::max()))) {
    return static_cast<T>(std::numeric_limits<std::int64_t>::min());
  }
  return static_cast<T>(static_cast<std::int64_t>(v));
}
}  // namespace

double load_f(DType d, const void* b, std::int64_t i) {
  switch (d) {
    case DType::Float32: return at<float>(b, i);
    case DType::Float64: return at<double>(b, i);
    case DType::Int64: return static_cast<double>(at<std::int64_t>(b, i));
    case DType::Int32: return at<std::int32_t>(b, i);
    case DType::Int16: return at<std::int16_t>(b, i);
    case DType::Int8: return at<std::int8_t>(b, i);
    case DType::UInt8: return at<std::uint8_t>(b, i);
    case DType::Bool: return at<std::uint8_t>(b, i) ? 1.0 : 0.0;
    default: return 0.0;
  }
}

std::int64_t load_i(DType d, const void* b, std::int64_t i) {
  switch (d) {
    case DType::Float32: return trunc_to<std::int64_t>(at<float>(b, i));
    case DType::Float64: return trunc_to<std::int64_t>(at<double>(b, i));
    case DType::Int64: return at<std::int64_t>(b, i);
    case DType::Int32: return at<std::int32_t>(b, i);
    case DType::Int16: return at<std::int16_t>(b, i);
    case DType::Int8: return at<std::int8_t>(b, i);
    case DType::UInt8: return at<std::uint8_t>(b, i);
    case DType::Bool: return at<std::uint8_t>(b, i) ? 1 : 0;
    default: return 0;
  }
}

void store_f(DType d, void* b, std::int64_t i, double v) {
  switch (d) {
    case DType::Float32: put<float>(b, i, static_cast<float>(v)); break;
    case DType::Float64: put<double>(b, i, v); break;
    case DType::Bool: put<std::uint8_t>(b, i, v != 0.0 ? 1 : 0); break;
    default: store_i(d, b, i, trunc_to<std::int64_t>(v)); break;
  }
}

void store_i(DType d, void* b, std::int64_t i, std::int64_t v) {
  switch (d) {
    case DType::Float32: put<float>(b, i, static_cast<float>(v)); break;
    case DType::Float64: put<double>(b, i, static_cast<double>(v)); break;
    case DType::Int64: put<std::int64_t>(b, i, v); break;
    case DType::Int32: put<std::int32_t>(b, i, static_cast<std::int32_t>(v)); break;
    case DType::Int16: put<std::int16_t>(b, i, static_cast<std::int16_t>(v)); break;
    case DType::Int8: put<std::int8_t>(b, i, static_cast<std::int8_t>(v)); break;
    case DType::UInt8: put<std::uint8_t>(b, i, static_cast<std::uint8_t>(v)); break;
    case DType::Bool: put<std::uint8_t>(b, i, v != 0 ? 1 : 0); break;
    default: break;
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
