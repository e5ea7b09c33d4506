// QR (geqrf/orgqr/ormqr), SVD (gesdd), symmetric eigendecomposition (syevd)
// and the pseudo-inverse built on them, with PyTorch's drivers, so signs and
// order of U, V, Q and eigenvectors are the ones PyTorch returns.
#include <optional>
#include <vector>

#include "reference/linalg_job.h"

namespace atenrt::reference::linalg {

template <typename T>
void qr(Job<T>& j) {
  const std::int64_t m = j.rows(0), n = j.cols(0), k = std::min(m, n);
  const bool full = j.p.full, vectors = j.p.vectors;
  const std::int64_t qcols = full ? m : k, rrows = full ? m : k, width = std::max(n, qcols);
  const lint lm = j.lp(m, "m"), ln = j.lp(n, "n"), lq = j.lp(qcols, "Q's columns"), lk = j.lp(k, "k");
  const lint ld = ld_of(lm);
  j.lp(m * width, "the work matrix");
  T q1{}, q2{}, dummy{};
  lint info = 0;
  lapack::geqrf(lm, ln, &dummy, ld, &dummy, &q1, -1, &info);
  if (vectors) lapack::orgqr(lm, lq, lk, &dummy, ld, &dummy, &q2, -1, &info);
  const lint lwork = j.work(std::max<double>(q1, q2), std::max<std::int64_t>(n, qcols), "geqrf/orgqr");
  T* a = j.template take<T>(m * width);
  T* tau = j.template take<T>(k);
  T* work = j.template take<T>(lwork);
  if (j.sizing) return;
  for (std::int64_t b = 0; b < j.batch(); ++b) {
    to_col(j.input(0, b, m * n), m, n, a, ld);
    lapack::geqrf(lm, ln, a, ld, tau, work, lwork, &info);
    T* R = j.output(1, b, rrows * n);
    for (std::int64_t r = 0; r < rrows; ++r)
      for (std::int64_t c = 0; c < n; ++c) R[r * n + c] = r <= c && r < m ? a[r + c * ld] : T(0);
    if (!vectors) continue;
    lapack::orgqr(lm, lq, lk, a, ld, tau, work, lwork, &info);
    from_col(a, m, qcols, ld, j.output(0, b, m * qcols));
  }
}

template <typename T>
void geqrf(Job<T>& j) {
  const std::int64_t m = j.rows(0), n = j.cols(0), k = std::min(m, n);
  const lint lm = j.lp(m, "m"), ln = j.lp(n, "n"), ld = ld_of(lm);
  T q{}, dummy{};
  lint info = 0;
  lapack::geqrf(lm, ln, &dummy, ld, &dummy, &q, -1, &info);
  const lint lwork = j.work(q, n, "geqrf");
  T* a = j.template take<T>(m * n);
  T* work = j.template take<T>(lwork);
  if (j.sizing) return;
  for (std::int64_t b = 0; b < j.batch(); ++b) {
    to_col(j.input(0, b, m * n), m, n, a, ld);
    lapack::geqrf(lm, ln, a, ld, j.output(1, b, k), work, lwork, &info);
    from_col(a, m, n, ld, j.output(0, b, m * n));
  }
}

template <typename T>
void householder_product(Job<T>& j) {  // A [m, n], tau [k]
  const std::int64_t m = j.rows(0), n = j.cols(0), k = j.last(1);
  const lint lm = j.lp(m, "m"), ln = j.lp(n, "n"), lk = j.lp(k, "k"), ld = ld_of(lm);
  T q{}, dummy{};
  lint info = 0;
  lapack::orgqr(lm, ln, lk, &dummy, ld, &dummy, &q, -1, &info);
  const lint lwork = j.work(q, n, "orgqr");
  T* a = j.template take<T>(m * n);
  T* work = j.template take<T>(lwork);
  if (j.sizing) return;
  for (std::int64_t b = 0; b < j.batch(); ++b) {
    to_col(j.input(0, b, m * n), m, n, a, ld);
    lapack::orgqr(lm, ln, lk, a, ld, j.input(1, b, k), work, lwork, &info);
    from_col(a, m, n, ld, j.output(0, b, m * n));
  }
}

template <typename T>
void ormqr(Job<T>& j) {  // A [mn, ak], tau [k], C [m, n]
  const std::int64_t ar = j.rows(0), ak = j.cols(0), k = j.last(1), m = j.rows(2), n = j.cols(2);
  const char side = j.p.left ? 'L' : 'R', trans = j.p.transpose ? 'T' : 'N';
  const lint lar = j.lp(ar, "A's rows"), lk = j.lp(k, "k"), lm = j.lp(m, "m"), ln = j.lp(n, "n");
  const lint lda = ld_of(lar), ldc = ld_of(lm);
  T q{}, dummy{};
  lint info = 0;
  lapack::ormqr(side, trans, lm, ln, lk, &dummy, lda, &dummy, &dummy, ldc, &q, -1, &info);
  const lint lwork = j.work(q, j.p.left ? n : m, "ormqr");
  T* a = j.template take<T>(ar * ak);
  T* c = j.template take<T>(m * n);
  T* work = j.template take<T>(lwork);
  if (j.sizing) return;
  for (std::int64_t b = 0; b < j.batch(); ++b) {
    to_col(j.input(0, b, ar * ak), ar, ak, a, lda);
    to_col(j.input(2, b, m * n), m, n, c, ldc);
    lapack::ormqr(side, trans, lm, ln, lk, a, lda, j.input(1, b, k), c, ldc, work, lwork, &info);
    from_col(c, m, n, ldc, j.output(0, b, m * n));
  }
}

namespace {

// One gesdd over a column-major copy: U [m, ucols], S [k], Vt [vrows, n],
// all column-major in the job's scratch. Sized and run by the same calls.
template <typename T>
struct Svd {
  std::int64_t m, n, k, ucols, vrows;
  char jobz;
  lint lm, ln, ldu, ldvt, lwork = 1;
  T *a = nullptr, *s = nullptr, *u = nullptr, *vt = nullptr, *work = nullptr;
  lint* iwork = nullptr;

  Svd(Job<T>& j, std::int64_t rows, std::int64_t cols, bool vectors, bool full)
      : m(rows), n(cols), k(std::min(rows, cols)), ucols(full ? rows : k), vrows(full ? cols : k),
        jobz(vectors ? (full ? 'A' : 'S') : 'N'), lm(j.lp(m, "m")), ln(j.lp(n, "n")),
        ldu(ld_of(vectors ? lm : 1)), ldvt(ld_of(vectors ? j.lp(vrows, "V's rows") : 1)) {
    j.lp(m * std::max(ucols, n), "U's elements");
    j.lp(vrows * n, "V's elements");
    T q{}, dummy{};
    lint idummy = 0, info = 0;
    lapack::gesdd(jobz, lm, ln, &dummy, ld_of(lm), &dummy, &dummy, ldu, &dummy, ldvt, &q, -1, &idummy, &info);
    lwork = j.work(q, 1, "gesdd");
    a = j.template take<T>(m * n);
    s = j.template take<T>(k);
    u = j.template take<T>(vectors ? m * ucols : 1);
    vt = j.template take<T>(vectors ? vrows * n : 1);
    work = j.template take<T>(lwork);
    iwork = j.template take<lint>(8 * k);
  }
  // Decomposes the row-major matrix at `x`; LAPACK's info (-4: a NaN in it,
  // > 0: did not converge).
  lint run(const T* x) {
    to_col(x, m, n, a, ld_of(lm));
    if (k == 0) return 0;
    lint info = 0;
    lapack::gesdd(jobz, lm, ln, a, ld_of(lm), s, u, ldu, vt, ldvt, work, lwork, iwork, &info);
    return info;
  }
};

// One syevd over a column-major copy: eigenvalues w [n] ascending, vectors in a.
template <typename T>
struct Eigh {
  std::int64_t n;
  char jobz, uplo;
  lint ln, lwork = 1, liwork = 1;
  T *a = nullptr, *w = nullptr, *work = nullptr;
  lint* iwork = nullptr;

  Eigh(Job<T>& j, std::int64_t size, bool vectors, bool upper)
      : n(size), jobz(vectors ? 'V' : 'N'), uplo(upper ? 'U' : 'L'), ln(j.lp(n, "n")) {
    T q{}, dummy{};
    lint iq = 0, info = 0;
    if (n > 0) lapack::syevd(jobz, uplo, ln, &dummy, ld_of(ln), &dummy, &q, -1, &iq, -1, &info);
    lwork = j.work(q, 1, "syevd");
    liwork = j.work(iq, 1, "syevd");
    a = j.template take<T>(n * n);
    w = j.template take<T>(n);
    work = j.template take<T>(lwork);
    iwork = j.template take<lint>(liwork);
  }
  lint run(const T* x) {
    to_col(x, n, n, a, ld_of(ln));
    if (n == 0) return 0;
    lint info = 0;
    lapack::syevd(jobz, uplo, ln, a, ld_of(ln), w, work, lwork, iwork, liwork, &info);
    return info;
  }
};

std::string not_converged(const char* routine, const char* torch_fn) {
  return std::string(routine) + " did not converge: the matrix holds NaN or inf, or is too ill-conditioned " +
         "(PyTorch's " + torch_fn + " raises on it too)";
}

}  // namespace

template <typename T>
void svd(Job<T>& j) {
  const bool vectors = j.p.vectors;
  Svd<T> d(j, j.rows(0), j.cols(0), vectors, j.p.full);
  if (j.sizing) return;
  const std::int64_t m = d.m, n = d.n, k = d.k;
  for (std::int64_t b = 0; b < j.batch(); ++b) {
    if (d.run(j.input(0, b, m * n)) != 0) j.bad_input(not_converged("gesdd", "linalg.svd"));
    std::copy_n(d.s, k, j.output(1, b, k));
    if (!vectors) continue;
    // An empty matrix has no singular vectors to compute: identity, as PyTorch.
    if (k == 0) {
      T* U = j.output(0, b, m * d.ucols);
      T* V = j.output(2, b, d.vrows * n);
      std::fill(U, U + m * d.ucols, T(0));
      std::fill(V, V + d.vrows * n, T(0));
      for (std::int64_t i = 0; i < std::min(m, d.ucols); ++i) U[i * d.ucols + i] = T(1);
      for (std::int64_t i = 0; i < std::min(d.vrows, n); ++i) V[i * n + i] = T(1);
      continue;
    }
    from_col(d.u, m, d.ucols, d.ldu, j.output(0, b, m * d.ucols));
    from_col(d.vt, d.vrows, n, d.ldvt, j.output(2, b, d.vrows * n));
  }
}

template <typename T>
void eigh(Job<T>& j) {
  Eigh<T> e(j, j.rows(0), j.p.vectors, j.p.upper);
  if (j.sizing) return;
  const std::int64_t n = e.n;
  for (std::int64_t b = 0; b < j.batch(); ++b) {
    if (e.run(j.input(0, b, n * n)) != 0) j.bad_input(not_converged("syevd", "linalg.eigh"));
    std::copy_n(e.w, n, j.output(0, b, n));
    if (j.p.vectors) from_col(e.a, n, n, ld_of(e.ln), j.output(1, b, n * n));
  }
}

// PyTorch's pinv: singular values (|eigenvalues| when hermitian) above
// max(atol, rtol * largest) are inverted, the rest dropped;
// result = V diag(s+) U^T (U diag(s+) U^T when hermitian).
template <typename T>
void pinv(Job<T>& j) {
  const std::int64_t m = j.rows(0), n = j.cols(0);
  const bool herm = j.p.hermitian;
  std::optional<Svd<T>> d;
  std::optional<Eigh<T>> e;
  if (herm) {
    e.emplace(j, n, true, false);
  } else {
    d.emplace(j, m, n, true, false);
  }
  const std::int64_t k = herm ? n : std::min(m, n);
  T* sinv = j.template take<T>(k);
  if (j.sizing) return;
  for (std::int64_t b = 0; b < j.batch(); ++b) {
    const T* x = j.input(0, b, m * n);
    const double atol = *j.template input<double>(1, b, 1), rtol = *j.template input<double>(2, b, 1);
    const T* s = nullptr;
    if (herm) {
      if (e->run(x) != 0) j.bad_input(not_converged("syevd", "linalg.pinv"));
      s = e->w;
    } else {
      if (d->run(x) != 0) j.bad_input(not_converged("gesdd", "linalg.pinv"));
      s = d->s;
    }
    double largest = 0;
    for (std::int64_t i = 0; i < k; ++i) largest = std::max(largest, static_cast<double>(herm ? std::abs(s[i]) : s[i]));
    if (!herm && k > 0) largest = s[0];  // descending: PyTorch takes the first
    const double tol = std::max(atol, rtol * largest);
    for (std::int64_t i = 0; i < k; ++i) {
      const double mag = herm ? std::abs(s[i]) : s[i];
      sinv[i] = mag > tol ? T(1) / s[i] : T(0);
    }
    // out [n, m]: out[r][c] = sum_l V[r][l] sinv[l] U[c][l].
    T* out = j.output(0, b, n * m);
    for (std::int64_t r = 0; r < n; ++r)
      for (std::int64_t c = 0; c < m; ++c) {
        double acc = 0;
        for (std::int64_t l = 0; l < k; ++l) {
          const T v = herm ? e->a[r + l * n] : d->vt[l + r * d->ldvt];
          const T u = herm ? e->a[c + l * n] : d->u[c + l * d->ldu];
          acc += static_cast<double>(static_cast<T>(v * sinv[l])) * u;
        }
        out[r * m + c] = static_cast<T>(acc);
      }
  }
}

#define ATENRT_LINALG_INSTANTIATE(fn) \
  template void fn<float>(Job<float>&); \
  template void fn<double>(Job<double>&);
ATENRT_LINALG_INSTANTIATE(qr)
ATENRT_LINALG_INSTANTIATE(geqrf)
ATENRT_LINALG_INSTANTIATE(householder_product)
ATENRT_LINALG_INSTANTIATE(ormqr)
ATENRT_LINALG_INSTANTIATE(svd)
ATENRT_LINALG_INSTANTIATE(eigh)
ATENRT_LINALG_INSTANTIATE(pinv)
#undef ATENRT_LINALG_INSTANTIATE

}  // namespace atenrt::reference::linalg
