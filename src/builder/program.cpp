// Network → Program, the precision pass, and build() (the pass pipeline).
#include <unordered_map>

#include "builder/builder.h"
#include "ir/checked_math.h"
#include "ir/memory_limit.h"

namespace atenrt::builder {

using runtime::Program;
using runtime::TensorRole;

namespace {

// Every static tensor of the network, checked for overflow and against the
// memory limit before a pass computes anything on the host: constant folding
// runs reference kernels, which would allocate what a hostile shape claims.
void check_tensor_sizes(const network::Network& net, std::uint64_t limit) {
  auto check = [&](const network::NetworkTensor* t, const network::Layer* producer) {
    if (!t->is_static()) return;  // to_program refuses it
    const std::string what = "builder: tensor '" + t->name + "' (" + std::string(dtype_name(t->dtype)) +
                             shape_to_string(t->dims) + ")" +
                             (producer ? ", output of layer '" + producer->name + "' (" +
                                             std::string(network::layer_kind_name(producer->kind())) + "),"
                                       : "");
    const std::uint64_t bytes = checked::nbytes<Error>(t->dims, element_size(t->dtype), what);
    if (bytes > limit) {
      throw Error(what + " needs " + format_bytes(bytes) + ", more than the memory limit of " + format_bytes(limit) +
                  " (set with --max-memory / the max_memory setting)");
    }
  };
  for (const auto* t : net.inputs()) check(t, nullptr);
  for (const auto* layer : net.layers()) {
    for (const auto* t : layer->outputs) check(t, layer);
  }
}

}  // namespace

Program to_program(const network::Network& net) {
  Program prog;
  std::unordered_map<const network::NetworkTensor*, int> ids;
  auto add = [&](const network::NetworkTensor* t, TensorRole role) {
    if (!t->is_static()) {
      throw UnsupportedError("builder: tensor '" + t->name + "' has dynamic dims " +
                             shape_to_string(t->dims) + "; the CPU engine needs static shapes");
    }
    runtime::ProgramTensor pt;
    pt.name = t->name;
    pt.dtype = t->dtype;
    pt.dims = t->dims;
    pt.role = role;
    if (role == TensorRole::Constant) pt.value = t->producer->params_as<network::ConstantParams>().value;
    ids[t] = static_cast<int>(prog.tensors.size());
    prog.tensors.push_back(std::move(pt));
    return ids[t];
  };
  for (const auto* t : net.inputs()) prog.inputs.push_back(add(t, TensorRole::Input));
  for (const auto* layer : net.topological_order()) {
    if (layer->kind() == network::LayerKind::Constant) {
      add(layer->output(), TensorRole::Constant);
      continue;
    }
    runtime::Step step;
    step.name = layer->name;
    step.params = layer->params;
    for (const auto* in : layer->inputs) step.inputs.push_back(ids.at(in));
    for (const auto* out : layer->outputs) step.outputs.push_back(add(out, TensorRole::Activation));
    prog.steps.push_back(std::move(step));
  }
  for (const auto* t : net.outputs()) prog.outputs.push_back(ids.at(t));
  return prog;
}

void set_precision(Program& program, runtime::Precision precision) {
  for (auto& step : program.steps) {
    const auto k = step.kind();
    const bool heavy = k == network::LayerKind::Convolution || k == network::LayerKind::Deconvolution ||
                       k == network::LayerKind::MatMul;
    step.precision = heavy ? precision : runtime::Precision::Float32;
  }
}

runtime::Engine build(network::Network net, const BuilderConfig& config, BuildReport* report) {
  BuildReport local;
  BuildReport& r = report ? *report : local;
  net.validate();
  check_tensor_sizes(net, resolve_memory_limit(config.engine.max_memory_bytes));
  if (config.constant_folding) r.folded_constants = fold_constants(net);
  if (config.fold_batchnorm) r.folded_batchnorms = fold_batchnorm(net);
  if (config.dead_layer_removal) r.removed_layers = remove_dead_layers(net);
  Program prog = to_program(net);
  if (config.fuse_post_ops) r.fusions = fuse_post_ops(prog);
  set_precision(prog, config.precision);
  return runtime::Engine(std::move(prog), config.engine);
}

}  // namespace atenrt::builder
