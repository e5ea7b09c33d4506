#include "conversion/impl/embedding.h"

namespace atenrt::conversion::impl::embedding {

using network::ReduceOp;

std::optional<std::string> weight_rank_problem(std::int64_t weight_rank) {
  if (weight_rank < 0 || weight_rank == 2) return std::nullopt;
  return "the embedding weight must be 2-d, got " + std::to_string(weight_rank) + " dims";
}

NetworkTensor* embedding(const Scope& s, NetworkTensor* weight, NetworkTensor* indices) {
  if (auto why = weight_rank_problem(weight->rank())) check(false, *why);
  return s.add_gather("", weight, indices, network::GatherMode::Axis, 0);
}

NetworkTensor* embedding_bag(const Scope& s, NetworkTensor* weight,
                             NetworkTensor* indices, std::optional<std::vector<std::int64_t>> offsets, BagMode mode,
                             NetworkTensor* per_sample_weights, bool include_last_offset) {
  if (auto why = weight_rank_problem(weight->rank())) check(false, *why);
  const auto dim = weight->dims[1];
  const ReduceOp op = mode == BagMode::Sum ? ReduceOp::Sum : mode == BagMode::Mean ? ReduceOp::Mean : ReduceOp::Max;
  auto rows = s.add_gather("rows", weight, indices, network::GatherMode::Axis, 0);
  if (per_sample_weights) {
    check(mode == BagMode::Sum, "per_sample_weights only work with mode='sum'");
    auto* w = reshape(s, cast(s, per_sample_weights, rows->dtype),
                      [&] { Dims d = per_sample_weights->dims; d.push_back(1); return d; }());
    rows = ew(s, rows, w, network::ElementwiseOp::Mul);
  }
  if (indices->rank() == 2) {
    // One bag per row.
    return s.add_reduce("", rows, op, {1}, false);
  }
  check(offsets.has_value(), "embedding_bag with 1-d indices needs offsets known at conversion time");
  check(indices->rank() == 1 && indices->dims[0] >= 0, "embedding_bag indices must be 1-d with a static size");
  const auto n = indices->dims[0];
  std::vector<std::int64_t> bounds = *offsets;
  if (!include_last_offset) bounds.push_back(n);
  check(!bounds.empty(), "embedding_bag without bags");
  std::vector<NetworkTensor*> bags;
  for (std::size_t b = 0; b + 1 < bounds.size(); ++b) {
    const auto begin = bounds[b], end = std::min(bounds[b + 1], n);
    const Scope bag = s.child("bag" + std::to_string(b));
    if (end <= begin) {
      bags.push_back(fill(bag, {1, dim}, 0.0, rows->dtype));
      continue;
    }
    auto* seg = bag.add_slice("slice", rows, {0}, {begin}, {end}, {1});
    bags.push_back(bag.add_reduce("", seg, op, {0}, true));
  }
  if (bags.size() == 1) return identity(s, bags[0]);
  return s.add_concatenation("", bags, 0);
}

}  // namespace atenrt::conversion::impl::embedding
