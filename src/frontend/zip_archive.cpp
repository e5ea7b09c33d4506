#include "frontend/zip_archive.h"

#include <zip.h>

#include <cstring>

#include "atenrt/errors.h"

namespace atenrt::frontend {

void ByteBudget::take(std::uint64_t n, const std::string& what) {
  if (n > left_) {
    throw FormatError(what + ": needs " + std::to_string(n) +
                      " bytes, more than the reader's memory limit allows (" +
                      std::to_string(left_) + " bytes left)");
  }
  left_ -= n;
}

namespace {

// Entry names must be plain relative names: no absolute paths, no "..", no
// drive letters, no NUL. They are never used as paths, but a name like that
// only appears in a crafted archive.
void check_entry_name(const std::string& display, const std::string& name) {
  auto bad = [&](const char* why) {
    throw FormatError(display + ": zip entry name '" + name + "' " + why);
  };
  if (name.empty()) bad("is empty");
  if (name.find('\0') != std::string::npos) bad("contains a NUL byte");
  if (name.front() == '/' || name.front() == '\\') bad("is an absolute path");
  if (name.size() >= 2 && name[1] == ':') bad("has a drive letter");
  std::size_t start = 0;
  while (start <= name.size()) {
    std::size_t end = name.find_first_of("/\\", start);
    if (end == std::string::npos) end = name.size();
    if (name.compare(start, end - start, "..") == 0 && end - start == 2) bad("contains '..'");
    start = end + 1;
  }
}

}  // namespace

ZipArchive::ZipArchive(const std::byte* data, std::size_t size, std::string display,
                       const ReadLimits& limits, ByteBudget& budget)
    : display_(std::move(display)), data_(data), archive_size_(size), limits_(limits),
      budget_(budget) {
  zip_error_t err;
  zip_error_init(&err);
  // libzip wants a non-null pointer even for an empty buffer.
  static const std::byte kEmpty{};
  zip_source_t* src = zip_source_buffer_create(size ? data : &kEmpty, size, 0, &err);
  if (!src) {
    std::string msg = zip_error_strerror(&err);
    zip_error_fini(&err);
    throw FormatError(display_ + ": cannot read as zip: " + msg);
  }
  zip_ = zip_open_from_source(src, ZIP_RDONLY, &err);
  if (!zip_) {
    std::string msg = zip_error_strerror(&err);
    zip_error_fini(&err);
    zip_source_free(src);
    throw FormatError(display_ + ": not a valid zip archive (" + msg + ")");
  }
  zip_error_fini(&err);

  try {
    const zip_int64_t n = zip_get_num_entries(zip_, 0);
    if (n < 0 || static_cast<std::uint64_t>(n) > limits_.max_entries) {
      throw FormatError(display_ + ": zip has " + std::to_string(n) + " entries (limit " +
                        std::to_string(limits_.max_entries) + ")");
    }
    headers_ = read_zip_headers(data, size, display_, limits_.max_entries);
    if (headers_.size() != static_cast<std::uint64_t>(n)) {
      throw FormatError(display_ + ": zip central directory lists " +
                        std::to_string(headers_.size()) + " entries but libzip found " +
                        std::to_string(n));
    }
    for (zip_int64_t i = 0; i < n; ++i) {
      const char* raw = zip_get_name(zip_, static_cast<zip_uint64_t>(i), ZIP_FL_ENC_RAW);
      if (!raw) {
        throw FormatError(display_ + ": zip entry #" + std::to_string(i) + " has no readable name");
      }
      std::string name(raw);
      check_entry_name(display_, name);
      if (name != headers_[static_cast<std::size_t>(i)].name) {
        throw FormatError(display_ + ": zip entry #" + std::to_string(i) + " is named '" + name +
                          "' by libzip but '" + headers_[static_cast<std::size_t>(i)].name +
                          "' by its header");
      }
      if (!index_.emplace(name, static_cast<std::uint64_t>(i)).second) {
        throw FormatError(display_ + ": zip entry name '" + name + "' appears twice");
      }
      names_.push_back(std::move(name));
    }
  } catch (...) {
    zip_discard(zip_);
    throw;
  }
}

ZipArchive::~ZipArchive() {
  if (zip_) zip_discard(zip_);
}

const ZipEntryHeader& ZipArchive::header(const std::string& name) const {
  auto it = index_.find(name);
  if (it == index_.end()) throw FormatError(display_ + ": missing entry '" + name + "'");
  return headers_[static_cast<std::size_t>(it->second)];
}

std::uint64_t ZipArchive::entry_size(const std::string& name) const { return header(name).size; }

std::vector<std::byte> ZipArchive::read(const std::string& name, std::uint64_t max_bytes,
                                        const std::string& limit_name) const {
  const ZipEntryHeader& h = header(name);
  if (h.size > max_bytes) {
    throw FormatError(display_ + ": " + name + ": zip entry declares " + std::to_string(h.size) +
                      " bytes, more than the " + std::to_string(max_bytes) + " it may hold (" +
                      limit_name + ")");
  }
  return extract(h, index_.at(name), h.size, true);
}

std::vector<std::byte> ZipArchive::read(const std::string& name) const {
  return read(name, limits_.max_entry_bytes, "the reader's entry limit");
}

std::string ZipArchive::read_text(const std::string& name, std::uint64_t max_bytes,
                                  const std::string& limit_name) const {
  auto bytes = read(name, max_bytes, limit_name);
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

std::vector<std::byte> ZipArchive::read_prefix(const std::string& name, std::uint64_t n) const {
  const ZipEntryHeader& h = header(name);
  if (h.size < n) {
    throw FormatError(display_ + ": " + name + ": zip entry holds " + std::to_string(h.size) +
                      " bytes but " + std::to_string(n) + " are needed");
  }
  return extract(h, index_.at(name), n, n == h.size);
}

std::vector<std::byte> ZipArchive::extract(const ZipEntryHeader& h, std::uint64_t index,
                                           std::uint64_t n, bool whole) const {
  const std::string where = display_ + ": " + h.name;
  if (h.method == ZIP_CM_STORE) {
    if (h.size != h.compressed_size) {
      throw FormatError(where + ": stored zip entry has size " + std::to_string(h.size) +
                        " but compressed size " + std::to_string(h.compressed_size));
    }
  } else if (h.method == ZIP_CM_DEFLATE) {
    // Deflate expands at most ~1032x; past a small floor, real data (weights,
    // JSON, pickles) stays far below max_compression_ratio while a bomb of
    // zeros sits near the physical limit.
    const std::uint64_t ratio = h.size / (h.compressed_size ? h.compressed_size : 1);
    const bool physical = h.size / 1032 > h.compressed_size + 1;
    if (physical || (h.size > limits_.compression_ratio_floor &&
                     ratio >= limits_.max_compression_ratio)) {
      throw FormatError(where + ": deflated zip entry claims " + std::to_string(h.size) +
                        " bytes from " + std::to_string(h.compressed_size) +
                        " compressed bytes, a ratio of " + std::to_string(ratio) +
                        " (limit " + std::to_string(limits_.max_compression_ratio) +
                        " for entries over " + std::to_string(limits_.compression_ratio_floor) +
                        " bytes; a zip bomb?)");
    }
  } else {
    throw FormatError(where + ": unsupported zip compression method " + std::to_string(h.method) +
                      " (only stored and deflated)");
  }
  if (h.flags & 0x0001) throw FormatError(where + ": zip entry is encrypted");
  if (h.size > limits_.max_entry_bytes) {
    throw FormatError(where + ": zip entry of " + std::to_string(h.size) +
                      " bytes exceeds the limit of " + std::to_string(limits_.max_entry_bytes));
  }
  budget_.take(n, where);
  std::vector<std::byte> out(static_cast<std::size_t>(n));
  if (h.method == ZIP_CM_STORE) {
    // Stored entries are copied raw (read_zip_headers checked the range):
    // writers may skip the CRC (pt2_format.md §1.2).
    if (n) std::memcpy(out.data(), data_ + h.data_offset, out.size());
    if (release_) release_(data_ + h.data_offset, static_cast<std::size_t>(h.compressed_size));
    return out;
  }
  zip_file_t* f = zip_fopen_index(zip_, index, 0);
  if (!f) {
    throw FormatError(where + ": cannot open zip entry (" + std::string(zip_strerror(zip_)) + ")");
  }
  auto fail = [&](const std::string& what) {
    zip_fclose(f);
    throw FormatError(where + ": " + what);
  };
  std::size_t got = 0;
  while (got < out.size()) {
    const zip_int64_t r = zip_fread(f, out.data() + got, out.size() - got);
    if (r < 0) fail("cannot inflate zip entry (" + std::string(zip_file_strerror(f)) + ")");
    if (r == 0) break;
    got += static_cast<std::size_t>(r);
  }
  if (got != out.size()) {
    fail("zip entry is short: it inflates to " + std::to_string(got) + " bytes but declares " +
         std::to_string(h.size));
  }
  if (whole) {
    // One byte past the declared size must be the end of the stream; this
    // read also makes libzip check the CRC.
    std::byte extra{};
    const zip_int64_t r = zip_fread(f, &extra, 1);
    if (r < 0) fail("cannot inflate zip entry (" + std::string(zip_file_strerror(f)) + ")");
    if (r > 0) fail("zip entry inflates to more than the " + std::to_string(h.size) + " bytes it declares");
  }
  zip_fclose(f);
  if (release_) release_(data_ + h.data_offset, static_cast<std::size_t>(h.compressed_size));
  return out;
}

}  // namespace atenrt::frontend
