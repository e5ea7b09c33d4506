// Stages of a network with data-dependent layers (stages.h).
#include "builder/stages.h"

#include <algorithm>
#include <chrono>
#include <unordered_map>
#include <unordered_set>

#include "atenrt/errors.h"
#include "builder/dynamic_engine.h"
#include "ir/checked_math.h"
#include "ir/memory_limit.h"
#include "reference/reference.h"

namespace atenrt::builder {

using network::Layer;
using network::LayerKind;
using network::Network;
using network::NetworkTensor;

bool has_data_dependent_layers(const Network& net) {
  for (const Layer* layer : net.layers()) {
    if (layer->kind() == LayerKind::DataDependent) return true;
  }
  return false;
}

bool needs_stages(const Network& specialized) {
  if (has_data_dependent_layers(specialized)) return true;
  for (const Layer* layer : specialized.layers()) {
    for (const NetworkTensor* t : layer->outputs) {
      if (!t->is_static()) return true;
    }
  }
  return false;
}

std::shared_ptr<const runtime::Engine> build_specialized(Network net, SpecializationShared& shared) {
  const auto start = std::chrono::steady_clock::now();
  const BuilderConfig& config = shared.config;
  if (config.fuse_post_ops && sink_reshapes(net) + collapse_reshapes(net) + fold_transposes_into_matmul(net) > 0) {
    net.remove_dead_layers();
  }
  runtime::Program prog = to_program(net);
  if (config.fuse_post_ops) fuse_post_ops(prog);
  set_precision(prog, config.precision);
  auto engine = std::make_shared<const runtime::Engine>(std::move(prog), config.engine, shared.packs);
  shared.stats.last_build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ++shared.stats.specializations;
  return engine;
}

namespace {

std::string dims_list(const std::vector<Dims>& dims) {
  std::string out;
  for (std::size_t i = 0; i < dims.size(); ++i) out += (i ? ", " : "") + shape_to_string(dims[i]);
  return out;
}

bool is_constant(const NetworkTensor* t) { return t->producer && t->producer->kind() == LayerKind::Constant; }

bool outputs_static(const Layer& layer) {
  return std::all_of(layer.outputs.begin(), layer.outputs.end(), [](const NetworkTensor* t) { return t->is_static(); });
}

// Adds each of `tensors` once, in order of first appearance.
void add_once(std::vector<const NetworkTensor*>& list, std::unordered_map<const NetworkTensor*, int>& index,
              const NetworkTensor* t) {
  if (index.emplace(t, static_cast<int>(list.size())).second) list.push_back(t);
}

}  // namespace

StagedNetwork::StagedNetwork(Network net, std::shared_ptr<SpecializationShared> shared)
    : net_(std::move(net)), shared_(std::move(shared)) {}

std::shared_ptr<const StagePlan> StagedNetwork::plan_for(const std::vector<Dims>& dims) const {
  std::lock_guard<std::mutex> lock(shared_->mutex);
  auto it = cache_.find(dims);
  if (it != cache_.end()) {
    it->second.last_use = ++shared_->clock;
    return it->second.plan;
  }
  std::shared_ptr<const StagePlan> plan;
  {
    const PlainWeights::Reading reading(shared_->plain, *shared_->packs, shared_->config.engine.num_threads);
    plan = make_plan(dims);
  }
  if (cache_.size() >= shared_->capacity) {
    auto oldest = std::min_element(cache_.begin(), cache_.end(),
                                   [](const auto& a, const auto& b) { return a.second.last_use < b.second.last_use; });
    cache_.erase(oldest);
    ++shared_->stats.evicted;
  }
  cache_[dims] = {plan, ++shared_->clock};
  return plan;
}

std::shared_ptr<const StagePlan> StagedNetwork::make_plan(const std::vector<Dims>& dims) const {
  const std::uint64_t limit = resolve_memory_limit(shared_->config.engine.max_memory_bytes);
  Network s;
  try {
    s = specialize(net_, dims, limit);
  } catch (const UnsupportedError& e) {
    throw InputError("sizes " + dims_list(dims) + " do not go through the network: " + e.what());
  }
  // Which layers the prefix computes: known inputs and static outputs, never
  // a data-dependent layer (one whose input values were constants was folded).
  // A layer with known inputs whose output size is still unknown is sized by
  // a value the prefix computes (item() -> a size): it runs on the host too.
  std::unordered_set<const NetworkTensor*> known(s.inputs().begin(), s.inputs().end());
  std::vector<const Layer*> prefix, host, rest;
  for (const Layer* layer : s.topological_order()) {
    const bool inputs_known =
        std::all_of(layer->inputs.begin(), layer->inputs.end(), [&](const NetworkTensor* t) { return known.count(t) > 0; });
    if (inputs_known && layer->kind() != LayerKind::DataDependent && outputs_static(*layer)) {
      prefix.push_back(layer);
      known.insert(layer->outputs.begin(), layer->outputs.end());
    } else if (inputs_known) {
      host.push_back(layer);
    } else {
      rest.push_back(layer);
    }
  }
  if (host.empty() && !rest.empty()) {
    const Layer* first = rest.front();
    throw UnsupportedError("layer '" + first->name + "' (" + std::string(network::layer_kind_name(first->kind())) +
                           "): its inputs are never computed (no layer of the stage produces them)");
  }
  std::unordered_set<const Layer*> in_rest(rest.begin(), rest.end());
  // The prefix's outputs: what the host steps and the rest read, and the
  // network outputs it computes. Constants the rest reads are copied into it.
  std::vector<const NetworkTensor*> slots;
  std::unordered_map<const NetworkTensor*, int> slot_of;
  for (const Layer* layer : host) {
    for (const auto* t : layer->inputs) add_once(slots, slot_of, t);
  }
  for (const Layer* layer : rest) {
    for (const auto* t : layer->inputs) {
      if (known.count(t) && !is_constant(t)) add_once(slots, slot_of, t);
    }
  }
  for (const auto* o : s.outputs()) {
    if (known.count(o)) add_once(slots, slot_of, o);
  }
  auto plan = std::make_shared<StagePlan>();
  plan->memory_limit = limit;
  {
    Network p;
    std::unordered_map<const NetworkTensor*, NetworkTensor*> map;
    for (const auto* in : s.inputs()) map[in] = p.add_input(in->name, in->dtype, in->dims);
    for (const Layer* layer : prefix) {
      std::vector<NetworkTensor*> inputs;
      for (const auto* t : layer->inputs) inputs.push_back(map.at(t));
      Layer* copy = p.add_layer(layer->name, std::move(inputs), layer->params);
      for (std::size_t k = 0; k < layer->outputs.size(); ++k) {
        p.set_tensor_name(copy->outputs[k], layer->outputs[k]->name);
        map[layer->outputs[k]] = copy->outputs[k];
      }
    }
    for (const auto* t : slots) p.mark_output(map.at(t));
    plan->prefix = build_specialized(std::move(p), *shared_);
  }
  for (const Layer* layer : host) {
    StagePlan::HostStep step{layer->name, layer->params, {}};
    for (const auto* t : layer->inputs) step.inputs.push_back(slot_of.at(t));
    for (const auto* t : layer->outputs) add_once(slots, slot_of, t);
    plan->host.push_back(std::move(step));
  }
  std::vector<const NetworkTensor*> rest_outputs;
  if (!rest.empty()) {
    Network r;
    std::unordered_map<const NetworkTensor*, NetworkTensor*> map;
    for (const Layer* layer : rest) {
      for (const auto* t : layer->inputs) {
        if (map.count(t) || (t->producer && in_rest.count(t->producer))) continue;
        if (is_constant(t)) {
          map[t] = r.add_constant(t->producer->name, t->producer->params_as<network::ConstantParams>().value);
          r.set_tensor_name(map[t], t->name);
        } else {
          map[t] = r.add_input(t->name, t->dtype, t->dims);
          plan->rest_inputs.push_back(slot_of.at(t));
        }
      }
      std::vector<NetworkTensor*> inputs;
      for (const auto* t : layer->inputs) inputs.push_back(map.at(t));
      Layer* copy = r.add_layer(layer->name, std::move(inputs), layer->params);
      for (std::size_t k = 0; k < layer->outputs.size(); ++k) {
        r.set_tensor_name(copy->outputs[k], layer->outputs[k]->name);
        map[layer->outputs[k]] = copy->outputs[k];
      }
    }
    for (const auto* o : s.outputs()) {
      if (slot_of.count(o) || !map.count(o)) continue;
      if (std::find(rest_outputs.begin(), rest_outputs.end(), o) == rest_outputs.end()) {
        rest_outputs.push_back(o);
        r.mark_output(map.at(o));
      }
    }
    plan->rest = std::make_shared<const StagedNetwork>(std::move(r), shared_);
  }
  for (const auto* o : s.outputs()) {
    if (auto it = slot_of.find(o); it != slot_of.end()) {
      plan->outputs.push_back(it->second);
    } else {
      const auto k = std::find(rest_outputs.begin(), rest_outputs.end(), o) - rest_outputs.begin();
      plan->outputs.push_back(-1 - static_cast<int>(k));
    }
  }
  return plan;
}

// ---------------------------------------------------------------- running

StagedContext::~StagedContext() = default;

runtime::ExecutionContext& StagedContext::context_for(const std::shared_ptr<const runtime::Engine>& engine) {
  for (std::size_t k = 0; k < held_.size(); ++k) {
    if (held_[k].engine == engine) {
      std::rotate(held_.begin(), held_.begin() + static_cast<std::ptrdiff_t>(k),
                  held_.begin() + static_cast<std::ptrdiff_t>(k) + 1);
      return *held_.front().context;
    }
  }
  if (held_.size() >= kContexts) held_.pop_back();
  Held h{engine, std::make_unique<runtime::ExecutionContext>(*engine)};
  h.context->set_num_threads(num_threads_);
  h.context->set_profiling(profiling_);
  held_.insert(held_.begin(), std::move(h));
  return *held_.front().context;
}

double StagedContext::now_ms() const {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void StagedContext::set_profiling(bool on) {
  profiling_ = on;
  for (auto& h : held_) h.context->set_profiling(on);
  profile_ = {};
  host_total_ms_.clear();
}

std::vector<Tensor> StagedContext::run_stage(const StagePlan& plan, const std::vector<Tensor>& inputs, double run_start_ms,
                                             std::vector<std::vector<Dims>>& path) {
  const double stage_start = profiling_ ? now_ms() : 0.0;
  if (profiling_) {
    path.emplace_back();
    for (const auto& t : inputs) path.back().push_back(t.sizes());
  }
  runtime::ExecutionContext& prefix = context_for(plan.prefix);
  std::vector<Tensor> slots = prefix.run(inputs);
  if (profiling_) {
    profile_.parts.push_back({plan.prefix, {}, {}});
    profile_.times.append(prefix.profile(), stage_start - run_start_ms);
  }
  for (std::size_t h = 0; h < plan.host.size(); ++h) {
    const auto& step = plan.host[h];
    const double step_start = profiling_ ? now_ms() : 0.0;
    std::vector<Tensor> ins;
    std::vector<network::TensorDesc> descs;
    std::vector<const Tensor*> values;
    for (int slot : step.inputs) ins.push_back(slots.at(static_cast<std::size_t>(slot)));
    for (const auto& t : ins) {
      descs.push_back({t.dtype(), t.sizes()});
      values.push_back(&t);
    }
    // The output allocator's check: the sizes this run found, before memory is taken.
    std::vector<network::TensorDesc> found;
    try {
      found = network::infer_outputs(step.name, step.params, descs, values);
    } catch (const network::LayerError& e) {
      // Sizes this run's values give that the layer cannot take (view(0, -1)): torch raises too.
      throw InputError(std::string("this run's values do not go through the network: ") + e.what());
    }
    for (const auto& d : found) {
      const std::uint64_t bytes = checked::nbytes<InputError>(d.dims, element_size(d.dtype), "layer '" + step.name + "'");
      if (bytes > plan.memory_limit) {
        throw InputError("layer '" + step.name + "' found an output of " + shape_to_string(d.dims) + " (" +
                         format_bytes(bytes) + "), more than the memory limit of " + format_bytes(plan.memory_limit));
      }
    }
    for (auto& out : reference::run_kernel(step.name, step.params, ins)) slots.push_back(std::move(out));
    if (profiling_) {
      const double end = now_ms();
      if (host_total_ms_.size() > 256) host_total_ms_.clear();  // plans evicted long ago
      double& total = host_total_ms_[{path, h}];
      total += end - step_start;
      const network::LayerKind kind = network::kind_of(step.params);
      std::string kind_name(network::layer_kind_name(kind));
      if (const auto* dd = std::get_if<network::DataDependentParams>(&step.params)) {
        kind_name += ":" + std::string(network::data_dependent_op_name(dd->op));
      }
      profile_.parts.push_back({nullptr, step.name, kind_name});
      profile_.times.total_ms.push_back(total);
      profile_.times.last_start_ms.push_back(step_start - run_start_ms);
      profile_.times.last_ms.push_back(end - step_start);
    }
  }
  std::vector<Tensor> rest_out;
  if (plan.rest) {
    std::vector<Tensor> rest_in;
    std::vector<Dims> dims;
    for (int slot : plan.rest_inputs) {
      rest_in.push_back(slots.at(static_cast<std::size_t>(slot)));
      dims.push_back(rest_in.back().sizes());
    }
    const auto next = plan.rest->plan_for(dims);
    rest_out = run_stage(*next, rest_in, run_start_ms, path);
  }
  std::vector<Tensor> out;
  for (int o : plan.outputs) out.push_back(o >= 0 ? slots.at(static_cast<std::size_t>(o)) : rest_out.at(static_cast<std::size_t>(-1 - o)));
  return out;
}

const std::vector<Tensor>& StagedContext::run(const StagePlan& plan, const std::vector<Tensor>& inputs) {
  double start = 0.0;
  if (profiling_) {
    const std::int64_t runs = profile_.times.runs;
    profile_ = {};
    profile_.times.runs = runs + 1;
    start = now_ms();
  }
  std::vector<std::vector<Dims>> path;
  outputs_ = run_stage(plan, inputs, start, path);
  return outputs_;
}

}  // namespace atenrt::builder
