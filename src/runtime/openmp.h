// The OpenMP runtime that oneDNN loads, reached through dlsym: null functions
// when oneDNN uses another threading runtime. (GCC builds also link that
// libgomp for our own kernels' loops, cpu/own/parallel.h; clang builds do not.)
#pragma once

namespace atenrt::runtime {

using OmpSetThreads = void (*)(int);
using OmpGetThreads = int (*)();
OmpSetThreads omp_setter();  // omp_set_num_threads, or null
OmpGetThreads omp_getter();  // omp_get_max_threads, or null

// OpenMP's thread count for the calling thread's next parallel region; 1
// without OpenMP.
inline int openmp_max_threads() { return omp_getter() ? omp_getter()() : 1; }

// OpenMP's thread count for the calling thread, set to `threads` (> 0; 0
// changes nothing) while this lives, and the previous count back after.
// oneDNN sizes a primitive's team when it is made (its jit convolutions
// split their work for omp_get_max_threads() then, and run that many threads
// whatever a run sets later), and a reorder takes the count of the moment it
// runs: kernels and weight packing run under the engine's count with this.
class ScopedOpenMpThreads {
 public:
  explicit ScopedOpenMpThreads(int threads) {
    if (threads <= 0 || !omp_setter() || !omp_getter()) return;
    previous_ = omp_getter()();
    omp_setter()(threads);
  }
  ~ScopedOpenMpThreads() {
    if (previous_ > 0) omp_setter()(previous_);
  }
  ScopedOpenMpThreads(const ScopedOpenMpThreads&) = delete;
  ScopedOpenMpThreads& operator=(const ScopedOpenMpThreads&) = delete;

 private:
  int previous_ = 0;
};

}  // namespace atenrt::runtime
