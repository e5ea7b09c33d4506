#include "runtime/cpu/own/winograd.h"

#include <algorithm>
#include <cstddef>

#include "runtime/cpu/own/parallel.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define ATENRT_WINOGRAD_X86 1
// Only these functions use AVX2 and FMA (called only where the CPU has
// them): the rest of the file, and the library, keep the baseline ISA.
#define ATENRT_AVX2_FMA __attribute__((target("avx2,fma")))
#endif

namespace atenrt::runtime::cpu::own::winograd {

namespace {

// G of F(2,3) and F(4,3) (Lavin & Gray), rows of (m+2)
constexpr float kG2[4][3] = {{1, 0, 0}, {.5f, .5f, .5f}, {.5f, -.5f, .5f}, {0, 0, 1}};
constexpr float kG4[6][3] = {{1.f / 4, 0, 0},
                             {-1.f / 6, -1.f / 6, -1.f / 6},
                             {-1.f / 6, 1.f / 6, -1.f / 6},
                             {1.f / 24, 1.f / 12, 1.f / 6},
                             {1.f / 24, -1.f / 12, 1.f / 6},
                             {0, 0, 1}};

// Items per thread below which a transform stays on one thread: one item
// is one tile of eight channels (16 or 36 vector loads and stores).
constexpr std::int64_t kTileGrain = 64;

}  // namespace

int choose_tile(std::int64_t c_in, std::int64_t c_out, std::int64_t oh, std::int64_t ow) {
#ifdef ATENRT_WINOGRAD_X86
  static const bool cpu = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (!cpu || c_in % 8 != 0 || c_out % 8 != 0 || c_in < 64 || c_out < 64) return 0;
  // bench/winograd_bench, ResNet's shapes (C@H², Cin = Cout), 1 thread, CPU
  // ms, oneDNN direct / F(2,3) / F(4,3): 64@56 3.09 / 2.51 / 1.43,
  // 128@28 3.31 / 2.02 / 1.36, 256@14 3.33 / 2.03 / 3.72, 512@7 5.54 /
  // 5.56 / 10.5. Few tiles make the GEMMs short (M = tiles) and weight-bound:
  // F(4,3)'s (6/3)² = 4x larger weights lose there first.
  const std::int64_t area = oh * ow;
  if (area >= 28 * 28) return 4;
  if (area >= 14 * 14) return 2;
  return 0;
#else
  (void)c_in, (void)c_out, (void)oh, (void)ow;
  return 0;
#endif
}

std::vector<float> transform_weights(const Shape& s, const float* weights) {
  const int a_n = s.alpha();
  const float(*g_rows)[3] = s.m == 4 ? kG4 : kG2;
  std::vector<float> u(static_cast<std::size_t>(a_n * a_n * s.c_in * s.c_out));
  for (std::int64_t co = 0; co < s.c_out; ++co) {
    for (std::int64_t ci = 0; ci < s.c_in; ++ci) {
      const float* g = weights + (co * s.c_in + ci) * 9;
      // in double: U is made once, and its rounding adds to the error
      double t[6][3];
      for (int i = 0; i < a_n; ++i) {
        for (int j = 0; j < 3; ++j) {
          t[i][j] = double(g_rows[i][0]) * g[j] + double(g_rows[i][1]) * g[3 + j] + double(g_rows[i][2]) * g[6 + j];
        }
      }
      for (int i = 0; i < a_n; ++i) {
        for (int j = 0; j < a_n; ++j) {
          const double v = t[i][0] * g_rows[j][0] + t[i][1] * g_rows[j][1] + t[i][2] * g_rows[j][2];
          u[static_cast<std::size_t>(((i * a_n + j) * s.c_in + ci) * s.c_out + co)] = static_cast<float>(v);
        }
      }
    }
  }
  return u;
}

#ifdef ATENRT_WINOGRAD_X86
namespace {

// 1-d transforms over points p[0], p[s], p[2s], ... (eight channels each).
struct F23 {
  static constexpr int m = 2, alpha = 4;
  // B^T d
  ATENRT_AVX2_FMA static inline void in(__m256* d, int s) {
    const __m256 d0 = d[0], d1 = d[s], d2 = d[2 * s], d3 = d[3 * s];
    d[0] = _mm256_sub_ps(d0, d2);
    d[s] = _mm256_add_ps(d1, d2);
    d[2 * s] = _mm256_sub_ps(d2, d1);
    d[3 * s] = _mm256_sub_ps(d1, d3);
  }
  // A^T v into o[0], o[os]
  ATENRT_AVX2_FMA static inline void out(const __m256* v, int s, __m256* o, int os) {
    const __m256 v0 = v[0], v1 = v[s], v2 = v[2 * s], v3 = v[3 * s];
    o[0] = _mm256_add_ps(_mm256_add_ps(v0, v1), v2);
    o[os] = _mm256_sub_ps(_mm256_sub_ps(v1, v2), v3);
  }
};

struct F43 {
  static constexpr int m = 4, alpha = 6;
  ATENRT_AVX2_FMA static inline void in(__m256* d, int s) {
    const __m256 d0 = d[0], d1 = d[s], d2 = d[2 * s], d3 = d[3 * s], d4 = d[4 * s], d5 = d[5 * s];
    const __m256 four = _mm256_set1_ps(4.f), five = _mm256_set1_ps(5.f), two = _mm256_set1_ps(2.f);
    // v0 = 4 d0 - 5 d2 + d4, v5 = 4 d1 - 5 d3 + d5
    d[0] = _mm256_fnmadd_ps(five, d2, _mm256_fmadd_ps(four, d0, d4));
    d[5 * s] = _mm256_fnmadd_ps(five, d3, _mm256_fmadd_ps(four, d1, d5));
    // v1, v2 = (d4 - 4 d2) -/+ (4 d1 - d3); v3, v4 = (d4 - d2) -/+ 2 (d1 - d3)
    const __m256 a = _mm256_fnmadd_ps(four, d2, d4), b = _mm256_fmsub_ps(four, d1, d3);
    const __m256 c = _mm256_sub_ps(d4, d2), e = _mm256_mul_ps(two, _mm256_sub_ps(d1, d3));
    d[s] = _mm256_sub_ps(a, b);
    d[2 * s] = _mm256_add_ps(a, b);
    d[3 * s] = _mm256_sub_ps(c, e);
    d[4 * s] = _mm256_add_ps(c, e);
  }
  ATENRT_AVX2_FMA static inline void out(const __m256* v, int s, __m256* o, int os) {
    const __m256 v0 = v[0], v1 = v[s], v2 = v[2 * s], v3 = v[3 * s], v4 = v[4 * s], v5 = v[5 * s];
    const __m256 p12 = _mm256_add_ps(v1, v2), m12 = _mm256_sub_ps(v1, v2);
    const __m256 p34 = _mm256_add_ps(v3, v4), m34 = _mm256_sub_ps(v3, v4);
    o[0] = _mm256_add_ps(_mm256_add_ps(v0, p12), p34);
    o[os] = _mm256_fmadd_ps(_mm256_set1_ps(2.f), m34, m12);
    o[2 * os] = _mm256_fmadd_ps(_mm256_set1_ps(4.f), p34, p12);
    o[3 * os] = _mm256_add_ps(_mm256_fmadd_ps(_mm256_set1_ps(8.f), m34, m12), v5);
  }
};

// Items [begin, end) of (channel block, tile), tile fastest.
template <typename F>
ATENRT_AVX2_FMA void input_items(const Shape& s, const float* x, float* v, std::int64_t begin, std::int64_t end) {
  constexpr int A = F::alpha, AA = A * A;
  const std::int64_t tx_n = s.tiles_x(), ty_n = s.tiles_y(), per_image = tx_n * ty_n, tiles = s.tiles();
  const std::int64_t blocks = s.c_in / 8;
  for (std::int64_t item = begin; item < end; ++item) {
    const std::int64_t cb = item / tiles, tile = item % tiles;
    const std::int64_t img = tile / per_image, ty = tile % per_image / tx_n, tx = tile % tx_n;
    const float* xb = x + ((img * blocks + cb) * s.h * s.w) * 8;
    const std::int64_t y0 = ty * F::m - s.pad_top, x0 = tx * F::m - s.pad_left;
    __m256 d[AA];
    for (int i = 0; i < A; ++i) {
      const std::int64_t yy = y0 + i;
      for (int j = 0; j < A; ++j) {
        const std::int64_t xx = x0 + j;
        d[i * A + j] = (yy >= 0 && yy < s.h && xx >= 0 && xx < s.w) ? _mm256_loadu_ps(xb + (yy * s.w + xx) * 8)
                                                                    : _mm256_setzero_ps();
      }
    }
    for (int j = 0; j < A; ++j) F::in(d + j, A);     // columns
    for (int i = 0; i < A; ++i) F::in(d + i * A, 1);  // rows
    float* vt = v + tile * s.c_in + cb * 8;
    for (int a = 0; a < AA; ++a) _mm256_storeu_ps(vt + a * tiles * s.c_in, d[a]);
  }
}

template <typename F>
ATENRT_AVX2_FMA void output_items(const Shape& s, const float* mm, const float* bias, const Epilogue& e, float* y,
                                  std::int64_t begin, std::int64_t end) {
  constexpr int A = F::alpha, AA = A * A, m = F::m;
  const std::int64_t tx_n = s.tiles_x(), ty_n = s.tiles_y(), per_image = tx_n * ty_n, tiles = s.tiles();
  const std::int64_t blocks = s.c_out / 8;
  for (std::int64_t item = begin; item < end; ++item) {
    const std::int64_t cb = item / tiles, tile = item % tiles;
    const std::int64_t img = tile / per_image, ty = tile % per_image / tx_n, tx = tile % tx_n;
    float* yb = y + ((img * blocks + cb) * s.oh * s.ow) * 8;
    const float* mt = mm + tile * s.c_out + cb * 8;
    __m256 v[AA], t[m * A], o[m * m];
    for (int a = 0; a < AA; ++a) v[a] = _mm256_loadu_ps(mt + a * tiles * s.c_out);
    for (int j = 0; j < A; ++j) F::out(v + j, A, t + j, A);          // columns: t is m × A
    for (int i = 0; i < m; ++i) F::out(t + i * A, 1, o + i * m, 1);  // rows: o is m × m
    const __m256 b = bias ? _mm256_loadu_ps(bias + cb * 8) : _mm256_setzero_ps();
    for (int i = 0; i < m; ++i) {
      const std::int64_t yy = ty * m + i;
      if (yy >= s.oh) break;
      for (int j = 0; j < m; ++j) {
        const std::int64_t xx = tx * m + j;
        if (xx >= s.ow) break;
        float* p = yb + (yy * s.ow + xx) * 8;
        __m256 r = _mm256_add_ps(o[i * m + j], b);
        if (e.sum) r = _mm256_add_ps(r, _mm256_loadu_ps(p));
        for (const auto& c : e.clamps) {
          r = _mm256_min_ps(_mm256_max_ps(r, _mm256_set1_ps(c.lo)), _mm256_set1_ps(c.hi));
        }
        _mm256_storeu_ps(p, r);
      }
    }
  }
}

}  // namespace

void transform_input(const Shape& s, const float* x, float* v) {
  const std::int64_t items = s.c_in / 8 * s.tiles();
  parallel_for(items, kTileGrain, [&](std::int64_t begin, std::int64_t end) {
    if (s.m == 4) {
      input_items<F43>(s, x, v, begin, end);
    } else {
      input_items<F23>(s, x, v, begin, end);
    }
  });
}

void transform_output(const Shape& s, const float* mm, const float* bias, const Epilogue& e, float* y) {
  const std::int64_t items = s.c_out / 8 * s.tiles();
  parallel_for(items, kTileGrain, [&](std::int64_t begin, std::int64_t end) {
    if (s.m == 4) {
      output_items<F43>(s, mm, bias, e, y, begin, end);
    } else {
      output_items<F23>(s, mm, bias, e, y, begin, end);
    }
  });
}

#else  // no x86 intrinsics: choose_tile never picks a tile

void transform_input(const Shape&, const float*, float*) {}
void transform_output(const Shape&, const float*, const float*, const Epilogue&, float*) {}

#endif

}  // namespace atenrt::runtime::cpu::own::winograd
