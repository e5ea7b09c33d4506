// A read-only view of a zip archive held in memory, over libzip. Entry names
// are only ever looked up, never turned into paths on disk. Every read states
// how many bytes the entry may hold (a tensor's bytes from its metadata, a
// record's limit); the declared sizes are checked against that, against the
// local header and against a compression-ratio bound before anything is
// inflated, and inflation stops at the declared size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "frontend/zip_headers.h"

struct zip;

namespace atenrt::frontend {

// Limits that keep a hostile archive from exhausting memory or time.
struct ReadLimits {
  std::uint64_t max_entry_bytes = 16ull << 30;   // one entry, uncompressed
  std::uint64_t max_total_bytes = 64ull << 30;   // everything read or zero-filled by one load
  std::uint64_t max_entries = 1u << 20;
  std::uint64_t max_json_bytes = 256ull << 20;   // one JSON record (graph, payload config)
  std::uint64_t max_pickle_bytes = 256ull << 20; // one data.pkl
  std::uint64_t max_record_bytes = 4096;         // archive_format, version, byteorder
  // Deflated entries larger than `compression_ratio_floor` may expand at most
  // this many times (real weights and JSON stay far below; zeros reach ~1030).
  std::uint64_t max_compression_ratio = 100;
  std::uint64_t compression_ratio_floor = 1ull << 20;
  std::uint64_t max_graph_nodes = 1u << 20;      // nodes of one graph, counted before any per-node work
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
  // The uncompressed size the headers declare.
  std::uint64_t entry_size(const std::string& name) const;

  // The whole uncompressed entry, which may hold at most `max_bytes`
  // (`limit_name` says which limit in the message). Throws FormatError naming
  // archive and entry when the declared size is larger, the data inflate to
  // more or fewer bytes than declared, or the ratio bound is broken.
  std::vector<std::byte> read(const std::string& name, std::uint64_t max_bytes,
                              const std::string& limit_name) const;
  // The same, bounded by ReadLimits::max_entry_bytes (an entry of no known size).
  std::vector<std::byte> read(const std::string& name) const;
  std::string read_text(const std::string& name, std::uint64_t max_bytes,
                        const std::string& limit_name) const;
  // The first `n` bytes of an entry that must declare at least `n`; the rest
  // is never inflated (a raw weight file holds a whole storage, of which the
  // views may use only a part).
  std::vector<std::byte> read_prefix(const std::string& name, std::uint64_t n) const;

  // Called with an entry's raw bytes once they have been copied or inflated
  // out: an archive mapped from a file drops those pages, so reading a .pt2
  // holds its weights once, not twice (ir::MappedFile::release).
  void on_entry_read(std::function<void(const std::byte*, std::size_t)> release) {
    release_ = std::move(release);
  }

 private:
  const ZipEntryHeader& header(const std::string& name) const;
  // Checks the declared sizes of `h` and copies or inflates `n` bytes of it.
  std::vector<std::byte> extract(const ZipEntryHeader& h, std::uint64_t index, std::uint64_t n,
                                 bool whole) const;

  std::string display_;
  const std::byte* data_;
  std::size_t archive_size_;
  const ReadLimits& limits_;
  ByteBudget& budget_;
  zip* zip_ = nullptr;
  std::vector<std::string> names_;       // in central-directory order
  std::vector<ZipEntryHeader> headers_;  // the same order
  std::map<std::string, std::uint64_t> index_;
  std::function<void(const std::byte*, std::size_t)> release_;
};

}  // namespace atenrt::frontend
