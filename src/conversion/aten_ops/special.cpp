// Special functions computed by layers of their own (impl/special): torch.special's Bessel and
// Airy functions, erfcx, zeta, polygamma, igamma/igammac, nextafter, frexp and the orthogonal
// polynomials.
#include "conversion/aten_ops/common.h"
#include "conversion/impl/special.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace sp = impl::special;
using network::ElementwiseOp;
using network::UnaryOp;
constexpr Family kFamily{.name = "special", .supports_dynamic_shapes = true};

// torch names the argument `self` in most of these schemas and `x` in a few.
Outputs unary(const Scope& s, const NodeArgs& args, UnaryOp op, const char* arg = "self") {
  return one(sp::unary(s, args.tensor(arg), op));
}

ATENRT_CONVERTER(kFamily, "aten.special_i0e.default")(const Scope& s, const NodeArgs& a) { return unary(s, a, UnaryOp::I0e); }
ATENRT_CONVERTER(kFamily, keys("aten.special_i1.default", "aten.special_modified_bessel_i1.default"))(const Scope& s, const NodeArgs& a) {
  return unary(s, a, UnaryOp::I1);
}
ATENRT_CONVERTER(kFamily, "aten.special_i1e.default")(const Scope& s, const NodeArgs& a) { return unary(s, a, UnaryOp::I1e); }
ATENRT_CONVERTER(kFamily, "aten.special_modified_bessel_i0.default")(const Scope& s, const NodeArgs& a) { return unary(s, a, UnaryOp::I0); }
ATENRT_CONVERTER(kFamily, "aten.special_modified_bessel_k0.default")(const Scope& s, const NodeArgs& a) { return unary(s, a, UnaryOp::K0); }
ATENRT_CONVERTER(kFamily, "aten.special_modified_bessel_k1.default")(const Scope& s, const NodeArgs& a) { return unary(s, a, UnaryOp::K1); }
ATENRT_CONVERTER(kFamily, "aten.special_scaled_modified_bessel_k0.default")(const Scope& s, const NodeArgs& a) {
  return unary(s, a, UnaryOp::K0e, "x");
}
ATENRT_CONVERTER(kFamily, "aten.special_scaled_modified_bessel_k1.default")(const Scope& s, const NodeArgs& a) {
  return unary(s, a, UnaryOp::K1e, "x");
}
ATENRT_CONVERTER(kFamily, "aten.special_bessel_j0.default")(const Scope& s, const NodeArgs& a) { return unary(s, a, UnaryOp::BesselJ0); }
ATENRT_CONVERTER(kFamily, "aten.special_bessel_j1.default")(const Scope& s, const NodeArgs& a) { return unary(s, a, UnaryOp::BesselJ1); }
ATENRT_CONVERTER(kFamily, "aten.special_bessel_y0.default")(const Scope& s, const NodeArgs& a) { return unary(s, a, UnaryOp::BesselY0); }
ATENRT_CONVERTER(kFamily, "aten.special_bessel_y1.default")(const Scope& s, const NodeArgs& a) { return unary(s, a, UnaryOp::BesselY1); }
ATENRT_CONVERTER(kFamily, "aten.special_spherical_bessel_j0.default")(const Scope& s, const NodeArgs& a) {
  return unary(s, a, UnaryOp::SphericalBesselJ0, "x");
}
ATENRT_CONVERTER(kFamily, "aten.special_airy_ai.default")(const Scope& s, const NodeArgs& a) { return unary(s, a, UnaryOp::AiryAi, "x"); }
ATENRT_CONVERTER(kFamily, "aten.special_erfcx.default")(const Scope& s, const NodeArgs& a) { return unary(s, a, UnaryOp::Erfcx); }

ATENRT_CONVERTER(kFamily, "aten.frexp.Tensor")(const Scope& s, const NodeArgs& args) {
  auto [mantissa, exponent] = sp::frexp(s, args.tensor("self"));
  return {mantissa, exponent};
}

Capability polygamma_order(const NodeView& node, const ConversionSettings&) {
  if (const auto n = node.literal_int("n")) return refuse_if(sp::polygamma_problem(*n));
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, "aten.polygamma.default", .validator = polygamma_order)(const Scope& s, const NodeArgs& args) {
  return one(sp::polygamma(s, args.tensor("self"), args.i("n")));
}

// Binary special functions: (self, other) and, for zeta, the Scalar overloads.
Outputs binary(const Scope& s, const NodeArgs& args, ElementwiseOp op) {
  return one(sp::binary(s, args.operand("self"), args.operand("other"), op));
}
ATENRT_CONVERTER(kFamily, keys("aten.special_zeta.default", "aten.special_zeta.self_scalar", "aten.special_zeta.other_scalar"))(
    const Scope& s, const NodeArgs& a) {
  return binary(s, a, ElementwiseOp::Zeta);
}
ATENRT_CONVERTER(kFamily, "aten.igamma.default")(const Scope& s, const NodeArgs& a) { return binary(s, a, ElementwiseOp::Igamma); }
ATENRT_CONVERTER(kFamily, "aten.igammac.default")(const Scope& s, const NodeArgs& a) { return binary(s, a, ElementwiseOp::Igammac); }
ATENRT_CONVERTER(kFamily, "aten.nextafter.default")(const Scope& s, const NodeArgs& a) { return binary(s, a, ElementwiseOp::NextAfter); }

// Orthogonal polynomials of x and a degree n, each with (Tensor, Tensor), (Scalar x, Tensor n) and
// (Tensor x, Scalar n) overloads.
Outputs polynomial(const Scope& s, const NodeArgs& args, ElementwiseOp op) {
  return one(sp::binary(s, args.operand("x"), args.operand("n"), op));
}
#define ATENRT_POLYNOMIAL(name, op)                                                                           \
  ATENRT_CONVERTER(kFamily, keys("aten.special_" name ".default", "aten.special_" name ".x_scalar",             \
                                 "aten.special_" name ".n_scalar"))(const Scope& s, const NodeArgs& a) { \
    return polynomial(s, a, ElementwiseOp::op);                                                               \
  }
ATENRT_POLYNOMIAL("chebyshev_polynomial_t", ChebyshevT)
ATENRT_POLYNOMIAL("chebyshev_polynomial_u", ChebyshevU)
ATENRT_POLYNOMIAL("chebyshev_polynomial_v", ChebyshevV)
ATENRT_POLYNOMIAL("chebyshev_polynomial_w", ChebyshevW)
ATENRT_POLYNOMIAL("shifted_chebyshev_polynomial_t", ShiftedChebyshevT)
ATENRT_POLYNOMIAL("shifted_chebyshev_polynomial_u", ShiftedChebyshevU)
ATENRT_POLYNOMIAL("shifted_chebyshev_polynomial_v", ShiftedChebyshevV)
ATENRT_POLYNOMIAL("shifted_chebyshev_polynomial_w", ShiftedChebyshevW)
ATENRT_POLYNOMIAL("hermite_polynomial_h", HermiteH)
ATENRT_POLYNOMIAL("hermite_polynomial_he", HermiteHe)
ATENRT_POLYNOMIAL("laguerre_polynomial_l", LaguerreL)
ATENRT_POLYNOMIAL("legendre_polynomial_p", LegendreP)
#undef ATENRT_POLYNOMIAL

}  // namespace
}  // namespace atenrt::conversion::aten_ops
