// Activation and unary layers: same-shape element maps.
#include <array>

#include "network/infer.h"

namespace atenrt::network {

namespace {
constexpr std::array<std::string_view, kActivationOpCount> kActivationNames = {
    "relu", "sigmoid", "tanh", "leaky_relu", "elu", "selu", "softplus",
    "clip", "gelu_erf", "gelu_tanh", "hard_sigmoid", "hard_swish", "silu", "mish"};
constexpr std::array<std::string_view, kUnaryOpCount> kUnaryNames = {
    "exp",  "log",   "log2",  "log10", "log1p", "expm1", "sqrt",  "rsqrt", "abs",  "neg",  "reciprocal",
    "sin",  "cos",   "tan",   "asin",  "acos",  "atan",  "sinh",  "cosh",  "asinh", "acosh", "atanh",
    "erf",  "floor", "ceil",  "round", "trunc", "sign",  "not",   "isnan", "isinf", "lgamma", "digamma",
    "erfinv", "erfc", "i0", "i0e", "i1", "i1e", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1",
    "k0", "k1", "k0e", "k1e", "spherical_bessel_j0", "airy_ai", "erfcx", "trigamma", "frexp_mantissa",
    "frexp_exponent"};
}  // namespace

std::string_view activation_op_name(ActivationOp op) {
  const auto i = static_cast<std::size_t>(op);
  return i < kActivationNames.size() ? kActivationNames[i] : "?";
}

bool unary_takes_integers(UnaryOp op) {
  switch (op) {
    case UnaryOp::Abs:
    case UnaryOp::Neg:
    case UnaryOp::Sign:
    case UnaryOp::Floor:
    case UnaryOp::Ceil:
    case UnaryOp::Round:
    case UnaryOp::Trunc:
    case UnaryOp::Not:
    case UnaryOp::IsNan:
    case UnaryOp::IsInf:
      return true;
    default:
      return false;
  }
}

std::string_view unary_op_name(UnaryOp op) {
  const auto i = static_cast<std::size_t>(op);
  return i < kUnaryNames.size() ? kUnaryNames[i] : "?";
}

namespace detail {

Descs infer(const InferContext& ctx, const ActivationParams& p) {
  ctx.expect_inputs(1, 1);
  if (static_cast<int>(p.op) >= kActivationOpCount) ctx.fail("unknown activation op");
  const DType dt = ctx.in(0).dtype;
  // relu and clip are defined on integers too (torch.relu / clamp on int tensors).
  const bool int_ok = p.op == ActivationOp::Relu || p.op == ActivationOp::Clip;
  if (!is_floating(dt) && !(int_ok && is_integral(dt))) {
    ctx.fail(std::string(activation_op_name(p.op)) + " does not take " + std::string(dtype_name(dt)));
  }
  if (p.op == ActivationOp::Clip && p.alpha > p.beta) {
    ctx.fail("clip min " + std::to_string(p.alpha) + " is greater than max " + std::to_string(p.beta));
  }
  if (p.op == ActivationOp::Softplus && p.alpha == 0.0) ctx.fail("softplus beta must not be 0");
  return {ctx.in(0)};
}

Descs infer(const InferContext& ctx, const UnaryParams& p) {
  ctx.expect_inputs(1, 1);
  if (static_cast<int>(p.op) >= kUnaryOpCount) ctx.fail("unknown unary op");
  const TensorDesc& x = ctx.in(0);
  if (p.op == UnaryOp::Not || p.op == UnaryOp::IsNan || p.op == UnaryOp::IsInf) {
    return {{DType::Bool, x.dims}};
  }
  if (unary_takes_integers(p.op)) {
    if (!is_floating(x.dtype) && !is_integral(x.dtype)) {
      ctx.fail(std::string(unary_op_name(p.op)) + " does not take " + std::string(dtype_name(x.dtype)));
    }
    return {x};
  }
  if (!is_floating(x.dtype)) {
    ctx.fail(std::string(unary_op_name(p.op)) + " needs a floating input, got " +
             std::string(dtype_name(x.dtype)) + " (cast it first)");
  }
  return {x};
}

}  // namespace detail
}  // namespace atenrt::network
