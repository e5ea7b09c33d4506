#include "ir/memory_limit.h"

#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <string>

namespace atenrt {
namespace {

// A cgroup limit file holds a byte count or "max" (no limit).
std::uint64_t read_limit_file(const char* path) {
  std::ifstream in(path);
  std::string text;
  if (!(in >> text) || text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) return 0;
  try {
    return std::stoull(text);
  } catch (const std::exception&) {
    return 0;
  }
}

}  // namespace

std::uint64_t default_memory_limit() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  std::uint64_t limit = pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page)
                                              : std::uint64_t{16} << 30;
  for (const char* path : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    const std::uint64_t cg = read_limit_file(path);
    if (cg != 0 && cg < limit) limit = cg;
  }
  return limit;
}

std::uint64_t resolve_memory_limit(std::uint64_t limit) {
  return limit != 0 ? limit : default_memory_limit();
}

std::string format_bytes(std::uint64_t bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024.0 && u < 6) {
    v /= 1024.0;
    ++u;
  }
  char buf[64];
  if (u == 0) {
    std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(bytes));
  } else {
    std::snprintf(buf, sizeof buf, "%.1f %s (%llu bytes)", v, units[u], static_cast<unsigned long long>(bytes));
  }
  return buf;
}

}  // namespace atenrt
