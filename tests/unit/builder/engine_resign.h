// Re-signs an engine file: recomputes every checksum that the (possibly
// mutated) bytes allow, so that tests and the fuzzer reach the parsers behind
// the checksums. Tolerant of garbage: fields out of bounds are left alone
// (the loader then refuses them for what they are).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "runtime/serialize.h"

namespace atenrt::testing {

inline void resign_engine_file(std::vector<std::byte>& f) {
  using namespace runtime::file;
  auto get32 = [&](std::size_t at) { std::uint32_t v; std::memcpy(&v, f.data() + at, 4); return v; };
  auto get64 = [&](std::size_t at) { std::uint64_t v; std::memcpy(&v, f.data() + at, 8); return v; };
  auto put32 = [&](std::size_t at, std::uint32_t v) { std::memcpy(f.data() + at, &v, 4); };
  if (f.size() < kHeaderBytes) return;
  const std::uint64_t table = get64(24);
  const std::uint32_t count = get32(32);
  if (table <= f.size() && count <= kMaxSections && (f.size() - table) / kSectionEntryBytes >= count) {
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::size_t e = table + std::size_t{i} * kSectionEntryBytes;
      const std::uint64_t offset = get64(e + 8), size = get64(e + 16);
      if (offset <= f.size() && size <= f.size() - offset) put32(e + 28, crc32c(f.data() + offset, size));
    }
    put32(56, crc32c(f.data() + table, std::size_t{count} * kSectionEntryBytes));
  }
  put32(60, crc32c(f.data(), 60));
}

}  // namespace atenrt::testing
