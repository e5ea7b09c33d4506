// A small ResNet-like network (stem, basic blocks with batch norm and
// residual adds, a downsampling block, global pooling, a classifier).
#pragma once

#include "support/engine_check.h"

namespace atenrt::testing {

inline network::NetworkTensor* conv_bn(network::Network& n, const std::string& name, network::NetworkTensor* x,
                                       std::int64_t cin, std::int64_t cout, std::int64_t k, std::int64_t stride,
                                       bool relu, std::uint32_t seed) {
  using namespace network;
  const std::int64_t pad = k / 2;
  ConvolutionParams p{{stride, stride}, {pad, pad}, {pad, pad}, {1, 1}, 1};
  auto* w = n.add_constant(name + "_w", random_tensor(DType::Float32, {cout, cin, k, k}, seed, -0.3, 0.3));
  auto* c = n.add_convolution(name, x, w, nullptr, p);
  NormalizationParams bn;
  bn.op = NormalizationOp::Batch;
  auto* y = n.add_normalization(name + "_bn", c, n.add_constant(name + "_g", random_tensor(DType::Float32, {cout}, seed + 1, 0.5, 1.5)),
                                n.add_constant(name + "_b", random_tensor(DType::Float32, {cout}, seed + 2, -0.2, 0.2)), bn,
                                n.add_constant(name + "_m", random_tensor(DType::Float32, {cout}, seed + 3, -0.2, 0.2)),
                                n.add_constant(name + "_v", random_tensor(DType::Float32, {cout}, seed + 4, 0.5, 1.5)));
  return relu ? n.add_activation(name + "_relu", y, ActivationOp::Relu) : y;
}

inline network::Network resnet_like(std::int64_t batch = 1, std::int64_t size = 32) {
  using namespace network;
  Network n;
  auto* x = n.add_input("image", DType::Float32, {batch, 3, size, size});
  auto* h = conv_bn(n, "stem", x, 3, 16, 3, 1, true, 10);
  PoolingParams mp;
  mp.kernel = {3, 3}, mp.stride = {2, 2}, mp.padding_pre = {1, 1}, mp.padding_post = {1, 1};
  h = n.add_pooling("maxpool", h, mp);
  std::uint32_t seed = 100;
  std::int64_t c = 16;
  for (int b = 0; b < 4; ++b) {
    const bool down = b == 2;
    const std::int64_t cout = down ? c * 2 : c;
    const std::string name = "block" + std::to_string(b);
    auto* a = conv_bn(n, name + "_a", h, c, cout, 3, down ? 2 : 1, true, seed += 10);
    auto* m = conv_bn(n, name + "_b", a, cout, cout, 3, 1, false, seed += 10);
    auto* skip = down ? conv_bn(n, name + "_down", h, c, cout, 1, 2, false, seed += 10) : h;
    h = n.add_activation(name + "_out", n.add_elementwise(name + "_add", m, skip, ElementwiseOp::Add), ActivationOp::Relu);
    c = cout;
  }
  PoolingParams gap;
  gap.op = PoolingOp::Average, gap.adaptive = true, gap.output_size = {1, 1};
  auto* f = n.add_reshape("flatten", n.add_pooling("gap", h, gap), {batch, c});
  auto* fc = n.add_matmul("fc", f, n.add_constant("fc_w", random_tensor(DType::Float32, {c, 10}, 7, -0.3, 0.3)));
  auto* logits = n.add_elementwise("fc_bias", fc, n.add_constant("fc_b", random_tensor(DType::Float32, {10}, 8)), ElementwiseOp::Add);
  n.set_tensor_name(logits, "logits");
  n.mark_output(logits);
  return n;
}

}  // namespace atenrt::testing
