// Running our own kernels' loops on the engine's threads.
//
// The team is OpenMP's, the one oneDNN's primitives use (Debian's oneDNN is
// built with GNU OpenMP and we link the same libgomp): the engine sets
// omp_set_num_threads to its thread count before each run, so a region here
// takes exactly that many threads and `--threads 1` stays on the calling
// thread. Built without OpenMP (clang's fuzz build), everything runs serially.
#pragma once

#include <algorithm>
#include <cstdint>

#ifdef _OPENMP
#include <omp.h>
#endif
#ifdef __SANITIZE_THREAD__
#include <sanitizer/tsan_interface.h>
#endif

namespace atenrt::runtime::cpu::own {

// libgomp is not instrumented: ThreadSanitizer does not see that its fork
// hands the caller's writes to the team and its join hands the team's writes
// back, and reports the loop's own variables as races. These name the edges.
inline void tsan_release([[maybe_unused]] void* edge) {
#ifdef __SANITIZE_THREAD__
  __tsan_release(edge);
#endif
}
inline void tsan_acquire([[maybe_unused]] void* edge) {
#ifdef __SANITIZE_THREAD__
  __tsan_acquire(edge);
#endif
}

// Elements per thread below which a loop stays serial. Waking the team and
// joining it costs a microsecond or more even with libgomp's workers still
// spinning from the previous step (tens when the cores are busy elsewhere);
// a clip over 16K floats takes about 2 us with AVX2 here (8 us with SSE2),
// so smaller loops would lose more than they gain. Loops that do more per
// element (exp, tanh, a switch per element) pass the smaller grain.
inline constexpr std::int64_t kSimpleGrain = 16 * 1024;
inline constexpr std::int64_t kCostlyGrain = 2 * 1024;

// Chunk edges are multiples of this (a cache line of floats): no two threads
// write one line, and each chunk starts where the vector loop can.
inline constexpr std::int64_t kChunkAlign = 16;

// Calls body(begin, end) on contiguous chunks that cover [0, n), one per
// thread of the engine's team, at most one per `grain` elements: serially
// (one call with [0, n)) for small n, one thread, or inside another region.
// body must only touch elements of its own chunk.
template <typename Body>
#ifdef __SANITIZE_THREAD__
__attribute__((no_sanitize_thread))  // the region's plumbing, not the body (its own function)
#endif
void parallel_for(std::int64_t n, [[maybe_unused]] std::int64_t grain, Body&& body) {
  if (n <= 0) return;
#ifdef _OPENMP
  const std::int64_t most = omp_in_parallel() ? 1 : omp_get_max_threads();
  const std::int64_t chunks = std::min(most, n / std::max<std::int64_t>(grain, 1));
  if (chunks > 1) {
    std::int64_t size = (n + chunks - 1) / chunks;
    size = (size + kChunkAlign - 1) / kChunkAlign * kChunkAlign;
    tsan_release(&size);  // fork
#pragma omp parallel num_threads(static_cast<int>(chunks))
    {
      tsan_acquire(&size);
      // The team may be smaller than asked (nested or limited): every
      // thread takes every team-size-th chunk.
      const std::int64_t team = omp_get_num_threads();
      for (std::int64_t c = omp_get_thread_num(); c < chunks; c += team) {
        const std::int64_t begin = std::min(n, c * size), end = std::min(n, begin + size);
        if (begin < end) body(begin, end);
      }
      tsan_release(&size);  // join
    }
    tsan_acquire(&size);
    return;
  }
#endif
  body(std::int64_t{0}, n);
}

}  // namespace atenrt::runtime::cpu::own
