// The engine file container: header, section table, checksums, version rules.
#include <algorithm>
#include <array>
#include <cstring>

#include "atenrt/errors.h"
#include "ir/unaligned.h"
#include "runtime/serialize.h"

#ifndef ATENRT_VERSION
#define ATENRT_VERSION "unknown"
#endif

namespace atenrt::runtime::file {

namespace {

[[noreturn]] void corrupt(const std::string& what) { throw FormatError("engine file: " + what); }


// ---- CRC-32C (Castagnoli): SSE4.2 has an instruction for it, which keeps
// checksumming 100 MB of weights at load in the tens of milliseconds.
std::uint32_t crc32c_table(std::uint32_t c, const std::byte* p, std::size_t n) {
  static const auto table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t v = i;
      for (int k = 0; k < 8; ++k) v = (v & 1) ? 0x82F63B78u ^ (v >> 1) : v >> 1;
      t[i] = v;
    }
    return t;
  }();
  for (std::size_t i = 0; i < n; ++i) c = table[(c ^ static_cast<std::uint8_t>(p[i])) & 0xFF] ^ (c >> 8);
  return c;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) std::uint32_t crc32c_sse42(std::uint32_t c, const std::byte* p, std::size_t n) {
  std::uint64_t c64 = c;
  for (; n >= 8; n -= 8, p += 8) c64 = __builtin_ia32_crc32di(c64, ir::load_unaligned<std::uint64_t>(p));
  c = static_cast<std::uint32_t>(c64);
  for (; n; --n, ++p) c = __builtin_ia32_crc32qi(c, static_cast<std::uint8_t>(*p));
  return c;
}
#endif

}  // namespace

std::uint32_t crc32c(const std::byte* data, std::size_t n, std::uint32_t crc) {
  std::uint32_t c = ~crc;
#if defined(__x86_64__)
  static const bool hw = __builtin_cpu_supports("sse4.2");
  c = hw ? crc32c_sse42(c, data, n) : crc32c_table(c, data, n);
#else
  c = crc32c_table(c, data, n);
#endif
  return ~c;
}

std::string producer_string() { return std::string("atenrt ") + ATENRT_VERSION; }

std::string section_kind_name(std::uint32_t kind) {
  switch (static_cast<SectionKind>(kind)) {
    case SectionKind::Program: return "program";
    case SectionKind::Weights: return "weights";
    case SectionKind::Ranges: return "ranges";
    case SectionKind::TorchSegments: return "torch segments";
    case SectionKind::Calibration: return "calibration";
    case SectionKind::Metadata: return "metadata";
    case SectionKind::PluginKernels: return "plugin kernels";
  }
  return "unknown kind " + std::to_string(kind);
}

const Section* Container::find(SectionKind kind) const {
  for (const auto& s : sections) {
    if (s.kind == static_cast<std::uint32_t>(kind)) return &s;
  }
  return nullptr;
}

namespace {

// Kinds this build reads; others are skipped, or refused when Required.
bool understood(std::uint32_t kind) {
  return kind == static_cast<std::uint32_t>(SectionKind::Program) ||
         kind == static_cast<std::uint32_t>(SectionKind::Weights) ||
         kind == static_cast<std::uint32_t>(SectionKind::TorchSegments) ||
         kind == static_cast<std::uint32_t>(SectionKind::Ranges) ||
         kind == static_cast<std::uint32_t>(SectionKind::Metadata) ||
         kind == static_cast<std::uint32_t>(SectionKind::PluginKernels);
}

std::string version_text(std::uint32_t major, std::uint32_t minor) {
  return std::to_string(major) + "." + std::to_string(minor);
}

std::string read_producer(const std::byte* p) {
  std::string s;
  for (int i = 0; i < 16; ++i) {
    const auto c = static_cast<unsigned char>(p[i]);
    if (c == 0) break;
    if (c < 0x20 || c > 0x7E) corrupt("producer name is not printable text");
    s.push_back(static_cast<char>(c));
  }
  if (s.size() == 16) corrupt("producer name is not terminated");
  return s;
}

}  // namespace

Container parse_container(std::span<const std::byte> bytes) {
  const std::byte* b = bytes.data();
  const std::size_t size = bytes.size();
  if (size < 12 || std::memcmp(b, kMagic, 8) != 0) corrupt("not an atenrt engine file (bad magic)");
  // Version first: an older or newer major has another header layout.
  const auto major = ir::load_unaligned<std::uint16_t>(b + 8), minor = ir::load_unaligned<std::uint16_t>(b + 10);
  if (major != kFormatMajor) {
    std::string by = major > kFormatMajor && size >= kHeaderBytes ? " written by '" + read_producer(b + 40) + "'" : "";
    corrupt("format " + version_text(major, minor) + by + " cannot be read by " + producer_string() +
            " (reads format " + std::to_string(kFormatMajor) + ".x); compile the engine again from its .pt2");
  }
  if (size < kHeaderBytes) corrupt("truncated header (" + std::to_string(size) + " bytes)");
  if (crc32c(b, 60) != ir::load_unaligned<std::uint32_t>(b + 60)) corrupt("header checksum mismatch (corrupt file)");

  Container c;
  c.bytes = bytes;
  c.header.major = major;
  c.header.minor = minor;
  const auto header_bytes = ir::load_unaligned<std::uint32_t>(b + 12);
  c.header.file_bytes = ir::load_unaligned<std::uint64_t>(b + 16);
  const auto table_offset = ir::load_unaligned<std::uint64_t>(b + 24);
  const auto count = ir::load_unaligned<std::uint32_t>(b + 32);
  c.header.required_features = ir::load_unaligned<std::uint32_t>(b + 36);
  c.header.producer = read_producer(b + 40);
  const std::string by = " (written by '" + c.header.producer + "')";
  if (header_bytes != kHeaderBytes) corrupt("header size " + std::to_string(header_bytes) + " is not 64");
  if (c.header.file_bytes != size) {
    corrupt("file is " + std::to_string(size) + " bytes, header says " + std::to_string(c.header.file_bytes) +
            " (truncated or padded)");
  }
  if (c.header.required_features & ~kKnownFeatures) {
    corrupt("needs CPU features this build does not know (mask 0x" + [&] {
      char hex[16];
      std::snprintf(hex, sizeof hex, "%x", c.header.required_features);
      return std::string(hex);
    }() + ")" + by);
  }
  if (count > kMaxSections) corrupt("section count " + std::to_string(count) + " out of range");
  if (table_offset < kHeaderBytes || table_offset % 8 || table_offset > size ||
      (size - table_offset) / kSectionEntryBytes < count) {
    corrupt("section table (offset " + std::to_string(table_offset) + ", " + std::to_string(count) +
            " entries) lies outside the file");
  }
  const std::uint64_t table_end = table_offset + std::uint64_t{count} * kSectionEntryBytes;
  if (crc32c(b + table_offset, table_end - table_offset) != ir::load_unaligned<std::uint32_t>(b + 56)) {
    corrupt("section table checksum mismatch (corrupt file)");
  }

  for (std::uint32_t i = 0; i < count; ++i) {
    const std::byte* e = b + table_offset + std::uint64_t{i} * kSectionEntryBytes;
    Section s;
    s.kind = ir::load_unaligned<std::uint32_t>(e);
    s.flags = ir::load_unaligned<std::uint32_t>(e + 4);
    s.offset = ir::load_unaligned<std::uint64_t>(e + 8);
    s.size = ir::load_unaligned<std::uint64_t>(e + 16);
    s.alignment = ir::load_unaligned<std::uint32_t>(e + 24);
    s.checksum = ir::load_unaligned<std::uint32_t>(e + 28);
    s.isa = ir::load_unaligned<std::uint32_t>(e + 32);
    s.precision = ir::load_unaligned<std::uint32_t>(e + 36);
    const std::string name = "section " + std::to_string(i) + " (" + section_kind_name(s.kind) + ")";
    if (s.alignment == 0 || (s.alignment & (s.alignment - 1)) || s.alignment > (1u << 16)) {
      corrupt(name + ": alignment " + std::to_string(s.alignment) + " is not a power of two up to 65536");
    }
    if (s.offset % s.alignment) corrupt(name + ": offset " + std::to_string(s.offset) + " is not aligned");
    if (s.offset < table_end || s.offset > size || s.size > size - s.offset) {
      corrupt(name + ": bytes [" + std::to_string(s.offset) + ", +" + std::to_string(s.size) +
              ") lie outside the file's payload area");
    }
    if (!understood(s.kind) && (s.flags & kSectionRequired)) {
      corrupt(name + " is required but " + producer_string() + " does not read it; file format " +
              version_text(major, minor) + by);
    }
    if (s.kind == static_cast<std::uint32_t>(SectionKind::Weights)) {
      if (s.precision > static_cast<std::uint32_t>(WeightPrecision::Int8)) {
        corrupt(name + ": precision " + std::to_string(s.precision) + " out of range");
      }
    }
    c.sections.push_back(s);
  }
  // No two sections share bytes; one program; one weights section per (isa, precision).
  std::vector<const Section*> by_offset;
  for (const auto& s : c.sections) by_offset.push_back(&s);
  std::sort(by_offset.begin(), by_offset.end(), [](auto* a, auto* z) { return a->offset < z->offset; });
  for (std::size_t i = 1; i < by_offset.size(); ++i) {
    if (by_offset[i - 1]->offset + by_offset[i - 1]->size > by_offset[i]->offset) corrupt("sections overlap");
  }
  // Bytes outside every section are alignment padding: zero, so that no byte
  // of a file escapes the checks.
  std::uint64_t gap = table_end;
  auto zeros_until = [&](std::uint64_t end) {
    for (std::uint64_t i = gap; i < end; ++i) {
      if (b[i] != std::byte{0}) corrupt("padding byte at offset " + std::to_string(i) + " is not zero (corrupt file)");
    }
  };
  for (const auto* s : by_offset) {
    zeros_until(s->offset);
    gap = s->offset + s->size;
  }
  zeros_until(size);
  int programs = 0, hybrids = 0;
  for (const auto& s : c.sections) {
    programs += s.kind == static_cast<std::uint32_t>(SectionKind::Program);
    hybrids += s.kind == static_cast<std::uint32_t>(SectionKind::TorchSegments);
  }
  // A hybrid program (a torch-segments section) holds its engine segments as
  // engine files of their own, so its file has no program section.
  if (hybrids > 1) corrupt("has " + std::to_string(hybrids) + " torch-segments sections, expected at most 1");
  if (programs != 1 - hybrids) {
    corrupt("has " + std::to_string(programs) + " program sections, expected " + std::to_string(1 - hybrids) +
            (hybrids ? " (a hybrid program's engine segments live in its torch-segments section)" : ""));
  }
  for (std::size_t i = 0; i < c.sections.size(); ++i) {
    const auto& s = c.sections[i];
    for (std::size_t j = 0; j < i; ++j) {
      const auto& t = c.sections[j];
      if (s.kind == t.kind && understood(s.kind) && s.isa == t.isa && s.precision == t.precision) {
        corrupt("two " + section_kind_name(s.kind) + " sections for the same ISA and precision");
      }
    }
  }
  // Verify before use: every section's checksum, now, not when first read.
  for (std::size_t i = 0; i < c.sections.size(); ++i) {
    const auto& s = c.sections[i];
    if (crc32c(b + s.offset, s.size) != s.checksum) {
      corrupt("section " + std::to_string(i) + " (" + section_kind_name(s.kind) + ") checksum mismatch (corrupt file)");
    }
  }
  return c;
}

namespace {

class CrcSink : public Sink {
 public:
  std::uint32_t crc = 0;
  std::uint64_t bytes = 0;
  void write(const void* data, std::size_t n) override {
    crc = crc32c(static_cast<const std::byte*>(data), n, crc);
    bytes += n;
  }
};

void pad(Sink& out, std::uint64_t n) {
  static const std::array<std::byte, 4096> zeros{};
  while (n) {
    const auto k = std::min<std::uint64_t>(n, zeros.size());
    out.write(zeros.data(), k);
    n -= k;
  }
}

}  // namespace

void write_container(Sink& out, const Header& header, const std::vector<SectionSource>& sources) {
  std::vector<Section> entries;
  const std::uint64_t table_offset = kHeaderBytes;
  std::uint64_t at = table_offset + sources.size() * kSectionEntryBytes;
  for (const auto& src : sources) {
    Section s = src.entry;
    CrcSink crc;
    src.write(crc);
    if (crc.bytes != src.size) throw Error("engine save: section wrote an unexpected number of bytes");
    at = (at + s.alignment - 1) / s.alignment * s.alignment;
    s.offset = at;
    s.size = src.size;
    s.checksum = crc.crc;
    at += s.size;
    entries.push_back(s);
  }
  std::vector<std::byte> table(entries.size() * kSectionEntryBytes);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    std::byte* e = table.data() + i * kSectionEntryBytes;
    const auto& s = entries[i];
    ir::store_unaligned(e, s.kind);
    ir::store_unaligned(e + 4, s.flags);
    ir::store_unaligned(e + 8, s.offset);
    ir::store_unaligned(e + 16, s.size);
    ir::store_unaligned(e + 24, s.alignment);
    ir::store_unaligned(e + 28, s.checksum);
    ir::store_unaligned(e + 32, s.isa);
    ir::store_unaligned(e + 36, s.precision);
    ir::store_unaligned(e + 40, std::uint64_t{0});
  }
  std::array<std::byte, kHeaderBytes> h{};
  std::memcpy(h.data(), kMagic, 8);
  ir::store_unaligned(h.data() + 8, header.major);
  ir::store_unaligned(h.data() + 10, header.minor);
  ir::store_unaligned(h.data() + 12, static_cast<std::uint32_t>(kHeaderBytes));
  ir::store_unaligned(h.data() + 16, at);
  ir::store_unaligned(h.data() + 24, table_offset);
  ir::store_unaligned(h.data() + 32, static_cast<std::uint32_t>(entries.size()));
  ir::store_unaligned(h.data() + 36, header.required_features);
  std::memcpy(h.data() + 40, header.producer.data(), std::min<std::size_t>(header.producer.size(), 15));
  ir::store_unaligned(h.data() + 56, crc32c(table.data(), table.size()));
  ir::store_unaligned(h.data() + 60, crc32c(h.data(), 60));
  out.write(h.data(), h.size());
  out.write(table.data(), table.size());
  std::uint64_t written = table_offset + table.size();
  for (std::size_t i = 0; i < sources.size(); ++i) {
    pad(out, entries[i].offset - written);
    sources[i].write(out);
    written = entries[i].offset + entries[i].size;
  }
}

}  // namespace atenrt::runtime::file
