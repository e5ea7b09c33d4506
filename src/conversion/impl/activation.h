// Activations and softmax (torch.nn.functional semantics).
#pragma once

#include <string_view>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::activation {

// Base: one Activation layer; integer inputs of float-only ops are cast to
// float32 first (as torch's int → float promotion for these ops).
NetworkTensor* activation(const Scope& s, NetworkTensor* x,
                          network::ActivationOp op, double alpha = 0.0, double beta = 0.0);

NetworkTensor* relu(const Scope& s, NetworkTensor* x);
NetworkTensor* relu6(const Scope& s, NetworkTensor* x);
NetworkTensor* sigmoid(const Scope& s, NetworkTensor* x);
NetworkTensor* tanh(const Scope& s, NetworkTensor* x);
NetworkTensor* leaky_relu(const Scope& s, NetworkTensor* x, double negative_slope);
// torch elu: x > 0 ? scale*x : scale*alpha*(exp(input_scale*x) - 1).
NetworkTensor* elu(const Scope& s, NetworkTensor* x, double alpha,
                   double scale = 1.0, double input_scale = 1.0);
NetworkTensor* selu(const Scope& s, NetworkTensor* x);
// approximate: "none" or "tanh".
NetworkTensor* gelu(const Scope& s, NetworkTensor* x, std::string_view approximate);
NetworkTensor* hardsigmoid(const Scope& s, NetworkTensor* x);
NetworkTensor* hardswish(const Scope& s, NetworkTensor* x);
NetworkTensor* hardtanh(const Scope& s, NetworkTensor* x, double min_val, double max_val);
NetworkTensor* softplus(const Scope& s, NetworkTensor* x, double beta, double threshold);
NetworkTensor* silu(const Scope& s, NetworkTensor* x);
NetworkTensor* mish(const Scope& s, NetworkTensor* x);
// where(x > 0, x, weight * x); weight broadcasts against x (reshaped from
// [C] to the channel dim when `channel_weight`).
NetworkTensor* prelu(const Scope& s, NetworkTensor* x, NetworkTensor* weight, bool channel_weight);
NetworkTensor* softmax(const Scope& s, NetworkTensor* x, std::int64_t dim, bool log);
// softmax, except that a row masked entirely (every element -inf) gives 0s, not NaN.
NetworkTensor* safe_softmax(const Scope& s, NetworkTensor* x, std::int64_t dim);

}  // namespace atenrt::conversion::impl::activation
