#include "atenrt/dtype.h"

#include <array>

namespace atenrt {
namespace {

struct DTypeInfo {
  DType dtype;
  std::string_view name;
  std::size_t size;
  std::int64_t serde;  // torch._export.serde ScalarType
};

constexpr std::array<DTypeInfo, kDTypeCount> kInfo = {{
    {DType::Float32, "float32", 4, 7},
    {DType::Float16, "float16", 2, 6},
    {DType::BFloat16, "bfloat16", 2, 13},
    {DType::Float64, "float64", 8, 8},
    {DType::Int64, "int64", 8, 5},
    {DType::Int32, "int32", 4, 4},
    {DType::Int16, "int16", 2, 3},
    {DType::Int8, "int8", 1, 2},
    {DType::UInt8, "uint8", 1, 1},
    {DType::Bool, "bool", 1, 12},
}};
static_assert(static_cast<int>(DType::Bool) + 1 == kDTypeCount, "kInfo must list every DType in order");

const DTypeInfo& info(DType dtype) { return kInfo[static_cast<std::size_t>(dtype)]; }

}  // namespace

std::size_t element_size(DType dtype) { return info(dtype).size; }
std::string_view dtype_name(DType dtype) { return info(dtype).name; }

std::optional<DType> dtype_from_name(std::string_view name) {
  for (const auto& i : kInfo) {
    if (i.name == name) return i.dtype;
  }
  if (name == "float") return DType::Float32;
  if (name == "half") return DType::Float16;
  if (name == "double") return DType::Float64;
  if (name == "long") return DType::Int64;
  if (name == "int") return DType::Int32;
  return std::nullopt;
}

bool is_floating(DType dtype) {
  return dtype == DType::Float32 || dtype == DType::Float16 || dtype == DType::BFloat16 ||
         dtype == DType::Float64;
}

bool is_integral(DType dtype) {
  return dtype == DType::Int64 || dtype == DType::Int32 || dtype == DType::Int16 ||
         dtype == DType::Int8 || dtype == DType::UInt8;
}

std::optional<DType> dtype_from_serde(std::int64_t serde_code) {
  for (const auto& i : kInfo) {
    if (i.serde == serde_code) return i.dtype;
  }
  return std::nullopt;
}

std::int64_t dtype_to_serde(DType dtype) { return info(dtype).serde; }

}  // namespace atenrt
