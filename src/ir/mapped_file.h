// A file mapped read-only (engine files, and .pt2 archives while they are
// read): its pages are the page cache's, so every process that maps the same
// file shares one copy of them.
//
// Truncation: on Linux a mapping does not snapshot its file. If the file
// shrinks while mapped, touching a page past the new end raises SIGBUS. A
// process-wide SIGBUS handler recognises faults inside our mappings, maps a
// zero page over the lost one (so the faulting kernel finishes reading zeros
// instead of killing the process) and marks the file damaged; the Engine
// checks damaged() before and after every run and refuses with a FormatError;
// the .pt2 reader checks it after reading.
// Faults elsewhere go to the handler that was installed before ours (or the
// default action). Engine files must be replaced by write-then-rename, never
// rewritten in place: docs/engine-format.md.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>

namespace atenrt::ir {

class MappedFile {
 public:
  // Maps the whole file; throws FormatError("<kind> '<path>': ...").
  static std::shared_ptr<MappedFile> open(const std::string& path, const std::string& kind = "engine file");
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::span<const std::byte> bytes() const { return {data_, size_}; }
  const std::string& path() const { return path_; }
  // A page faulted because the file shrank, or the file is now shorter than
  // the mapping.
  bool damaged() const;
  // Drops the whole pages inside [p, p + n) from this process's resident set
  // (a reader that copied them out will not read them again; touching them
  // later reads the file again). `p` must point into bytes().
  void release(const std::byte* p, std::size_t n) const;

 private:
  MappedFile() = default;
  std::string path_;
  int fd_ = -1;
  const std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  int slot_ = -1;  // in the SIGBUS registry
};

}  // namespace atenrt::ir
