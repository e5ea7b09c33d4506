// A value of type T read from, or written to, any byte address: memcpy makes
// no alignment or aliasing assumption and compiles to one load or store.
// File formats (engine files, archives) and dtype-dispatched element access
// use these; the host is little-endian x86-64, as the formats are.
#pragma once

#include <cstddef>
#include <cstring>

namespace atenrt::ir {

template <typename T>
T load_unaligned(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T>
void store_unaligned(std::byte* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

}  // namespace atenrt::ir
