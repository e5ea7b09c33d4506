// Internal to the linear-algebra computation (linalg*.cpp): one layer run (or
// its sizing pass) over batched row-major buffers, the scratch it carves, and
// the row-major <-> column-major copies around LAPACK calls.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "atenrt/errors.h"
#include "reference/lapack.h"
#include "reference/linalg.h"

namespace atenrt::reference::linalg {

using lapack::lint;
using network::Dims;

template <typename T>
struct Job {
  std::string_view layer;
  const network::LinalgParams& p;
  std::span<const network::TensorDesc> ins, outs;
  std::span<const void* const> in;
  std::span<void* const> out;
  bool sizing = true;          // true: only count scratch (take() returns null)
  std::byte* scratch = nullptr;
  std::size_t capacity = 0;
  std::size_t used = 0;

  std::string prefix() const {
    return "layer '" + std::string(layer) + "' (LinearAlgebra " + std::string(network::linalg_op_name(p.op)) + "): ";
  }
  [[noreturn]] void unsupported(const std::string& m) const { throw UnsupportedError(prefix() + m); }
  [[noreturn]] void bad_input(const std::string& m) const { throw InputError(prefix() + m); }

  // check_errors: a non-zero LAPACK info is an InputError with PyTorch's
  // wording (where PyTorch raises for the same matrix).
  void check_info(lint info, std::int64_t b) const {
    if (!p.check_errors || info == 0) return;
    const std::string at = batch() > 1 ? " (matrix " + std::to_string(b) + " of the batch)" : "";
    const std::string i = std::to_string(info);
    using O = network::LinalgOp;
    if (info < 0) bad_input("LAPACK refused argument " + std::to_string(-info) + at);
    if (p.op == O::Cholesky) {
      bad_input("the factorization could not be completed because the input is not positive-definite (the leading "
                "minor of order " + i + " is not positive-definite)" + at);
    }
    if (p.op == O::LdlFactor) bad_input("the factorization could not be completed: D(" + i + "," + i + ") is zero" + at);
    bad_input("the diagonal element " + i + " is zero, the " +
              (p.op == O::LuFactor ? std::string("factorization") : std::string("inversion")) +
              " could not be completed because the input matrix is singular" + at);
  }

  // Number of matrices (the product of input 0's leading dims).
  std::int64_t batch() const {
    const Dims& d = ins[0].dims;
    std::int64_t b = 1;
    for (std::size_t i = 0; i + 2 < d.size(); ++i) b *= d[i];
    return b;
  }
  std::int64_t rows(std::size_t i) const { return ins[i].dims[ins[i].dims.size() - 2]; }
  std::int64_t cols(std::size_t i) const { return ins[i].dims.back(); }
  std::int64_t last(std::size_t i) const { return ins[i].dims.back(); }

  // A size as LAPACK's 32-bit INTEGER, refused above 2^31-1.
  lint lp(std::int64_t v, const char* what) const {
    if (v < 0 || v > std::numeric_limits<lint>::max()) {
      unsupported(std::string(what) + " = " + std::to_string(v) + " does not fit LAPACK's 32-bit integers");
    }
    return static_cast<lint>(v);
  }
  // A workspace size LAPACK's query returned (as a float), at least `floor`.
  lint work(double query, std::int64_t floor, const char* what) const {
    if (!(query <= static_cast<double>(std::numeric_limits<lint>::max()))) {
      unsupported(std::string(what) + " workspace of " + std::to_string(query) +
                  " elements does not fit LAPACK's 32-bit integers");
    }
    return lp(std::max<std::int64_t>({static_cast<std::int64_t>(std::ceil(query)), floor, 1}), what);
  }

  // `count` elements of scratch, 64-byte aligned; null while sizing.
  template <typename U>
  U* take(std::int64_t count) {
    if (count < 0) unsupported("negative scratch size");
    const auto bytes = static_cast<unsigned __int128>(count) * sizeof(U);
    const std::size_t start = (used + 63) / 64 * 64;
    if (bytes > (std::numeric_limits<std::size_t>::max() >> 2) - start) unsupported("scratch size overflows");
    used = start + static_cast<std::size_t>(bytes);
    if (sizing) return nullptr;
    if (used > capacity) throw std::logic_error(prefix() + "scratch smaller than sized");
    return reinterpret_cast<U*>(scratch + start);
  }

  template <typename U = T>
  const U* input(std::size_t i, std::int64_t b, std::int64_t per) const {
    return static_cast<const U*>(in[i]) + b * per;
  }
  template <typename U = T>
  U* output(std::size_t i, std::int64_t b, std::int64_t per) const {
    return static_cast<U*>(out[i]) + b * per;
  }
};

// Row-major r x c at `src` -> column-major (leading dim ld >= r) at `dst`.
template <typename T>
void to_col(const T* src, std::int64_t r, std::int64_t c, T* dst, std::int64_t ld) {
  for (std::int64_t j = 0; j < c; ++j)
    for (std::int64_t i = 0; i < r; ++i) dst[i + j * ld] = src[i * c + j];
}
// Column-major r x c (leading dim ld) -> row-major.
template <typename T>
void from_col(const T* src, std::int64_t r, std::int64_t c, std::int64_t ld, T* dst) {
  for (std::int64_t i = 0; i < r; ++i)
    for (std::int64_t j = 0; j < c; ++j) dst[i * c + j] = src[i + j * ld];
}
inline lint ld_of(lint rows) { return std::max<lint>(rows, 1); }

// LAPACK pivots (1-based row swaps) applied to 0..m-1: perm[i] is the row of A
// that row i of P^T A is. Pivots were checked to lie in [1, m].
inline void pivots_to_perm(const lint* piv, std::int64_t k, std::int64_t m, std::int64_t* perm) {
  for (std::int64_t i = 0; i < m; ++i) perm[i] = i;
  for (std::int64_t i = 0; i < k; ++i) std::swap(perm[i], perm[piv[i] - 1]);
}

// Op families (linalg_lu.cpp, linalg_solve.cpp, linalg_spectral.cpp).
template <typename T> void inverse(Job<T>& j);
template <typename T> void solve(Job<T>& j);
template <typename T> void lu_factor(Job<T>& j);
template <typename T> void lu(Job<T>& j);
template <typename T> void lu_unpack(Job<T>& j);
template <typename T> void lu_solve(Job<T>& j);
template <typename T> void det(Job<T>& j);
template <typename T> void cholesky(Job<T>& j);
template <typename T> void cholesky_solve(Job<T>& j);
template <typename T> void cholesky_inverse(Job<T>& j);
template <typename T> void triangular_solve(Job<T>& j);
template <typename T> void ldl_factor(Job<T>& j);
template <typename T> void ldl_solve(Job<T>& j);
template <typename T> void qr(Job<T>& j);
template <typename T> void geqrf(Job<T>& j);
template <typename T> void householder_product(Job<T>& j);
template <typename T> void ormqr(Job<T>& j);
template <typename T> void svd(Job<T>& j);
template <typename T> void eigh(Job<T>& j);
template <typename T> void pinv(Job<T>& j);
template <typename T> void matrix_exp(Job<T>& j);

}  // namespace atenrt::reference::linalg
