#include "conversion/impl/matmul.h"

namespace atenrt::conversion::impl::matmul {

using network::ElementwiseOp;

NetworkTensor* matmul(const Scope& s, NetworkTensor* a,
                      NetworkTensor* b, bool transpose_a, bool transpose_b) {
  const DType dt = promote_types(a->dtype, b->dtype);
  return s.add_matmul("", cast(s, a, dt), cast(s, b, dt), transpose_a, transpose_b);
}

NetworkTensor* addmm(const Scope& s, NetworkTensor* self,
                     NetworkTensor* a, NetworkTensor* b, const Scalar& beta, const Scalar& alpha) {
  auto* prod = matmul(s.child("mm"), a, b);
  if (alpha.f != 1.0) prod = ew_scalar(s, prod, alpha.f, ElementwiseOp::Mul);
  if (beta.f == 0.0) return identity(s, prod);
  auto* bias = cast(s, self, prod->dtype);
  if (beta.f != 1.0) bias = ew_scalar(s, bias, beta.f, ElementwiseOp::Mul);
  return s.add_elementwise("", prod, bias, ElementwiseOp::Add);
}

NetworkTensor* linear(const Scope& s, NetworkTensor* x, NetworkTensor* weight, NetworkTensor* bias) {
  NetworkTensor* y;
  if (weight->rank() == 1) {
    y = matmul(bias ? s.child("mm") : s, x, weight);
  } else {
    y = matmul(bias ? s.child("mm") : s, x, weight, false, true);
  }
  if (!bias) return y;
  return s.add_elementwise("", y, cast(s, bias, y->dtype), ElementwiseOp::Add);
}

NetworkTensor* t(const Scope& s, NetworkTensor* x) {
  check(x->rank() <= 2, "t() expects a tensor with at most 2 dims, got " + network::desc_to_string(x->desc()));
  if (x->rank() < 2) return x;
  return s.add_permute("", x, {1, 0});
}

}  // namespace atenrt::conversion::impl::matmul
