// A read-only view of a zip archive held in memory, over libzip. Entry names
// are only ever looked up, never turned into paths on disk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

struct zip;

namespace atenrt::frontend {

// Limits that keep a hostile archive from exhausting memory.
struct ReadLimits {
  std::uint64_t max_entry_bytes = 16ull << 30;   // one entry, uncompressed
  std::uint64_t max_total_bytes = 64ull << 30;   // everything read or zero-filled by one load
  std::uint64_t max_entries = 1u << 20;
  int max_json_depth = 512;
  int max_pickle_depth = 64;
  std::size_t max_pickle_memo = 1u << 20;
};

// Counts bytes allocated while loading one file against ReadLimits.
class ByteBudget {
 public:
  explicit ByteBudget(std::uint64_t limit) : left_(limit) {}
  // Throws FormatError (mentioning `what`) when `n` more bytes would exceed the budget.
  void take(std::uint64_t n, const std::string& what);

 private:
  std::uint64_t left_;
};

class ZipArchive {
 public:
  // `display` names the archive in error messages ("model.pt2" or
  // "model.pt2: archive/data/weights/model.pt" for a nested zip). The bytes must
  // outlive the archive.
  ZipArchive(const std::byte* data, std::size_t size, std::string display,
             const ReadLimits& limits, ByteBudget& budget);
  ~ZipArchive();
  ZipArchive(const ZipArchive&) = delete;
  ZipArchive& operator=(const ZipArchive&) = delete;

  const std::string& display() const { return display_; }
  const std::vector<std::string>& names() const { return names_; }
  bool contains(const std::string& name) const { return index_.count(name) != 0; }
  std::uint64_t entry_size(const std::string& name) const;
  // The whole uncompressed entry; throws FormatError naming archive and entry.
  std::vector<std::byte> read(const std::string& name) const;
  std::string read_text(const std::string& name) const;

 private:
  std::string display_;
  std::size_t archive_size_;
  const ReadLimits& limits_;
  ByteBudget& budget_;
  zip* zip_ = nullptr;
  std::vector<std::string> names_;       // in central-directory order
  std::map<std::string, std::uint64_t> index_;
};

}  // namespace atenrt::frontend
