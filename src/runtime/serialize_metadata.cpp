// The metadata section: text the API keeps with an engine (docs/engine-format.md).
//
// Read on its own, with pread, after the engine itself has been loaded: the
// loaders map the file, and mapping it a second time here would count its
// weight pages twice in the process's RSS while it is read.
#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <memory>
#include <vector>

#include "atenrt/errors.h"
#include "runtime/serialize.h"
#include "ir/unaligned.h"

namespace atenrt::runtime::file {

namespace {


class Fd {
 public:
  explicit Fd(const std::string& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

SectionSource metadata_section(const std::string& text) {
  if (text.size() > kMaxMetadataBytes) {
    throw Error("engine metadata is " + std::to_string(text.size()) + " bytes, at most " +
                std::to_string(kMaxMetadataBytes));
  }
  auto payload = std::make_shared<const std::string>(text);
  SectionSource s;
  s.entry.kind = static_cast<std::uint32_t>(SectionKind::Metadata);
  s.entry.flags = 0;  // optional: a reader that does not know it skips it
  s.entry.alignment = 8;
  s.size = payload->size();
  s.write = [payload](Sink& out) { out.write(payload->data(), payload->size()); };
  return s;
}

std::string read_metadata(const std::string& path) {
  const std::string where = "'" + path + "': engine file: ";
  auto corrupt = [&](const std::string& what) -> FormatError { return FormatError(where + what); };
  Fd fd(path);
  if (fd.get() < 0) throw corrupt("cannot open it to read its metadata");
  auto read_at = [&](std::byte* to, std::uint64_t n, std::uint64_t at) {
    std::uint64_t done = 0;
    while (done < n) {
      const ssize_t got = ::pread(fd.get(), to + done, n - done, static_cast<off_t>(at + done));
      if (got <= 0) throw corrupt("truncated while reading its metadata");
      done += static_cast<std::uint64_t>(got);
    }
  };
  std::byte header[kHeaderBytes];
  read_at(header, kHeaderBytes, 0);
  if (std::memcmp(header, kMagic, 8) != 0 || ir::load_unaligned<std::uint16_t>(header + 8) != kFormatMajor) {
    throw corrupt("not an engine file of format " + std::to_string(kFormatMajor) + ".x");
  }
  if (crc32c(header, 60) != ir::load_unaligned<std::uint32_t>(header + 60)) throw corrupt("header checksum mismatch");
  const auto table_offset = ir::load_unaligned<std::uint64_t>(header + 24);
  const auto count = ir::load_unaligned<std::uint32_t>(header + 32);
  if (count > kMaxSections) throw corrupt("section count out of range");
  std::vector<std::byte> table(std::size_t{count} * kSectionEntryBytes);
  read_at(table.data(), table.size(), table_offset);
  if (crc32c(table.data(), table.size()) != ir::load_unaligned<std::uint32_t>(header + 56)) {
    throw corrupt("section table checksum mismatch");
  }
  const std::byte* found = nullptr;
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::byte* e = table.data() + std::size_t{i} * kSectionEntryBytes;
    if (ir::load_unaligned<std::uint32_t>(e) != static_cast<std::uint32_t>(SectionKind::Metadata)) continue;
    if (found) throw corrupt("has two metadata sections");
    found = e;
  }
  if (!found) return {};
  const auto offset = ir::load_unaligned<std::uint64_t>(found + 8), size = ir::load_unaligned<std::uint64_t>(found + 16);
  if (size > kMaxMetadataBytes) {
    throw corrupt("metadata section of " + std::to_string(size) + " bytes (at most " +
                  std::to_string(kMaxMetadataBytes) + ")");
  }
  std::string text(size, '\0');
  read_at(reinterpret_cast<std::byte*>(text.data()), size, offset);
  if (crc32c(reinterpret_cast<const std::byte*>(text.data()), size) != ir::load_unaligned<std::uint32_t>(found + 28)) {
    throw corrupt("metadata section checksum mismatch");
  }
  return text;
}

}  // namespace atenrt::runtime::file
