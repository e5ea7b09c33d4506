// Passes over the Network: constant folding, batch-norm folding, dead layers.
#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <vector>

#include "builder/builder.h"
#include "ir/checked_math.h"
#include "ir/memory_limit.h"
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
    bool used = l->kind() == network::LayerKind::Check;  // kept: it asserts
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

void check_folded_size(const network::Layer& layer, const std::vector<NetworkTensor*>& inputs,
                       const std::vector<Tensor>& values, std::uint64_t limit) {
  std::vector<network::TensorDesc> descs;
  std::vector<const Tensor*> known;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    descs.push_back({inputs[i]->dtype, inputs[i]->dims});
    known.push_back(&values[i]);
  }
  for (const auto& d : network::infer_outputs(layer.name, layer.params, descs, known)) {
    if (d.dims.empty()) continue;
    const std::uint64_t bytes = checked::nbytes<UnsupportedError>(d.dims, element_size(d.dtype), "layer '" + layer.name + "'");
    if (bytes > limit) {
      throw UnsupportedError("layer '" + layer.name + "' would be folded into a constant of " + format_bytes(bytes) +
                             ", more than the memory limit of " + format_bytes(limit));
    }
  }
}

int fold_constants(Network& net, std::uint64_t memory_limit) {
  const std::uint64_t limit = resolve_memory_limit(memory_limit);
  int folded = 0;
  for (auto* layer : net.topological_order()) {
    // A check of a constant stays a step: it fails when the engine runs.
    if (layer->kind() == LayerKind::Constant || layer->kind() == LayerKind::Check) continue;
    bool all_constant = true;
    for (auto* in : layer->inputs) all_constant = all_constant && is_constant(in);
    // Shape depends only on dims, known when static.
    if (layer->kind() == LayerKind::Shape) all_constant = layer->input(0)->is_static();
    if (!all_constant) continue;
    std::vector<Tensor> values;
    if (layer->kind() != LayerKind::Shape) {
      for (auto* in : layer->inputs) values.push_back(constant_value(in));
      check_folded_size(*layer, layer->inputs, values, limit);
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

namespace {

// The taps [first, last] of one spatial dim of a convolution that read the
// input at some output position; nullopt when they are not one run.
std::optional<std::pair<std::int64_t, std::int64_t>> taps_reading_input(std::int64_t in, std::int64_t out,
                                                                         std::int64_t kernel, std::int64_t stride,
                                                                         std::int64_t pad, std::int64_t dilation) {
  using W = __int128;  // hostile strides and dilations must not wrap
  std::int64_t first = -1, last = -1;
  for (std::int64_t k = 0; k < kernel; ++k) {
    // Output o reads x[o * stride - pad + k * dilation]: is some o in [0, out)
    // at a position in [0, in)? The first o at or past position 0 decides.
    const W lo = W{pad} - W{k} * dilation, hi = lo + in - 1;  // the range of o * stride that reads
    const W o = lo <= 0 ? W{0} : (lo + stride - 1) / stride;
    const bool reads = hi >= 0 && o < out && o * stride <= hi;
    if (!reads) continue;
    if (last >= 0 && last != k - 1) return std::nullopt;  // a gap
    if (first < 0) first = k;
    last = k;
  }
  if (first < 0) return std::nullopt;
  return std::make_pair(first, last);
}

}  // namespace

int trim_padding_taps(Network& net) {
  int trimmed = 0;
  for (auto* conv : net.topological_order()) {
    if (conv->kind() != LayerKind::Convolution || !is_constant(conv->input(1))) continue;
    const auto& p = conv->params_as<network::ConvolutionParams>();
    const network::Dims& xd = conv->input(0)->dims;
    const network::Dims& yd = conv->output()->dims;
    const Tensor& w = constant_value(conv->input(1));
    const std::size_t spatial = p.stride.size();
    if (w.dtype() != DType::Float32 || xd.size() != spatial + 2 || yd.size() != spatial + 2 ||
        w.sizes().size() != spatial + 2) {
      continue;
    }
    bool known = true;
    for (std::size_t i = 0; i < xd.size(); ++i) known = known && xd[i] > 0 && yd[i] > 0;
    if (!known) continue;
    network::ConvolutionParams q = p;
    network::Dims first(spatial), kept = w.sizes();
    bool trims = false, ok = true;
    for (std::size_t d = 0; d < spatial && ok; ++d) {
      const std::int64_t in = xd[2 + d], out = yd[2 + d], k = w.sizes()[2 + d], dil = p.dilation[d];
      const auto run = taps_reading_input(in, out, k, p.stride[d], p.padding_pre[d], dil);
      if (!run) {
        ok = false;
        break;
      }
      first[d] = run->first;
      kept[2 + d] = run->second - run->first + 1;
      if (kept[2 + d] == k) continue;
      trims = true;
      // The same outputs from the kept taps: the padding before shrinks by
      // the dropped taps' reach, the padding after is what the size needs.
      q.padding_pre[d] = p.padding_pre[d] - run->first * dil;
      q.padding_post[d] = (out - 1) * p.stride[d] + dil * (kept[2 + d] - 1) + 1 - in - q.padding_pre[d];
      if (kept[2 + d] == 1) q.dilation[d] = 1;
      ok = q.padding_pre[d] >= 0 && q.padding_post[d] >= 0;
    }
    if (!ok || !trims) continue;
    // The dropped taps only ever meet padding, which a convolution skips
    // (the reference's, and oneDNN's direct kernels: a NaN weight there
    // reaches no output), so the sums are the same. The kept taps: a view of
    // the weight (its own strides), copied.
    std::int64_t offset = w.storage_offset();
    for (std::size_t d = 0; d < spatial; ++d) offset += first[d] * w.strides()[2 + d];
    const Tensor kept_taps(w.storage(), w.dtype(), kept, w.strides(), offset);
    auto* wt = net.add_constant(net.unique_layer_name(conv->name + "_trimmed_weight"), kept_taps.contiguous());
    NetworkTensor* bias = conv->inputs.size() == 3 ? conv->input(2) : nullptr;
    auto* y = net.add_convolution(net.unique_layer_name(conv->name + "_trimmed"), conv->input(0), wt, bias, q);
    net.replace_all_uses(conv->output(), y);
    remove_if_unused(net, conv);
    ++trimmed;
  }
  return trimmed;
}

namespace {

// A Shuffle that only reshapes (no permutation, no run-time shape input):
// the same bytes in plain layout, so elementwise work commutes with it.
bool pure_reshape(const network::Layer* l) {
  if (!l || l->kind() != LayerKind::Shuffle || l->inputs.size() != 1) return false;
  const auto& p = l->params_as<network::ShuffleParams>();
  auto identity = [](const network::Dims& perm) {
    for (std::size_t i = 0; i < perm.size(); ++i) {
      if (perm[i] != static_cast<std::int64_t>(i)) return false;
    }
    return true;
  };
  return identity(p.first_perm) && identity(p.second_perm) && l->input(0)->is_static() && l->output()->is_static();
}

// A conv or matmul, or the end of an elementwise chain after one (the bias
// add of a linear layer comes as its own Add): what post-op fusion extends.
bool takes_post_ops(const network::Layer* l) {
  for (int depth = 0; l && depth < 8; ++depth) {
    switch (l->kind()) {
      case LayerKind::MatMul:
      case LayerKind::Convolution:
      case LayerKind::Deconvolution:
        return true;
      case LayerKind::Activation:
        l = l->input(0)->producer;
        break;
      case LayerKind::Elementwise:
        if (l->params_as<network::ElementwiseParams>().op != network::ElementwiseOp::Add) return false;
        l = l->input(0)->producer && takes_post_ops(l->input(0)->producer) ? l->input(0)->producer
                                                                           : l->input(1)->producer;
        break;
      default:
        return false;
    }
  }
  return false;
}

// The reshape between `t`'s producer and `t` when that producer is a conv or
// matmul read only through it: `x = matmul(...); t = reshape(x)`.
network::Layer* reshape_after_heavy(const Network& net, NetworkTensor* t) {
  network::Layer* shuffle = t->producer;
  if (!pure_reshape(shuffle) || t->is_output || net.consumers(t).size() != 1) return nullptr;
  NetworkTensor* x = shuffle->input(0);
  if (!takes_post_ops(x->producer) || x->is_output || net.consumers(x).size() != 1) return nullptr;
  return shuffle;
}

}  // namespace

int sink_reshapes(Network& net) {
  int moved = 0;
  for (auto* layer : net.topological_order()) {
    const bool activation = layer->kind() == LayerKind::Activation;
    const bool add = layer->kind() == LayerKind::Elementwise &&
                     layer->params_as<network::ElementwiseParams>().op == network::ElementwiseOp::Add;
    if (!activation && !add) continue;
    int through = -1;  // which input comes through the reshape
    for (std::size_t i = 0; i < layer->inputs.size() && through < 0; ++i) {
      if (reshape_after_heavy(net, layer->input(i))) through = static_cast<int>(i);
    }
    if (through < 0) continue;
    NetworkTensor* y = layer->input(through);
    network::Layer* shuffle = y->producer;
    NetworkTensor* x = shuffle->input(0);
    std::vector<NetworkTensor*> inputs{x};
    if (add) {
      // The other operand follows into x's dims when it has y's dims (a
      // residual) or is a single number; other broadcasts stay as they are.
      NetworkTensor* r = layer->input(1 - through);
      if (r == y || !r->is_static() || layer->output()->dims != y->dims) continue;
      if (r->dims == y->dims) {
        r = net.add_reshape(net.unique_layer_name(r->name + "_reshaped"), r, x->dims);
      } else if (numel_of(r->dims) != 1 || r->dims.size() > x->dims.size()) {
        continue;
      }
      inputs.insert(inputs.begin() + (1 - through == 0 ? 0 : 1), r);
    }
    const std::string layer_name = layer->name, shuffle_name = shuffle->name;
    auto* moved_layer = net.add_layer(net.unique_layer_name(layer_name), inputs, layer->params);
    auto* back = net.add_reshape(net.unique_layer_name(shuffle_name), moved_layer->output(), y->dims);
    net.replace_all_uses(layer->output(), back);
    remove_if_unused(net, layer);  // and the reshape, which only it read
    // The moved layers keep the node names they came from (steps, fusions and profiles say them).
    if (!net.find_layer(layer_name)) net.set_layer_name(moved_layer, layer_name);
    if (!net.find_layer(shuffle_name)) net.set_layer_name(back->producer, shuffle_name);
    ++moved;
  }
  return moved;
}

namespace {

// A Shuffle that swaps the last two dims and nothing else (`k.transpose(-2, -1)`).
bool swaps_last_two(const network::Layer* l) {
  if (!l || l->kind() != LayerKind::Shuffle || l->inputs.size() != 1 || !l->input(0)->is_static()) return false;
  const auto& p = l->params_as<network::ShuffleParams>();
  const auto n = static_cast<std::int64_t>(l->input(0)->dims.size());
  if (n < 2 || p.reshape || static_cast<std::int64_t>(p.first_perm.size()) != n) return false;
  for (std::size_t i = 0; i < p.second_perm.size(); ++i) {
    if (p.second_perm[i] != static_cast<std::int64_t>(i)) return false;
  }
  for (std::int64_t i = 0; i < n - 2; ++i) {
    if (p.first_perm[i] != i) return false;
  }
  return p.first_perm[n - 2] == n - 1 && p.first_perm[n - 1] == n - 2;
}

bool read_once(const Network& net, const NetworkTensor* t) { return !t->is_output && net.consumers(t).size() == 1; }

}  // namespace

int fold_transposes_into_matmul(Network& net) {
  int folded = 0;
  for (auto* mm : net.topological_order()) {
    if (mm->kind() != LayerKind::MatMul) continue;
    for (int operand = 0; operand < 2; ++operand) {
      NetworkTensor* t = mm->input(operand);
      // Optionally a reshape of the leading (batch) dims in between, as bmm's
      // [b, h, k, n] -> [b*h, k, n] after the transpose.
      network::Layer* reshape = nullptr;
      NetworkTensor* swapped = t;
      if (pure_reshape(t->producer) && read_once(net, t) && t->dims.size() >= 2) {
        const auto& in = t->producer->input(0)->dims;
        if (in.size() >= 2 && in[in.size() - 2] == t->dims[t->dims.size() - 2] && in.back() == t->dims.back()) {
          reshape = t->producer;
          swapped = reshape->input(0);
        }
      }
      if (!swaps_last_two(swapped->producer) || !read_once(net, swapped)) continue;
      NetworkTensor* x = swapped->producer->input(0);  // [.., n, k]: the matmul reads it transposed
      const std::string reshape_name = reshape ? reshape->name : std::string();
      if (reshape) {
        network::Dims dims(t->dims.begin(), t->dims.end() - 2);
        dims.push_back(x->dims[x->dims.size() - 2]);
        dims.push_back(x->dims.back());
        x = net.add_reshape(net.unique_layer_name(reshape->name), x, dims);
      }
      auto params = mm->params_as<network::MatMulParams>();
      (operand == 0 ? params.transpose_a : params.transpose_b) ^= true;
      std::vector<NetworkTensor*> inputs = mm->inputs;
      inputs[operand] = x;
      const std::string name = mm->name;
      auto* replacement = net.add_layer(net.unique_layer_name(name), inputs, params);
      net.replace_all_uses(mm->output(), replacement->output());
      remove_if_unused(net, mm);
      if (!net.find_layer(name)) net.set_layer_name(replacement, name);
      if (reshape && !net.find_layer(reshape_name)) net.set_layer_name(x->producer, reshape_name);
      mm = replacement;  // the other operand may fold too
      ++folded;
    }
  }
  return folded;
}

int collapse_reshapes(Network& net) {
  int collapsed = 0;
  for (auto* layer : net.topological_order()) {
    if (!pure_reshape(layer)) continue;
    NetworkTensor* y = layer->output();
    network::Layer* inner = layer->input(0)->producer;
    NetworkTensor* source = pure_reshape(inner) ? inner->input(0) : layer->input(0);
    if (source->dims == y->dims && !(y->is_output && (source->is_input || source->is_output))) {
      net.replace_all_uses(y, source);  // a reshape to the same dims, possibly through another
      remove_if_unused(net, layer);
    } else if (source != layer->input(0)) {
      net.set_input(layer, 0, source);  // reshape(reshape(x)) reads x
      remove_if_unused(net, inner);
    } else {
      continue;
    }
    ++collapsed;
  }
  return collapsed;
}

int remove_identities(Network& net) {
  int removed = 0;
  for (auto* layer : net.topological_order()) {
    bool identity = false;
    if (layer->kind() == LayerKind::Padding) {  // torchvision's Swin pads to whole windows, often by nothing
      const auto& p = layer->params_as<network::PaddingParams>();
      identity = std::all_of(p.pre.begin(), p.pre.end(), [](std::int64_t v) { return v == 0; }) &&
                 std::all_of(p.post.begin(), p.post.end(), [](std::int64_t v) { return v == 0; });
    } else if (layer->kind() == LayerKind::Cast) {  // a one-input torch.cat (DenseNet's first layer)
      identity = layer->input(0)->dtype == layer->params_as<network::CastParams>().to;
    }
    if (!identity || layer->inputs.size() != 1) continue;
    NetworkTensor* x = layer->input(0);
    NetworkTensor* y = layer->output();
    // An engine output that is an input or another output keeps its copy.
    if (x->dims != y->dims || x->dtype != y->dtype || (y->is_output && (x->is_input || x->is_output))) continue;
    net.replace_all_uses(y, x);
    remove_if_unused(net, layer);
    ++removed;
  }
  return removed;
}

int remove_dead_layers(Network& net) { return net.remove_dead_layers(); }

}  // namespace atenrt::builder
