// ATENRT_AVX2_CLONES: GCC compiles the function twice, for AVX2 and for the
// x86-64 baseline (SSE2) the build targets, and the loader picks one for the
// CPU (an ifunc). For our simple float loops (clip, relu, the NaN checks):
// 8 floats a step instead of 4, about 3x faster here. Same C++ and the same
// results: AVX2 alone brings no FMA, and the math is not relaxed. Left out
// under clang and the sanitizers (their runtimes and ifunc resolvers do not
// mix well); those builds keep the baseline loop.
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__) && \
    !defined(__SANITIZE_THREAD__)
#define ATENRT_AVX2_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define ATENRT_AVX2_CLONES
#endif
