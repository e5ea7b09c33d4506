// How many threads one run starts: the check that an engine's kernels run on
// the thread count they were made for (oneDNN fixes a primitive's team when
// it is made, so a count set only at run time does not reach them).
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <thread>

namespace atenrt::testing {

// Thread ids of this process (/proc/self/task).
inline std::set<std::string> process_threads() {
  std::set<std::string> ids;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/task")) {
    ids.insert(entry.path().filename().string());
  }
  return ids;
}

// Threads one run of `engine` on `inputs` starts when a new thread runs it:
// OpenMP gives each new master thread a team of its own, so every worker the
// run uses is a new thread (and leaves with its master). Counted as ids
// present after the run and not before, since an earlier run's workers may
// still be leaving while this one runs.
template <typename EngineT, typename Inputs>
int threads_a_run_starts(const EngineT& engine, const Inputs& inputs) {
  int started = -1;
  std::thread runner([&] {
    // Counted from before the context: making it may run kernels' own
    // setup (Winograd's weight transform) on the same team.
    const auto before = process_threads();
    auto ctx = engine.create_context();
    ctx.run(inputs);
    started = 0;
    for (const auto& id : process_threads()) started += before.count(id) == 0;
  });
  runner.join();
  return started;
}

}  // namespace atenrt::testing
