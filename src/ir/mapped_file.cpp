// Read-only file mappings and the SIGBUS guard for files truncated while mapped.
#include "ir/mapped_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <mutex>

#include "atenrt/errors.h"

namespace atenrt::ir {

namespace {

// The registry the signal handler reads: fixed slots of atomics (no locks,
// no allocation in the handler). A mapping that finds no free slot is still
// made; it is then unguarded, like any other mapped file.
constexpr int kSlots = 1024;
struct Guard {
  std::atomic<std::uintptr_t> begin{0};
  std::atomic<std::uintptr_t> end{0};
  std::atomic<bool> faulted{false};
};
Guard g_guards[kSlots];
std::uintptr_t g_page_mask = 0;
struct sigaction g_previous;

void on_sigbus(int sig, siginfo_t* info, void* context) {
  const auto addr = reinterpret_cast<std::uintptr_t>(info->si_addr);
  for (auto& g : g_guards) {
    const auto b = g.begin.load(std::memory_order_acquire);
    if (b == 0 || addr < b || addr >= g.end.load(std::memory_order_acquire)) continue;
    // The page is gone from the file: put a zero page in its place, note it,
    // and let the faulting load run again.
    void* page = reinterpret_cast<void*>(addr & g_page_mask);
    const std::size_t page_size = ~g_page_mask + 1;
    if (::mmap(page, page_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
      g.faulted.store(true, std::memory_order_release);
      return;
    }
    break;
  }
  // Not ours: the previous handler, or the default action (restored, so the
  // faulting instruction raises again and terminates as it would have).
  if ((g_previous.sa_flags & SA_SIGINFO) && g_previous.sa_sigaction) {
    g_previous.sa_sigaction(sig, info, context);
  } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
    g_previous.sa_handler(sig);
  } else {
    ::sigaction(SIGBUS, &g_previous, nullptr);
  }
}

void install_handler() {
  static std::once_flag once;
  std::call_once(once, [] {
    g_page_mask = ~static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE) - 1);
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGBUS, &sa, &g_previous);
  });
}

int claim_slot(std::uintptr_t begin, std::uintptr_t end) {
  for (int i = 0; i < kSlots; ++i) {
    std::uintptr_t expected = 0;
    if (g_guards[i].begin.compare_exchange_strong(expected, ~std::uintptr_t{0})) {  // reserved
      g_guards[i].faulted.store(false);
      g_guards[i].end.store(end, std::memory_order_release);
      g_guards[i].begin.store(begin, std::memory_order_release);
      return i;
    }
  }
  return -1;
}

[[noreturn]] void fail(const std::string& kind, const std::string& path, const std::string& what) {
  throw FormatError(kind + " '" + path + "': " + what + " (" + std::strerror(errno) + ")");
}

}  // namespace

std::shared_ptr<MappedFile> MappedFile::open(const std::string& path, const std::string& kind) {
  std::shared_ptr<MappedFile> f(new MappedFile());
  f->path_ = path;
  f->fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (f->fd_ < 0) fail(kind, path, "cannot open");
  struct stat st;
  if (::fstat(f->fd_, &st) != 0) fail(kind, path, "cannot stat");
  if (!S_ISREG(st.st_mode)) throw FormatError(kind + " '" + path + "': not a regular file");
  f->size_ = static_cast<std::size_t>(st.st_size);
  if (f->size_ == 0) return f;  // nothing to map; the container check refuses it
  install_handler();
  void* p = ::mmap(nullptr, f->size_, PROT_READ, MAP_SHARED, f->fd_, 0);
  if (p == MAP_FAILED) fail(kind, path, "cannot map");
  f->data_ = static_cast<const std::byte*>(p);
  const auto begin = reinterpret_cast<std::uintptr_t>(p);
  f->slot_ = claim_slot(begin, begin + f->size_);
  return f;
}

MappedFile::~MappedFile() {
  if (slot_ >= 0) {
    g_guards[slot_].begin.store(~std::uintptr_t{0}, std::memory_order_release);  // matches nothing
    g_guards[slot_].end.store(0, std::memory_order_release);
  }
  if (data_) ::munmap(const_cast<std::byte*>(data_), size_);
  if (slot_ >= 0) g_guards[slot_].begin.store(0, std::memory_order_release);  // free again
  if (fd_ >= 0) ::close(fd_);
}

bool MappedFile::damaged() const {
  if (slot_ >= 0 && g_guards[slot_].faulted.load(std::memory_order_acquire)) return true;
  struct stat st;
  return fd_ >= 0 && ::fstat(fd_, &st) == 0 && static_cast<std::size_t>(st.st_size) < size_;
}

void MappedFile::release(const std::byte* p, std::size_t n) const {
  const auto begin = reinterpret_cast<std::uintptr_t>(p);
  const auto mapped = reinterpret_cast<std::uintptr_t>(data_);
  if (!data_ || begin < mapped || n > size_ || begin - mapped > size_ - n) return;
  // Only whole pages: a page shared with a neighbouring entry may still be read.
  const std::uintptr_t page = ~g_page_mask + 1;
  const std::uintptr_t first = (begin + page - 1) & g_page_mask;
  const std::uintptr_t last = (begin + n) & g_page_mask;
  if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
}

}  // namespace atenrt::ir
