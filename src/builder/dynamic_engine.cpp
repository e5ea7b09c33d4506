// Dynamic shapes: network specialization and the cache of per-shape engines
// (dynamic_engine.h).
#include "builder/dynamic_engine.h"

#include <algorithm>
#include <sstream>
#include <unordered_map>

#include "atenrt/errors.h"
#include "ir/checked_math.h"
#include "ir/memory_limit.h"
#include "reference/reference.h"

namespace atenrt::builder {

using network::LayerKind;
using network::Network;
using network::NetworkTensor;

namespace {

bool is_constant(const NetworkTensor* t) { return t->producer && t->producer->kind() == LayerKind::Constant; }

// Whether `layer` (in the copy, with these mapped inputs) computes a value
// known now: every input a constant, or a Shape of static dims.
bool foldable(const network::Layer& layer, const std::vector<NetworkTensor*>& inputs) {
  // A check stays a step: a shape that fails it fails when it runs (and the
  // range's corners, inferred at compile time, need not pass it).
  if (layer.kind() == LayerKind::Constant || layer.kind() == LayerKind::Check) return false;
  if (layer.kind() == LayerKind::Shape) return inputs.at(0)->is_static();
  for (const auto* in : inputs) {
    if (!is_constant(in)) return false;
  }
  return true;
}

std::string dims_text(const Dims& d) {
  std::string out;
  for (std::size_t i = 0; i < d.size(); ++i) out += (i ? "x" : "") + std::to_string(d[i]);
  return out;
}

std::string shapes_text(const std::vector<InputRange>& ranges, const std::vector<Dims>& dims) {
  std::string out;
  for (std::size_t i = 0; i < dims.size(); ++i) out += (i ? "," : "") + ranges[i].name + ":" + dims_text(dims[i]);
  return out;
}

std::vector<Dims> declared_dims(const Network& net) {
  std::vector<Dims> out;
  for (const auto* in : net.inputs()) out.push_back(in->dims);
  return out;
}

}  // namespace

Network specialize(const Network& net, const std::vector<Dims>& input_dims, std::uint64_t max_memory_bytes) {
  const std::uint64_t limit = resolve_memory_limit(max_memory_bytes);
  if (input_dims.size() != net.inputs().size()) {
    throw std::logic_error("specialize: " + std::to_string(input_dims.size()) + " shapes for " +
                           std::to_string(net.inputs().size()) + " inputs");
  }
  Network out;
  std::unordered_map<const NetworkTensor*, NetworkTensor*> map;
  for (std::size_t i = 0; i < input_dims.size(); ++i) {
    const NetworkTensor* in = net.inputs()[i];
    map[in] = out.add_input(in->name, in->dtype, input_dims[i]);
  }
  for (const network::Layer* layer : net.topological_order()) {
    std::vector<NetworkTensor*> inputs;
    for (const auto* in : layer->inputs) inputs.push_back(map.at(in));
    if (foldable(*layer, inputs)) {
      std::vector<Tensor> outs;
      if (layer->kind() == LayerKind::Shape) {
        // The dims themselves (running the layer would allocate its input).
        const Dims& dims = inputs[0]->dims;
        Tensor shape(DType::Int64, {static_cast<std::int64_t>(dims.size())});
        std::copy(dims.begin(), dims.end(), shape.mutable_data<std::int64_t>());
        outs.push_back(std::move(shape));
      } else {
        std::vector<Tensor> values;
        for (const auto* in : inputs) values.push_back(in->producer->params_as<network::ConstantParams>().value);
        check_folded_size(*layer, inputs, values, limit);
        // The original layer's params with the now-known inputs (its own
        // output descs are not read by the reference kernels).
        outs = reference::run_layer(*layer, values);
      }
      for (std::size_t k = 0; k < outs.size(); ++k) {
        auto* c = out.add_constant(out.unique_layer_name(layer->name + "#folded" + std::to_string(k)), outs[k]);
        out.set_tensor_name(c, layer->outputs[k]->name);
        map[layer->outputs[k]] = c;
      }
      continue;
    }
    network::Layer* copy = out.add_layer(layer->name, std::move(inputs), layer->params);
    for (std::size_t k = 0; k < layer->outputs.size(); ++k) {
      out.set_tensor_name(copy->outputs[k], layer->outputs[k]->name);
      map[layer->outputs[k]] = copy->outputs[k];
    }
  }
  for (const auto* o : net.outputs()) {
    NetworkTensor* t = map.at(o);
    if (t->name != o->name) out.set_tensor_name(t, o->name);
    out.mark_output(t);
  }
  out.remove_dead_layers();
  return out;
}

DynamicEngine::DynamicEngine(Network net, BuilderConfig config, std::vector<InputRange> ranges, std::size_t capacity)
    : net_(std::move(net)),
      config_(std::move(config)),
      ranges_(std::move(ranges)),
      capacity_(std::max<std::size_t>(1, capacity)),
      shared_(std::make_shared<SpecializationShared>()) {
  if (ranges_.size() != net_.inputs().size()) {
    throw std::logic_error("dynamic engine: " + std::to_string(ranges_.size()) + " ranges for " +
                           std::to_string(net_.inputs().size()) + " inputs");
  }
  // The shape-independent passes, once; what stays is shared by every
  // specialization (folded weights included).
  net_.validate();
  check_tensor_sizes(net_, resolve_memory_limit(config_.engine.max_memory_bytes));
  if (config_.constant_folding) fold_constants(net_, config_.engine.max_memory_bytes);
  if (config_.fold_batchnorm) fold_batchnorm(net_);
  if (config_.dead_layer_removal) remove_dead_layers(net_);
  shared_->config = config_;
  shared_->packs = runtime::make_shared_weight_packs();
  shared_->plain = PlainWeights(net_);  // before anything is specialized: it may copy constants
  shared_->capacity = capacity_;
  // The range's corners must at least infer: a range that no layer can take
  // is a compile error, not a surprise at run time.
  std::vector<Dims> min, opt, max;
  for (const auto& r : ranges_) {
    min.push_back(r.min());
    opt.push_back(r.opt());
    max.push_back(r.max());
  }
  bool unbounded = false;
  for (const auto& r : ranges_) {
    for (const auto& d : r.dims) unbounded = unbounded || d.is_unbounded();
  }
  for (int c = 0; c < 2; ++c) {
    const auto* corner = c == 0 ? &min : &max;
    if (c == 1 && unbounded) {
      // No max corner to check (a size a torch segment computes from data):
      // the outputs' dims are the network's, -1 where dynamic.
      for (const auto* o : net_.outputs()) corner_outputs_[c].push_back(o->dims);
      continue;
    }
    try {
      const Network shaped = specialize(net_, *corner, config_.engine.max_memory_bytes);
      for (const auto* o : shaped.outputs()) corner_outputs_[c].push_back(o->dims);
    } catch (const UnsupportedError& e) {
      throw UnsupportedError("dynamic engine: the shapes " + shapes_text(ranges_, *corner) +
                             " (a corner of the range) do not go through the network: " + e.what());
    }
  }
  if (has_data_dependent_layers(net_) || needs_stages(specialize(net_, opt, config_.engine.max_memory_bytes))) {
    // The staged network is a copy: net_ stays what engine files store.
    staged_ = std::make_shared<const StagedNetwork>(specialize(net_, declared_dims(net_), config_.engine.max_memory_bytes), shared_);
    opt_ = plan_for(opt)->prefix;
    return;
  }
  opt_ = engine_for(opt);
}

std::vector<runtime::TensorInfo> DynamicEngine::network_outputs() const {
  std::vector<runtime::TensorInfo> out;
  for (const auto* o : net_.outputs()) out.push_back({o->name, o->dtype, o->dims});
  return out;
}

std::shared_ptr<const StagePlan> DynamicEngine::plan_for(const std::vector<Dims>& dims) const {
  if (!staged_) throw std::logic_error("plan_for: the network holds no data-dependent layer");
  check(dims);
  return staged_->plan_for(dims);
}

std::shared_ptr<const runtime::Engine> DynamicEngine::build_for(const std::vector<Dims>& dims) const {
  Network net;
  try {
    net = specialize(net_, dims, config_.engine.max_memory_bytes);
  } catch (const UnsupportedError& e) {
    throw InputError("input shapes " + shapes_text(ranges_, dims) + " do not go through the network: " + e.what());
  }
  return build_specialized(std::move(net), *shared_);
}

std::shared_ptr<const runtime::Engine> DynamicEngine::engine_for(const std::vector<Dims>& dims) const {
  if (staged_) throw std::logic_error("engine_for: a data-dependent network runs in stages (plan_for)");
  check(dims);
  std::lock_guard<std::mutex> lock(shared_->mutex);
  auto it = cache_.find(dims);
  if (it != cache_.end()) {
    it->second.last_use = ++shared_->clock;
    return it->second.engine;
  }
  // Built under the lock: specializations share the weight packs, which one
  // engine at a time may add to. Contexts running other shapes go on running.
  std::shared_ptr<const runtime::Engine> engine;
  {
    const PlainWeights::Reading reading(shared_->plain, *shared_->packs, shared_->config.engine.num_threads);
    engine = build_for(dims);
  }
  if (cache_.size() >= capacity_) {
    auto oldest = cache_.end();  // least recently used, never the opt shape's
    for (auto e = cache_.begin(); e != cache_.end(); ++e) {
      if (e->second.engine != opt_ && (oldest == cache_.end() || e->second.last_use < oldest->second.last_use)) oldest = e;
    }
    if (oldest != cache_.end()) {
      cache_.erase(oldest);
      ++shared_->stats.evicted;
    }
  }
  cache_[dims] = {engine, ++shared_->clock};
  return engine;
}

runtime::MemoryStats DynamicEngine::memory() const {
  runtime::MemoryStats m = opt_->memory();
  std::lock_guard<std::mutex> lock(shared_->mutex);
  m.packed_bytes = runtime::packed_bytes(*shared_->packs);
  for (const auto& t : opt_->program().tensors) {
    if (t.role == runtime::TensorRole::Constant) m.constant_bytes -= std::min(m.constant_bytes, shared_->plain.released_in(t.value));
  }
  return m;
}

DynamicEngine::Stats DynamicEngine::stats() const {
  std::lock_guard<std::mutex> lock(shared_->mutex);
  Stats s = shared_->stats;
  s.cached = cache_.size();
  return s;
}

}  // namespace atenrt::builder
