#include "conversion/impl/matmul.h"

namespace atenrt::conversion::impl::matmul {

using network::ElementwiseOp;

NetworkTensor* matmul(ConversionContext& ctx, SourceIR, std::string_view name, NetworkTensor* a,
                      NetworkTensor* b, bool transpose_a, bool transpose_b) {
  const DType dt = promote_types(a->dtype, b->dtype);
  return ctx.net().add_matmul(ctx.layer_name(name), cast(ctx, name, a, dt), cast(ctx, name, b, dt), transpose_a,
                              transpose_b);
}

NetworkTensor* addmm(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* self,
                     NetworkTensor* a, NetworkTensor* b, const Scalar& beta, const Scalar& alpha) {
  auto* prod = matmul(ctx, src, std::string(name) + ".mm", a, b);
  if (alpha.f != 1.0) prod = ew_scalar(ctx, name, prod, alpha.f, ElementwiseOp::Mul);
  if (beta.f == 0.0) return identity(ctx, name, prod);
  auto* s = cast(ctx, name, self, prod->dtype);
  if (beta.f != 1.0) s = ew_scalar(ctx, name, s, beta.f, ElementwiseOp::Mul);
  return ctx.net().add_elementwise(ctx.layer_name(name), prod, s, ElementwiseOp::Add);
}

NetworkTensor* linear(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x,
                      NetworkTensor* weight, NetworkTensor* bias) {
  NetworkTensor* y;
  if (weight->rank() == 1) {
    y = matmul(ctx, src, bias ? std::string(name) + ".mm" : std::string(name), x, weight);
  } else {
    y = matmul(ctx, src, bias ? std::string(name) + ".mm" : std::string(name), x, weight, false, true);
  }
  if (!bias) return y;
  return ctx.net().add_elementwise(ctx.layer_name(name), y, cast(ctx, name, bias, y->dtype), ElementwiseOp::Add);
}

NetworkTensor* t(ConversionContext& ctx, SourceIR, std::string_view name, NetworkTensor* x) {
  check(x->rank() <= 2, "t() expects a tensor with at most 2 dims, got " + network::desc_to_string(x->desc()));
  if (x->rank() < 2) return x;
  return ctx.net().add_permute(ctx.layer_name(name), x, {1, 0});
}

}  // namespace atenrt::conversion::impl::matmul
