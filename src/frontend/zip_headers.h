// The zip headers as the file states them, read without libzip: the central
// directory (with ZIP64 fields) and each entry's local header. libzip trusts
// the central directory alone; a hostile archive can make the two disagree,
// or let entries' data overlap (a bomb that reuses one deflate stream many
// times), so the reader cross-checks them before inflating anything.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace atenrt::frontend {

struct ZipEntryHeader {
  std::string name;
  std::uint16_t method = 0;
  std::uint16_t flags = 0;
  std::uint64_t compressed_size = 0;
  std::uint64_t size = 0;  // uncompressed, as the central directory (or its ZIP64 field) says
  std::uint64_t local_offset = 0;
  std::uint64_t data_offset = 0;  // first byte of the entry's (compressed) data
};

// Parses and cross-checks the headers of the archive `data[0, size)`: central
// and local headers agree on name, method and sizes (a data descriptor may
// leave the local sizes zero), every entry's data lies inside the archive and
// no two entries' records overlap. Throws FormatError naming `display` and
// the entry.
std::vector<ZipEntryHeader> read_zip_headers(const std::byte* data, std::size_t size,
                                             const std::string& display,
                                             std::uint64_t max_entries);

}  // namespace atenrt::frontend
