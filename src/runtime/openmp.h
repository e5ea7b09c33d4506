// The OpenMP runtime that oneDNN loads, reached through dlsym (we do not link
// OpenMP ourselves): null functions when oneDNN uses another threading runtime.
#pragma once

namespace atenrt::runtime {

using OmpSetThreads = void (*)(int);
using OmpGetThreads = int (*)();
OmpSetThreads omp_setter();  // omp_set_num_threads, or null
OmpGetThreads omp_getter();  // omp_get_max_threads, or null

// OpenMP's thread count for the calling thread's next parallel region; 1
// without OpenMP.
inline int openmp_max_threads() { return omp_getter() ? omp_getter()() : 1; }

}  // namespace atenrt::runtime
