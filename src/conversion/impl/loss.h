// Loss functions (reduction: 0 none, 1 mean, 2 sum, as ATen's Reduction enum).
#pragma once

#include <optional>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::loss {

NetworkTensor* reduce(const Scope& s, NetworkTensor* loss, std::int64_t reduction);
NetworkTensor* mse(const Scope& s, NetworkTensor* x, NetworkTensor* target, std::int64_t reduction);
NetworkTensor* smooth_l1(const Scope& s, NetworkTensor* x, NetworkTensor* target, std::int64_t reduction, double beta);
NetworkTensor* huber(const Scope& s, NetworkTensor* x, NetworkTensor* target, std::int64_t reduction, double delta);
NetworkTensor* soft_margin(const Scope& s, NetworkTensor* x, NetworkTensor* target, std::int64_t reduction);
NetworkTensor* binary_cross_entropy(const Scope& s, NetworkTensor* x, NetworkTensor* target, NetworkTensor* weight,
                                    std::int64_t reduction);
NetworkTensor* binary_cross_entropy_with_logits(const Scope& s, NetworkTensor* x, NetworkTensor* target,
                                                NetworkTensor* weight, NetworkTensor* pos_weight, std::int64_t reduction);
// nll_loss_forward / nll_loss2d_forward: x [N, C, ...] or [C], target [N, ...] or [].
struct NllLoss {
  NetworkTensor* loss = nullptr;
  NetworkTensor* total_weight = nullptr;
};
NllLoss nll(const Scope& s, NetworkTensor* x, NetworkTensor* target, NetworkTensor* weight, std::int64_t reduction,
            std::int64_t ignore_index);

}  // namespace atenrt::conversion::impl::loss
