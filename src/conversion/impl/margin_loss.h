// The multi-class margin losses: multi_margin_loss and multilabel_margin_loss (reduction: 0 none,
// 1 mean, 2 sum), with gathers at the target classes and a constant class-id row.
#pragma once

#include <utility>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::loss {

// sum_{i != y} max(0, margin - x[y] + x[i])^p * weight[y] / C per sample; p is 1 or 2.
NetworkTensor* multi_margin(const Scope& s, NetworkTensor* x, NetworkTensor* target, std::int64_t p, double margin,
                            NetworkTensor* weight, std::int64_t reduction);
// sum over the target classes j (up to the first -1) and the other classes i of
// max(0, 1 - (x[j] - x[i])) / C per sample; with is_target (x's dtype, 1 at the target classes).
std::pair<NetworkTensor*, NetworkTensor*> multilabel_margin(const Scope& s, NetworkTensor* x, NetworkTensor* target,
                                                            std::int64_t reduction);

}  // namespace atenrt::conversion::impl::loss
