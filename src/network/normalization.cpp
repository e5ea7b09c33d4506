// Normalization: layer, batch (inference), group and instance norm.
#include <array>

#include "network/infer.h"

namespace atenrt::network {

std::string_view normalization_op_name(NormalizationOp op) {
  constexpr std::array<std::string_view, 4> kNames = {"layer_norm", "batch_norm", "group_norm",
                                                      "instance_norm"};
  const auto i = static_cast<std::size_t>(op);
  return i < kNames.size() ? kNames[i] : "?";
}

namespace detail {

Descs infer(const InferContext& ctx, const NormalizationParams& p) {
  const bool batch = p.op == NormalizationOp::Batch;
  if (batch) {
    ctx.expect_inputs(5, 5);
  } else {
    ctx.expect_inputs(3, 3);
  }
  const TensorDesc& x = ctx.in(0);
  const std::string what(normalization_op_name(p.op));
  ctx.expect_floating(0, what.c_str());
  if (!(p.epsilon >= 0.0)) ctx.fail("epsilon must be non-negative");
  const auto rank = static_cast<std::int64_t>(x.dims.size());
  Dims param_dims;
  if (p.op == NormalizationOp::Layer) {
    if (rank < 1) ctx.fail("input must have at least 1 dim");
    const std::int64_t axis = ctx.axis(p.axis, rank, "axis");
    param_dims.assign(x.dims.begin() + axis, x.dims.end());
  } else {
    const std::int64_t min_rank = p.op == NormalizationOp::Instance ? 3 : 2;
    if (rank < min_rank) {
      ctx.fail("input " + dims_to_string(x.dims) + " must have at least " + std::to_string(min_rank) +
               " dims [N, C, ...]");
    }
    param_dims = {x.dims[1]};
    if (p.op == NormalizationOp::Group) {
      if (p.num_groups < 1) ctx.fail("num_groups must be positive");
      if (x.dims[1] >= 0 && x.dims[1] % p.num_groups != 0) {
        ctx.fail("channels " + std::to_string(x.dims[1]) + " not divisible by num_groups " +
                 std::to_string(p.num_groups));
      }
    }
  }
  const char* names[] = {"", "scale", "bias", "mean", "var"};
  for (std::size_t i = 1; i < ctx.inputs.size(); ++i) {
    const TensorDesc& t = ctx.in(i);
    if (!is_floating(t.dtype)) {
      ctx.fail(std::string(names[i]) + " must be floating, got " + std::string(dtype_name(t.dtype)));
    }
    bool ok = t.dims.size() == param_dims.size();
    for (std::size_t d = 0; ok && d < t.dims.size(); ++d) {
      ok = t.dims[d] == param_dims[d] || t.dims[d] < 0 || param_dims[d] < 0;
    }
    if (!ok) {
      ctx.fail(std::string(names[i]) + " must be " + dims_to_string(param_dims) + ", got " +
               dims_to_string(t.dims));
    }
  }
  return {x};
}

}  // namespace detail
}  // namespace atenrt::network
