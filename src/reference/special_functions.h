// Special functions with torch 1.13's conventions at the edges (NaN, ±inf, poles, the domain),
// computed in double from their series, asymptotic expansions and integral representations.
// Shared by the reference kernels and our own CPU kernels through scalar_math.h.
#pragma once

#include <cstdint>

namespace atenrt::reference::math {

// Gamma family (special_gamma.cpp).
double hurwitz_zeta(double s, double q);  // torch.special.zeta(s, q)
template <typename T> T trigamma(T x);    // torch.polygamma(1, x), in T's precision as torch
double igamma(double a, double x);        // regularized lower incomplete gamma P(a, x)
double igammac(double a, double x);       // regularized upper incomplete gamma Q(a, x)
double erfcx(double x);                   // exp(x^2) erfc(x)

// Bessel family (special_bessel.cpp).
double bessel_j0(double x);
double bessel_j1(double x);
double bessel_y0(double x);
double bessel_y1(double x);
double bessel_i1(double x);
double bessel_i0e(double x);  // exp(-|x|) I0(x)
double bessel_i1e(double x);  // exp(-|x|) I1(x)
double bessel_k0(double x);
double bessel_k1(double x);
double bessel_k0e(double x);  // exp(x) K0(x)
double bessel_k1e(double x);  // exp(x) K1(x)
double spherical_bessel_j0(double x);
double airy_ai(double x);

// Orthogonal polynomials of degree n (special_polynomials.cpp): torch truncates the float n to an
// integer (NaN and out-of-range become the most negative one) and a negative degree gives 0.
// A recurrence longer than kMaxRecurrence steps (torch would run it) gives NaN rather than a hang.
inline constexpr std::int64_t kMaxRecurrence = std::int64_t{1} << 26;
enum class Polynomial : std::uint8_t {
  ChebyshevT, ChebyshevU, ChebyshevV, ChebyshevW,
  ShiftedChebyshevT, ShiftedChebyshevU, ShiftedChebyshevV, ShiftedChebyshevW,
  HermiteH, HermiteHe, LaguerreL, LegendreP,
};
template <typename T> T orthogonal_polynomial(Polynomial kind, T x, T n);  // float or double

}  // namespace atenrt::reference::math
