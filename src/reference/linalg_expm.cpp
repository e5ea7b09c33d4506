// Matrix exponential: LAPACK has none, so this is Higham's scaling and
// squaring with the degree-13 Padé approximant ("The scaling and squaring
// method for the matrix exponential revisited", 2005), in double for both
// dtypes (PyTorch's own algorithm differs; both are accurate to the dtype's
// rounding, which the tests' tolerances cover). The solve is LAPACK's.
#include <vector>

#include "reference/linalg_job.h"

namespace atenrt::reference::linalg {
namespace {

// c = a b for n x n row-major doubles.
void matmul(const double* a, const double* b, double* c, std::int64_t n) {
  std::fill(c, c + n * n, 0.0);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t l = 0; l < n; ++l) {
      const double v = a[i * n + l];
      for (std::int64_t k = 0; k < n; ++k) c[i * n + k] += v * b[l * n + k];
    }
}

constexpr double kTheta13 = 5.371920351148152;
constexpr double kPade13[14] = {64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0,
                                129060195264000.0,   10559470521600.0,    670442572800.0,     33522128640.0,
                                1323241920.0,        40840800.0,          960960.0,           16380.0,
                                182.0,               1.0};

}  // namespace

template <typename T>
void matrix_exp(Job<T>& j) {
  const std::int64_t n = j.rows(0), nn = n * n;
  const lint ln = j.lp(n, "n"), ld = ld_of(ln);
  double* w = j.template take<double>(8 * nn);
  lint* piv = j.template take<lint>(n);
  if (j.sizing) return;
  double *a = w, *a2 = w + nn, *a4 = w + 2 * nn, *a6 = w + 3 * nn, *u = w + 4 * nn, *v = w + 5 * nn,
         *t = w + 6 * nn, *x = w + 7 * nn;
  const double* b = kPade13;
  for (std::int64_t bi = 0; bi < j.batch(); ++bi) {
    const T* in = j.input(0, bi, nn);
    T* out = j.output(0, bi, nn);
    // The 1-norm picks the scaling: A / 2^s has norm <= theta_13.
    double norm = 0;
    for (std::int64_t c = 0; c < n; ++c) {
      double col = 0;
      for (std::int64_t r = 0; r < n; ++r) col += std::abs(static_cast<double>(in[r * n + c]));
      norm = std::isnan(col) || std::isnan(norm) ? std::numeric_limits<double>::quiet_NaN() : std::max(norm, col);
    }
    if (!std::isfinite(norm)) {  // NaN or inf anywhere: no finite result
      std::fill(out, out + nn, std::numeric_limits<T>::quiet_NaN());
      continue;
    }
    const int s = norm > kTheta13 ? static_cast<int>(std::ceil(std::log2(norm / kTheta13))) : 0;
    const double scale = std::ldexp(1.0, -s);
    for (std::int64_t i = 0; i < nn; ++i) a[i] = static_cast<double>(in[i]) * scale;
    matmul(a, a, a2, n);
    matmul(a2, a2, a4, n);
    matmul(a2, a4, a6, n);
    // U = A [A6 (b13 A6 + b11 A4 + b9 A2) + b7 A6 + b5 A4 + b3 A2 + b1 I]
    // V =    A6 (b12 A6 + b10 A4 + b8 A2) + b6 A6 + b4 A4 + b2 A2 + b0 I
    for (std::int64_t i = 0; i < nn; ++i) t[i] = b[13] * a6[i] + b[11] * a4[i] + b[9] * a2[i];
    matmul(a6, t, x, n);
    for (std::int64_t i = 0; i < nn; ++i) x[i] += b[7] * a6[i] + b[5] * a4[i] + b[3] * a2[i];
    for (std::int64_t i = 0; i < n; ++i) x[i * n + i] += b[1];
    matmul(a, x, u, n);
    for (std::int64_t i = 0; i < nn; ++i) t[i] = b[12] * a6[i] + b[10] * a4[i] + b[8] * a2[i];
    matmul(a6, t, v, n);
    for (std::int64_t i = 0; i < nn; ++i) v[i] += b[6] * a6[i] + b[4] * a4[i] + b[2] * a2[i];
    for (std::int64_t i = 0; i < n; ++i) v[i * n + i] += b[0];
    // (V - U) X = V + U. Row-major buffers are column-major transposes, so
    // solve (V - U)^T^T: factor the buffer of (V - U) and solve with 'T'.
    for (std::int64_t i = 0; i < nn; ++i) {
      t[i] = v[i] - u[i];
      x[i] = v[i] + u[i];
    }
    to_col(x, n, n, a2, n);  // right-hand sides, column-major
    lint info = 0;
    if (n > 0) {
      lapack::getrf(ln, ln, t, ld, piv, &info);
      lapack::getrs('T', ln, ln, t, ld, piv, a2, ld, &info);
    }
    from_col(a2, n, n, n, x);
    for (int i = 0; i < s; ++i) {
      matmul(x, x, t, n);
      std::copy_n(t, nn, x);
    }
    for (std::int64_t i = 0; i < nn; ++i) out[i] = static_cast<T>(x[i]);
  }
}

template void matrix_exp<float>(Job<float>&);
template void matrix_exp<double>(Job<double>&);

}  // namespace atenrt::reference::linalg
