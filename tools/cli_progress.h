// A progress line for work that takes more than a second (compiling a .pt2):
// on stderr, only when stderr is a terminal, so pipes, logs and the tests'
// captured output never see it. ATENRT_PROGRESS=1 forces it (plain lines,
// for tests), ATENRT_PROGRESS=0 turns it off; ATENRT_PROGRESS_DELAY_MS
// (default 1000) is how long the work runs before the line shows.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace atenrt::cli {

class Progress {
 public:
  // `doing` ("compiling model.pt2") is shown after a second, with the time;
  // `done` ("compiled model.pt2") ends the line when something was shown.
  Progress(std::string doing, std::string done);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

 private:
  void show();

  std::string doing_, done_;
  bool terminal_ = false;
  bool shown_ = false;
  bool finished_ = false;
  int exceptions_ = 0;  // std::uncaught_exceptions() when made: more at the end means failing
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread thread_;
};

}  // namespace atenrt::cli
