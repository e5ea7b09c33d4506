// GELU-tanh as x * sigmoid(2u), u = √(2/π)(x + 0.044715x³): one exp and one
// division instead of a tanh. oneDNN 2.6's AVX2 tanh gathers the 7
// coefficients of its degree-6 polynomials from a 32-entry table with vpermps
// and blends each: its gelu_tanh took 4.4 ns per element on this Zen 3, this
// loop 1.7 ns (CPU time, 131072 floats, same minute; oneDNN's gelu_erf,
// logistic and swish take 0.65-0.9 ns and stay). AVX-512 gets this loop too:
// oneDNN's AVX-512 tanh (one vpermt2ps per coefficient) may be faster there
// but cannot be timed on the machines we have, and one form gives the same
// results on every machine.
//
// -2u is formed and reduced in double: the result is ~x·e^(-2|u|) for x < 0,
// so a float rounding of u would cost 2|u| times its relative error (tens of
// ulp at x ~ -5). The exp itself runs in float. Measured against the exact
// formula over every 7th float: at most 3.5 ulp (at x ~ -3; 2.2 ulp in
// [-1, 0), 1.5 for x > 0) where |y| is a normal float.
#include "runtime/cpu/own/fast_activations.h"

#include <cmath>
#include <cstring>

namespace atenrt::runtime::cpu::own {
namespace {

[[gnu::always_inline]] inline float from_bits(std::int32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

// e^-a for a in [0, 104] as m·s, both normal floats (e^-a itself goes
// subnormal past a ~ 87, and x·e^-a should not lose bits there):
// -a = n·ln2 + r with |r| <= ln2/2 (in double), e^r by Cephes' expf
// polynomial (~1 ulp), 2^n (n down to -150) split into two powers of two.
struct Scaled {
  float m, s;
};
[[gnu::always_inline]] inline Scaled exp_of_negative(double a) {
  constexpr double kLog2e = 1.4426950408889634;
  constexpr double kLn2 = 0.6931471805599453;
  constexpr double kRound = 6755399441055744.0;  // 1.5 * 2^52: adding it rounds to an integer
  const double n = (-a * kLog2e + kRound) - kRound;
  const auto r = static_cast<float>(-a - n * kLn2);
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.f;
  const auto ni = static_cast<std::int32_t>(n);  // in [-150, 0]
  const std::int32_t half = ni >> 1;              // arithmetic shift (C++20)
  return {p * from_bits((half + 127) << 23), from_bits((ni - half + 127) << 23)};
}

// The loop, compiled once per ISA below (inlined into each).
[[gnu::always_inline]] inline void gelu_tanh_loop(const float* x, float* y, std::int64_t n) {
  constexpr double kMinus2K = -1.5957691216057308;  // -2·√(2/π)
  constexpr double kMinus2KC = kMinus2K * 0.044715;
  constexpr double kMaxA = 104.0;   // e^-104 is below half the smallest float
  constexpr float kFlushAbove = 10.7f;  // |x| where |t| passes kMaxA
  for (std::int64_t i = 0; i < n; ++i) {
    const float v = x[i];
    const double vd = v;
    const double a = std::fabs(vd * (kMinus2K + kMinus2KC * vd * vd));  // |2u|
    // y = v / (1 + e^-2u), written with f = e^-|2u| <= 1 so that nothing
    // overflows: v·f / (1 + f) for x < 0 (u < 0). Selects, not std::min/max,
    // so that GCC vectorizes them; tests on v, not on the double a, spare
    // the mask conversions. NaN takes the clamp's value; v keeps it NaN.
    const Scaled e = exp_of_negative(a <= kMaxA ? a : kMaxA);
    const bool flush = std::fabs(v) > kFlushAbove;  // x = -inf: -inf·0 = NaN, as torch's 0.5·x·(1 + tanh)
    const float f = flush ? 0.f : e.m * e.s;
    const float vf = flush ? v * 0.f : v * e.m * e.s;
    y[i] = (v < 0.f ? vf : v) / (1.f + f);
  }
}

// One copy per ISA, picked once by CPUID: AVX-512, AVX2 with FMA, and any
// x86-64. Not target_clones: clang 14 resolves its "arch=x86-64-v4" clone
// on AVX2 machines (illegal instruction in the fuzz build).
[[gnu::target("avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")]] void gelu_tanh_avx512(const float* x, float* y,
                                                                                     std::int64_t n) {
  gelu_tanh_loop(x, y, n);
}
[[gnu::target("avx2,fma")]] void gelu_tanh_avx2(const float* x, float* y, std::int64_t n) { gelu_tanh_loop(x, y, n); }
void gelu_tanh_baseline(const float* x, float* y, std::int64_t n) { gelu_tanh_loop(x, y, n); }

using GeluLoop = void (*)(const float*, float*, std::int64_t);
GeluLoop pick_gelu_tanh() {
  __builtin_cpu_init();
  const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw");
  if (avx512) return gelu_tanh_avx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return gelu_tanh_avx2;
  return gelu_tanh_baseline;
}

}  // namespace

void gelu_tanh(const float* x, float* y, std::int64_t n) {
  static const GeluLoop loop = pick_gelu_tanh();
  loop(x, y, n);
}

}  // namespace atenrt::runtime::cpu::own
