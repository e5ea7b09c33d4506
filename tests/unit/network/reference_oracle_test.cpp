// Every layer kind against PyTorch over a table of shapes (broadcasting,
// odd sizes, 1-sized dims), through the reference executor. All cases run in
// one Python process; each family's test reports its own cases.
#include <gtest/gtest.h>

#include <limits>
#include <map>

#include "support/fixtures.h"
#include "torch_oracle.h"

namespace atenrt::testing {
namespace {

using namespace atenrt::network;
using T = NetworkTensor*;
using Ins = std::vector<T>;
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

InputSpec F32(Dims d, Gen g = Gen::Normal) { return {DType::Float32, std::move(d), g, 0}; }
InputSpec I64(Dims d, Gen g = Gen::SmallInt, std::int64_t bound = 0) { return {DType::Int64, std::move(d), g, bound}; }
InputSpec I32(Dims d, Gen g = Gen::SmallInt) { return {DType::Int32, std::move(d), g, 0}; }
InputSpec B(Dims d) { return {DType::Bool, std::move(d), Gen::Bool, 0}; }

std::vector<OracleCase> activation_cases() {
  struct Op { ActivationOp op; double a, b; const char* expr; };
  const Op ops[] = {
      {ActivationOp::Relu, 0, 0, "torch.relu(x0)"},
      {ActivationOp::Sigmoid, 0, 0, "torch.sigmoid(x0)"},
      {ActivationOp::Tanh, 0, 0, "torch.tanh(x0)"},
      {ActivationOp::LeakyRelu, 0.1, 0, "F.leaky_relu(x0, 0.1)"},
      {ActivationOp::Elu, 0.7, 0, "F.elu(x0, 0.7)"},
      {ActivationOp::Selu, 0, 0, "F.selu(x0)"},
      {ActivationOp::Softplus, 2.0, 3.0, "F.softplus(x0, 2.0, 3.0)"},
      {ActivationOp::Clip, -0.5, 0.7, "torch.clamp(x0, -0.5, 0.7)"},
      {ActivationOp::GeluErf, 0, 0, "F.gelu(x0)"},
      {ActivationOp::GeluTanh, 0, 0, "F.gelu(x0, approximate='tanh')"},
      {ActivationOp::HardSigmoid, 1.0 / 6, 0.5, "F.hardsigmoid(x0)"},
      {ActivationOp::HardSwish, 0, 0, "F.hardswish(x0)"},
      {ActivationOp::Silu, 0, 0, "F.silu(x0)"},
      {ActivationOp::Mish, 0, 0, "F.mish(x0)"},
  };
  static_assert(sizeof(ops) / sizeof(ops[0]) == kActivationOpCount);
  const Dims shapes[] = {{7}, {2, 3, 5}, {1, 1, 1}, {}};
  std::vector<OracleCase> cases;
  for (const auto& o : ops) {
    int s = 0;
    for (const auto& d : shapes) {
      cases.push_back({"act_" + std::string(activation_op_name(o.op)) + "_" + std::to_string(s++), {F32(d)}, o.expr,
                       [o](Network& n, const Ins& x) -> Ins { return {n.add_activation("y", x[0], o.op, o.a, o.b)}; }});
    }
  }
  // NaN passes through relu and clip; integer relu/clip.
  cases.push_back({"act_relu_special", {F32({16}, Gen::Special)}, "torch.relu(x0)",
                   [](Network& n, const Ins& x) -> Ins { return {n.add_activation("y", x[0], ActivationOp::Relu)}; }});
  cases.push_back({"act_clip_int", {I64({9})}, "torch.clamp(x0, -2, 3)",
                   [](Network& n, const Ins& x) -> Ins { return {n.add_activation("y", x[0], ActivationOp::Clip, -2, 3)}; }});
  // float16 / bfloat16 compute through a cast, as a converter would build it.
  cases.push_back({"act_sigmoid_f16", {F32({3, 5})}, "torch.sigmoid(x0.half().float()).half().float()",
                   [](Network& n, const Ins& x) -> Ins {
                     auto* h = n.add_cast("h", x[0], DType::Float16);
                     return {n.add_cast("y", n.add_activation("s", h, ActivationOp::Sigmoid), DType::Float32)};
                   }, 1e-3, 1e-3});
  cases.push_back({"act_gelu_bf16", {F32({3, 5})}, "F.gelu(x0.bfloat16()).float()",
                   [](Network& n, const Ins& x) -> Ins {
                     auto* h = n.add_cast("h", x[0], DType::BFloat16);
                     return {n.add_cast("y", n.add_activation("s", h, ActivationOp::GeluErf), DType::Float32)};
                   }, 1e-2, 1e-2});
  return cases;
}

std::vector<OracleCase> elementwise_cases() {
  struct Op { ElementwiseOp op; const char* expr; Gen ga, gb; };
  const Op float_ops[] = {
      {ElementwiseOp::Add, "x0 + x1", Gen::Normal, Gen::Normal},
      {ElementwiseOp::Sub, "x0 - x1", Gen::Normal, Gen::Normal},
      {ElementwiseOp::Mul, "x0 * x1", Gen::Normal, Gen::Normal},
      {ElementwiseOp::Div, "x0 / x1", Gen::Normal, Gen::Positive},
      {ElementwiseOp::Pow, "torch.pow(x0, x1)", Gen::Positive, Gen::Normal},
      {ElementwiseOp::Min, "torch.minimum(x0, x1)", Gen::Special, Gen::Normal},
      {ElementwiseOp::Max, "torch.maximum(x0, x1)", Gen::Special, Gen::Normal},
      {ElementwiseOp::FloorDiv, "torch.div(x0, x1, rounding_mode='floor')", Gen::Normal, Gen::NonZeroInt},
      {ElementwiseOp::TruncDiv, "torch.div(x0, x1, rounding_mode='trunc')", Gen::Normal, Gen::NonZeroInt},
      {ElementwiseOp::Remainder, "torch.remainder(x0, x1)", Gen::Normal, Gen::NonZeroInt},
      {ElementwiseOp::Fmod, "torch.fmod(x0, x1)", Gen::Normal, Gen::NonZeroInt},
      {ElementwiseOp::Equal, "x0 == x1", Gen::SmallInt, Gen::SmallInt},
      {ElementwiseOp::NotEqual, "x0 != x1", Gen::SmallInt, Gen::SmallInt},
      {ElementwiseOp::Less, "x0 < x1", Gen::SmallInt, Gen::SmallInt},
      {ElementwiseOp::LessEqual, "x0 <= x1", Gen::SmallInt, Gen::SmallInt},
      {ElementwiseOp::Greater, "x0 > x1", Gen::SmallInt, Gen::SmallInt},
      {ElementwiseOp::GreaterEqual, "x0 >= x1", Gen::SmallInt, Gen::SmallInt},
      {ElementwiseOp::And, "torch.logical_and(x0, x1)", Gen::SmallInt, Gen::SmallInt},
      {ElementwiseOp::Or, "torch.logical_or(x0, x1)", Gen::SmallInt, Gen::SmallInt},
      {ElementwiseOp::Xor, "torch.logical_xor(x0, x1)", Gen::SmallInt, Gen::SmallInt},
      {ElementwiseOp::Zeta, "torch.special.zeta(x0, x1)", Gen::AboveOne, Gen::Positive},
      {ElementwiseOp::Igamma, "torch.igamma(x0, x1)", Gen::Positive, Gen::Positive},
      {ElementwiseOp::Igammac, "torch.igammac(x0, x1)", Gen::Positive, Gen::Positive},
      {ElementwiseOp::NextAfter, "torch.nextafter(x0, x1)", Gen::Normal, Gen::Normal},
      {ElementwiseOp::ChebyshevT, "torch.special.chebyshev_polynomial_t(x0, x1)", Gen::Normal, Gen::SmallInt},
      {ElementwiseOp::ChebyshevU, "torch.special.chebyshev_polynomial_u(x0, x1)", Gen::Normal, Gen::SmallInt},
      {ElementwiseOp::ChebyshevV, "torch.special.chebyshev_polynomial_v(x0, x1)", Gen::Normal, Gen::SmallInt},
      {ElementwiseOp::ChebyshevW, "torch.special.chebyshev_polynomial_w(x0, x1)", Gen::Normal, Gen::SmallInt},
      {ElementwiseOp::ShiftedChebyshevT, "torch.special.shifted_chebyshev_polynomial_t(x0, x1)", Gen::Unit, Gen::SmallInt},
      {ElementwiseOp::ShiftedChebyshevU, "torch.special.shifted_chebyshev_polynomial_u(x0, x1)", Gen::Unit, Gen::SmallInt},
      {ElementwiseOp::ShiftedChebyshevV, "torch.special.shifted_chebyshev_polynomial_v(x0, x1)", Gen::Unit, Gen::SmallInt},
      {ElementwiseOp::ShiftedChebyshevW, "torch.special.shifted_chebyshev_polynomial_w(x0, x1)", Gen::Unit, Gen::SmallInt},
      {ElementwiseOp::HermiteH, "torch.special.hermite_polynomial_h(x0, x1)", Gen::Normal, Gen::SmallInt},
      {ElementwiseOp::HermiteHe, "torch.special.hermite_polynomial_he(x0, x1)", Gen::Normal, Gen::SmallInt},
      {ElementwiseOp::LaguerreL, "torch.special.laguerre_polynomial_l(x0, x1)", Gen::Normal, Gen::SmallInt},
      {ElementwiseOp::LegendreP, "torch.special.legendre_polynomial_p(x0, x1)", Gen::Normal, Gen::SmallInt},
  };
  // Every op but the bitwise ones and the shifts, which take integers only (below).
  static_assert(sizeof(float_ops) / sizeof(float_ops[0]) == kElementwiseOpCount - 5);
  const std::pair<Dims, Dims> shapes[] = {
      {{2, 3}, {2, 3}}, {{2, 1, 4}, {3, 1}}, {{5}, {}}, {{1}, {4, 1, 3}}, {{3, 7}, {1}}};
  std::vector<OracleCase> cases;
  auto build = [](ElementwiseOp op) {
    return [op](Network& n, const Ins& x) -> Ins { return {n.add_elementwise("y", x[0], x[1], op)}; };
  };
  for (const auto& o : float_ops) {
    int s = 0;
    for (const auto& [a, b] : shapes) {
      cases.push_back({"ew_f32_" + std::string(elementwise_op_name(o.op)) + "_" + std::to_string(s++),
                       {F32(a, o.ga), F32(b, o.gb)}, o.expr, build(o.op)});
    }
  }
  // Integer semantics: floor/trunc division, remainder and fmod signs, pow.
  const Op int_ops[] = {
      {ElementwiseOp::Add, "x0 + x1", Gen::SmallInt, Gen::SmallInt},
      {ElementwiseOp::Sub, "x0 - x1", Gen::SmallInt, Gen::SmallInt},
      {ElementwiseOp::Mul, "x0 * x1", Gen::SmallInt, Gen::SmallInt},
      {ElementwiseOp::Pow, "torch.pow(x0, x1)", Gen::SmallInt, Gen::Exponent},
      {ElementwiseOp::Min, "torch.minimum(x0, x1)", Gen::SmallInt, Gen::SmallInt},
      {ElementwiseOp::Max, "torch.maximum(x0, x1)", Gen::SmallInt, Gen::SmallInt},
      {ElementwiseOp::FloorDiv, "torch.div(x0, x1, rounding_mode='floor')", Gen::SmallInt, Gen::NonZeroInt},
      {ElementwiseOp::TruncDiv, "torch.div(x0, x1, rounding_mode='trunc')", Gen::SmallInt, Gen::NonZeroInt},
      {ElementwiseOp::Remainder, "torch.remainder(x0, x1)", Gen::SmallInt, Gen::NonZeroInt},
      {ElementwiseOp::Fmod, "torch.fmod(x0, x1)", Gen::SmallInt, Gen::NonZeroInt},
      {ElementwiseOp::Less, "x0 < x1", Gen::SmallInt, Gen::SmallInt},
      {ElementwiseOp::Equal, "x0 == x1", Gen::SmallInt, Gen::SmallInt},
      {ElementwiseOp::BitAnd, "torch.bitwise_and(x0, x1)", Gen::SmallInt, Gen::SmallInt},
      {ElementwiseOp::BitOr, "torch.bitwise_or(x0, x1)", Gen::SmallInt, Gen::SmallInt},
      {ElementwiseOp::BitXor, "torch.bitwise_xor(x0, x1)", Gen::SmallInt, Gen::SmallInt},
      // Counts in [-300, 300]: at and past the width, and negative (torch masks them).
      {ElementwiseOp::ShiftLeft, "torch.bitwise_left_shift(x0, x1)", Gen::Wide, Gen::Wide},
      {ElementwiseOp::ShiftRight, "torch.bitwise_right_shift(x0, x1)", Gen::Wide, Gen::Wide},
  };
  for (const auto& o : int_ops) {
    const std::string n(elementwise_op_name(o.op));
    cases.push_back({"ew_i64_" + n, {I64({4, 5}, o.ga), I64({5}, o.gb)}, o.expr, build(o.op)});
    cases.push_back({"ew_i32_" + n, {I32({3, 1}, o.ga), I32({1, 6}, o.gb)}, o.expr, build(o.op)});
  }
  cases.push_back({"ew_i32_wrap", {I32({4}, Gen::Wide), I32({4}, Gen::Wide)}, "x0 * x1 * x1 * x0",
                   [](Network& n, const Ins& x) -> Ins {
                     auto* a = n.add_elementwise("a", x[0], x[1], ElementwiseOp::Mul);
                     return {n.add_elementwise("y", a, a, ElementwiseOp::Mul)};
                   }});
  for (auto [op, expr] : {std::pair{ElementwiseOp::And, "torch.logical_and(x0, x1)"},
                          {ElementwiseOp::Or, "torch.logical_or(x0, x1)"},
                          {ElementwiseOp::Xor, "torch.logical_xor(x0, x1)"},
                          {ElementwiseOp::Equal, "x0 == x1"},
                          {ElementwiseOp::Max, "torch.maximum(x0, x1)"}}) {
    cases.push_back({"ew_bool_" + std::string(elementwise_op_name(op)), {B({2, 3}), B({3})}, expr, build(op)});
  }
  return cases;
}

std::vector<OracleCase> unary_cases() {
  struct Op { UnaryOp op; const char* expr; Gen g; };
  const Op ops[] = {
      {UnaryOp::Exp, "torch.exp(x0)", Gen::Normal},        {UnaryOp::Log, "torch.log(x0)", Gen::Positive},
      {UnaryOp::Log2, "torch.log2(x0)", Gen::Positive},    {UnaryOp::Log10, "torch.log10(x0)", Gen::Positive},
      {UnaryOp::Log1p, "torch.log1p(x0)", Gen::Positive},  {UnaryOp::Expm1, "torch.expm1(x0)", Gen::Normal},
      {UnaryOp::Sqrt, "torch.sqrt(x0)", Gen::Positive},    {UnaryOp::Rsqrt, "torch.rsqrt(x0)", Gen::Positive},
      {UnaryOp::Abs, "torch.abs(x0)", Gen::Normal},        {UnaryOp::Neg, "torch.neg(x0)", Gen::Normal},
      {UnaryOp::Reciprocal, "torch.reciprocal(x0)", Gen::Positive},
      {UnaryOp::Sin, "torch.sin(x0)", Gen::Normal},        {UnaryOp::Cos, "torch.cos(x0)", Gen::Normal},
      {UnaryOp::Tan, "torch.tan(x0)", Gen::Unit},          {UnaryOp::Asin, "torch.asin(x0)", Gen::Unit},
      {UnaryOp::Acos, "torch.acos(x0)", Gen::Unit},        {UnaryOp::Atan, "torch.atan(x0)", Gen::Normal},
      {UnaryOp::Sinh, "torch.sinh(x0)", Gen::Normal},      {UnaryOp::Cosh, "torch.cosh(x0)", Gen::Normal},
      {UnaryOp::Asinh, "torch.asinh(x0)", Gen::Normal},    {UnaryOp::Acosh, "torch.acosh(x0)", Gen::AboveOne},
      {UnaryOp::Atanh, "torch.atanh(x0)", Gen::Unit},      {UnaryOp::Erf, "torch.erf(x0)", Gen::Normal},
      {UnaryOp::Floor, "torch.floor(x0)", Gen::Normal},    {UnaryOp::Ceil, "torch.ceil(x0)", Gen::Normal},
      {UnaryOp::Round, "torch.round(x0)", Gen::HalfSteps}, {UnaryOp::Trunc, "torch.trunc(x0)", Gen::Normal},
      {UnaryOp::Sign, "torch.sign(x0)", Gen::SmallInt},    {UnaryOp::Not, "torch.logical_not(x0)", Gen::SmallInt},
      {UnaryOp::IsNan, "torch.isnan(x0)", Gen::Special},   {UnaryOp::IsInf, "torch.isinf(x0)", Gen::Special},
      {UnaryOp::Lgamma, "torch.lgamma(x0)", Gen::Normal},  {UnaryOp::Digamma, "torch.digamma(x0)", Gen::Normal},
      {UnaryOp::Erfinv, "torch.erfinv(x0)", Gen::Unit},    {UnaryOp::Erfc, "torch.erfc(x0)", Gen::Normal},
      {UnaryOp::I0, "torch.i0(x0)", Gen::Normal},
      {UnaryOp::I0e, "torch.special.i0e(x0)", Gen::Normal},   {UnaryOp::I1, "torch.special.i1(x0)", Gen::Normal},
      {UnaryOp::I1e, "torch.special.i1e(x0)", Gen::Normal},
      {UnaryOp::BesselJ0, "torch.special.bessel_j0(x0)", Gen::Normal},
      {UnaryOp::BesselJ1, "torch.special.bessel_j1(x0)", Gen::Normal},
      {UnaryOp::BesselY0, "torch.special.bessel_y0(x0)", Gen::Positive},
      {UnaryOp::BesselY1, "torch.special.bessel_y1(x0)", Gen::Positive},
      {UnaryOp::K0, "torch.special.modified_bessel_k0(x0)", Gen::Positive},
      {UnaryOp::K1, "torch.special.modified_bessel_k1(x0)", Gen::Positive},
      {UnaryOp::K0e, "torch.special.scaled_modified_bessel_k0(x0)", Gen::Positive},
      {UnaryOp::K1e, "torch.special.scaled_modified_bessel_k1(x0)", Gen::Positive},
      {UnaryOp::SphericalBesselJ0, "torch.special.spherical_bessel_j0(x0)", Gen::Normal},
      {UnaryOp::AiryAi, "torch.special.airy_ai(x0)", Gen::Normal},
      {UnaryOp::Erfcx, "torch.special.erfcx(x0)", Gen::Normal},
      {UnaryOp::Trigamma, "torch.polygamma(1, x0)", Gen::Normal},
      {UnaryOp::FrexpMantissa, "torch.frexp(x0)[0]", Gen::Normal},
      {UnaryOp::FrexpExponent, "torch.frexp(x0)[1].float()", Gen::Normal},
  };
  static_assert(sizeof(ops) / sizeof(ops[0]) == kUnaryOpCount);
  std::vector<OracleCase> cases;
  for (const auto& o : ops) {
    int s = 0;
    for (const Dims& d : {Dims{9}, Dims{2, 1, 3}, Dims{}}) {
      cases.push_back({"un_" + std::string(unary_op_name(o.op)) + "_" + std::to_string(s++), {F32(d, o.g)}, o.expr,
                       [o](Network& n, const Ins& x) -> Ins { return {n.add_unary("y", x[0], o.op)}; }});
    }
  }
  for (auto [op, expr] : {std::pair{UnaryOp::Abs, "torch.abs(x0)"}, {UnaryOp::Neg, "torch.neg(x0)"},
                          {UnaryOp::Sign, "torch.sign(x0)"}, {UnaryOp::Not, "torch.logical_not(x0)"}}) {
    cases.push_back({"un_i64_" + std::string(unary_op_name(op)), {I64({8})}, expr,
                     [op](Network& n, const Ins& x) -> Ins { return {n.add_unary("y", x[0], op)}; }});
  }
  cases.push_back({"un_bool_not", {B({5})}, "torch.logical_not(x0)",
                   [](Network& n, const Ins& x) -> Ins { return {n.add_unary("y", x[0], UnaryOp::Not)}; }});
  return cases;
}

std::vector<OracleCase> matmul_cases() {
  struct M { Dims a, b; bool ta, tb; const char* expr; };
  const M ms[] = {
      {{3, 4}, {4, 5}, false, false, "x0 @ x1"},
      {{2, 3, 4}, {4, 5}, false, false, "x0 @ x1"},
      {{4}, {4, 5}, false, false, "x0 @ x1"},
      {{3, 4}, {4}, false, false, "x0 @ x1"},
      {{4}, {4}, false, false, "x0 @ x1"},
      {{2, 1, 3, 4}, {3, 4, 2}, false, false, "x0 @ x1"},
      {{4, 3}, {4, 5}, true, false, "x0.transpose(-1, -2) @ x1"},
      {{2, 3, 4}, {1, 5, 4}, false, true, "x0 @ x1.transpose(-1, -2)"},
      {{2, 4, 3}, {5, 4}, true, true, "x0.transpose(-1, -2) @ x1.transpose(-1, -2)"},
      {{1, 1}, {1, 7}, false, false, "x0 @ x1"},
  };
  std::vector<OracleCase> cases;
  int s = 0;
  for (const auto& m : ms) {
    cases.push_back({"mm_" + std::to_string(s++), {F32(m.a), F32(m.b)}, m.expr,
                     [m](Network& n, const Ins& x) -> Ins { return {n.add_matmul("y", x[0], x[1], m.ta, m.tb)}; },
                     1e-5, 1e-5});
  }
  cases.push_back({"mm_i64", {I64({2, 3}), I64({3, 4})}, "x0 @ x1",
                   [](Network& n, const Ins& x) -> Ins { return {n.add_matmul("y", x[0], x[1])}; }});
  return cases;
}

std::vector<OracleCase> conv_cases() {
  std::vector<OracleCase> cases;
  auto conv = [&](std::string name, Dims x, Dims w, bool bias, ConvolutionParams p, std::string expr) {
    std::vector<InputSpec> ins{F32(x), F32(w)};
    if (bias) ins.push_back(F32({w[0]}));
    cases.push_back({"conv_" + name, ins, expr,
                     [p, bias](Network& n, const Ins& t) -> Ins {
                       return {n.add_convolution("y", t[0], t[1], bias ? t[2] : nullptr, p)};
                     }, 1e-5, 1e-5});
  };
  conv("2d", {1, 3, 7, 6}, {4, 3, 3, 3}, true, {}, "F.conv2d(x0, x1, x2)");
  conv("2d_stride_pad", {2, 3, 8, 7}, {5, 3, 3, 2}, true, {{2, 1}, {1, 2}, {}, {1, 1}, 1},
       "F.conv2d(x0, x1, x2, stride=(2, 1), padding=(1, 2))");
  conv("2d_groups_dil", {1, 4, 9, 9}, {6, 2, 3, 3}, false, {{1, 2}, {2, 1}, {}, {2, 1}, 2},
       "F.conv2d(x0, x1, None, stride=(1, 2), padding=(2, 1), dilation=(2, 1), groups=2)");
  conv("2d_depthwise", {1, 3, 5, 5}, {3, 1, 3, 3}, true, {{1, 1}, {1, 1}, {}, {}, 3},
       "F.conv2d(x0, x1, x2, padding=1, groups=3)");
  conv("2d_asym_pad", {1, 2, 5, 6}, {3, 2, 2, 3}, false, {{1, 1}, {0, 1}, {1, 2}, {1, 1}, 1},
       "F.conv2d(F.pad(x0, (1, 2, 0, 1)), x1)");
  conv("1d", {2, 3, 11}, {4, 3, 3}, true, {{2}, {1}, {}, {2}, 1},
       "F.conv1d(x0, x1, x2, stride=2, padding=1, dilation=2)");
  conv("3d", {1, 2, 4, 5, 3}, {3, 2, 2, 3, 1}, true, {{1, 2, 1}, {1, 0, 0}, {}, {}, 1},
       "F.conv3d(x0, x1, x2, stride=(1, 2, 1), padding=(1, 0, 0))");
  conv("1x1", {1, 5, 1, 1}, {2, 5, 1, 1}, true, {}, "F.conv2d(x0, x1, x2)");
  auto deconv = [&](std::string name, Dims x, Dims w, std::int64_t groups, bool bias, DeconvolutionParams p,
                    std::string expr) {
    std::vector<InputSpec> ins{F32(x), F32(w)};
    if (bias) ins.push_back(F32({w[1] * groups}));
    cases.push_back({"deconv_" + name, ins, expr,
                     [p, bias](Network& n, const Ins& t) -> Ins {
                       return {n.add_deconvolution("y", t[0], t[1], bias ? t[2] : nullptr, p)};
                     }, 1e-5, 1e-5});
  };
  deconv("2d", {1, 3, 4, 5}, {3, 2, 3, 3}, 1, true, {}, "F.conv_transpose2d(x0, x1, x2)");
  deconv("2d_stride", {2, 4, 3, 3}, {4, 3, 3, 2}, 2, true, {{2, 2}, {1, 0}, {}, {}, {1, 1}, 2},
         "F.conv_transpose2d(x0, x1, x2, stride=2, padding=(1, 0), output_padding=1, groups=2)");
  deconv("2d_dil", {1, 2, 4, 4}, {2, 3, 2, 2}, 1, false, {{1, 1}, {0, 0}, {}, {2, 1}, {}, 1},
         "F.conv_transpose2d(x0, x1, None, dilation=(2, 1))");
  deconv("1d", {1, 2, 6}, {2, 3, 4}, 1, true, {{3}, {1}, {}, {}, {2}, 1},
         "F.conv_transpose1d(x0, x1, x2, stride=3, padding=1, output_padding=2)");
  deconv("3d", {1, 2, 2, 3, 2}, {2, 2, 2, 2, 2}, 1, true, {{2, 1, 2}, {}, {}, {}, {}, 1},
         "F.conv_transpose3d(x0, x1, x2, stride=(2, 1, 2))");
  return cases;
}

std::vector<OracleCase> pool_cases() {
  std::vector<OracleCase> cases;
  auto pool = [&](std::string name, Dims x, PoolingParams p, std::string expr) {
    cases.push_back({"pool_" + name, {F32(x)}, expr,
                     [p](Network& n, const Ins& t) -> Ins { return {n.add_pooling("y", t[0], p)}; }});
  };
  PoolingParams mx;
  mx.kernel = {3, 3};
  mx.stride = {2, 2};
  mx.padding_pre = {1, 1};
  pool("max2d", {1, 2, 7, 8}, mx, "F.max_pool2d(x0, 3, 2, 1)");
  mx.ceil_mode = true;
  pool("max2d_ceil", {1, 2, 8, 8}, mx, "F.max_pool2d(x0, 3, 2, 1, ceil_mode=True)");
  PoolingParams md;
  md.kernel = {2, 3};
  md.dilation = {2, 1};
  pool("max2d_dil", {2, 1, 7, 6}, md, "F.max_pool2d(x0, (2, 3), dilation=(2, 1))");
  PoolingParams m1;
  m1.kernel = {3};
  m1.stride = {1};
  pool("max1d_unbatched", {3, 9}, m1, "F.max_pool1d(x0, 3, 1)");
  PoolingParams av;
  av.op = PoolingOp::Average;
  av.kernel = {3, 3};
  av.stride = {2, 2};
  av.padding_pre = {1, 1};
  pool("avg2d", {1, 2, 7, 6}, av, "F.avg_pool2d(x0, 3, 2, 1)");
  av.count_include_pad = false;
  pool("avg2d_nopad", {1, 2, 7, 6}, av, "F.avg_pool2d(x0, 3, 2, 1, count_include_pad=False)");
  av.ceil_mode = true;
  pool("avg2d_ceil", {1, 2, 8, 6}, av, "F.avg_pool2d(x0, 3, 2, 1, ceil_mode=True, count_include_pad=False)");
  av.count_include_pad = true;
  pool("avg2d_ceil_incl", {1, 1, 8, 6}, av, "F.avg_pool2d(x0, 3, 2, 1, ceil_mode=True)");
  PoolingParams dv;
  dv.op = PoolingOp::Average;
  dv.kernel = {2, 2};
  dv.divisor_override = 3;
  pool("avg2d_divisor", {1, 1, 4, 5}, dv, "F.avg_pool2d(x0, 2, divisor_override=3)");
  PoolingParams a3;
  a3.op = PoolingOp::Average;
  a3.kernel = {2, 2, 2};
  a3.stride = {1, 2, 1};
  pool("avg3d", {1, 2, 3, 5, 4}, a3, "F.avg_pool3d(x0, 2, (1, 2, 1))");
  PoolingParams ad;
  ad.op = PoolingOp::Average;
  ad.adaptive = true;
  ad.output_size = {3, 2};
  pool("adaptive_avg2d", {2, 3, 7, 5}, ad, "F.adaptive_avg_pool2d(x0, (3, 2))");
  ad.output_size = {1, 1};
  pool("adaptive_avg2d_global", {1, 4, 5, 3}, ad, "F.adaptive_avg_pool2d(x0, 1)");
  PoolingParams am;
  am.op = PoolingOp::Max;
  am.adaptive = true;
  am.output_size = {4};
  pool("adaptive_max1d", {2, 3, 10}, am, "F.adaptive_max_pool1d(x0, 4)");
  am.output_size = {5, 4};
  pool("adaptive_max2d_up", {1, 1, 3, 2}, am, "F.adaptive_max_pool2d(x0, (5, 4))");
  return cases;
}

std::vector<OracleCase> softmax_norm_cases() {
  std::vector<OracleCase> cases;
  for (auto [axis, log] : {std::pair{-1L, false}, {0L, false}, {1L, true}, {-1L, true}}) {
    const std::string expr = std::string(log ? "F.log_softmax" : "F.softmax") + "(x0, " + std::to_string(axis) + ")";
    cases.push_back({"softmax_" + std::to_string(axis + 1) + (log ? "_log" : ""), {F32({2, 3, 5})}, expr,
                     [axis, log](Network& n, const Ins& x) -> Ins { return {n.add_softmax("y", x[0], axis, log)}; }});
  }
  cases.push_back({"softmax_inf", {F32({3, 4}, Gen::Special)}, "F.softmax(x0, 1)",
                   [](Network& n, const Ins& x) -> Ins { return {n.add_softmax("y", x[0], 1)}; }});
  auto norm = [&](std::string name, std::vector<InputSpec> ins, NormalizationParams p, std::string expr) {
    cases.push_back({"norm_" + name, std::move(ins), expr,
                     [p](Network& n, const Ins& t) -> Ins {
                       if (p.op == NormalizationOp::Batch) {
                         return {n.add_normalization("y", t[0], t[1], t[2], p, t[3], t[4])};
                       }
                       return {n.add_normalization("y", t[0], t[1], t[2], p)};
                     }, 1e-4, 1e-5});
  };
  norm("layer_last", {F32({2, 3, 6}), F32({6}), F32({6})}, {NormalizationOp::Layer, 1e-5, -1, 1},
       "F.layer_norm(x0, (6,), x1, x2, 1e-5)");
  norm("layer_two", {F32({2, 3, 4}), F32({3, 4}), F32({3, 4})}, {NormalizationOp::Layer, 1e-3, 1, 1},
       "F.layer_norm(x0, (3, 4), x1, x2, 1e-3)");
  norm("batch", {F32({2, 3, 4, 2}), F32({3}), F32({3}), F32({3}), F32({3}, Gen::Positive)},
       {NormalizationOp::Batch, 1e-5, -1, 1}, "F.batch_norm(x0, x3, x4, x1, x2, False, 0.0, 1e-5)");
  norm("batch_1d", {F32({4, 3}), F32({3}), F32({3}), F32({3}), F32({3}, Gen::Positive)},
       {NormalizationOp::Batch, 1e-5, -1, 1}, "F.batch_norm(x0, x3, x4, x1, x2, False, 0.0, 1e-5)");
  norm("group", {F32({2, 4, 3, 3}), F32({4}), F32({4})}, {NormalizationOp::Group, 1e-5, -1, 2},
       "F.group_norm(x0, 2, x1, x2, 1e-5)");
  norm("group_1", {F32({1, 6, 5}), F32({6}), F32({6})}, {NormalizationOp::Group, 1e-5, -1, 1},
       "F.group_norm(x0, 1, x1, x2, 1e-5)");
  norm("instance", {F32({2, 3, 4, 5}), F32({3}), F32({3})}, {NormalizationOp::Instance, 1e-5, -1, 1},
       "F.instance_norm(x0, weight=x1, bias=x2, eps=1e-5)");
  return cases;
}

std::vector<OracleCase> reduce_cases() {
  std::vector<OracleCase> cases;
  auto red = [&](std::string name, InputSpec in, ReduceOp op, Dims axes, bool keep, std::string expr) {
    cases.push_back({"reduce_" + name, {in}, expr,
                     [op, axes, keep](Network& n, const Ins& x) -> Ins { return {n.add_reduce("y", x[0], op, axes, keep)}; },
                     1e-5, 1e-5});
  };
  red("sum_1", F32({2, 3, 4}), ReduceOp::Sum, {1}, false, "torch.sum(x0, 1)");
  red("sum_02_keep", F32({2, 3, 4}), ReduceOp::Sum, {0, -1}, true, "torch.sum(x0, (0, 2), keepdim=True)");
  red("sum_all", F32({3, 5}), ReduceOp::Sum, {}, false, "torch.sum(x0)");
  red("sum_i32", I32({3, 4}), ReduceOp::Sum, {1}, false, "torch.sum(x0, 1)");
  red("sum_bool", B({3, 4}), ReduceOp::Sum, {0}, false, "torch.sum(x0, 0)");
  red("mean", F32({2, 3, 4}), ReduceOp::Mean, {2}, true, "torch.mean(x0, 2, keepdim=True)");
  red("mean_12", F32({2, 3, 4}), ReduceOp::Mean, {1, 2}, false, "torch.mean(x0, (1, 2))");
  red("prod", F32({2, 5}, Gen::Positive), ReduceOp::Prod, {1}, false, "torch.prod(x0, 1)");
  red("prod_i64", I64({2, 5}), ReduceOp::Prod, {0}, true, "torch.prod(x0, 0, keepdim=True)");
  red("max", F32({3, 4}), ReduceOp::Max, {0}, false, "torch.amax(x0, 0)");
  red("max_nan", F32({4, 6}, Gen::Special), ReduceOp::Max, {1}, false, "torch.amax(x0, 1)");
  red("min", F32({3, 4, 2}), ReduceOp::Min, {0, 2}, true, "torch.amin(x0, (0, 2), keepdim=True)");
  red("min_i64", I64({3, 4}), ReduceOp::Min, {1}, false, "torch.amin(x0, 1)");
  red("argmax", F32({3, 5}), ReduceOp::ArgMax, {1}, false, "torch.argmax(x0, 1)");
  red("argmax_ties", I64({4, 6}), ReduceOp::ArgMax, {1}, true, "torch.argmax(x0, 1, keepdim=True)");
  red("argmin", F32({3, 5, 2}), ReduceOp::ArgMin, {0}, false, "torch.argmin(x0, 0)");
  red("argmax_nan", F32({4, 6}, Gen::Special), ReduceOp::ArgMax, {1}, false, "torch.argmax(x0, 1)");
  red("any", B({3, 4}), ReduceOp::Any, {1}, false, "torch.any(x0, 1)");
  red("all", B({3, 2}), ReduceOp::All, {0}, true, "torch.all(x0, 0, keepdim=True)");
  red("any_f32", F32({3, 4}, Gen::SmallInt), ReduceOp::Any, {1}, false, "torch.any(x0, 1)");
  red("sum_empty", F32({0, 3}), ReduceOp::Sum, {0}, false, "torch.sum(x0, 0)");
  auto cum = [&](std::string name, InputSpec in, CumulativeOp op, std::int64_t axis, bool excl, bool rev, std::string expr) {
    cases.push_back({"cum_" + name, {in}, expr,
                     [=](Network& n, const Ins& x) -> Ins { return {n.add_cumulative("y", x[0], op, axis, excl, rev)}; },
                     1e-5, 1e-5});
  };
  cum("sum", F32({3, 5}), CumulativeOp::Sum, 1, false, false, "torch.cumsum(x0, 1)");
  cum("sum_neg_axis", F32({4, 2, 3}), CumulativeOp::Sum, -3, false, false, "torch.cumsum(x0, 0)");
  cum("sum_i32", I32({2, 6}), CumulativeOp::Sum, 1, false, false, "torch.cumsum(x0, 1)");
  cum("prod", F32({2, 6}, Gen::Positive), CumulativeOp::Prod, 1, false, false, "torch.cumprod(x0, 1)");
  cum("exclusive", F32({2, 6}), CumulativeOp::Sum, 1, true, false, "torch.cumsum(x0, 1) - x0");
  cum("reverse", F32({3, 4}), CumulativeOp::Sum, 1, false, true, "x0.flip(1).cumsum(1).flip(1)");
  auto topk = [&](std::string name, InputSpec in, std::int64_t k, std::int64_t axis, bool largest, std::string expr) {
    cases.push_back({"topk_" + name, {in}, expr, [=](Network& n, const Ins& x) -> Ins {
                       auto* l = n.add_topk("y", x[0], k, axis, largest);
                       return {l->output(0), l->output(1)};
                     }});
  };
  topk("k3", F32({2, 7}), 3, 1, true, "torch.topk(x0, 3, 1)");
  topk("k2_small_axis0", F32({5, 3}), 2, 0, false, "torch.topk(x0, 2, 0, largest=False)");
  topk("sort_desc", F32({3, 6}), 6, -1, true, "torch.sort(x0, -1, descending=True)");
  topk("sort_stable_int", I64({3, 8}), 8, 1, false, "torch.sort(x0, dim=1, stable=True)");
  topk("sort_nan", F32({2, 6}, Gen::Special), 6, 1, false, "torch.sort(x0, dim=1, stable=True)");
  topk("sort_nan_desc", F32({2, 6}, Gen::Special), 6, 1, true, "torch.sort(x0, dim=1, descending=True, stable=True)");
  return cases;
}

std::vector<OracleCase> movement_cases() {
  std::vector<OracleCase> cases;
  auto add = [&](std::string name, std::vector<InputSpec> ins, std::string expr, Builder b) {
    cases.push_back({name, std::move(ins), std::move(expr), std::move(b)});
  };
  add("shuffle_reshape", {F32({2, 3, 4})}, "x0.reshape(6, -1)",
      [](Network& n, const Ins& x) -> Ins { return {n.add_reshape("y", x[0], {6, -1})}; });
  add("shuffle_permute", {I64({2, 3, 4})}, "x0.permute(2, 0, 1)",
      [](Network& n, const Ins& x) -> Ins { return {n.add_permute("y", x[0], {2, 0, 1})}; });
  add("shuffle_full", {F32({2, 3, 4})}, "x0.permute(1, 0, 2).reshape(3, 8).permute(1, 0)",
      [](Network& n, const Ins& x) -> Ins {
        return {n.add_shuffle("y", x[0], ShuffleParams{{1, 0, 2}, true, {3, 8}, {1, 0}})};
      });
  add("shuffle_shape_input", {F32({2, 3, 4})}, "x0.reshape(4, 6)",
      [](Network& n, const Ins& x) -> Ins {
        Tensor s(DType::Int64, {2});
        s.mutable_data<std::int64_t>()[0] = 4;
        s.mutable_data<std::int64_t>()[1] = -1;
        return {n.add_shuffle("y", x[0], ShuffleParams{}, n.add_constant("shape", s))};
      });
  add("shuffle_scalar", {F32({1, 1})}, "x0.reshape(())",
      [](Network& n, const Ins& x) -> Ins { return {n.add_reshape("y", x[0], {})}; });
  add("slice_steps", {F32({7, 3, 5})}, "x0[1:5:2, :, -3:]",
      [](Network& n, const Ins& x) -> Ins { return {n.add_slice("y", x[0], {0, 2}, {1, -3}, {5, kMax}, {2, 1})}; });
  add("slice_clamp", {I64({6, 2})}, "x0[-100:100]",
      [](Network& n, const Ins& x) -> Ins { return {n.add_slice("y", x[0], {0}, {-100}, {100}, {1})}; });
  add("slice_flip", {F32({3, 5})}, "x0.flip(1)",
      [](Network& n, const Ins& x) -> Ins { return {n.add_slice("y", x[0], {1}, {-1}, {kMin}, {-1})}; });
  add("slice_empty", {F32({4, 3})}, "x0[3:1]",
      [](Network& n, const Ins& x) -> Ins { return {n.add_slice("y", x[0], {0}, {3}, {1}, {1})}; });
  add("slice_neg_step", {F32({9})}, "x0.flip(0)[1::3]",  // python x[-2::-3]
      [](Network& n, const Ins& x) -> Ins { return {n.add_slice("y", x[0], {0}, {-2}, {kMin}, {-3})}; });
  add("concat_1", {F32({2, 3, 4}), F32({2, 1, 4}), F32({2, 2, 4})}, "torch.cat([x0, x1, x2], 1)",
      [](Network& n, const Ins& x) -> Ins { return {n.add_concatenation("y", x, 1)}; });
  add("concat_neg", {I64({2, 3}), I64({2, 5})}, "torch.cat([x0, x1], -1)",
      [](Network& n, const Ins& x) -> Ins { return {n.add_concatenation("y", x, -1)}; });
  add("concat_empty", {F32({0, 3}), F32({2, 3})}, "torch.cat([x0, x1], 0)",
      [](Network& n, const Ins& x) -> Ins { return {n.add_concatenation("y", x, 0)}; });
  add("concat_bool", {B({3}), B({2})}, "torch.cat([x0, x1])",
      [](Network& n, const Ins& x) -> Ins { return {n.add_concatenation("y", x, 0)}; });
  add("gather_index_select", {F32({3, 5, 2}), I64({4}, Gen::Index, 5)}, "torch.index_select(x0, 1, x1)",
      [](Network& n, const Ins& x) -> Ins { return {n.add_gather("y", x[0], x[1], GatherMode::Axis, 1)}; });
  add("gather_embedding", {F32({6, 3}), I64({2, 4}, Gen::Index, 6)}, "x0[x1]",
      [](Network& n, const Ins& x) -> Ins { return {n.add_gather("y", x[0], x[1], GatherMode::Axis, 0)}; });
  add("gather_negative", {I64({5, 2}), I64({7}, Gen::IndexNeg, 5)}, "x0[x1]",
      [](Network& n, const Ins& x) -> Ins { return {n.add_gather("y", x[0], x[1], GatherMode::Axis, 0)}; });
  add("gather_scalar_index", {F32({4, 3}), I64({}, Gen::Index, 3)}, "x0[:, x1]",
      [](Network& n, const Ins& x) -> Ins { return {n.add_gather("y", x[0], x[1], GatherMode::Axis, 1)}; });
  add("gather_elements", {F32({3, 4}), I64({3, 6}, Gen::Index, 4)}, "torch.gather(x0, 1, x1)",
      [](Network& n, const Ins& x) -> Ins { return {n.add_gather("y", x[0], x[1], GatherMode::Elements, 1)}; });
  add("gather_elements_0", {F32({5, 3}), I64({2, 2}, Gen::Index, 5)}, "torch.gather(x0, 0, x1)",
      [](Network& n, const Ins& x) -> Ins { return {n.add_gather("y", x[0], x[1], GatherMode::Elements, 0)}; });
  add("scatter", {F32({2, 6}), I64({2, 4}, Gen::Distinct, 6), F32({2, 5})}, "x0.scatter(1, x1, x2)",
      [](Network& n, const Ins& x) -> Ins { return {n.add_scatter("y", x[0], x[1], x[2], 1)}; });
  add("scatter_add", {F32({5, 3}), I64({4, 3}, Gen::Index, 5), F32({4, 3})}, "x0.scatter_add(0, x1, x2)",
      [](Network& n, const Ins& x) -> Ins { return {n.add_scatter("y", x[0], x[1], x[2], 0, ScatterReduce::Add)}; });
  add("scatter_mul", {F32({2, 4}), I64({2, 3}, Gen::Index, 4), F32({2, 3})}, "x0.scatter(1, x1, x2, reduce='multiply')",
      [](Network& n, const Ins& x) -> Ins { return {n.add_scatter("y", x[0], x[1], x[2], 1, ScatterReduce::Mul)}; });
  add("scatter_i64_add", {I64({6}), I64({8}, Gen::Index, 6), I64({8})}, "x0.scatter_add(0, x1, x2)",
      [](Network& n, const Ins& x) -> Ins { return {n.add_scatter("y", x[0], x[1], x[2], 0, ScatterReduce::Add)}; });
  add("select", {B({2, 1, 3}), F32({4, 1}), F32({3})}, "torch.where(x0, x1, x2)",
      [](Network& n, const Ins& x) -> Ins { return {n.add_select("y", x[0], x[1], x[2])}; });
  add("select_i64", {B({5}), I64({5}), I64({})}, "torch.where(x0, x1, x2)",
      [](Network& n, const Ins& x) -> Ins { return {n.add_select("y", x[0], x[1], x[2])}; });
  auto cast = [&](std::string name, InputSpec in, DType to, std::string expr) {
    add("cast_" + name, {in}, expr, [to](Network& n, const Ins& x) -> Ins { return {n.add_cast("y", x[0], to)}; });
  };
  cast("f32_i64", F32({9}), DType::Int64, "x0.to(torch.int64)");
  cast("f32_bool", F32({9}, Gen::SmallInt), DType::Bool, "x0.to(torch.bool)");
  cast("i64_f32", I64({9}, Gen::Wide), DType::Float32, "x0.to(torch.float32)");
  cast("i64_i8", I64({9}, Gen::Wide), DType::Int8, "x0.to(torch.int8)");
  cast("i32_u8", I32({9}, Gen::Wide), DType::UInt8, "x0.to(torch.uint8)");
  cast("bool_f32", B({5}), DType::Float32, "x0.to(torch.float32)");
  cast("f32_f64", F32({5}), DType::Float64, "x0.double()");
  add("cast_f16_roundtrip", {F32({40}, Gen::Special)}, "x0.half().float()",
      [](Network& n, const Ins& x) -> Ins { return {n.add_cast("y", n.add_cast("h", x[0], DType::Float16), DType::Float32)}; });
  add("cast_bf16_roundtrip", {F32({40}, Gen::Special)}, "x0.bfloat16().float()",
      [](Network& n, const Ins& x) -> Ins { return {n.add_cast("y", n.add_cast("h", x[0], DType::BFloat16), DType::Float32)}; });
  add("cast_f16_tiny", {F32({6}, Gen::Normal)}, "(x0 * 1e-6).half().float()",
      [](Network& n, const Ins& x) -> Ins {
        Tensor s(DType::Float32, {});
        s.mutable_data<float>()[0] = 1e-6f;
        auto* m = n.add_elementwise("m", x[0], n.add_constant("s", s), ElementwiseOp::Mul);
        return {n.add_cast("y", n.add_cast("h", m, DType::Float16), DType::Float32)};
      });
  auto pad = [&](std::string name, InputSpec in, PaddingParams p, std::string expr) {
    add("pad_" + name, {in}, expr, [p](Network& n, const Ins& x) -> Ins { return {n.add_padding("y", x[0], p)}; });
  };
  pad("constant", F32({2, 3, 4}), {PaddingMode::Constant, {0, 0, 1}, {0, 1, 2}, 1.5}, "F.pad(x0, (1, 2, 0, 1), value=1.5)");
  pad("crop", F32({3, 5}), {PaddingMode::Constant, {0, -1}, {0, 2}, 0.0}, "F.pad(x0, (-1, 2))");
  pad("constant_i64", I64({2, 2}), {PaddingMode::Constant, {1, 0}, {0, 1}, 7.0}, "F.pad(x0, (0, 1, 1, 0), value=7)");
  pad("reflect", F32({1, 2, 4, 5}), {PaddingMode::Reflect, {0, 0, 1, 2}, {0, 0, 2, 1}, 0.0}, "F.pad(x0, (2, 1, 1, 2), mode='reflect')");
  pad("replicate", F32({1, 2, 3, 3}), {PaddingMode::Replicate, {0, 0, 2, 0}, {0, 0, 1, 3}, 0.0}, "F.pad(x0, (0, 3, 2, 1), mode='replicate')");
  pad("circular", F32({1, 2, 5}), {PaddingMode::Circular, {0, 0, 2}, {0, 0, 3}, 0.0}, "F.pad(x0, (2, 3), mode='circular')");
  return cases;
}

std::vector<OracleCase> resize_fill_cases() {
  std::vector<OracleCase> cases;
  auto rs = [&](std::string name, Dims x, ResizeParams p, std::string expr) {
    cases.push_back({"resize_" + name, {F32(x)}, expr,
                     [p](Network& n, const Ins& t) -> Ins { return {n.add_resize("y", t[0], p)}; }, 1e-5, 1e-5});
  };
  rs("nearest_up", {1, 2, 3, 4}, {ResizeMode::Nearest, {5, 7}, {}, false}, "F.interpolate(x0, size=(5, 7), mode='nearest')");
  rs("nearest_down", {1, 1, 7, 9}, {ResizeMode::Nearest, {3, 4}, {}, false}, "F.interpolate(x0, size=(3, 4), mode='nearest')");
  rs("nearest_scale", {1, 2, 3, 4}, {ResizeMode::Nearest, {7, 10}, {2.5, 2.5}, false},
     "F.interpolate(x0, scale_factor=2.5, mode='nearest')");
  rs("nearest_exact", {1, 2, 3, 5}, {ResizeMode::NearestExact, {7, 3}, {}, false},
     "F.interpolate(x0, size=(7, 3), mode='nearest-exact')");
  rs("nearest_1d", {2, 2, 5}, {ResizeMode::Nearest, {8}, {}, false}, "F.interpolate(x0, size=8, mode='nearest')");
  rs("bilinear", {1, 2, 3, 4}, {ResizeMode::Linear, {5, 7}, {}, false},
     "F.interpolate(x0, size=(5, 7), mode='bilinear', align_corners=False)");
  rs("bilinear_ac", {1, 2, 3, 4}, {ResizeMode::Linear, {5, 7}, {}, true},
     "F.interpolate(x0, size=(5, 7), mode='bilinear', align_corners=True)");
  rs("bilinear_down", {1, 1, 8, 7}, {ResizeMode::Linear, {3, 2}, {}, false},
     "F.interpolate(x0, size=(3, 2), mode='bilinear', align_corners=False)");
  rs("bilinear_scale", {1, 1, 3, 3}, {ResizeMode::Linear, {4, 4}, {1.5, 1.5}, false},
     "F.interpolate(x0, scale_factor=1.5, mode='bilinear', align_corners=False)");
  rs("linear_1d", {1, 3, 4}, {ResizeMode::Linear, {9}, {}, false},
     "F.interpolate(x0, size=9, mode='linear', align_corners=False)");
  rs("trilinear", {1, 1, 2, 3, 2}, {ResizeMode::Linear, {3, 5, 4}, {}, false},
     "F.interpolate(x0, size=(3, 5, 4), mode='trilinear', align_corners=False)");
  rs("bicubic", {1, 2, 4, 5}, {ResizeMode::Cubic, {7, 8}, {}, false},
     "F.interpolate(x0, size=(7, 8), mode='bicubic', align_corners=False)");
  rs("bicubic_ac", {1, 1, 4, 4}, {ResizeMode::Cubic, {6, 3}, {}, true},
     "F.interpolate(x0, size=(6, 3), mode='bicubic', align_corners=True)");
  auto fill = [&](std::string name, std::vector<InputSpec> ins, FillParams p, std::string expr, bool from_shape) {
    cases.push_back({"fill_" + name, std::move(ins), expr, [p, from_shape](Network& n, const Ins& x) -> Ins {
                       if (from_shape) return {n.add_fill("y", p, n.add_shape("s", x[0]))};
                       return {n.add_fill("y", p)};
                     }});
  };
  fill("full", {}, {FillOp::Constant, DType::Float32, {2, 3}, 1.5, 0, 0}, "torch.full((2, 3), 1.5)", false);
  fill("zeros_i64", {}, {FillOp::Constant, DType::Int64, {4}, 0, 0, 0}, "torch.zeros(4, dtype=torch.int64)", false);
  fill("arange", {}, {FillOp::Iota, DType::Float32, {4}, 0.5, 3, 0}, "torch.arange(0.5, 12, 3)", false);
  fill("arange_i64", {}, {FillOp::Iota, DType::Int64, {5}, -2, 1, 0}, "torch.arange(-2, 3)", false);
  fill("like", {F32({3, 1, 2})}, {FillOp::Constant, DType::Float32, {}, 2.0, 0, 0}, "torch.full_like(x0, 2.0)", true);
  cases.push_back({"shape_of", {F32({3, 1, 2})}, "torch.tensor(x0.shape)",
                   [](Network& n, const Ins& x) -> Ins { return {n.add_shape("y", x[0])}; }});
  // A check that holds passes its condition through (a false one is an
  // InputError: tests/unit/api/run_time_assert_test.cpp).
  cases.push_back({"shape_check_holds", {F32({3, 2})}, "torch.ones(3, dtype=torch.bool)",
                   [](Network& n, const Ins& x) -> Ins {
                     auto scalar_tensor_int = [](DType dt, std::int64_t v) {
                       Tensor t(dt, {});
                       t.mutable_data<std::int64_t>()[0] = v;
                       return t;
                     };
                     auto* three = n.add_gather("three", n.add_shape("s", x[0]), n.add_constant("i", scalar_tensor_int(DType::Int64, 0)),
                                                GatherMode::Axis, 0);
                     auto* ones = n.add_fill("t", {FillOp::Constant, DType::Bool, {3}, 1, 0, 0});
                     auto* holds = n.add_elementwise("eq", three, n.add_constant("c", scalar_tensor_int(DType::Int64, 3)),
                                                     ElementwiseOp::Equal);
                     auto* both = n.add_elementwise("and", ones, holds, ElementwiseOp::And);
                     return {n.add_layer("y", {both}, CheckParams{"x0 must have 3 rows"})->output()};
                   }});
  return cases;
}

// Layers whose output size depends on the values (the reference executor
// counts them at run time).
std::vector<OracleCase> data_dependent_cases() {
  std::vector<OracleCase> cases;
  auto nz = [&](std::string name, InputSpec in) {
    cases.push_back({"dd_nonzero_" + name, {std::move(in)}, "torch.nonzero(x0)", [](Network& n, const Ins& x) -> Ins {
                       network::DataDependentParams p;
                       p.op = network::DataDependentOp::NonZero;
                       return {n.add_layer("y", {x[0]}, p)->output()};
                     }});
  };
  nz("int", I64({3, 4}));
  nz("bool_3d", B({2, 3, 2}));
  nz("special", F32({7}, Gen::Special));
  nz("scalar", B({}));
  nz("empty", F32({0, 3}));
  auto dd = [&](std::string name, std::vector<InputSpec> ins, std::string expr, network::DataDependentParams p) {
    cases.push_back({"dd_" + name, std::move(ins), std::move(expr), [p](Network& n, const Ins& x) -> Ins {
                       return n.add_layer("y", x, p)->outputs;
                     }});
  };
  network::DataDependentParams u;
  u.op = network::DataDependentOp::Unique;
  u.return_inverse = u.return_counts = true;
  dd("unique", {I64({4, 5})}, "torch.unique(x0, sorted=True, return_inverse=True, return_counts=True)", u);
  dd("unique_halves", {F32({3, 4}, Gen::HalfSteps)}, "torch.unique(x0, sorted=True, return_inverse=True, return_counts=True)", u);
  // bfloat16: torch hashes its bits (sorted=False) and compares it as float.
  for (bool sorted : {false, true}) {
    network::DataDependentParams ub = u;
    ub.sorted = sorted;
    cases.push_back({std::string("dd_unique_bf16_") + (sorted ? "sorted" : "unsorted"), {F32({40}, Gen::HalfSteps)},
                     std::string("tuple(t.float() if t.is_floating_point() else t for t in torch._unique2(x0.bfloat16(), ") +
                         (sorted ? "True" : "False") + ", True, True))",
                     [ub](Network& n, const Ins& x) -> Ins {
                       auto outs = n.add_layer("y", {n.add_cast("h", x[0], DType::BFloat16)}, ub)->outputs;
                       outs[0] = n.add_cast("f", outs[0], DType::Float32);
                       return outs;
                     }});
  }
  u.has_axis = true;
  u.axis = 1;
  dd("unique_dim", {B({3, 6})}, "torch.unique(x0, sorted=True, return_inverse=True, return_counts=True, dim=1)", u);
  u.op = network::DataDependentOp::UniqueConsecutive;
  dd("unique_consecutive_dim", {B({3, 6})}, "torch.unique_consecutive(x0, return_inverse=True, return_counts=True, dim=1)", u);
  u.has_axis = false;
  dd("unique_consecutive", {I64({9}, Gen::Exponent)}, "torch.unique_consecutive(x0, return_inverse=True, return_counts=True)", u);
  network::DataDependentParams bc;
  bc.op = network::DataDependentOp::BinCount;
  bc.minlength = 3;
  dd("bincount", {I64({7}, Gen::Index, 5)}, "torch.bincount(x0, minlength=3)", bc);
  dd("bincount_weights", {I64({7}, Gen::Index, 4), F32({7})}, "torch.bincount(x0, x1, minlength=3)", bc);
  network::DataDependentParams ri;
  ri.op = network::DataDependentOp::RepeatInterleave;
  dd("repeat_interleave", {I64({5}, Gen::Exponent)}, "torch.repeat_interleave(x0)", ri);
  return cases;
}

}  // namespace

std::vector<OracleCase> linalg_cases();  // linalg_oracle_cases.cpp

namespace {

const std::vector<OracleCase>& all_cases() {
  static const std::vector<OracleCase> cases = [] {
    std::vector<OracleCase> all;
    for (auto&& part : {activation_cases(), elementwise_cases(), unary_cases(), matmul_cases(), conv_cases(),
                        pool_cases(), softmax_norm_cases(), reduce_cases(), movement_cases(), resize_fill_cases(),
                        linalg_cases(), data_dependent_cases()}) {
      all.insert(all.end(), part.begin(), part.end());
    }
    return all;
  }();
  return cases;
}

// Runs the cases whose name starts with one of `prefixes` (one Python
// process per family, so each test stands alone under ctest).
void check_family(std::initializer_list<std::string> prefixes) {
  std::vector<OracleCase> mine;
  for (const auto& c : all_cases()) {
    bool match = false;
    for (const auto& p : prefixes) match = match || c.name.rfind(p, 0) == 0;
    if (match) mine.push_back(c);
  }
  ASSERT_FALSE(mine.empty());
  const OracleResult r = run_oracle(mine);
  if (r.torch_missing) ATENRT_FIXTURE_MISSING("/usr/bin/python3 with torch is not available");
  for (const auto& f : r.failures) ADD_FAILURE() << f;
  EXPECT_EQ(r.checked + static_cast<int>(r.failures.size()), static_cast<int>(mine.size()));
}

// Five groups: each starts Python once (torch's import dominates the time).
TEST(ReferenceVsTorch, ActivationElementwiseUnary) { check_family({"act_", "ew_", "un_"}); }
TEST(ReferenceVsTorch, MatMulConvPoolNormReduce) {
  check_family({"mm_", "conv_", "deconv_", "pool_", "softmax_", "norm_", "reduce_", "cum_", "topk_"});
}
TEST(ReferenceVsTorch, DataMovementCastPad) {
  check_family({"shuffle_", "slice_", "concat_", "gather_", "scatter", "select", "cast_", "pad_"});
}
TEST(ReferenceVsTorch, ResizeFillShape) { check_family({"resize_", "fill_", "shape_"}); }
TEST(ReferenceVsTorch, LinearAlgebra) { check_family({"linalg_"}); }
TEST(ReferenceVsTorch, DataDependent) { check_family({"dd_"}); }

TEST(ReferenceVsTorch, EveryKindHasCases) {
  // Every layer kind appears in some case.
  std::vector<bool> seen(kLayerKindCount, false);
  for (const auto& c : all_cases()) {
    Network n;
    Ins ins;
    for (std::size_t i = 0; i < c.inputs.size(); ++i) ins.push_back(n.add_input("x" + std::to_string(i), c.inputs[i].dtype, c.inputs[i].dims));
    c.build(n, ins);
    for (auto* l : n.layers()) seen[static_cast<int>(l->kind())] = true;
  }
  for (int k = 0; k < kLayerKindCount; ++k) {
    // A plugin layer means what its plugin's kernel computes, which has no
    // atenrt formula to check against (tests/unit/builder/plugin_layer_test.cpp;
    // the example plugin is checked against PyTorch by tests/packaging).
    if (static_cast<LayerKind>(k) == LayerKind::Plugin) continue;
    EXPECT_TRUE(seen[k]) << "no oracle case for " << layer_kind_name(static_cast<LayerKind>(k));
  }
}

}  // namespace
}  // namespace atenrt::testing
