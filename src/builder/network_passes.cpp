// Passes over the Network: constant folding, batch-norm folding, dead layers.
#include <cmath>
#include <set>
#include <vector>

#include "builder/builder.h"
#include "reference/reference.h"

namespace atenrt::builder {

using network::LayerKind;
using network::Network;
using network::NetworkTensor;

namespace {

bool is_constant(const NetworkTensor* t) {
  return t->producer && t->producer->kind() == LayerKind::Constant;
}
const Tensor& constant_value(const NetworkTensor* t) {
  return t->producer->params_as<network::ConstantParams>().value;
}

// Removes `layer` if nothing uses it any more, then the producers this leaves
// unused. A fold calls it on the layer it replaced: the weights only that
// layer read are freed at once instead of living beside their folded
// replacements until remove_dead_layers (ResNet-18 compiled from its .pt2
// held every convolution's weights twice). Every layer removed precedes
// `layer` in topological order, so a pass walking that order stays valid.
void remove_if_unused(Network& net, network::Layer* layer) {
  std::vector<network::Layer*> work{layer};
  std::set<const network::Layer*> removed;
  while (!work.empty()) {
    network::Layer* l = work.back();
    work.pop_back();
    if (removed.count(l)) continue;
    bool used = false;
    for (auto* out : l->outputs) used = used || out->is_output || !net.consumers(out).empty();
    if (used) continue;
    for (auto* in : l->inputs) {
      if (in->producer) work.push_back(in->producer);
    }
    removed.insert(l);
    net.remove_layer(l);
  }
}

}  // namespace

int fold_constants(Network& net) {
  int folded = 0;
  for (auto* layer : net.topological_order()) {
    if (layer->kind() == LayerKind::Constant) continue;
    bool all_constant = true;
    for (auto* in : layer->inputs) all_constant = all_constant && is_constant(in);
    // Shape depends only on dims, known when static.
    if (layer->kind() == LayerKind::Shape) all_constant = layer->input(0)->is_static();
    if (!all_constant) continue;
    std::vector<Tensor> values;
    if (layer->kind() != LayerKind::Shape) {
      for (auto* in : layer->inputs) values.push_back(constant_value(in));
    } else {
      values.emplace_back(layer->input(0)->dtype, layer->input(0)->dims);
    }
    const auto outs = reference::run_layer(*layer, values);
    for (std::size_t i = 0; i < outs.size(); ++i) {
      auto* c = net.add_constant(net.unique_layer_name(layer->name + "_folded"), outs[i]);
      net.replace_all_uses(layer->output(i), c);
    }
    values.clear();
    remove_if_unused(net, layer);
    ++folded;
  }
  return folded;
}

int fold_batchnorm(Network& net) {
  int folded = 0;
  for (auto* bn : net.topological_order()) {
    if (bn->kind() != LayerKind::Normalization) continue;
    const auto& p = bn->params_as<network::NormalizationParams>();
    if (p.op != network::NormalizationOp::Batch || bn->inputs.size() != 5) continue;
    auto* x = bn->input(0);
    auto* conv = x->producer;
    if (!conv || conv->kind() != LayerKind::Convolution || x->is_output ||
        net.consumers(x).size() != 1 || x->dtype != DType::Float32) {
      continue;
    }
    bool constant = true;
    for (std::size_t i = 1; i < 5; ++i) constant = constant && is_constant(bn->input(i));
    for (std::size_t i = 1; i < conv->inputs.size(); ++i) constant = constant && is_constant(conv->input(i));
    if (!constant) continue;
    const Tensor w = constant_value(conv->input(1));
    const std::int64_t cout = w.sizes()[0];
    const std::int64_t per_out = cout ? w.numel() / cout : 0;
    auto vec = [&](std::size_t i) { return constant_value(bn->input(i)).data<float>(); };
    const float *scale = vec(1), *shift = vec(2), *mean = vec(3), *var = vec(4);
    const float* bias = conv->inputs.size() == 3 ? constant_value(conv->input(2)).data<float>() : nullptr;
    Tensor new_w(DType::Float32, w.sizes());
    Tensor new_b(DType::Float32, {cout});
    for (std::int64_t o = 0; o < cout; ++o) {
      // y = (conv(x) + b - mean) * scale / sqrt(var + eps) + shift
      const double s = scale[o] / std::sqrt(static_cast<double>(var[o]) + p.epsilon);
      for (std::int64_t j = 0; j < per_out; ++j) {
        new_w.mutable_data<float>()[o * per_out + j] = static_cast<float>(w.data<float>()[o * per_out + j] * s);
      }
      new_b.mutable_data<float>()[o] = static_cast<float>(((bias ? bias[o] : 0.0) - mean[o]) * s + shift[o]);
    }
    auto* wt = net.add_constant(net.unique_layer_name(conv->name + "_bn_weight"), new_w);
    auto* bt = net.add_constant(net.unique_layer_name(conv->name + "_bn_bias"), new_b);
    auto* y = net.add_convolution(net.unique_layer_name(conv->name + "_bn"), conv->input(0), wt, bt,
                                  conv->params_as<network::ConvolutionParams>());
    net.replace_all_uses(bn->output(), y);
    remove_if_unused(net, bn);
    ++folded;
  }
  return folded;
}

int remove_dead_layers(Network& net) { return net.remove_dead_layers(); }

}  // namespace atenrt::builder
