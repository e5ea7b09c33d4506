// LU-based linear algebra: inverse, solve, LU factor/unpack/solve and the
// determinant, on LAPACK's getrf/getrs. Where PyTorch factors A^T (solve,
// inverse, det: a row-major A is a column-major A^T, so it skips a copy) we
// do too, so that LU, pivots and rounding are PyTorch's.
#include <vector>

#include "reference/linalg_job.h"

namespace atenrt::reference::linalg {
namespace {

// Checks run-time pivots before LAPACK or an unpack indexes rows with them.
template <typename T>
void check_pivots(const Job<T>& j, const std::int32_t* piv, std::int64_t k, std::int64_t rows) {
  for (std::int64_t i = 0; i < k; ++i) {
    if (piv[i] < 1 || piv[i] > rows) {
      j.bad_input("pivot " + std::to_string(piv[i]) + " at position " + std::to_string(i) +
                  " is out of range [1, " + std::to_string(rows) + "]");
    }
  }
}

// P [m, m] (A = P L U), L [m, k] unit lower, U [k, n] upper, from a row-major
// LU [m, n] and its pivots. Null outputs are skipped.
template <typename T>
void unpack(const T* lu, const lint* piv, std::int64_t m, std::int64_t n, std::int64_t* perm, T* P, T* L, T* U) {
  const std::int64_t k = std::min(m, n);
  if (P) {
    pivots_to_perm(piv, k, m, perm);
    std::fill(P, P + m * m, T(0));
    for (std::int64_t i = 0; i < m; ++i) P[perm[i] * m + i] = T(1);
  }
  if (L) {
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t c = 0; c < k; ++c) L[i * k + c] = c < i ? lu[i * n + c] : (c == i ? T(1) : T(0));
  }
  if (U) {
    for (std::int64_t r = 0; r < k; ++r)
      for (std::int64_t c = 0; c < n; ++c) U[r * n + c] = c >= r ? lu[r * n + c] : T(0);
  }
}

void identity_col(float* x, std::int64_t n) {
  std::fill(x, x + n * n, 0.f);
  for (std::int64_t i = 0; i < n; ++i) x[i * n + i] = 1.f;
}
void identity_col(double* x, std::int64_t n) {
  std::fill(x, x + n * n, 0.0);
  for (std::int64_t i = 0; i < n; ++i) x[i * n + i] = 1.0;
}

}  // namespace

template <typename T>
void inverse(Job<T>& j) {
  const std::int64_t n = j.rows(0);
  const lint ln = j.lp(n, "n"), ld = ld_of(ln);
  T* a = j.template take<T>(n * n);
  T* x = j.template take<T>(n * n);
  lint* piv = j.template take<lint>(n);
  if (j.sizing) return;
  for (std::int64_t b = 0; b < j.batch(); ++b) {
    std::copy_n(j.input(0, b, n * n), n * n, a);  // column-major A^T
    lint info = 0, solved = 0;
    if (n > 0) lapack::getrf(ln, ln, a, ld, piv, &info);
    j.check_info(info, b);
    identity_col(x, n);
    if (n > 0) lapack::getrs('T', ln, ln, a, ld, piv, x, ld, &solved);
    from_col(x, n, n, n, j.output(0, b, n * n));
    *j.template output<std::int32_t>(1, b, 1) = info;
  }
}

template <typename T>
void solve(Job<T>& j) {
  const std::int64_t n = j.rows(0);
  const bool left = j.p.left;
  const std::int64_t k = left ? j.cols(1) : j.rows(1);  // right-hand sides
  const lint ln = j.lp(n, "n"), lk = j.lp(k, "right-hand sides"), ld = ld_of(ln);
  j.lp(n * k, "B's elements");
  T* a = j.template take<T>(n * n);
  T* x = j.template take<T>(n * k);
  lint* piv = j.template take<lint>(n);
  if (j.sizing) return;
  for (std::int64_t b = 0; b < j.batch(); ++b) {
    std::copy_n(j.input(0, b, n * n), n * n, a);  // column-major A^T
    lint info = 0, solved = 0;
    if (n > 0) lapack::getrf(ln, ln, a, ld, piv, &info);
    j.check_info(info, b);
    const T* B = j.input(1, b, n * k);
    // Left: A X = B is (A^T)^T X = B. Right: X A = B is A^T X^T = B^T, and a
    // row-major B [k, n] is the column-major B^T.
    if (left) {
      to_col(B, n, k, x, n);
    } else {
      std::copy_n(B, n * k, x);
    }
    if (n > 0 && k > 0) lapack::getrs(left ? 'T' : 'N', ln, lk, a, ld, piv, x, ld, &solved);
    T* X = j.output(0, b, n * k);
    if (left) {
      from_col(x, n, k, n, X);
    } else {
      std::copy_n(x, n * k, X);
    }
    from_col(a, n, n, n, j.output(1, b, n * n));
    std::copy_n(piv, n, j.template output<std::int32_t>(2, b, n));
    *j.template output<std::int32_t>(3, b, 1) = info;
  }
}

template <typename T>
void lu_factor(Job<T>& j) {
  const std::int64_t m = j.rows(0), n = j.cols(0), k = std::min(m, n);
  const lint lm = j.lp(m, "m"), ln = j.lp(n, "n"), ld = ld_of(lm);
  T* a = j.template take<T>(m * n);
  lint* piv = j.template take<lint>(k);
  if (j.sizing) return;
  for (std::int64_t b = 0; b < j.batch(); ++b) {
    to_col(j.input(0, b, m * n), m, n, a, ld);
    lint info = 0;
    if (k > 0) lapack::getrf(lm, ln, a, ld, piv, &info);
    j.check_info(info, b);
    from_col(a, m, n, ld, j.output(0, b, m * n));
    std::copy_n(piv, k, j.template output<std::int32_t>(1, b, k));
    *j.template output<std::int32_t>(2, b, 1) = info;
  }
}

template <typename T>
void lu(Job<T>& j) {
  const std::int64_t m = j.rows(0), n = j.cols(0), k = std::min(m, n);
  const lint lm = j.lp(m, "m"), ln = j.lp(n, "n"), ld = ld_of(lm);
  j.lp(m * m, "P's elements");
  T* a = j.template take<T>(m * n);
  T* rm = j.template take<T>(m * n);
  lint* piv = j.template take<lint>(k);
  auto* perm = j.template take<std::int64_t>(m);
  if (j.sizing) return;
  for (std::int64_t b = 0; b < j.batch(); ++b) {
    to_col(j.input(0, b, m * n), m, n, a, ld);
    lint info = 0;
    if (k > 0) lapack::getrf(lm, ln, a, ld, piv, &info);
    from_col(a, m, n, ld, rm);
    unpack(rm, piv, m, n, perm, j.output(0, b, m * m), j.output(1, b, m * k), j.output(2, b, k * n));
  }
}

template <typename T>
void lu_unpack(Job<T>& j) {
  const std::int64_t m = j.rows(0), n = j.cols(0), k = std::min(m, n);
  j.lp(m * m, "P's elements");
  auto* perm = j.template take<std::int64_t>(m);
  if (j.sizing) return;
  for (std::int64_t b = 0; b < j.batch(); ++b) {
    const auto* piv = j.template input<std::int32_t>(1, b, k);
    if (j.p.pivots) check_pivots(j, piv, k, m);
    unpack(j.input(0, b, m * n), piv, m, n, perm, j.p.pivots ? j.output(0, b, m * m) : nullptr,
           j.p.vectors ? j.output(1, b, m * k) : nullptr, j.p.vectors ? j.output(2, b, k * n) : nullptr);
  }
}

template <typename T>
void lu_solve(Job<T>& j) {
  const std::int64_t n = j.rows(0);
  const bool left = j.p.left;
  const std::int64_t k = left ? j.cols(2) : j.rows(2);
  const lint ln = j.lp(n, "n"), lk = j.lp(k, "right-hand sides"), ld = ld_of(ln);
  j.lp(n * k, "B's elements");
  T* a = j.template take<T>(n * n);
  T* x = j.template take<T>(n * k);
  if (j.sizing) return;
  for (std::int64_t b = 0; b < j.batch(); ++b) {
    const auto* piv = j.template input<std::int32_t>(1, b, n);
    check_pivots(j, piv, n, n);
    to_col(j.input(0, b, n * n), n, n, a, ld);
    const T* B = j.input(2, b, n * k);
    // Left: A X = B (adjoint: A^T X = B). Right: X A = B is A^T X^T = B^T
    // (adjoint: A X^T = B^T), B^T being a row-major B's column-major view.
    const bool trans = left ? j.p.transpose : !j.p.transpose;
    if (left) {
      to_col(B, n, k, x, n);
    } else {
      std::copy_n(B, n * k, x);
    }
    lint solved = 0;
    if (n > 0 && k > 0) lapack::getrs(trans ? 'T' : 'N', ln, lk, a, ld, piv, x, ld, &solved);
    T* X = j.output(0, b, n * k);
    if (left) {
      from_col(x, n, k, n, X);
    } else {
      std::copy_n(x, n * k, X);
    }
  }
}

// det / slogdet from the LU of A^T: the product of U's diagonal, its sign
// flipped once per row swap.
template <typename T>
void det(Job<T>& j) {
  const bool slog = j.p.op == network::LinalgOp::Slogdet;
  const std::int64_t n = j.rows(0);
  const lint ln = j.lp(n, "n"), ld = ld_of(ln);
  T* a = j.template take<T>(n * n);
  lint* piv = j.template take<lint>(n);
  if (j.sizing) return;
  const std::size_t lu_out = slog ? 2 : 1;
  for (std::int64_t b = 0; b < j.batch(); ++b) {
    std::copy_n(j.input(0, b, n * n), n * n, a);
    lint info = 0;
    if (n > 0) lapack::getrf(ln, ln, a, ld, piv, &info);
    bool odd = false;
    for (std::int64_t i = 0; i < n; ++i) odd ^= piv[i] != i + 1;
    if (slog) {
      T sign = odd ? T(-1) : T(1), logabs = T(0);
      for (std::int64_t i = 0; i < n; ++i) {
        const T d = a[i * n + i];
        sign *= d > 0 ? T(1) : (d < 0 ? T(-1) : T(0));
        logabs += std::log(std::abs(d));
      }
      *j.output(0, b, 1) = sign;
      *j.output(1, b, 1) = logabs;
    } else {
      T prod = T(1);
      for (std::int64_t i = 0; i < n; ++i) prod *= a[i * n + i];
      *j.output(0, b, 1) = odd ? -prod : prod;
    }
    from_col(a, n, n, n, j.output(lu_out, b, n * n));
    std::copy_n(piv, n, j.template output<std::int32_t>(lu_out + 1, b, n));
  }
}

#define ATENRT_LINALG_INSTANTIATE(fn) \
  template void fn<float>(Job<float>&); \
  template void fn<double>(Job<double>&);
ATENRT_LINALG_INSTANTIATE(inverse)
ATENRT_LINALG_INSTANTIATE(solve)
ATENRT_LINALG_INSTANTIATE(lu_factor)
ATENRT_LINALG_INSTANTIATE(lu)
ATENRT_LINALG_INSTANTIATE(lu_unpack)
ATENRT_LINALG_INSTANTIATE(lu_solve)
ATENRT_LINALG_INSTANTIATE(det)
#undef ATENRT_LINALG_INSTANTIATE

}  // namespace atenrt::reference::linalg
