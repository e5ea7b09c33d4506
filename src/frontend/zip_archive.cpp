#include "frontend/zip_archive.h"

#include <zip.h>

#include <set>

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
    : display_(std::move(display)), archive_size_(size), limits_(limits), budget_(budget) {
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

  const zip_int64_t n = zip_get_num_entries(zip_, 0);
  if (n < 0 || static_cast<std::uint64_t>(n) > limits_.max_entries) {
    zip_discard(zip_);
    throw FormatError(display_ + ": zip has " + std::to_string(n) + " entries (limit " +
                      std::to_string(limits_.max_entries) + ")");
  }
  try {
    for (zip_int64_t i = 0; i < n; ++i) {
      const char* raw = zip_get_name(zip_, static_cast<zip_uint64_t>(i), ZIP_FL_ENC_RAW);
      if (!raw) {
        throw FormatError(display_ + ": zip entry #" + std::to_string(i) + " has no readable name");
      }
      std::string name(raw);
      check_entry_name(display_, name);
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

std::uint64_t ZipArchive::entry_size(const std::string& name) const {
  auto it = index_.find(name);
  if (it == index_.end()) throw FormatError(display_ + ": missing entry '" + name + "'");
  zip_stat_t st;
  zip_stat_init(&st);
  if (zip_stat_index(zip_, it->second, 0, &st) != 0 || !(st.valid & ZIP_STAT_SIZE)) {
    throw FormatError(display_ + ": " + name + ": cannot read the zip entry header");
  }
  return st.size;
}

std::vector<std::byte> ZipArchive::read(const std::string& name) const {
  auto it = index_.find(name);
  if (it == index_.end()) throw FormatError(display_ + ": missing entry '" + name + "'");
  const std::string where = display_ + ": " + name;
  zip_stat_t st;
  zip_stat_init(&st);
  if (zip_stat_index(zip_, it->second, 0, &st) != 0) {
    throw FormatError(where + ": cannot read the zip entry header");
  }
  const zip_uint64_t need = ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_COMP_METHOD;
  if ((st.valid & need) != need) throw FormatError(where + ": zip entry header is incomplete");
  if ((st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method != ZIP_EM_NONE) {
    throw FormatError(where + ": zip entry is encrypted");
  }
  // The compressed data must fit in the archive, and the uncompressed size
  // must be plausible for the method (deflate expands at most ~1032x).
  if (st.comp_size > archive_size_) {
    throw FormatError(where + ": zip entry claims " + std::to_string(st.comp_size) +
                      " compressed bytes but the archive has only " +
                      std::to_string(archive_size_));
  }
  bool stored = false;
  if (st.comp_method == ZIP_CM_STORE) {
    stored = true;
    if (st.size != st.comp_size) {
      throw FormatError(where + ": stored zip entry has size " + std::to_string(st.size) +
                        " but compressed size " + std::to_string(st.comp_size));
    }
  } else if (st.comp_method == ZIP_CM_DEFLATE) {
    if (st.size / 1032 > st.comp_size + 1) {
      throw FormatError(where + ": deflated zip entry claims " + std::to_string(st.size) +
                        " bytes from " + std::to_string(st.comp_size) +
                        " compressed bytes (a zip bomb?)");
    }
  } else {
    throw FormatError(where + ": unsupported zip compression method " +
                      std::to_string(st.comp_method) + " (only stored and deflated)");
  }
  if (st.size > limits_.max_entry_bytes) {
    throw FormatError(where + ": zip entry of " + std::to_string(st.size) +
                      " bytes exceeds the limit of " + std::to_string(limits_.max_entry_bytes));
  }
  budget_.take(st.size, where);

  // Stored entries are read raw: writers may skip the CRC (pt2_format.md §1.2).
  zip_file_t* f = zip_fopen_index(zip_, it->second, stored ? ZIP_FL_COMPRESSED : 0);
  if (!f) {
    throw FormatError(where + ": cannot open zip entry (" + std::string(zip_strerror(zip_)) + ")");
  }
  std::vector<std::byte> out(static_cast<std::size_t>(st.size));
  std::size_t got = 0;
  while (got < out.size()) {
    const zip_int64_t r = zip_fread(f, out.data() + got, out.size() - got);
    if (r < 0) {
      std::string msg = zip_file_strerror(f);
      zip_fclose(f);
      throw FormatError(where + ": cannot read zip entry (" + msg + ")");
    }
    if (r == 0) break;
    got += static_cast<std::size_t>(r);
  }
  zip_fclose(f);
  if (got != out.size()) {
    throw FormatError(where + ": zip entry is truncated: read " + std::to_string(got) + " of " +
                      std::to_string(out.size()) + " bytes");
  }
  return out;
}

std::string ZipArchive::read_text(const std::string& name) const {
  auto bytes = read(name);
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

}  // namespace atenrt::frontend
