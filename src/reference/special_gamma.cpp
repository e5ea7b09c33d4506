// Gamma-family special functions: Hurwitz zeta, trigamma, the regularized incomplete gamma
// functions and erfcx, in double, with torch 1.13's values at the edges.
#include <cmath>
#include <limits>
#include <numbers>

#include "reference/special_functions.h"

namespace atenrt::reference::math {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kEps = 1e-17;

// B_2j / (2j)!, j = 1..12: the Euler-Maclaurin correction terms.
constexpr double kBernoulliOverFactorial[] = {
    0.083333333333333329,   -0.0013888888888888889,  3.3068783068783071e-05, -8.2671957671957675e-07,
    2.08767569878681e-08,   -5.2841901386874932e-10, 1.3382536530684679e-11, -3.3896802963225827e-13,
    8.5860620562778452e-15, -2.1748686985580619e-16, 5.5090028283602295e-18, -1.3954464685812522e-19};

// zeta(s, q) for q > 0 and s > 1: direct terms until q + N >= 10, then the Euler-Maclaurin tail.
double zeta_positive(double s, double q) {
  double sum = 0.0, a = q;
  for (int n = 0; n < 10 || a < 10.0; ++n) {
    const double b = std::pow(a, -s);
    sum += b;
    a += 1.0;
    if (b < kEps * sum) return sum;  // large s: the terms vanish quickly
  }
  const double b = std::pow(a, -s);
  double tail = a * b / (s - 1.0) + 0.5 * b;  // integral from a, plus f(a)/2
  double rising = s * b / a;                  // s (s+1) ... (s+2j-2) a^(-s-2j+1)
  for (int j = 0; j < 12; ++j) {
    const double term = kBernoulliOverFactorial[j] * rising;
    tail += term;
    if (std::fabs(term) < kEps * std::fabs(sum + tail)) break;
    rising *= (s + 2.0 * j + 1.0) * (s + 2.0 * j + 2.0) / (a * a);
  }
  return sum + tail;
}

}  // namespace

double hurwitz_zeta(double s, double q) {
  if (std::isnan(s) || std::isnan(q)) return kNaN;
  if (s == 1.0) return kInf;
  if (s < 1.0) return kNaN;
  if (q <= 0.0) {
    if (q == std::floor(q)) return kInf;  // a pole (q = -inf too)
    if (s != std::floor(s)) return kNaN;  // a negative base to a non-integer power
  }
  if (std::isinf(s) || std::isinf(q)) return kNaN;  // as torch's series gives there
  if (q > 0.0) return zeta_positive(s, q);
  // q < 0, not an integer, s an integer: the terms below zero one by one, or for a long run of
  // them as (-1)^s (zeta(s, 1-f) - zeta(s, M+1-f)), where q + M = f in (0, 1).
  const double m = std::ceil(-q);
  const double f = q + m;
  if (m <= 1000.0) {
    double sum = 0.0, a = q;
    for (; a < 0.0; a += 1.0) sum += std::pow(a, -s);
    return sum + zeta_positive(s, a);
  }
  const double sign = std::fmod(s, 2.0) == 0.0 ? 1.0 : -1.0;
  return zeta_positive(s, f) + sign * (zeta_positive(s, 1.0 - f) - zeta_positive(s, m + 1.0 - f));
}

template <typename T>
T trigamma(T x) {
  // Reflection below 1/2 (sin(pi x) = 0 at the poles gives inf; near them, in float, a large
  // finite value as torch), six recurrence steps, then the asymptotic series.
  constexpr T kPi = std::numbers::pi_v<T>;
  T sign = 1, result = 0;
  if (x < T(0.5)) {
    sign = -1;
    const T sp = std::sin(kPi * x);
    result -= kPi * kPi / (sp * sp);
    x = 1 - x;
  }
  for (int i = 0; i < 6; ++i) {
    result += 1 / (x * x);
    x += 1;
  }
  const T ixx = 1 / (x * x);
  result += (1 + 1 / (2 * x) + ixx * (T(1) / 6 - ixx * (T(1) / 30 - ixx * (T(1) / 42)))) / x;
  return sign * result;
}
template float trigamma<float>(float);
template double trigamma<double>(double);

namespace {

// P(a, x) by its power series, for x < a + 1.
double igamma_series(double a, double x) {
  const double log_prefactor = a * std::log(x) - x - std::lgamma(a + 1.0);
  double term = 1.0, sum = 1.0;
  for (int n = 1; n < 100000; ++n) {
    term *= x / (a + n);
    sum += term;
    if (term < kEps * sum) break;
  }
  return std::exp(log_prefactor) * sum;
}

// Q(a, x) by its continued fraction (modified Lentz), for x >= a + 1.
double igammac_fraction(double a, double x) {
  constexpr double kTiny = 1e-300;
  double b = x + 1.0 - a;
  double c = 1.0 / kTiny;
  double d = 1.0 / b;
  double h = d;
  for (int i = 1; i < 100000; ++i) {
    const double an = -i * (i - a);
    b += 2.0;
    d = an * d + b;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = b + an / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1.0) < kEps) break;
  }
  return std::exp(a * std::log(x) - x - std::lgamma(a)) * h;
}

// The edge values SciPy's gammainc/gammaincc (and so torch) define; nullopt-like NaN sentinel
// means "compute".
bool igamma_edge(double a, double x, bool upper, double* out) {
  if (std::isnan(a) || std::isnan(x) || a < 0.0 || x < 0.0) {
    *out = kNaN;
  } else if (a == 0.0) {
    *out = x > 0.0 ? (upper ? 0.0 : 1.0) : kNaN;
  } else if (x == 0.0) {
    *out = upper ? 1.0 : 0.0;
  } else if (std::isinf(a)) {
    *out = std::isinf(x) ? kNaN : (upper ? 1.0 : 0.0);
  } else if (std::isinf(x)) {
    *out = upper ? 0.0 : 1.0;
  } else {
    return false;
  }
  return true;
}

}  // namespace

double igamma(double a, double x) {
  double edge;
  if (igamma_edge(a, x, false, &edge)) return edge;
  return x < a + 1.0 ? igamma_series(a, x) : 1.0 - igammac_fraction(a, x);
}

double igammac(double a, double x) {
  double edge;
  if (igamma_edge(a, x, true, &edge)) return edge;
  return x < a + 1.0 ? 1.0 - igamma_series(a, x) : igammac_fraction(a, x);
}

double erfcx(double x) {
  if (std::isnan(x)) return x;
  if (x < 26.0) return std::exp(x * x) * std::erfc(x);  // overflows to inf below about -26.6
  // Asymptotic: 1/(x sqrt(pi)) * sum_k (-1)^k (2k-1)!! / (2x^2)^k.
  const double z = 1.0 / (2.0 * x * x);
  double term = 1.0, sum = 1.0;
  for (int k = 1; k < 10; ++k) {
    term *= -(2.0 * k - 1.0) * z;
    sum += term;
  }
  return sum / (x * std::sqrt(std::numbers::pi));
}

}  // namespace atenrt::reference::math
