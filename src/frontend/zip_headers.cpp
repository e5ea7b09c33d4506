#include "frontend/zip_headers.h"

#include <algorithm>
#include <cstring>

#include "atenrt/errors.h"

namespace atenrt::frontend {
namespace {

constexpr std::uint32_t kLocalSig = 0x04034b50;
constexpr std::uint32_t kCentralSig = 0x02014b50;
constexpr std::uint32_t kEndSig = 0x06054b50;
constexpr std::uint32_t kZip64EndSig = 0x06064b50;
constexpr std::uint32_t kZip64LocatorSig = 0x07064b50;
constexpr std::uint16_t kZip64ExtraId = 0x0001;
constexpr std::uint16_t kDataDescriptorFlag = 0x0008;
constexpr std::uint32_t kMax32 = 0xffffffffu;
constexpr std::uint16_t kMax16 = 0xffffu;

// Little-endian reads that never run past the buffer.
class Bytes {
 public:
  Bytes(const std::byte* data, std::size_t size, const std::string& display)
      : data_(data), size_(size), display_(display) {}
  std::size_t size() const { return size_; }
  bool has(std::uint64_t pos, std::uint64_t n) const { return pos <= size_ && n <= size_ - pos; }
  std::uint64_t uint(std::uint64_t pos, int n, const std::string& what) const {
    if (!has(pos, static_cast<std::uint64_t>(n))) fail(what + " runs past the end of the archive");
    std::uint64_t v = 0;
    for (int i = n - 1; i >= 0; --i) v = (v << 8) | static_cast<std::uint8_t>(data_[pos + i]);
    return v;
  }
  std::uint16_t u16(std::uint64_t pos, const std::string& what) const {
    return static_cast<std::uint16_t>(uint(pos, 2, what));
  }
  std::uint32_t u32(std::uint64_t pos, const std::string& what) const {
    return static_cast<std::uint32_t>(uint(pos, 4, what));
  }
  std::uint64_t u64(std::uint64_t pos, const std::string& what) const { return uint(pos, 8, what); }
  std::string text(std::uint64_t pos, std::uint64_t n, const std::string& what) const {
    if (!has(pos, n)) fail(what + " runs past the end of the archive");
    return std::string(reinterpret_cast<const char*>(data_ + pos), static_cast<std::size_t>(n));
  }
  [[noreturn]] void fail(const std::string& msg) const {
    throw FormatError(display_ + ": zip " + msg);
  }

 private:
  const std::byte* data_;
  std::size_t size_;
  const std::string& display_;
};

struct EndRecord {
  std::uint64_t entries = 0, cd_size = 0, cd_offset = 0;
};

EndRecord read_end_record(const Bytes& b) {
  if (b.size() < 22) b.fail("end-of-central-directory record is missing");
  // The record is the last 22 bytes plus a comment of up to 64 KiB.
  std::uint64_t pos = b.size() - 22;
  const std::uint64_t lowest = b.size() > 22 + 0xffff ? b.size() - 22 - 0xffff : 0;
  while (b.u32(pos, "end record") != kEndSig) {
    if (pos == lowest) b.fail("end-of-central-directory record is missing");
    --pos;
  }
  EndRecord end{b.u16(pos + 10, "end record"), b.u32(pos + 12, "end record"),
                b.u32(pos + 16, "end record")};
  if (pos >= 20 && b.u32(pos - 20, "ZIP64 locator") == kZip64LocatorSig) {
    const std::uint64_t at = b.u64(pos - 20 + 8, "ZIP64 locator");
    if (b.u32(at, "ZIP64 end record") != kZip64EndSig) {
      b.fail("ZIP64 locator points at offset " + std::to_string(at) +
             ", which holds no ZIP64 end record");
    }
    end.entries = b.u64(at + 32, "ZIP64 end record");
    end.cd_size = b.u64(at + 40, "ZIP64 end record");
    end.cd_offset = b.u64(at + 48, "ZIP64 end record");
  } else if (end.entries == kMax16 || end.cd_size == kMax32 || end.cd_offset == kMax32) {
    b.fail("end record defers to a ZIP64 record that is missing");
  }
  if (!b.has(end.cd_offset, end.cd_size)) {
    b.fail("central directory (" + std::to_string(end.cd_size) + " bytes at offset " +
           std::to_string(end.cd_offset) + ") lies outside the archive");
  }
  return end;
}

// The ZIP64 extra field of a header, if any: [begin, end) of its payload.
bool find_zip64_extra(const Bytes& b, std::uint64_t extra, std::uint64_t extra_len,
                      const std::string& what, std::uint64_t& begin, std::uint64_t& end) {
  std::uint64_t p = extra;
  const std::uint64_t stop = extra + extra_len;
  while (p + 4 <= stop) {
    const std::uint16_t id = b.u16(p, what);
    const std::uint16_t len = b.u16(p + 2, what);
    if (p + 4 + len > stop) b.fail(what + ": extra field overruns its header");
    if (id == kZip64ExtraId) {
      begin = p + 4;
      end = p + 4 + len;
      return true;
    }
    p += 4 + len;
  }
  return false;
}

// Replaces each 0xffffffff field with the next 8 bytes of the ZIP64 extra field.
void widen(const Bytes& b, std::uint64_t extra, std::uint64_t extra_len, const std::string& what,
           std::initializer_list<std::uint64_t*> fields) {
  std::uint64_t begin = 0, end = 0;
  bool found = false;
  for (std::uint64_t* f : fields) {
    if (*f != kMax32) continue;
    if (!found && !find_zip64_extra(b, extra, extra_len, what, begin, end)) {
      b.fail(what + ": a size is 0xffffffff but there is no ZIP64 extra field");
    }
    found = true;
    if (begin + 8 > end) b.fail(what + ": ZIP64 extra field is too short");
    *f = b.u64(begin, what);
    begin += 8;
  }
}

}  // namespace

std::vector<ZipEntryHeader> read_zip_headers(const std::byte* data, std::size_t size,
                                             const std::string& display,
                                             std::uint64_t max_entries) {
  std::vector<ZipEntryHeader> entries;
  if (size == 0) return entries;  // an empty file is an empty archive to libzip too
  const Bytes b(data, size, display);
  const EndRecord end = read_end_record(b);
  if (end.entries > max_entries) {
    b.fail("archive declares " + std::to_string(end.entries) + " entries (limit " +
           std::to_string(max_entries) + ")");
  }
  // Each central header takes at least 46 bytes: a count the directory cannot hold is a lie.
  if (end.entries > end.cd_size / 46) {
    b.fail("archive declares " + std::to_string(end.entries) + " entries in a " +
           std::to_string(end.cd_size) + "-byte central directory");
  }
  entries.reserve(static_cast<std::size_t>(end.entries));
  std::uint64_t pos = end.cd_offset;
  const std::uint64_t cd_end = end.cd_offset + end.cd_size;
  for (std::uint64_t i = 0; i < end.entries; ++i) {
    const std::string at = "central header #" + std::to_string(i);
    if (pos + 46 > cd_end || b.u32(pos, at) != kCentralSig) b.fail(at + " is missing or damaged");
    ZipEntryHeader e;
    e.flags = b.u16(pos + 8, at);
    e.method = b.u16(pos + 10, at);
    e.compressed_size = b.u32(pos + 20, at);
    e.size = b.u32(pos + 24, at);
    const std::uint16_t name_len = b.u16(pos + 28, at);
    const std::uint16_t extra_len = b.u16(pos + 30, at);
    const std::uint16_t comment_len = b.u16(pos + 32, at);
    e.local_offset = b.u32(pos + 42, at);
    e.name = b.text(pos + 46, name_len, at);
    const std::string what = "entry '" + e.name + "'";
    widen(b, pos + 46 + name_len, extra_len, what + " (central header)",
          {&e.size, &e.compressed_size, &e.local_offset});
    pos += 46ull + name_len + extra_len + comment_len;
    if (pos > cd_end) b.fail(what + ": central header overruns the central directory");

    // The local header must describe the same entry.
    const std::uint64_t lo = e.local_offset;
    if (b.u32(lo, what + " (local header)") != kLocalSig) {
      b.fail(what + ": no local header at offset " + std::to_string(lo));
    }
    const std::uint16_t local_flags = b.u16(lo + 6, what);
    const std::uint16_t local_method = b.u16(lo + 8, what);
    std::uint64_t local_comp = b.u32(lo + 18, what);
    std::uint64_t local_size = b.u32(lo + 22, what);
    const std::uint16_t local_name_len = b.u16(lo + 26, what);
    const std::uint16_t local_extra_len = b.u16(lo + 28, what);
    if (b.text(lo + 30, local_name_len, what) != e.name) {
      b.fail(what + ": local header names a different entry");
    }
    if (local_method != e.method) {
      b.fail(what + ": compression method " + std::to_string(local_method) +
             " in the local header, " + std::to_string(e.method) + " in the central directory");
    }
    const bool descriptor = (local_flags & kDataDescriptorFlag) != 0;
    const bool deferred = descriptor && local_comp == 0 && local_size == 0;
    if (!deferred) {
      widen(b, lo + 30 + local_name_len, local_extra_len, what + " (local header)",
            {&local_size, &local_comp});
      // With a data descriptor the local fields may still be zero in ZIP64 form.
      const bool zero64 = descriptor && local_comp == 0 && local_size == 0;
      if (!zero64 && (local_size != e.size || local_comp != e.compressed_size)) {
        b.fail(what + ": sizes disagree: local header says " + std::to_string(local_size) + " (" +
               std::to_string(local_comp) + " compressed), central directory says " +
               std::to_string(e.size) + " (" + std::to_string(e.compressed_size) + " compressed)");
      }
    }
    e.data_offset = lo + 30 + local_name_len + local_extra_len;
    if (!b.has(e.data_offset, e.compressed_size)) {
      b.fail(what + ": " + std::to_string(e.compressed_size) + " compressed bytes at offset " +
             std::to_string(e.data_offset) + " run past the end of the " +
             std::to_string(size) + "-byte archive");
    }
    entries.push_back(std::move(e));
  }
  // No two entries may share bytes: overlapping entries let a small file
  // expand one deflate stream once per entry.
  std::vector<const ZipEntryHeader*> by_offset;
  for (const auto& e : entries) by_offset.push_back(&e);
  std::sort(by_offset.begin(), by_offset.end(),
            [](const auto* a, const auto* c) { return a->local_offset < c->local_offset; });
  for (std::size_t i = 1; i < by_offset.size(); ++i) {
    const auto* prev = by_offset[i - 1];
    if (prev->data_offset + prev->compressed_size > by_offset[i]->local_offset) {
      b.fail("entries '" + prev->name + "' and '" + by_offset[i]->name + "' overlap");
    }
  }
  return entries;
}

}  // namespace atenrt::frontend
