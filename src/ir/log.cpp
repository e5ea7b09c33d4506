// One process-wide log callback (include/atenrt/log.h). The callback is copied
// out under the lock and called outside it, so a callback may log or replace
// itself without deadlocking.
#include "ir/log.h"

#include <atomic>
#include <cstdio>
#include <memory>
#include <mutex>

namespace atenrt {
namespace {

void to_stderr(LogLevel level, std::string_view message) {
  const auto name = log_level_name(level);
  std::fprintf(stderr, "atenrt: %.*s: %.*s\n", static_cast<int>(name.size()), name.data(),
               static_cast<int>(message.size()), message.data());
}

struct Sink {
  std::mutex mutex;
  std::shared_ptr<const LogCallback> callback = std::make_shared<const LogCallback>(to_stderr);
  std::atomic<int> min_level{static_cast<int>(LogLevel::Warning)};
};

// Function-local: registrars may log during static initialisation.
Sink& sink() {
  static Sink s;
  return s;
}

}  // namespace

void set_log_callback(LogCallback callback, LogLevel min_level) {
  auto& s = sink();
  std::lock_guard lock(s.mutex);
  s.callback = callback ? std::make_shared<const LogCallback>(std::move(callback)) : nullptr;
  s.min_level = static_cast<int>(min_level);
}

void reset_log_callback() { set_log_callback(to_stderr, LogLevel::Warning); }

std::string_view log_level_name(LogLevel level) {
  switch (level) {
    case LogLevel::Debug: return "debug";
    case LogLevel::Info: return "info";
    case LogLevel::Warning: return "warning";
    case LogLevel::Error: return "error";
  }
  return "unknown";
}

bool log_enabled(LogLevel level) {
  auto& s = sink();
  return static_cast<int>(level) >= s.min_level.load(std::memory_order_relaxed);
}

void log(LogLevel level, const std::string& message) {
  if (!log_enabled(level)) return;
  std::shared_ptr<const LogCallback> callback;
  {
    auto& s = sink();
    std::lock_guard lock(s.mutex);
    callback = s.callback;
  }
  if (callback) (*callback)(level, message);
}

}  // namespace atenrt
