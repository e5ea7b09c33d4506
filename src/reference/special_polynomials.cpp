// Orthogonal polynomials of a tensor degree, by their three-term recurrences, with torch 1.13's
// conventions: the degree is the float truncated to an integer, a negative degree gives 0, the
// values at the ends of the interval are exact, and above degree 6 (T) or 8 (U, V, W) inside
// (-1, 1) the Chebyshev kinds use their trigonometric forms. Run in the tensor's own precision
// (float for float32), since a recurrence that overflows there turns to NaN where a double one
// would not.
#include <cmath>
#include <cstdint>
#include <limits>

#include "reference/special_functions.h"

namespace atenrt::reference::math {
namespace {

template <typename T>
std::int64_t degree(T n) {
  // The conversion x86 makes of NaN and out-of-range values: the most negative integer.
  constexpr T kLimit = static_cast<T>(9.2233720368547758e18);
  if (!(n > -kLimit && n < kLimit)) return std::numeric_limits<std::int64_t>::min();
  return static_cast<std::int64_t>(n);
}

// p_0 = 1, p_1 = first, p_{k+1} = 2y p_k - p_{k-1}: the Chebyshev kinds differ only in p_1.
// Stops early once the value is NaN, where it stays (a large degree cannot take long).
template <typename T>
T chebyshev_recurrence(T y, T first, std::int64_t n) {
  if (n == 0) return T(1);
  if (n == 1) return first;
  T p = T(1), q = first, r = q;
  for (std::int64_t k = 2; k <= n; ++k) {
    r = (y + y) * q - p;
    p = q;
    q = r;
    if (std::isnan(r)) break;
  }
  return r;
}

template <typename T>
T chebyshev_t(T y, std::int64_t n) {
  if (n < 0) return T(0);
  if (std::fabs(y) == T(1)) return (y > T(0) || n % 2 == 0) ? T(1) : T(-1);
  if (n > 6 && std::fabs(y) < T(1)) return std::cos(static_cast<T>(n) * std::acos(y));
  return chebyshev_recurrence(y, y, n);
}

template <typename T>
T chebyshev_u(T y, std::int64_t n) {
  if (n < 0) return T(0);
  const T n1 = static_cast<T>(n + 1);
  if (std::fabs(y) == T(1)) return (y > T(0) || n % 2 == 0) ? n1 : -n1;
  if (n > 8 && std::fabs(y) < T(1)) {
    const T theta = std::acos(y);
    if (std::sin(theta) != T(0)) return std::sin(n1 * theta) / std::sin(theta);
    return n1 * std::cos(n1 * theta) / y;
  }
  return chebyshev_recurrence(y, y + y, n);
}

template <typename T>
T chebyshev_v(T y, std::int64_t n) {
  if (n < 0) return T(0);
  const T odd = static_cast<T>(n + n + 1);
  if (std::fabs(y) == T(1)) {
    if (y > T(0)) return T(1);
    return n % 2 == 0 ? odd : -odd;
  }
  if (n > 8 && std::fabs(y) < T(1)) {
    const T theta = std::acos(y);
    if (std::sin(theta / T(2)) != T(1)) return std::cos((static_cast<T>(n) + T(0.5)) * theta) / std::cos(theta / T(2));
    return n % 2 == 0 ? odd : -odd;
  }
  return chebyshev_recurrence(y, y + y - T(1), n);
}

template <typename T>
T chebyshev_w(T y, std::int64_t n) {
  if (n < 0) return T(0);
  const T odd = static_cast<T>(n + n + 1);
  if (std::fabs(y) == T(1)) {
    if (y > T(0)) return odd;
    return n % 2 == 0 ? T(1) : T(-1);
  }
  if (n > 8 && std::fabs(y) < T(1)) {
    const T theta = std::acos(y);
    if (std::cos(theta / T(2)) != T(1)) return std::sin((static_cast<T>(n) + T(0.5)) * theta) / std::sin(theta / T(2));
    if (y > T(0)) return odd;
    return n % 2 == 0 ? T(1) : T(-1);
  }
  return chebyshev_recurrence(y, y + y + T(1), n);
}

template <typename T>
T hermite_h(T x, std::int64_t n) {  // H_{k+1} = 2x H_k - 2k H_{k-1}
  if (n < 0) return T(0);
  if (n == 0) return T(1);
  T p = T(1), q = x + x, r = q;
  for (std::int64_t k = 1; k < n; ++k) {
    r = (x + x) * q - static_cast<T>(2 * k) * p;
    p = q;
    q = r;
    if (std::isnan(r)) break;
  }
  return r;
}

template <typename T>
T hermite_he(T x, std::int64_t n) {  // He_{k+1} = x He_k - k He_{k-1}
  if (n < 0) return T(0);
  if (n == 0) return T(1);
  T p = T(1), q = x, r = q;
  for (std::int64_t k = 1; k < n; ++k) {
    r = x * q - static_cast<T>(k) * p;
    p = q;
    q = r;
    if (std::isnan(r)) break;
  }
  return r;
}

template <typename T>
T laguerre_l(T x, std::int64_t n) {  // (k+1) L_{k+1} = (2k + 1 - x) L_k - k L_{k-1}
  if (n < 0) return T(0);
  if (x == T(0) || n == 0) return T(1);
  T p = T(1), q = T(1) - x, r = q;
  for (std::int64_t k = 1; k < n; ++k) {
    r = ((static_cast<T>(k + k) + (T(1) - x)) * q - static_cast<T>(k) * p) / static_cast<T>(k + 1);
    p = q;
    q = r;
    if (std::isnan(r)) break;
  }
  return r;
}

template <typename T>
T legendre_p(T x, std::int64_t n) {  // (k+1) P_{k+1} = (2k+1) x P_k - k P_{k-1}
  if (n < 0) return T(0);
  if (std::fabs(x) == T(1)) return (x > T(0) || n % 2 == 0) ? T(1) : T(-1);
  if (n == 0) return T(1);
  T p = T(1), q = x, r = q;
  for (std::int64_t k = 1; k < n; ++k) {
    r = (static_cast<T>(k + k + 1) * x * q - static_cast<T>(k) * p) / static_cast<T>(k + 1);
    p = q;
    q = r;
    if (std::isnan(r)) break;
  }
  return r;
}

}  // namespace

template <typename T>
T orthogonal_polynomial(Polynomial kind, T x, T n_value) {
  const std::int64_t n = degree(n_value);
  const bool trigonometric = n > 6 && kind <= Polynomial::ShiftedChebyshevW &&
                             std::fabs(kind <= Polynomial::ChebyshevW ? x : x + x - T(1)) < T(1);
  if (n > kMaxRecurrence && !trigonometric) return std::numeric_limits<T>::quiet_NaN();
  // The shifted kinds are the plain ones at 2x - 1; their ends are x = 0 and x = 1.
  const T shifted = x + x - T(1);
  switch (kind) {
    case Polynomial::ChebyshevT: return chebyshev_t(x, n);
    case Polynomial::ChebyshevU: return chebyshev_u(x, n);
    case Polynomial::ChebyshevV: return chebyshev_v(x, n);
    case Polynomial::ChebyshevW: return chebyshev_w(x, n);
    case Polynomial::ShiftedChebyshevT: return chebyshev_t(shifted, n);
    case Polynomial::ShiftedChebyshevU: return chebyshev_u(shifted, n);
    case Polynomial::ShiftedChebyshevV: return chebyshev_v(shifted, n);
    case Polynomial::ShiftedChebyshevW: return chebyshev_w(shifted, n);
    case Polynomial::HermiteH: return hermite_h(x, n);
    case Polynomial::HermiteHe: return hermite_he(x, n);
    case Polynomial::LaguerreL: return laguerre_l(x, n);
    case Polynomial::LegendreP: return legendre_p(x, n);
  }
  return std::numeric_limits<T>::quiet_NaN();
}

template float orthogonal_polynomial<float>(Polynomial, float, float);
template double orthogonal_polynomial<double>(Polynomial, double, double);

}  // namespace atenrt::reference::math
