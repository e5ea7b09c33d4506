// Constant, cast, shape and fill layers.
#include "network/infer.h"

namespace atenrt::network::detail {

Descs infer(const InferContext& ctx, const ConstantParams& p) {
  ctx.expect_inputs(0, 0);
  if (!p.value.defined()) ctx.fail("constant tensor is undefined");
  return {{p.value.dtype(), p.value.sizes()}};
}

Descs infer(const InferContext& ctx, const CastParams& p) {
  ctx.expect_inputs(1, 1);
  if (static_cast<int>(p.to) >= kDTypeCount) ctx.fail("unknown target dtype");
  return {{p.to, ctx.in(0).dims}};
}

Descs infer(const InferContext& ctx, const ShapeParams&) {
  ctx.expect_inputs(1, 1);
  return {{DType::Int64, {static_cast<std::int64_t>(ctx.in(0).dims.size())}}};
}

Descs infer(const InferContext& ctx, const CheckParams& p) {
  ctx.expect_inputs(1, 1);
  if (ctx.in(0).dtype != DType::Bool) ctx.fail("condition must be bool, got " + desc_to_string(ctx.in(0)));
  if (p.message.empty() || p.message.size() > 4096) ctx.fail("message must hold 1 to 4096 characters");
  return {ctx.in(0)};
}

Descs infer(const InferContext& ctx, const FillParams& p) {
  ctx.expect_inputs(0, 1);
  if (static_cast<int>(p.dtype) >= kDTypeCount) ctx.fail("unknown dtype");
  Dims dims = p.dims;
  if (ctx.inputs.size() == 1) {
    const TensorDesc& s = ctx.in(0);
    if (s.dtype != DType::Int64 || s.dims.size() != 1 || s.dims[0] < 0) {
      ctx.fail("shape input must be int64 with one static dim, got " + desc_to_string(s));
    }
    if (const Tensor* v = ctx.value(0)) {
      const Tensor c = v->contiguous();
      dims.assign(c.data<std::int64_t>(), c.data<std::int64_t>() + c.numel());
    } else {
      dims.assign(static_cast<std::size_t>(s.dims[0]), kDynamicDim);
    }
  }
  for (auto d : dims) {
    if (d < 0 && ctx.inputs.empty()) ctx.fail("dims " + dims_to_string(dims) + " must be non-negative");
    if (d < kDynamicDim || (d < 0 && ctx.value(0))) ctx.fail("shape values " + dims_to_string(dims) + " are negative");
  }
  if (p.op == FillOp::Iota) {
    if (dims.empty()) ctx.fail("iota needs at least 1 dim");
    ctx.axis(p.axis, static_cast<std::int64_t>(dims.size()), "axis");
    if (p.dtype == DType::Bool) ctx.fail("iota does not make bool");
  }
  return {{p.dtype, dims}};
}

}  // namespace atenrt::network::detail
