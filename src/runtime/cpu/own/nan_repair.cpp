#include "runtime/cpu/own/nan_repair.h"

#include <algorithm>
#include <atomic>
#include <cfloat>
#include <cmath>
#include <limits>

#include "ir/element.h"
#include "reference/scalar_math.h"
#include "runtime/cpu/own/avx2_clones.h"
#include "runtime/cpu/own/finite.h"
#include "runtime/cpu/own/parallel.h"

namespace atenrt::runtime::cpu::own {

BlockedIndex::BlockedIndex(int rank, std::int64_t offset0, const std::int64_t* strides, int nblocks,
                           const Block* blocks)
    : rank_(rank), nblks_(nblocks), offset0_(offset0) {
  for (int i = 0; i < rank_; ++i) {
    strides_[i] = strides[i];
    block_[i] = 1;
  }
  for (int i = 0; i < nblks_; ++i) {
    blks_[i] = blocks[i].size;
    idxs_[i] = blocks[i].dim;
    block_[idxs_[i]] *= blks_[i];
  }
}

std::int64_t BlockedIndex::operator()(const std::int64_t* idx) const {
  std::int64_t off = offset0_, rem[kMaxRank], div[kMaxRank];
  for (int d = 0; d < rank_; ++d) {
    off += idx[d] / block_[d] * strides_[d];
    rem[d] = idx[d] % block_[d];
    div[d] = block_[d];
  }
  std::int64_t inner = 0;  // inner blocks are row-major, outermost block first
  for (int i = 0; i < nblks_; ++i) {
    const int d = idxs_[i];
    div[d] /= blks_[i];
    inner = inner * blks_[i] + rem[d] / div[d];
    rem[d] %= div[d];
  }
  return off + inner;
}

namespace {

// Whether a block of floats holds NaN or -inf (!(v > -inf), one compare), or
// NaN or ±inf: branch-free ORs that vectorize, 8 floats wide with AVX2.
ATENRT_AVX2_CLONES bool has_nan_or_minus_inf(const float* x, std::int64_t n) {
  int hit = 0;
  for (std::int64_t i = 0; i < n; ++i) hit |= static_cast<int>(!(x[i] > -INFINITY));
  return hit != 0;
}
ATENRT_AVX2_CLONES bool has_nan_or_plus_inf(const float* x, std::int64_t n) {
  int hit = 0;
  for (std::int64_t i = 0; i < n; ++i) hit |= static_cast<int>(!(x[i] < INFINITY));
  return hit != 0;
}
ATENRT_AVX2_CLONES bool has_non_finite(const float* x, std::int64_t n) {
  int hit = 0;
  for (std::int64_t i = 0; i < n; ++i) hit |= static_cast<int>(!(std::fabs(x[i]) <= FLT_MAX));
  return hit != 0;
}

// bf16 bits of NaN (exponent all ones, mantissa not 0) or -inf.
ATENRT_AVX2_CLONES bool has_nan_or_minus_inf_bf16(const std::uint16_t* x, std::int64_t n) {
  int hit = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    hit |= static_cast<int>((x[i] & 0x7fffu) > 0x7f80u) | static_cast<int>(x[i] == 0xff80u);
  }
  return hit != 0;
}

// bf16 bits whose exponent is all ones: NaN or ±inf.
ATENRT_AVX2_CLONES bool has_non_finite_bf16(const std::uint16_t* x, std::int64_t n) {
  int hit = 0;
  for (std::int64_t i = 0; i < n; ++i) hit |= static_cast<int>((x[i] & 0x7f80u) == 0x7f80u);
  return hit != 0;
}

// Whether block_has finds anything in x[0, n), on the engine's threads; a
// thread stops after the block where it, or another thread, found something.
template <typename T>
bool any_block_has(bool (*block_has)(const T*, std::int64_t), const T* x, std::int64_t n) {
  std::atomic<bool> found{false};
  parallel_for(n, kSimpleGrain, [&](std::int64_t begin, std::int64_t end) {
    constexpr std::int64_t kBlock = 4096;
    for (std::int64_t b = begin; b < end && !found.load(std::memory_order_relaxed); b += kBlock) {
      if (block_has(x + b, std::min(end, b + kBlock) - b)) found.store(true, std::memory_order_relaxed);
    }
  });
  return found.load(std::memory_order_relaxed);
}

// `load` reads element i of x as float, `store` writes one of y: float32 or
// bf16 (exact both ways: the result is one of the inputs, or -inf).
template <typename Load, typename Store>
void torch_max_pool(const MaxPoolWindows& w, const BlockedIndex& xi, const BlockedIndex& yi, Load load, Store store) {
  const int rank = static_cast<int>(w.in.size()), spatial = rank - 2;
  constexpr int kMax = BlockedIndex::kMaxRank;
  std::int64_t o[kMax] = {}, i[kMax] = {}, k[kMax] = {};
  const std::int64_t count = numel_of(w.out);
  for (std::int64_t flat = 0; flat < count; ++flat) {
    std::int64_t rest = flat;
    for (int d = rank - 1; d >= 0; --d) {
      o[d] = rest % w.out[d];
      rest /= w.out[d];
    }
    i[0] = o[0], i[1] = o[1];
    float best = -INFINITY;
    bool seen = false;
    std::int64_t taps = 1;
    for (int s = 0; s < spatial; ++s) taps *= w.kernel[s];
    for (std::int64_t t = 0; t < taps; ++t) {
      std::int64_t r = t;
      bool inside = true;
      for (int s = spatial - 1; s >= 0; --s) {
        k[s] = r % w.kernel[s];
        r /= w.kernel[s];
        i[2 + s] = o[2 + s] * w.stride[s] - w.pre[s] + k[s] * (w.dil[s] + 1);
        inside = inside && i[2 + s] >= 0 && i[2 + s] < w.in[2 + s];
      }
      if (!inside) continue;
      const float v = load(xi(i));
      if (!seen || reference::math::beats(v, best, true)) best = v;
      seen = true;
    }
    store(yi(o), best);
  }
}

}  // namespace

bool all_finite(const float* x, std::int64_t n) { return !any_block_has(has_non_finite, x, n); }

bool all_finite_bf16(const std::uint16_t* x, std::int64_t n) { return !any_block_has(has_non_finite_bf16, x, n); }

void repair_max_pool(const MaxPoolWindows& w, const float* x, const BlockedIndex& xi, std::int64_t n, float* y,
                     const BlockedIndex& yi) {
  if (!any_block_has(has_nan_or_minus_inf, x, n)) return;
  torch_max_pool(w, xi, yi, [x](std::int64_t i) { return x[i]; }, [y](std::int64_t i, float v) { y[i] = v; });
}

void repair_max_pool_bf16(const MaxPoolWindows& w, const std::uint16_t* x, const BlockedIndex& xi, std::int64_t n,
                          std::uint16_t* y, const BlockedIndex& yi) {
  if (!any_block_has(has_nan_or_minus_inf_bf16, x, n)) return;
  torch_max_pool(
      w, xi, yi, [x](std::int64_t i) { return ir::bf16_to_float(x[i]); },
      [y](std::int64_t i, float v) { y[i] = ir::float_to_bf16(v); });
}

void repair_softmax(const float* x, float* y, std::int64_t outer, std::int64_t len, std::int64_t inner) {
  // oneDNN gets a row wrong only when it holds NaN or +inf: -inf among finite
  // values (an attention mask) is exact (exp(-inf - max) = 0), and a row of
  // -inf throughout comes out NaN as torch's (0 / 0). So the common inputs,
  // masked or not, need one vectorized pass; the rows are looked at one by
  // one only when something is NaN or +inf.
  if (!any_block_has(has_nan_or_plus_inf, x, outer * len * inner)) return;
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::int64_t i = 0; i < inner; ++i) {
      const std::int64_t base = o * len * inner + i;
      // Rows all finite need nothing; the exact max only for the others.
      int odd = 0;
      for (std::int64_t j = 0; j < len; ++j) odd |= static_cast<int>(!(std::fabs(x[base + j * inner]) <= FLT_MAX));
      if (!odd) continue;
      float mx = x[base];  // NaN-propagating max of the row
      for (std::int64_t j = 1; j < len; ++j) {
        const float v = x[base + j * inner];
        mx = (v > mx || std::isnan(v)) && !std::isnan(mx) ? v : mx;
      }
      if (std::isfinite(mx)) continue;
      for (std::int64_t j = 0; j < len; ++j) y[base + j * inner] = std::numeric_limits<float>::quiet_NaN();
    }
  }
}

}  // namespace atenrt::runtime::cpu::own
