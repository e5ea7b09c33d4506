#include "conversion/impl/embedding.h"

namespace atenrt::conversion::impl::embedding {

using network::ReduceOp;

NetworkTensor* embedding(ConversionContext& ctx, SourceIR, std::string_view name, NetworkTensor* weight,
                         NetworkTensor* indices) {
  check(weight->rank() == 2, "embedding weight must be 2-d, got " + network::desc_to_string(weight->desc()));
  return ctx.net().add_gather(ctx.layer_name(name), weight, indices, network::GatherMode::Axis, 0);
}

NetworkTensor* embedding_bag(ConversionContext& ctx, SourceIR, std::string_view name, NetworkTensor* weight,
                             NetworkTensor* indices, std::optional<std::vector<std::int64_t>> offsets, BagMode mode,
                             NetworkTensor* per_sample_weights, bool include_last_offset) {
  check(weight->rank() == 2, "embedding_bag weight must be 2-d");
  const auto dim = weight->dims[1];
  const ReduceOp op = mode == BagMode::Sum ? ReduceOp::Sum : mode == BagMode::Mean ? ReduceOp::Mean : ReduceOp::Max;
  auto rows = ctx.net().add_gather(ctx.layer_name(name, "rows"), weight, indices, network::GatherMode::Axis, 0);
  if (per_sample_weights) {
    check(mode == BagMode::Sum, "per_sample_weights only work with mode='sum'");
    auto* w = reshape(ctx, name, cast(ctx, name, per_sample_weights, rows->dtype),
                      [&] { Dims d = per_sample_weights->dims; d.push_back(1); return d; }());
    rows = ew(ctx, name, rows, w, network::ElementwiseOp::Mul);
  }
  if (indices->rank() == 2) {
    // One bag per row.
    return ctx.net().add_reduce(ctx.layer_name(name), rows, op, {1}, false);
  }
  check(offsets.has_value(), "embedding_bag with 1-d indices needs offsets known at conversion time");
  check(indices->rank() == 1 && indices->dims[0] >= 0, "embedding_bag indices must be 1-d with a static size");
  const auto n = indices->dims[0];
  std::vector<std::int64_t> bounds = *offsets;
  if (!include_last_offset) bounds.push_back(n);
  check(!bounds.empty(), "embedding_bag without bags");
  std::vector<NetworkTensor*> bags;
  for (std::size_t b = 0; b + 1 < bounds.size(); ++b) {
    const auto s = bounds[b], e = std::min(bounds[b + 1], n);
    const std::string part = std::string(name) + ".bag" + std::to_string(b);
    if (e <= s) {
      bags.push_back(fill(ctx, part, {1, dim}, 0.0, rows->dtype));
      continue;
    }
    auto* seg = ctx.net().add_slice(ctx.layer_name(part, "slice"), rows, {0}, {s}, {e}, {1});
    bags.push_back(ctx.net().add_reduce(ctx.layer_name(part), seg, op, {0}, true));
  }
  if (bags.size() == 1) return identity(ctx, name, bags[0]);
  return ctx.net().add_concatenation(ctx.layer_name(name), bags, 0);
}

}  // namespace atenrt::conversion::impl::embedding
