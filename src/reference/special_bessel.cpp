// Bessel-family special functions in double: power series near zero, Hankel's asymptotic
// expansions far from it, and for K (and Airy Ai, through K_1/3) the integral
// exp(x) K_nu(x) = int_0^inf exp(-x (cosh t - 1)) cosh(nu t) dt by the trapezoid rule, which
// converges geometrically for this integrand. Edge values (NaN, ±inf, x <= 0) are torch 1.13's.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "reference/special_functions.h"

namespace atenrt::reference::math {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kPi = std::numbers::pi;
constexpr double kEulerGamma = 0.57721566490153286061;
constexpr double kEps = 1e-17;
constexpr int kMaxTerms = 500;

// Beyond this the asymptotic expansions are used; their smallest term is about exp(-2x).
constexpr double kLargeJ = 17.0;
constexpr double kLargeI = 30.0;
constexpr double kLargeK = 25.0;

// a_k(nu) / x^k = prod_{j<=k} (4nu^2 - (2j-1)^2) / (k! (8x)^k), summed with the signs
// `alternate` gives (I: alternating; K: all +), stopping at the smallest term.
double asymptotic_sum(double nu, double x, bool alternate) {
  const double mu = 4.0 * nu * nu;
  double term = 1.0, sum = 1.0;
  for (int k = 1; k < 80; ++k) {
    const double odd = 2.0 * k - 1.0;
    const double next = term * (mu - odd * odd) / (k * 8.0 * x);
    if (std::fabs(next) >= std::fabs(term)) break;
    term = next;
    sum += alternate && (k % 2 == 1) ? -term : term;
    if (std::fabs(term) < kEps * std::fabs(sum)) break;
  }
  return sum;
}

// Hankel's P and Q for J_nu / Y_nu at large x.
void hankel_pq(double nu, double x, double* p, double* q) {
  const double mu = 4.0 * nu * nu;
  double term = 1.0;
  *p = 1.0;
  *q = 0.0;
  for (int k = 1; k < 80; ++k) {
    const double odd = 2.0 * k - 1.0;
    const double next = term * (mu - odd * odd) / (k * 8.0 * x);
    if (k > 2 && std::fabs(next) >= std::fabs(term)) break;
    term = next;
    const double signed_term = (k / 2) % 2 == 0 ? term : -term;  // k = 1,2,3,4: +,-,-,+
    (k % 2 == 1 ? *q : *p) += signed_term;
    if (std::fabs(term) < kEps) break;
  }
}

// J_nu(x) (want_y false) or Y_nu(x) for large positive x.
double hankel(double nu, double x, bool want_y) {
  double p, q;
  hankel_pq(nu, x, &p, &q);
  // chi = x - (nu/2 + 1/4) pi, with cos/sin of x taken exactly rather than of a rounded chi.
  const double phase = (nu / 2.0 + 0.25) * kPi;
  const double cx = std::cos(x), sx = std::sin(x), cp = std::cos(phase), sp = std::sin(phase);
  const double cos_chi = cx * cp + sx * sp;
  const double sin_chi = sx * cp - cx * sp;
  const double scale = std::sqrt(2.0 / (kPi * x));
  return want_y ? scale * (p * sin_chi + q * cos_chi) : scale * (p * cos_chi - q * sin_chi);
}

// sum_k sign^k (x^2/4)^k / (k! (k+n)!) for n = 0, 1 (without the (x/2)^n factor).
double bessel_series(int n, double x, double sign) {
  const double q = x * x / 4.0;
  double term = 1.0, sum = 1.0;
  for (int k = 1; k < kMaxTerms; ++k) {
    term *= sign * q / (static_cast<double>(k) * (k + n));
    sum += term;
    if (k > q && std::fabs(term) < kEps * std::fabs(sum)) break;
  }
  return sum;
}

// (1/2) sum_k [psi(k+1) + psi(k+n+1)] sign^k (x^2/4)^k / (k! (k+n)!), the log-free part of Y_n
// and K_n (A&S 9.1.11, 9.6.11), with psi(k+1) = H_k - gamma.
double psi_series(int n, double x, double sign) {
  const double q = x * x / 4.0;
  double h_k = 0.0, h_kn = 0.0;  // H_k, H_{k+n}
  for (int j = 1; j <= n; ++j) h_kn += 1.0 / j;
  double term = 1.0;  // sign^k q^k / (k! (k+n)!) * n!
  double sum = 0.5 * (h_k + h_kn) - kEulerGamma;
  for (int k = 1; k < kMaxTerms; ++k) {
    term *= sign * q / (static_cast<double>(k) * (k + n));
    h_k += 1.0 / k;
    h_kn += 1.0 / (k + n);
    const double add = term * (0.5 * (h_k + h_kn) - kEulerGamma);
    sum += add;
    if (k > q && std::fabs(add) < kEps * std::fabs(sum)) break;
  }
  return sum;
}

double j0_positive(double x) { return x <= kLargeJ ? bessel_series(0, x, -1.0) : hankel(0.0, x, false); }
double j1_positive(double x) { return x <= kLargeJ ? 0.5 * x * bessel_series(1, x, -1.0) : hankel(1.0, x, false); }

// I_n(x) exp(-x), x >= 0.
double i_scaled(int n, double x) {
  if (x > kLargeI) return asymptotic_sum(n, x, true) / std::sqrt(2.0 * kPi * x);
  const double s = bessel_series(n, x, 1.0);
  return (n == 0 ? s : 0.5 * x * s) * std::exp(-x);
}

// exp(x) K_nu(x), x > 0.
double k_scaled(double nu, double x) {
  if (x > kLargeK) return asymptotic_sum(nu, x, false) * std::sqrt(kPi / (2.0 * x));
  // Step small enough for the integrand's width (about 1/sqrt(x)); stop once it is below e^-45.
  const double h = std::min(0.1, 0.6 / std::sqrt(x));
  double sum = 0.5;
  for (int k = 1; k < 100000; ++k) {
    const double t = k * h;
    const double e = x * (std::cosh(t) - 1.0);
    if (e > 45.0 + nu * t) break;
    sum += std::exp(-e) * std::cosh(nu * t);
  }
  return sum * h;
}

}  // namespace

double bessel_j0(double x) {
  if (std::isnan(x) || std::isinf(x)) return kNaN;
  return j0_positive(std::fabs(x));
}

double bessel_j1(double x) {
  if (std::isnan(x) || std::isinf(x)) return kNaN;
  const double r = j1_positive(std::fabs(x));
  return x < 0.0 ? -r : r;
}

double bessel_y0(double x) {
  if (std::isnan(x) || std::isinf(x) || x < 0.0) return kNaN;
  if (x == 0.0) return -kInf;
  if (x > kLargeJ) return hankel(0.0, x, true);
  // Y0 = (2/pi) [ (ln(x/2) + gamma) J0 - sum_{k>=1} (-1)^k H_k (x^2/4)^k / (k!)^2 ]
  //    = (2/pi) [ ln(x/2) J0 - psi_series(0) ].
  return 2.0 / kPi * (std::log(x / 2.0) * bessel_series(0, x, -1.0) - psi_series(0, x, -1.0));
}

double bessel_y1(double x) {
  if (std::isnan(x) || std::isinf(x) || x < 0.0) return kNaN;
  if (x == 0.0) return -kInf;
  if (x > kLargeJ) return hankel(1.0, x, true);
  // Y1 = -2/(pi x) + (2/pi) ln(x/2) J1 - (1/pi)(x/2) sum [psi(k+1)+psi(k+2)] (-x^2/4)^k/(k!(k+1)!)
  return -2.0 / (kPi * x) + 2.0 / kPi * std::log(x / 2.0) * (0.5 * x * bessel_series(1, x, -1.0)) -
         x / kPi * psi_series(1, x, -1.0);
}

double bessel_i1(double x) {
  if (std::isnan(x) || std::isinf(x)) return kNaN;
  const double ax = std::fabs(x);
  // exp(x) overflows past ~709.8 while the scaled value is still finite: inf, as torch.
  const double r = ax > kLargeI ? i_scaled(1, ax) * std::exp(ax) : 0.5 * ax * bessel_series(1, ax, 1.0);
  return x < 0.0 ? -r : r;
}

double bessel_i0e(double x) {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return 0.0;
  return i_scaled(0, std::fabs(x));
}

double bessel_i1e(double x) {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return std::copysign(0.0, x);
  const double r = i_scaled(1, std::fabs(x));
  return x < 0.0 ? -r : r;
}

double bessel_k0e(double x) {
  if (std::isnan(x) || x < 0.0) return kNaN;
  if (x == 0.0) return kInf;
  if (std::isinf(x)) return 0.0;
  if (x <= 2.0) {
    // K0 = -(ln(x/2) + gamma) I0 + sum_{k>=1} H_k (x^2/4)^k / (k!)^2 = -ln(x/2) I0 + psi_series(0)
    return (-std::log(x / 2.0) * bessel_series(0, x, 1.0) + psi_series(0, x, 1.0)) * std::exp(x);
  }
  return k_scaled(0.0, x);
}

double bessel_k1e(double x) {
  if (std::isnan(x) || x < 0.0) return kNaN;
  if (x == 0.0) return kInf;
  if (std::isinf(x)) return 0.0;
  if (x <= 2.0) {
    // K1 = 1/x + ln(x/2) I1 - (x/2) psi_series(1)   (A&S 9.6.11 with n = 1)
    const double i1 = 0.5 * x * bessel_series(1, x, 1.0);
    return (1.0 / x + std::log(x / 2.0) * i1 - 0.5 * x * psi_series(1, x, 1.0)) * std::exp(x);
  }
  return k_scaled(1.0, x);
}

double bessel_k0(double x) {
  const double e = bessel_k0e(x);
  return std::isinf(x) || std::isnan(e) || std::isinf(e) ? e : e * std::exp(-x);
}

double bessel_k1(double x) {
  const double e = bessel_k1e(x);
  return std::isinf(x) || std::isnan(e) || std::isinf(e) ? e : e * std::exp(-x);
}

double spherical_bessel_j0(double x) {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return 0.0;
  if (std::fabs(x) < 1e-4) return 1.0 - x * x / 6.0;
  return std::sin(x) / x;
}

double airy_ai(double x) {
  if (std::isnan(x) || std::isinf(x)) return kNaN;
  if (x > 2.0) {
    // Ai(x) = (1/pi) sqrt(x/3) K_1/3(zeta), zeta = (2/3) x^(3/2)
    const double zeta = 2.0 / 3.0 * x * std::sqrt(x);
    if (zeta > 745.0) return 0.0;
    return std::sqrt(x / 3.0) / kPi * k_scaled(1.0 / 3.0, zeta) * std::exp(-zeta);
  }
  if (x < -8.0) {
    // Ai(-y) = (sqrt(y)/3) [J_1/3(zeta) + J_-1/3(zeta)]
    const double y = -x;
    const double zeta = 2.0 / 3.0 * y * std::sqrt(y);
    return std::sqrt(y) / 3.0 * (hankel(1.0 / 3.0, zeta, false) + hankel(-1.0 / 3.0, zeta, false));
  }
  // Maclaurin series: Ai = c1 f - c2 g, f = sum 3^k (1/3)_k x^3k/(3k)!, g = sum 3^k (2/3)_k x^(3k+1)/(3k+1)!
  constexpr double c1 = 0.355028053887817239260, c2 = 0.258819403792806798405;
  const double x3 = x * x * x;
  double tf = 1.0, f = 1.0, tg = x, g = x;
  for (int k = 0; k < kMaxTerms; ++k) {
    tf *= x3 / ((3.0 * k + 2.0) * (3.0 * k + 3.0));
    tg *= x3 / ((3.0 * k + 3.0) * (3.0 * k + 4.0));
    f += tf;
    g += tg;
    if (std::fabs(tf) + std::fabs(tg) < kEps * (std::fabs(f) + std::fabs(g)) && k > 3) break;
  }
  return c1 * f - c2 * g;
}

}  // namespace atenrt::reference::math
