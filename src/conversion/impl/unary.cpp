#include "conversion/impl/unary.h"

#include "atenrt/errors.h"

namespace atenrt::conversion::impl::unary {


NetworkTensor* unary(const Scope& s, NetworkTensor* x, UnaryOp op) {
  if (x->dtype == DType::Bool) {
    if (op == UnaryOp::Neg) throw UnsupportedError("negation of a bool tensor is not defined in PyTorch");
    if (op == UnaryOp::Floor || op == UnaryOp::Ceil || op == UnaryOp::Round || op == UnaryOp::Trunc ||
        op == UnaryOp::Abs) {
      return identity(s, x);  // torch returns the bool values unchanged
    }
    if (op == UnaryOp::Sign) return cast(s, x, DType::Bool);
  }
  const bool int_ok = network::unary_takes_integers(op);
  if (!is_floating(x->dtype) && !int_ok) x = cast(s, x, DType::Float32);
  if (x->dtype == DType::Bool && op != UnaryOp::Not && op != UnaryOp::IsNan && op != UnaryOp::IsInf) {
    x = cast(s, x, DType::UInt8);
  }
  if (!is_floating(x->dtype) && (op == UnaryOp::Floor || op == UnaryOp::Ceil || op == UnaryOp::Round ||
                                 op == UnaryOp::Trunc)) {
    return identity(s, x);  // integers are already whole
  }
  return s.add_unary("", x, op);
}

NetworkTensor* logical_not(const Scope& s, NetworkTensor* x) {
  return unary(s, x, UnaryOp::Not);
}

NetworkTensor* bitwise_not(const Scope& s, NetworkTensor* x) {
  if (x->dtype == DType::Bool) return unary(s, x, UnaryOp::Not);
  check(is_integral(x->dtype), "bitwise_not of " + std::string(dtype_name(x->dtype)) +
                                   " is not defined (integer and bool tensors only)");
  // ~x is x ^ (all ones): -1 in the signed dtypes, 255 in uint8.
  const double ones = x->dtype == DType::UInt8 ? 255.0 : -1.0;
  return s.add_elementwise("", x, scalar_constant(s, ones, x->dtype), network::ElementwiseOp::BitXor);
}

NetworkTensor* square(const Scope& s, NetworkTensor* x) {
  if (x->dtype == DType::Bool) x = cast(s, x, DType::Int64);
  return s.add_elementwise("", x, x, network::ElementwiseOp::Mul);
}

}  // namespace atenrt::conversion::impl::unary
