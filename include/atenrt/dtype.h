// Element types shared by the IR, the network and the runtime.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "atenrt/export.h"

namespace atenrt {

// Our own closed set of element types. The numbering is private: the .pt2
// serde numbering is converted at import (see dtype_from_serde).
enum class DType : std::uint8_t {
  Float32,
  Float16,
  BFloat16,
  Float64,
  Int64,
  Int32,
  Int16,
  Int8,
  UInt8,
  Bool,
};
inline constexpr int kDTypeCount = 10;

ATENRT_API std::size_t element_size(DType dtype);
ATENRT_API std::string_view dtype_name(DType dtype);             // "float32", "int64", ...
ATENRT_API std::optional<DType> dtype_from_name(std::string_view name);
ATENRT_API bool is_floating(DType dtype);
ATENRT_API bool is_integral(DType dtype);  // integers, not bool

// torch._export.serde ScalarType numbering (pt2_format.md §3.6). Returns
// nullopt for types atenrt cannot hold (complex, float8, uint16...).
ATENRT_API std::optional<DType> dtype_from_serde(std::int64_t serde_code);
ATENRT_API std::int64_t dtype_to_serde(DType dtype);

}  // namespace atenrt
