// Activations and softmax (torch.nn.functional semantics).
#pragma once

#include <string_view>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::activation {

// Base: one Activation layer; integer inputs of float-only ops are cast to
// float32 first (as torch's int → float promotion for these ops).
NetworkTensor* activation(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x,
                          network::ActivationOp op, double alpha = 0.0, double beta = 0.0);

NetworkTensor* relu(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x);
NetworkTensor* relu6(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x);
NetworkTensor* sigmoid(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x);
NetworkTensor* tanh(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x);
NetworkTensor* leaky_relu(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x,
                          double negative_slope);
// torch elu: x > 0 ? scale*x : scale*alpha*(exp(input_scale*x) - 1).
NetworkTensor* elu(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x, double alpha,
                   double scale = 1.0, double input_scale = 1.0);
NetworkTensor* selu(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x);
// approximate: "none" or "tanh".
NetworkTensor* gelu(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x,
                    std::string_view approximate);
NetworkTensor* hardsigmoid(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x);
NetworkTensor* hardswish(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x);
NetworkTensor* hardtanh(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x,
                        double min_val, double max_val);
NetworkTensor* softplus(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x,
                        double beta, double threshold);
NetworkTensor* silu(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x);
NetworkTensor* mish(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x);
// where(x > 0, x, weight * x); weight broadcasts against x (reshaped from
// [C] to the channel dim when `channel_weight`).
NetworkTensor* prelu(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x,
                     NetworkTensor* weight, bool channel_weight);
NetworkTensor* softmax(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x,
                       std::int64_t dim, bool log);

}  // namespace atenrt::conversion::impl::activation
