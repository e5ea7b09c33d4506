// Network: ownership, naming, layer creation and rewriting.
#include "network/network.h"

#include <algorithm>
#include <map>
#include <queue>
#include <set>
#include <sstream>
#include <unordered_map>

#include "network/infer.h"

namespace atenrt::network {

struct Network::Impl {
  std::vector<std::unique_ptr<NetworkTensor>> tensors;
  std::vector<std::unique_ptr<Layer>> layers;
  std::unordered_map<std::string, NetworkTensor*> tensor_by_name;
  std::unordered_map<std::string, Layer*> layer_by_name;
};

Network::Network() : impl_(std::make_unique<Impl>()) {}
Network::~Network() = default;
Network::Network(Network&&) noexcept = default;
Network& Network::operator=(Network&&) noexcept = default;

namespace {

[[noreturn]] void network_error(const std::string& message) { throw LayerError("network: " + message); }

// Values known at build time: outputs of Constant layers, and of Shape
// layers over static dims (so a Fill or reshape fed by them gets static dims).
struct KnownValues {
  std::vector<Tensor> owned;
  std::vector<const Tensor*> values;
};

KnownValues known_values(const std::vector<NetworkTensor*>& inputs) {
  KnownValues k;
  k.owned.reserve(inputs.size());  // pointers into `owned` must stay valid
  for (auto* t : inputs) {
    const Tensor* v = nullptr;
    if (t->producer && t->producer->kind() == LayerKind::Constant) {
      v = &t->producer->params_as<ConstantParams>().value;
    } else if (t->producer && t->producer->kind() == LayerKind::Shape && t->producer->input(0)->is_static()) {
      const Dims& dims = t->producer->input(0)->dims;
      Tensor s(DType::Int64, {static_cast<std::int64_t>(dims.size())});
      std::copy(dims.begin(), dims.end(), s.mutable_data<std::int64_t>());
      k.owned.push_back(std::move(s));
      v = &k.owned.back();
    }
    k.values.push_back(v);
  }
  return k;
}

std::vector<TensorDesc> input_descs(const std::vector<NetworkTensor*>& inputs) {
  std::vector<TensorDesc> descs;
  for (auto* t : inputs) descs.push_back(t->desc());
  return descs;
}

std::vector<TensorDesc> infer_layer(const std::string& name, const LayerParams& params,
                                    const std::vector<NetworkTensor*>& inputs) {
  const auto descs = input_descs(inputs);
  const auto known = known_values(inputs);
  return infer_outputs(name, params, descs, known.values);
}

}  // namespace

NetworkTensor* Network::add_input(const std::string& name, DType dtype, Dims dims) {
  if (name.empty()) network_error("an input needs a name");
  if (impl_->tensor_by_name.count(name)) network_error("input '" + name + "': name already used");
  for (auto d : dims) {
    if (d < kDynamicDim) {
      network_error("input '" + name + "': invalid dims " + detail::dims_to_string(dims));
    }
  }
  auto t = std::make_unique<NetworkTensor>();
  t->name = name;
  t->dtype = dtype;
  t->dims = std::move(dims);
  t->is_input = true;
  auto* raw = t.get();
  impl_->tensors.push_back(std::move(t));
  impl_->tensor_by_name[name] = raw;
  inputs_.push_back(raw);
  return raw;
}

void Network::mark_output(NetworkTensor* tensor) {
  if (!tensor) network_error("mark_output: null tensor");
  if (tensor->is_output) return;
  tensor->is_output = true;
  outputs_.push_back(tensor);
}

void Network::unmark_output(NetworkTensor* tensor) {
  if (!tensor || !tensor->is_output) return;
  tensor->is_output = false;
  outputs_.erase(std::find(outputs_.begin(), outputs_.end(), tensor));
}

void Network::set_tensor_name(NetworkTensor* tensor, const std::string& name) {
  if (tensor->name == name) return;
  if (name.empty()) network_error("set_tensor_name: empty name for '" + tensor->name + "'");
  if (impl_->tensor_by_name.count(name)) {
    network_error("set_tensor_name: '" + tensor->name + "' cannot take name '" + name +
                  "': already used");
  }
  impl_->tensor_by_name.erase(tensor->name);
  tensor->name = name;
  impl_->tensor_by_name[name] = tensor;
}

void Network::set_layer_name(Layer* layer, const std::string& name) {
  if (layer->name == name) return;
  if (name.empty()) network_error("set_layer_name: empty name for '" + layer->name + "'");
  if (impl_->layer_by_name.count(name)) {
    network_error("set_layer_name: '" + layer->name + "' cannot take name '" + name + "': already used");
  }
  impl_->layer_by_name.erase(layer->name);
  layer->name = name;
  impl_->layer_by_name[name] = layer;
}

Layer* Network::add_layer(const std::string& name, std::vector<NetworkTensor*> inputs,
                          LayerParams params) {
  const LayerKind kind = kind_of(params);
  const std::string prefix = detail::layer_prefix(name, kind);
  if (name.empty()) throw LayerError(prefix + "a layer needs a name");
  if (impl_->layer_by_name.count(name)) throw LayerError(prefix + "a layer with this name exists");
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i]) throw LayerError(prefix + "input " + std::to_string(i) + " is null");
    auto it = impl_->tensor_by_name.find(inputs[i]->name);
    if (it == impl_->tensor_by_name.end() || it->second != inputs[i]) {
      throw LayerError(prefix + "input " + std::to_string(i) + " ('" + inputs[i]->name +
                       "') does not belong to this network");
    }
  }
  if (kind == LayerKind::Constant) {
    // Store constants contiguous so kernels and the builder can read them flat.
    auto& value = std::get<ConstantParams>(params).value;
    if (!value.defined()) throw LayerError(prefix + "constant tensor is undefined");
    value = value.contiguous();
  }
  fill_param_defaults(params, input_descs(inputs));
  auto descs = infer_layer(name, params, inputs);
  for (std::size_t i = 0; i < descs.size(); ++i) {
    const std::string out_name = i == 0 ? name : name + ":" + std::to_string(i);
    if (impl_->tensor_by_name.count(out_name)) {
      throw LayerError(prefix + "output tensor name '" + out_name + "' is already used");
    }
  }
  auto layer = std::make_unique<Layer>();
  layer->name = name;
  layer->params = std::move(params);
  layer->inputs = std::move(inputs);
  for (std::size_t i = 0; i < descs.size(); ++i) {
    auto t = std::make_unique<NetworkTensor>();
    t->name = i == 0 ? name : name + ":" + std::to_string(i);
    t->dtype = descs[i].dtype;
    t->dims = std::move(descs[i].dims);
    t->producer = layer.get();
    t->producer_output = static_cast<int>(i);
    layer->outputs.push_back(t.get());
    impl_->tensor_by_name[t->name] = t.get();
    impl_->tensors.push_back(std::move(t));
  }
  auto* raw = layer.get();
  impl_->layer_by_name[name] = raw;
  impl_->layers.push_back(std::move(layer));
  layers_.push_back(raw);
  return raw;
}

// ---- typed helpers

NetworkTensor* Network::add_activation(const std::string& name, NetworkTensor* x, ActivationOp op,
                                       double alpha, double beta) {
  return add_layer(name, {x}, ActivationParams{op, alpha, beta})->output();
}
NetworkTensor* Network::add_elementwise(const std::string& name, NetworkTensor* a,
                                        NetworkTensor* b, ElementwiseOp op) {
  return add_layer(name, {a, b}, ElementwiseParams{op})->output();
}
NetworkTensor* Network::add_unary(const std::string& name, NetworkTensor* x, UnaryOp op) {
  return add_layer(name, {x}, UnaryParams{op})->output();
}
NetworkTensor* Network::add_matmul(const std::string& name, NetworkTensor* a, NetworkTensor* b,
                                   bool transpose_a, bool transpose_b) {
  return add_layer(name, {a, b}, MatMulParams{transpose_a, transpose_b})->output();
}
NetworkTensor* Network::add_convolution(const std::string& name, NetworkTensor* x,
                                        NetworkTensor* weight, NetworkTensor* bias,
                                        ConvolutionParams params) {
  std::vector<NetworkTensor*> ins{x, weight};
  if (bias) ins.push_back(bias);
  return add_layer(name, std::move(ins), std::move(params))->output();
}
NetworkTensor* Network::add_deconvolution(const std::string& name, NetworkTensor* x,
                                          NetworkTensor* weight, NetworkTensor* bias,
                                          DeconvolutionParams params) {
  std::vector<NetworkTensor*> ins{x, weight};
  if (bias) ins.push_back(bias);
  return add_layer(name, std::move(ins), std::move(params))->output();
}
NetworkTensor* Network::add_pooling(const std::string& name, NetworkTensor* x,
                                    PoolingParams params) {
  return add_layer(name, {x}, std::move(params))->output();
}
NetworkTensor* Network::add_softmax(const std::string& name, NetworkTensor* x, std::int64_t axis,
                                    bool log) {
  return add_layer(name, {x}, SoftmaxParams{axis, log})->output();
}
NetworkTensor* Network::add_normalization(const std::string& name, NetworkTensor* x,
                                          NetworkTensor* scale, NetworkTensor* bias,
                                          NormalizationParams params, NetworkTensor* mean,
                                          NetworkTensor* var) {
  std::vector<NetworkTensor*> ins{x, scale, bias};
  if (mean || var) {
    ins.push_back(mean);
    ins.push_back(var);
  }
  return add_layer(name, std::move(ins), params)->output();
}
NetworkTensor* Network::add_reduce(const std::string& name, NetworkTensor* x, ReduceOp op,
                                   Dims axes, bool keep_dims) {
  return add_layer(name, {x}, ReduceParams{op, std::move(axes), keep_dims})->output();
}
NetworkTensor* Network::add_shuffle(const std::string& name, NetworkTensor* x,
                                    ShuffleParams params, NetworkTensor* shape) {
  std::vector<NetworkTensor*> ins{x};
  if (shape) ins.push_back(shape);
  return add_layer(name, std::move(ins), std::move(params))->output();
}
NetworkTensor* Network::add_reshape(const std::string& name, NetworkTensor* x, Dims dims) {
  ShuffleParams p;
  p.reshape = true;
  p.reshape_dims = std::move(dims);
  return add_shuffle(name, x, std::move(p));
}
NetworkTensor* Network::add_permute(const std::string& name, NetworkTensor* x, Dims perm) {
  ShuffleParams p;
  p.first_perm = std::move(perm);
  return add_shuffle(name, x, std::move(p));
}

NetworkTensor* Network::add_slice(const std::string& name, NetworkTensor* x, Dims axes,
                                  Dims starts, Dims ends, Dims steps) {
  const std::string prefix = detail::layer_prefix(name, LayerKind::Slice);
  if (!x) throw LayerError(prefix + "input 0 is null");
  if (starts.size() != axes.size() || ends.size() != axes.size() || steps.size() != axes.size()) {
    throw LayerError(prefix + "axes, starts, ends and steps must have the same length");
  }
  const auto rank = static_cast<std::int64_t>(x->dims.size());
  SliceParams p;
  p.start.assign(rank, 0);
  p.size = x->dims;
  p.step.assign(rank, 1);
  std::vector<bool> seen(rank, false);
  for (std::size_t i = 0; i < axes.size(); ++i) {
    std::int64_t axis = axes[i];
    if (axis < -rank || axis >= rank) {
      throw LayerError(prefix + "axis " + std::to_string(axis) + " out of range for rank " +
                       std::to_string(rank));
    }
    if (axis < 0) axis += rank;
    if (seen[axis]) throw LayerError(prefix + "axis " + std::to_string(axis) + " listed twice");
    seen[axis] = true;
    const std::int64_t len = x->dims[axis];
    if (len < 0) {
      throw LayerError(prefix + "slicing dynamic dim " + std::to_string(axis) + " is not supported");
    }
    const std::int64_t step = steps[i];
    if (step == 0) throw LayerError(prefix + "step must not be 0");
    // Python's slice.indices(len).
    const std::int64_t lower = step > 0 ? 0 : -1;
    const std::int64_t upper = step > 0 ? len : len - 1;
    auto clamp_index = [&](std::int64_t v) {
      if (v < 0) return std::max(v + len, lower);  // v >= INT64_MIN+len is not a concern: len >= 0
      return std::min(v, upper);
    };
    const std::int64_t start = clamp_index(starts[i]);
    const std::int64_t end = clamp_index(ends[i]);
    std::int64_t size = 0;
    // 128-bit: a step near INT64_MAX (or INT64_MIN) must not wrap.
    using W = __int128;
    if (step > 0 && end > start) size = static_cast<std::int64_t>((W{end} - start + step - 1) / step);
    if (step < 0 && start > end) size = static_cast<std::int64_t>((W{start} - end - W{step} - 1) / -W{step});
    p.start[axis] = size > 0 ? start : 0;
    p.size[axis] = size;
    p.step[axis] = step;
  }
  return add_layer(name, {x}, std::move(p))->output();
}
NetworkTensor* Network::add_slice_normalized(const std::string& name, NetworkTensor* x,
                                             SliceParams params) {
  return add_layer(name, {x}, std::move(params))->output();
}
NetworkTensor* Network::add_concatenation(const std::string& name, std::vector<NetworkTensor*> xs,
                                          std::int64_t axis) {
  return add_layer(name, std::move(xs), ConcatenationParams{axis})->output();
}
NetworkTensor* Network::add_gather(const std::string& name, NetworkTensor* data,
                                   NetworkTensor* indices, GatherMode mode, std::int64_t axis) {
  return add_layer(name, {data, indices}, GatherParams{mode, axis})->output();
}
NetworkTensor* Network::add_scatter(const std::string& name, NetworkTensor* data,
                                    NetworkTensor* indices, NetworkTensor* updates,
                                    std::int64_t axis, ScatterReduce reduce) {
  return add_layer(name, {data, indices, updates}, ScatterParams{axis, reduce})->output();
}
NetworkTensor* Network::add_select(const std::string& name, NetworkTensor* cond, NetworkTensor* a,
                                   NetworkTensor* b) {
  return add_layer(name, {cond, a, b}, SelectParams{})->output();
}
NetworkTensor* Network::add_constant(const std::string& name, const Tensor& value) {
  return add_layer(name, {}, ConstantParams{value})->output();
}
NetworkTensor* Network::add_cast(const std::string& name, NetworkTensor* x, DType to) {
  return add_layer(name, {x}, CastParams{to})->output();
}
NetworkTensor* Network::add_padding(const std::string& name, NetworkTensor* x,
                                    PaddingParams params) {
  return add_layer(name, {x}, std::move(params))->output();
}
NetworkTensor* Network::add_resize(const std::string& name, NetworkTensor* x, ResizeParams params,
                                   NetworkTensor* size) {
  if (size) return add_layer(name, {x, size}, std::move(params))->output();
  return add_layer(name, {x}, std::move(params))->output();
}
Layer* Network::add_topk(const std::string& name, NetworkTensor* x, std::int64_t k,
                         std::int64_t axis, bool largest, TopKTies ties) {
  return add_layer(name, {x}, TopKParams{k, axis, largest, ties});
}
NetworkTensor* Network::add_cumulative(const std::string& name, NetworkTensor* x, CumulativeOp op,
                                       std::int64_t axis, bool exclusive, bool reverse) {
  return add_layer(name, {x}, CumulativeParams{op, axis, exclusive, reverse})->output();
}
NetworkTensor* Network::add_shape(const std::string& name, NetworkTensor* x) {
  return add_layer(name, {x}, ShapeParams{})->output();
}
NetworkTensor* Network::add_fill(const std::string& name, FillParams params,
                                 NetworkTensor* shape) {
  std::vector<NetworkTensor*> ins;
  if (shape) ins.push_back(shape);
  return add_layer(name, std::move(ins), std::move(params))->output();
}

// ---- queries

std::vector<Layer*> Network::layers() const { return layers_; }

std::vector<Layer*> Network::topological_order() const {
  std::unordered_map<const Layer*, std::size_t> position;
  for (std::size_t i = 0; i < layers_.size(); ++i) position[layers_[i]] = i;
  std::vector<int> pending(layers_.size(), 0);
  std::unordered_map<const Layer*, std::vector<std::size_t>> users;
  for (std::size_t i = 0; i < layers_.size(); ++i) {
    for (auto* t : layers_[i]->inputs) {
      if (t->producer) {
        ++pending[i];
        users[t->producer].push_back(i);
      }
    }
  }
  // Min-heap on insertion position keeps the order stable.
  std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
  for (std::size_t i = 0; i < layers_.size(); ++i) {
    if (pending[i] == 0) ready.push(i);
  }
  std::vector<Layer*> order;
  while (!ready.empty()) {
    const std::size_t i = ready.top();
    ready.pop();
    order.push_back(layers_[i]);
    for (std::size_t u : users[layers_[i]]) {
      if (--pending[u] == 0) ready.push(u);
    }
  }
  if (order.size() != layers_.size()) network_error("the layers form a cycle");
  return order;
}

Layer* Network::find_layer(std::string_view name) const {
  auto it = impl_->layer_by_name.find(std::string(name));
  return it == impl_->layer_by_name.end() ? nullptr : it->second;
}

NetworkTensor* Network::find_tensor(std::string_view name) const {
  auto it = impl_->tensor_by_name.find(std::string(name));
  return it == impl_->tensor_by_name.end() ? nullptr : it->second;
}

std::vector<Layer*> Network::consumers(const NetworkTensor* tensor) const {
  std::vector<Layer*> out;
  for (auto* layer : layers_) {
    if (std::find(layer->inputs.begin(), layer->inputs.end(), tensor) != layer->inputs.end()) {
      out.push_back(layer);
    }
  }
  return out;
}

std::string Network::unique_layer_name(std::string_view base) const {
  std::string name(base);
  for (int i = 1; impl_->layer_by_name.count(name) || impl_->tensor_by_name.count(name); ++i) {
    name = std::string(base) + "_" + std::to_string(i);
  }
  return name;
}

std::string Network::to_string() const {
  std::ostringstream out;
  for (auto* t : inputs_) out << "input " << t->name << ": " << desc_to_string(t->desc()) << "\n";
  for (auto* layer : layers_) {
    out << layer->name << " = " << layer_kind_name(layer->kind()) << "(";
    for (std::size_t i = 0; i < layer->inputs.size(); ++i) {
      out << (i ? ", " : "") << layer->inputs[i]->name;
    }
    out << ") ->";
    for (auto* t : layer->outputs) out << " " << desc_to_string(t->desc());
    out << "\n";
  }
  for (auto* t : outputs_) out << "output " << t->name << "\n";
  return out.str();
}

// ---- rewriting

void Network::replace_all_uses(NetworkTensor* from, NetworkTensor* to) {
  if (!from || !to) network_error("replace_all_uses: null tensor");
  if (from == to) return;
  if (from->dtype != to->dtype || from->dims != to->dims) {
    network_error("replace_all_uses: '" + from->name + "' " + desc_to_string(from->desc()) +
                  " and '" + to->name + "' " + desc_to_string(to->desc()) + " differ");
  }
  for (auto* layer : layers_) {
    for (auto*& t : layer->inputs) {
      if (t == from) t = to;
    }
  }
  if (from->is_output) {
    // The output keeps its name: that is what callers bind by.
    if (to->is_input || to->is_output) {
      network_error("replace_all_uses: output '" + from->name + "' cannot become '" + to->name +
                    "', which is already a network input or output (keep an identity Cast)");
    }
    const std::string out_name = from->name;
    set_tensor_name(from, unique_layer_name(out_name + "~replaced"));
    set_tensor_name(to, out_name);
    *std::find(outputs_.begin(), outputs_.end(), from) = to;
    from->is_output = false;
    to->is_output = true;
  }
}

void Network::set_input(Layer* layer, std::size_t index, NetworkTensor* tensor) {
  const std::string prefix = detail::layer_prefix(layer->name, layer->kind());
  if (index >= layer->inputs.size()) throw LayerError(prefix + "set_input: no input " + std::to_string(index));
  if (!tensor) throw LayerError(prefix + "set_input: null tensor");
  auto inputs = layer->inputs;
  inputs[index] = tensor;
  const auto descs = infer_layer(layer->name, layer->params, inputs);
  for (std::size_t i = 0; i < descs.size(); ++i) {
    if (descs[i] != layer->outputs[i]->desc()) {
      throw LayerError(prefix + "set_input would change output " + std::to_string(i) + " from " +
                       desc_to_string(layer->outputs[i]->desc()) + " to " + desc_to_string(descs[i]));
    }
  }
  layer->inputs = std::move(inputs);
}

void Network::set_params(Layer* layer, LayerParams params) {
  const std::string prefix = detail::layer_prefix(layer->name, kind_of(params));
  if (kind_of(params) == LayerKind::Constant) {
    auto& value = std::get<ConstantParams>(params).value;
    if (!value.defined()) throw LayerError(prefix + "constant tensor is undefined");
    value = value.contiguous();
  }
  fill_param_defaults(params, input_descs(layer->inputs));
  const auto descs = infer_layer(layer->name, params, layer->inputs);
  if (descs.size() != layer->outputs.size()) {
    throw LayerError(prefix + "set_params would change the number of outputs");
  }
  for (std::size_t i = 0; i < descs.size(); ++i) {
    if (descs[i] != layer->outputs[i]->desc()) {
      throw LayerError(prefix + "set_params would change output " + std::to_string(i) + " from " +
                       desc_to_string(layer->outputs[i]->desc()) + " to " + desc_to_string(descs[i]));
    }
  }
  layer->params = std::move(params);
}

void Network::remove_layer(Layer* layer) {
  const std::string prefix = detail::layer_prefix(layer->name, layer->kind());
  for (auto* t : layer->outputs) {
    if (t->is_output) throw LayerError(prefix + "cannot remove: '" + t->name + "' is a network output");
    for (auto* other : layers_) {
      if (other == layer) continue;
      if (std::find(other->inputs.begin(), other->inputs.end(), t) != other->inputs.end()) {
        throw LayerError(prefix + "cannot remove: '" + t->name + "' is used by layer '" +
                         other->name + "'");
      }
    }
  }
  for (auto* t : layer->outputs) {
    impl_->tensor_by_name.erase(t->name);
    std::erase_if(impl_->tensors, [t](const auto& p) { return p.get() == t; });
  }
  impl_->layer_by_name.erase(layer->name);
  layers_.erase(std::find(layers_.begin(), layers_.end(), layer));
  std::erase_if(impl_->layers, [layer](const auto& p) { return p.get() == layer; });
}

int Network::remove_dead_layers() {
  std::set<const Layer*> live;
  std::vector<const NetworkTensor*> work(outputs_.begin(), outputs_.end());
  // Checks are kept though nothing reads them: they are what the run asserts.
  for (const auto& layer : layers_) {
    if (layer->kind() == LayerKind::Check) work.push_back(layer->output());
  }
  while (!work.empty()) {
    const NetworkTensor* t = work.back();
    work.pop_back();
    if (!t->producer || !live.insert(t->producer).second) continue;
    for (auto* in : t->producer->inputs) work.push_back(in);
  }
  auto order = topological_order();
  int removed = 0;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    if (!live.count(*it)) {
      remove_layer(*it);
      ++removed;
    }
  }
  return removed;
}

void Network::validate() const {
  for (auto* layer : topological_order()) {
    const auto descs = infer_layer(layer->name, layer->params, layer->inputs);
    const std::string prefix = detail::layer_prefix(layer->name, layer->kind());
    if (descs.size() != layer->outputs.size()) throw LayerError(prefix + "output count changed");
    for (std::size_t i = 0; i < descs.size(); ++i) {
      if (descs[i] != layer->outputs[i]->desc()) {
        throw LayerError(prefix + "output " + std::to_string(i) + " is " +
                         desc_to_string(layer->outputs[i]->desc()) + " but inference gives " +
                         desc_to_string(descs[i]));
      }
    }
  }
}

}  // namespace atenrt::network
