// Triangular and symmetric factorizations: Cholesky (potrf/potrs/potri),
// triangular solves (BLAS trsm, as PyTorch) and LDL^T (sytrf/sytrs).
#include "reference/linalg_job.h"

namespace atenrt::reference::linalg {
namespace {

// Zeroes the triangle of a column-major n x n matrix that `keep_upper` drops.
template <typename T>
void keep_triangle(T* a, std::int64_t n, std::int64_t ld, bool keep_upper) {
  for (std::int64_t c = 0; c < n; ++c)
    for (std::int64_t r = 0; r < n; ++r) {
      if (keep_upper ? r > c : r < c) a[r + c * ld] = T(0);
    }
}

}  // namespace

template <typename T>
void cholesky(Job<T>& j) {
  const std::int64_t n = j.rows(0);
  const lint ln = j.lp(n, "n"), ld = ld_of(ln);
  T* a = j.template take<T>(n * n);
  if (j.sizing) return;
  const char uplo = j.p.upper ? 'U' : 'L';
  for (std::int64_t b = 0; b < j.batch(); ++b) {
    to_col(j.input(0, b, n * n), n, n, a, ld);
    lint info = 0;
    if (n > 0) lapack::potrf(uplo, ln, a, ld, &info);
    j.check_info(info, b);
    keep_triangle(a, n, ld, j.p.upper);
    from_col(a, n, n, ld, j.output(0, b, n * n));
    *j.template output<std::int32_t>(1, b, 1) = info;
  }
}

template <typename T>
void cholesky_solve(Job<T>& j) {  // inputs: B [n, k], L [n, n]
  const std::int64_t n = j.rows(0), k = j.cols(0);
  const lint ln = j.lp(n, "n"), lk = j.lp(k, "right-hand sides"), ld = ld_of(ln);
  T* l = j.template take<T>(n * n);
  T* x = j.template take<T>(n * k);
  if (j.sizing) return;
  for (std::int64_t b = 0; b < j.batch(); ++b) {
    to_col(j.input(1, b, n * n), n, n, l, ld);
    to_col(j.input(0, b, n * k), n, k, x, ld);
    lint info = 0;
    if (n > 0 && k > 0) lapack::potrs(j.p.upper ? 'U' : 'L', ln, lk, l, ld, x, ld, &info);
    from_col(x, n, k, ld, j.output(0, b, n * k));
  }
}

template <typename T>
void cholesky_inverse(Job<T>& j) {
  const std::int64_t n = j.rows(0);
  const lint ln = j.lp(n, "n"), ld = ld_of(ln);
  T* a = j.template take<T>(n * n);
  if (j.sizing) return;
  const bool upper = j.p.upper;
  for (std::int64_t b = 0; b < j.batch(); ++b) {
    to_col(j.input(0, b, n * n), n, n, a, ld);
    lint info = 0;
    if (n > 0) lapack::potri(upper ? 'U' : 'L', ln, a, ld, &info);
    // potri fills one triangle of the symmetric inverse: mirror it.
    for (std::int64_t c = 0; c < n; ++c)
      for (std::int64_t r = c + 1; r < n; ++r) {
        if (upper) {
          a[r + c * ld] = a[c + r * ld];
        } else {
          a[c + r * ld] = a[r + c * ld];
        }
      }
    from_col(a, n, n, ld, j.output(0, b, n * n));
  }
}

template <typename T>
void triangular_solve(Job<T>& j) {  // inputs: A [n, n], B [m, k]
  const std::int64_t n = j.rows(0), m = j.rows(1), k = j.cols(1);
  const lint ln = j.lp(n, "n"), lm = j.lp(m, "B's rows"), lk = j.lp(k, "B's columns");
  const lint lda = ld_of(ln), ldb = ld_of(lm);
  T* a = j.template take<T>(n * n);
  T* x = j.template take<T>(m * k);
  if (j.sizing) return;
  const auto& p = j.p;
  for (std::int64_t b = 0; b < j.batch(); ++b) {
    to_col(j.input(0, b, n * n), n, n, a, lda);
    to_col(j.input(1, b, m * k), m, k, x, ldb);
    if (m > 0 && k > 0) {
      lapack::trsm(p.left ? 'L' : 'R', p.upper ? 'U' : 'L', p.transpose ? 'T' : 'N', p.unit_diagonal ? 'U' : 'N', lm,
                   lk, T(1), a, lda, x, ldb);
    }
    from_col(x, m, k, ldb, j.output(0, b, m * k));
  }
}

// LDL^T as PyTorch: sytrf on the lower triangle (upper when `upper`), the
// other triangle of LD zeroed, LAPACK's pivots (negative for 2x2 blocks).
template <typename T>
void ldl_factor(Job<T>& j) {
  const std::int64_t n = j.rows(0);
  const lint ln = j.lp(n, "n"), ld = ld_of(ln);
  const char uplo = j.p.upper ? 'U' : 'L';
  T query{};
  lint qinfo = 0, qpiv = 0;
  T dummy{};
  if (n > 0) lapack::sytrf(uplo, ln, &dummy, ld, &qpiv, &query, -1, &qinfo);
  const lint lwork = j.work(static_cast<double>(query), 1, "sytrf");
  T* a = j.template take<T>(n * n);
  lint* piv = j.template take<lint>(n);
  T* work = j.template take<T>(lwork);
  if (j.sizing) return;
  for (std::int64_t b = 0; b < j.batch(); ++b) {
    to_col(j.input(0, b, n * n), n, n, a, ld);
    lint info = 0;
    if (n > 0) lapack::sytrf(uplo, ln, a, ld, piv, work, lwork, &info);
    j.check_info(info, b);
    keep_triangle(a, n, ld, j.p.upper);
    from_col(a, n, n, ld, j.output(0, b, n * n));
    std::copy_n(piv, n, j.template output<std::int32_t>(1, b, n));
    *j.template output<std::int32_t>(2, b, 1) = info;
  }
}

template <typename T>
void ldl_solve(Job<T>& j) {  // inputs: LD [n, n], pivots [n], B [n, k]
  const std::int64_t n = j.rows(0), k = j.cols(2);
  const lint ln = j.lp(n, "n"), lk = j.lp(k, "right-hand sides"), ld = ld_of(ln);
  T* a = j.template take<T>(n * n);
  T* x = j.template take<T>(n * k);
  if (j.sizing) return;
  const bool upper = j.p.upper;
  for (std::int64_t b = 0; b < j.batch(); ++b) {
    const auto* piv = j.template input<std::int32_t>(1, b, n);
    // sytrs swaps rows |piv| and reads a 2x2 block at each pair of equal
    // negative pivots (positions i, i+1): both must stay inside the matrix.
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t v = piv[i] < 0 ? -static_cast<std::int64_t>(piv[i]) : piv[i];
      if (v < 1 || v > n) j.bad_input("pivot " + std::to_string(piv[i]) + " at position " + std::to_string(i) + " is out of range");
      if (piv[i] < 0) {
        const std::int64_t mate = i + 1;
        if (mate >= n || piv[mate] != piv[i]) {
          j.bad_input("negative pivot " + std::to_string(piv[i]) + " at position " + std::to_string(i) +
                      " is not one of a 2x2 block's pair");
        }
        ++i;  // the pair's second entry is checked with it
      }
    }
    to_col(j.input(0, b, n * n), n, n, a, ld);
    to_col(j.input(2, b, n * k), n, k, x, ld);
    lint info = 0;
    if (n > 0 && k > 0) lapack::sytrs(upper ? 'U' : 'L', ln, lk, a, ld, piv, x, ld, &info);
    from_col(x, n, k, ld, j.output(0, b, n * k));
  }
}

#define ATENRT_LINALG_INSTANTIATE(fn) \
  template void fn<float>(Job<float>&); \
  template void fn<double>(Job<double>&);
ATENRT_LINALG_INSTANTIATE(cholesky)
ATENRT_LINALG_INSTANTIATE(cholesky_solve)
ATENRT_LINALG_INSTANTIATE(cholesky_inverse)
ATENRT_LINALG_INSTANTIATE(triangular_solve)
ATENRT_LINALG_INSTANTIATE(ldl_factor)
ATENRT_LINALG_INSTANTIATE(ldl_solve)
#undef ATENRT_LINALG_INSTANTIATE

}  // namespace atenrt::reference::linalg
