// Embedding lookups and bags.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::embedding {

// The weight is a 2-d table (a rank < 0: not known); the validators' rule too.
std::optional<std::string> weight_rank_problem(std::int64_t weight_rank);

// weight[indices] along dim 0 (any index shape).
NetworkTensor* embedding(const Scope& s, NetworkTensor* weight, NetworkTensor* indices);
enum class BagMode : std::int64_t { Sum = 0, Mean = 1, Max = 2 };
// embedding_bag with offsets known at conversion time (or 2-d indices, one
// bag per row when offsets is empty). Empty bags give zeros.
NetworkTensor* embedding_bag(const Scope& s, NetworkTensor* weight,
                             NetworkTensor* indices, std::optional<std::vector<std::int64_t>> offsets, BagMode mode,
                             NetworkTensor* per_sample_weights, bool include_last_offset);

}  // namespace atenrt::conversion::impl::embedding
