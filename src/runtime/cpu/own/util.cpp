#include "runtime/cpu/own/util.h"

#include <algorithm>
#include <cstring>

#include "runtime/cpu/own/parallel.h"

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

namespace {

// One run of n elements of `elem` bytes, `stride` elements apart in src.
template <typename T>
void copy_run(std::byte* out, const std::byte* in, std::int64_t n, std::int64_t stride) {
  T* o = reinterpret_cast<T*>(out);
  const T* i = reinterpret_cast<const T*>(in);
  for (std::int64_t j = 0; j < n; ++j) o[j] = i[j * stride];
}

void strided_run(std::byte* out, const std::byte* in, std::int64_t n, std::int64_t stride, std::size_t elem) {
  if (stride == 1) {
    std::memcpy(out, in, elem * static_cast<std::size_t>(n));
    return;
  }
  switch (elem) {  // a typed loop: a memcpy call per element cost ~10x more
    case 4: copy_run<std::uint32_t>(out, in, n, stride); return;
    case 8: copy_run<std::uint64_t>(out, in, n, stride); return;
    case 2: copy_run<std::uint16_t>(out, in, n, stride); return;
    case 1: copy_run<std::uint8_t>(out, in, n, stride); return;
    default:
      for (std::int64_t j = 0; j < n; ++j) std::memcpy(out + j * elem, in + j * stride * elem, elem);
  }
}

}  // namespace

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
  // Inner dim as a run, outer dims by a counter; runs shared among the
  // engine's threads (the permutes of window attention, MaxViT's and Swin's
  // partitions, copy megabytes per step), each chunk starting its counter at
  // its first run.
  const std::int64_t inner = dims[rank - 1], inner_stride = strides[rank - 1];
  const std::int64_t runs = n / inner;
  parallel_for(runs, std::max<std::int64_t>(1, kSimpleGrain / inner), [&](std::int64_t begin, std::int64_t end) {
    std::vector<std::int64_t> idx(rank, 0);
    std::int64_t offset = 0;  // in elements
    std::int64_t rest = begin;
    for (int d = rank - 2; d >= 0; --d) {
      idx[d] = rest % dims[d];
      rest /= dims[d];
      offset += idx[d] * strides[d];
    }
    for (std::int64_t r = begin; r < end; ++r) {
      strided_run(out + r * inner * e, in + offset * e, inner, inner_stride, elem);
      for (int d = rank - 2; d >= 0; --d) {
        offset += strides[d];
        if (++idx[d] < dims[d]) break;
        offset -= strides[d] * dims[d];
        idx[d] = 0;
      }
    }
  });
}

}  // namespace atenrt::runtime::cpu::own
