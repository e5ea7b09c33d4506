#include "cli_progress.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

namespace atenrt::cli {
namespace {

using namespace std::chrono_literals;

// 1: on (terminal or forced), 0: off.
int mode(bool& terminal) {
  terminal = ::isatty(STDERR_FILENO) == 1;
  const char* env = std::getenv("ATENRT_PROGRESS");
  if (env && std::strcmp(env, "0") == 0) return 0;
  if (env && std::strcmp(env, "1") == 0) return 1;
  return terminal ? 1 : 0;
}

// How long work runs before the line shows (ATENRT_PROGRESS_DELAY_MS, for tests).
std::chrono::milliseconds delay() {
  const char* env = std::getenv("ATENRT_PROGRESS_DELAY_MS");
  if (!env || !*env) return 1000ms;
  char* end = nullptr;
  const long ms = std::strtol(env, &end, 10);
  return (*end || ms < 0 || ms > 3600000) ? 1000ms : std::chrono::milliseconds(ms);
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

Progress::Progress(std::string doing, std::string done)
    : doing_(std::move(doing)), done_(std::move(done)), exceptions_(std::uncaught_exceptions()),
      start_(std::chrono::steady_clock::now()) {
  if (!mode(terminal_)) return;
  thread_ = std::thread([this] { show(); });
}

void Progress::show() {
  std::unique_lock lock(mutex_);
  if (wake_.wait_for(lock, delay(), [this] { return finished_; })) return;
  shown_ = true;
  if (!terminal_) {  // forced into a pipe: one plain line now, one at the end
    std::fprintf(stderr, "atenrt: %s ...\n", doing_.c_str());
    return;
  }
  do {
    // \r and erase-to-end: the line rewrites itself in place.
    std::fprintf(stderr, "\ratenrt: %s ... %.1f s\033[K", doing_.c_str(), seconds_since(start_));
    std::fflush(stderr);
  } while (!wake_.wait_for(lock, 250ms, [this] { return finished_; }));
}

Progress::~Progress() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    finished_ = true;
  }
  wake_.notify_all();
  thread_.join();
  if (!shown_) return;
  const double took = seconds_since(start_);
  if (std::uncaught_exceptions() > exceptions_) {  // failing: the error message follows on its own line
    if (terminal_) std::fprintf(stderr, "\n");
    return;
  }
  if (terminal_) {
    std::fprintf(stderr, "\ratenrt: %s in %.1f s\033[K\n", done_.c_str(), took);
  } else {
    std::fprintf(stderr, "atenrt: %s in %.1f s\n", done_.c_str(), took);
  }
  std::fflush(stderr);
}

}  // namespace atenrt::cli
