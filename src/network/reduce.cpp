// Reductions over a set of axes, arg-reductions, cumulative sums/products.
#include <array>

#include "network/infer.h"

namespace atenrt::network {

std::string_view reduce_op_name(ReduceOp op) {
  constexpr std::array<std::string_view, 9> kNames = {"sum", "mean", "prod", "max", "min",
                                                      "argmax", "argmin", "any", "all"};
  const auto i = static_cast<std::size_t>(op);
  return i < kNames.size() ? kNames[i] : "?";
}

namespace detail {

Descs infer(const InferContext& ctx, const ReduceParams& p) {
  ctx.expect_inputs(1, 1);
  const TensorDesc& x = ctx.in(0);
  const auto rank = static_cast<std::int64_t>(x.dims.size());
  std::vector<bool> reduced(static_cast<std::size_t>(rank), p.axes.empty());
  for (auto a : p.axes) {
    const std::int64_t axis = ctx.axis(a, rank, "axis");
    if (rank == 0) continue;  // a scalar reduces to itself
    if (reduced[axis]) ctx.fail("axis " + std::to_string(a) + " listed twice");
    reduced[axis] = true;
  }
  DType out_dtype = x.dtype;
  switch (p.op) {
    case ReduceOp::Sum:
    case ReduceOp::Prod:
      if (!is_floating(x.dtype)) out_dtype = DType::Int64;  // torch promotes integers and bool
      break;
    case ReduceOp::Mean:
      ctx.expect_floating(0, "mean");
      break;
    case ReduceOp::Max:
    case ReduceOp::Min:
      break;
    case ReduceOp::ArgMax:
    case ReduceOp::ArgMin:
      if (p.axes.size() != 1) ctx.fail("argmax/argmin take exactly one axis (reshape to 1-d for a flat index)");
      if (x.dtype == DType::Bool) ctx.fail("argmax/argmin do not take bool");
      out_dtype = DType::Int64;
      break;
    case ReduceOp::Any:
    case ReduceOp::All:
      out_dtype = DType::Bool;
      break;
  }
  Dims out;
  for (std::int64_t d = 0; d < rank; ++d) {
    if (!reduced[d]) {
      out.push_back(x.dims[d]);
    } else {
      // max/min/arg* of an empty dim has no identity (torch errors too).
      const bool needs_element = p.op == ReduceOp::Max || p.op == ReduceOp::Min ||
                                 p.op == ReduceOp::ArgMax || p.op == ReduceOp::ArgMin;
      if (needs_element && x.dims[d] == 0) ctx.fail("cannot take " + std::string(reduce_op_name(p.op)) + " over an empty dim");
      if (p.keep_dims) out.push_back(1);
    }
  }
  return {{out_dtype, out}};
}

Descs infer(const InferContext& ctx, const CumulativeParams& p) {
  ctx.expect_inputs(1, 1);
  const TensorDesc& x = ctx.in(0);
  ctx.axis(p.axis, static_cast<std::int64_t>(x.dims.size()), "axis");
  return {{is_floating(x.dtype) ? x.dtype : DType::Int64, x.dims}};
}

Descs infer(const InferContext& ctx, const TopKParams& p) {
  ctx.expect_inputs(1, 1);
  const TensorDesc& x = ctx.in(0);
  if (x.dtype == DType::Bool) ctx.fail("topk/sort do not take bool");
  const auto rank = static_cast<std::int64_t>(x.dims.size());
  const std::int64_t axis = ctx.axis(p.axis, rank, "axis");
  Dims out = x.dims;
  if (rank == 0) {
    if (p.k < 0 || p.k > 1) ctx.fail("k " + std::to_string(p.k) + " out of range for a scalar");
    return {{x.dtype, out}, {DType::Int64, out}};
  }
  const std::int64_t len = x.dims[axis];
  if (p.k < 0 || (len >= 0 && p.k > len)) {
    ctx.fail("k " + std::to_string(p.k) + " out of range for dim of size " + std::to_string(len));
  }
  out[axis] = p.k;
  return {{x.dtype, out}, {DType::Int64, out}};
}

}  // namespace detail
}  // namespace atenrt::network
