#include "reference/common.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace atenrt::reference::detail {

float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = (h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1f;
  std::uint32_t mant = h & 0x3ffu;
  std::uint32_t bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {  // subnormal: normalize
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while ((mant & 0x400u) == 0);
      bits = sign | static_cast<std::uint32_t>(127 - 15 - e) << 23 | (mant & 0x3ffu) << 13;
    }
  } else if (exp == 0x1f) {
    bits = sign | 0x7f800000u | mant << 13;
  } else {
    bits = sign | (exp + 127 - 15) << 23 | mant << 13;
  }
  return std::bit_cast<float>(bits);
}

std::uint16_t float_to_half(float f) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  const std::uint16_t sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
  const std::uint32_t abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u) {  // inf or nan
    return sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u);
  }
  if (abs >= 0x477ff000u) return sign | 0x7c00u;  // rounds to >= 65520: inf
  if (abs < 0x38800000u) {                         // below the smallest normal half
    // Add 0.5 so the hardware rounds to nearest even at the half-subnormal step (2^-24).
    const float v = std::bit_cast<float>(abs) + 0.5f;
    return sign | static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(v) - 0x3f000000u);
  }
  const std::uint32_t odd = (abs >> 13) & 1u;
  const std::uint32_t rounded = abs + 0xfffu + odd - ((127u - 15u) << 23);
  return sign | static_cast<std::uint16_t>(rounded >> 13);
}

float bf16_to_float(std::uint16_t b) { return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16); }

std::uint16_t float_to_bf16(float f) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((x >> 16) | 0x40u);  // quiet nan
  const std::uint32_t odd = (x >> 16) & 1u;
  return static_cast<std::uint16_t>((x + 0x7fffu + odd) >> 16);
}

namespace {
template <typename T>
T load_as(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <typename T>
void store_as(std::byte* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

std::int64_t float_to_int64(double v) {
  // x86 cvttsd2si: NaN and out-of-range give INT64_MIN (torch on x86 agrees).
  if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) {
    return std::numeric_limits<std::int64_t>::min();
  }
  return static_cast<std::int64_t>(v);
}
}  // namespace

double read_f64(const std::byte* p, DType dtype) {
  switch (dtype) {
    case DType::Float32: return load_as<float>(p);
    case DType::Float64: return load_as<double>(p);
    case DType::Float16: return half_to_float(load_as<std::uint16_t>(p));
    case DType::BFloat16: return bf16_to_float(load_as<std::uint16_t>(p));
    default: return static_cast<double>(read_i64(p, dtype));
  }
}

std::int64_t read_i64(const std::byte* p, DType dtype) {
  switch (dtype) {
    case DType::Int64: return load_as<std::int64_t>(p);
    case DType::Int32: return load_as<std::int32_t>(p);
    case DType::Int16: return load_as<std::int16_t>(p);
    case DType::Int8: return load_as<std::int8_t>(p);
    case DType::UInt8: return load_as<std::uint8_t>(p);
    case DType::Bool: return load_as<std::uint8_t>(p) != 0;
    default: return float_to_int64(read_f64(p, dtype));
  }
}

void write_f64(std::byte* p, DType dtype, double v) {
  switch (dtype) {
    case DType::Float32: store_as<float>(p, static_cast<float>(v)); return;
    case DType::Float64: store_as<double>(p, v); return;
    case DType::Float16: store_as<std::uint16_t>(p, float_to_half(static_cast<float>(v))); return;
    case DType::BFloat16: store_as<std::uint16_t>(p, float_to_bf16(static_cast<float>(v))); return;
    case DType::Bool: store_as<std::uint8_t>(p, v != 0.0 ? 1 : 0); return;
    default: write_i64(p, dtype, float_to_int64(v)); return;
  }
}

void write_i64(std::byte* p, DType dtype, std::int64_t v) {
  const auto u = static_cast<std::uint64_t>(v);  // narrowing by wrap, defined on unsigned
  switch (dtype) {
    case DType::Int64: store_as<std::int64_t>(p, v); return;
    case DType::Int32: store_as<std::uint32_t>(p, static_cast<std::uint32_t>(u)); return;
    case DType::Int16: store_as<std::uint16_t>(p, static_cast<std::uint16_t>(u)); return;
    case DType::Int8: store_as<std::uint8_t>(p, static_cast<std::uint8_t>(u)); return;
    case DType::UInt8: store_as<std::uint8_t>(p, static_cast<std::uint8_t>(u)); return;
    case DType::Bool: store_as<std::uint8_t>(p, v != 0 ? 1 : 0); return;
    default: write_f64(p, dtype, static_cast<double>(v)); return;
  }
}

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
