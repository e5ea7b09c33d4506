// Network → Program, the precision pass, and build() (the pass pipeline).
#include <stdexcept>
#include <unordered_map>

#include "builder/builder.h"
#include "ir/checked_math.h"
#include "ir/memory_limit.h"

namespace atenrt::builder {

using runtime::Program;
using runtime::TensorRole;

// Every static tensor of the network, checked for overflow and against the
// memory limit before a pass computes anything on the host: constant folding
// runs reference kernels, which would allocate what a hostile shape claims.
// The static build and a dynamic engine's shared passes (on a network read
// from an untrusted engine file) both call it.
void check_tensor_sizes(const network::Network& net, std::uint64_t limit) {
  auto check = [&](const network::NetworkTensor* t, const network::Layer* producer) {
    if (!t->is_static()) return;  // checked per shape when specialized (to_program refuses it in a static build)
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

Program to_program(const network::Network& net, bool allow_dynamic) {
  Program prog;
  std::unordered_map<const network::NetworkTensor*, int> ids;
  auto add = [&](const network::NetworkTensor* t, TensorRole role) {
    if (!t->is_static() && !allow_dynamic) {
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

network::Network network_from_program(const Program& prog) {
  auto bad = [](const std::string& what) -> FormatError {
    return FormatError("engine file: dynamic-shape engine: " + what);
  };
  network::Network net;
  std::vector<network::NetworkTensor*> made(prog.tensors.size(), nullptr);
  auto tensor = [&](int id, const std::string& where) -> network::NetworkTensor* {
    if (id < 0 || static_cast<std::size_t>(id) >= made.size()) throw bad(where + ": tensor id " + std::to_string(id) + " out of range");
    if (!made[id]) throw bad(where + ": tensor '" + prog.tensors[id].name + "' is used before it is made");
    return made[id];
  };
  try {
    for (int id : prog.inputs) {
      if (id < 0 || static_cast<std::size_t>(id) >= made.size() || prog.tensors[id].role != TensorRole::Input || made[id]) {
        throw bad("input binding " + std::to_string(id) + " is not an input tensor (or is bound twice)");
      }
      const auto& t = prog.tensors[id];
      made[id] = net.add_input(t.name, t.dtype, t.dims);
    }
    for (std::size_t id = 0; id < prog.tensors.size(); ++id) {
      const auto& t = prog.tensors[id];
      if (t.role == TensorRole::Input && !made[id]) throw bad("input tensor '" + t.name + "' has no binding");
      if (t.role != TensorRole::Constant) continue;
      if (!t.value.defined()) throw bad("constant '" + t.name + "' has no value");
      made[id] = net.add_constant(net.unique_layer_name(t.name), t.value);
      net.set_tensor_name(made[id], t.name);
    }
    for (const auto& step : prog.steps) {
      const std::string where = "step '" + step.name + "'";
      if (!step.post_ops.empty()) throw bad(where + " has post-ops");
      std::vector<network::NetworkTensor*> inputs;
      for (int id : step.inputs) inputs.push_back(tensor(id, where));
      network::Layer* layer = net.add_layer(step.name, std::move(inputs), step.params);  // infers the outputs
      if (layer->outputs.size() != step.outputs.size()) {
        throw bad(where + " lists " + std::to_string(step.outputs.size()) + " outputs, its layer makes " +
                  std::to_string(layer->outputs.size()));
      }
      for (std::size_t k = 0; k < step.outputs.size(); ++k) {
        const int id = step.outputs[k];
        if (id < 0 || static_cast<std::size_t>(id) >= made.size() || made[id] ||
            prog.tensors[id].role != TensorRole::Activation) {
          throw bad(where + ": output id " + std::to_string(id) + " is not a fresh activation tensor");
        }
        const auto& want = prog.tensors[id];
        auto* got = layer->outputs[k];
        if (got->dtype != want.dtype || got->dims != want.dims) {
          throw bad(where + ": tensor '" + want.name + "' is stored as " + std::string(dtype_name(want.dtype)) +
                    shape_to_string(want.dims) + " but the layer makes " + std::string(dtype_name(got->dtype)) +
                    shape_to_string(got->dims));
        }
        if (got->name != want.name) net.set_tensor_name(got, want.name);
        made[id] = got;
      }
    }
    for (int id : prog.outputs) net.mark_output(tensor(id, "output binding"));
    net.validate();
  } catch (const network::LayerError& e) {
    throw bad(e.what());
  }
  return net;
}

std::string set_precision(Program& program, runtime::Precision precision, const runtime::Backend& backend) {
  if (precision == runtime::Precision::Int8) throw std::logic_error("set_precision: int8 steps come from quantize_steps");
  std::string note = backend.precision_unavailable(precision);
  if (!note.empty()) precision = runtime::Precision::Float32;
  for (auto& step : program.steps) {
    const auto k = step.kind();
    const bool heavy = k == network::LayerKind::Convolution || k == network::LayerKind::Deconvolution ||
                       k == network::LayerKind::MatMul;
    step.precision = heavy ? precision : runtime::Precision::Float32;
  }
  return note;
}

runtime::Engine build(network::Network net, const BuilderConfig& config, BuildReport* report) {
  BuildReport local;
  BuildReport& r = report ? *report : local;
  net.validate();
  check_tensor_sizes(net, resolve_memory_limit(config.engine.max_memory_bytes));
  if (config.constant_folding) r.folded_constants = fold_constants(net, config.engine.max_memory_bytes);
  if (config.fold_batchnorm) r.folded_batchnorms = fold_batchnorm(net);
  if (config.constant_folding) {
    trim_padding_taps(net);
    remove_identities(net);
  }
  if (config.fuse_post_ops) {
    sink_reshapes(net);
    collapse_reshapes(net);
    fold_transposes_into_matmul(net);
  }
  if (config.dead_layer_removal) r.removed_layers = remove_dead_layers(net);
  Program prog = to_program(net);
  // The program holds every weight the engine needs: the network's
  // references go, so the engine can free plain weights as it packs them.
  net = network::Network();
  if (config.fuse_post_ops) r.fusions = fuse_post_ops(prog);
  if (config.precision == runtime::Precision::Int8) {
    if (!config.calibration_table && !config.calibration) {
      throw InputError("int8 precision needs calibration data (or a calibration cache)");
    }
    r.precision_note = runtime::cpu_backend().precision_unavailable(config.precision);
    if (r.precision_note.empty()) {
      r.calibration = config.calibration_table ? *config.calibration_table
                                               : calibrate(prog, *config.calibration, config.engine);
      r.int8_steps = quantize_steps(prog, r.calibration);
    }
  } else {
    r.precision_note = set_precision(prog, config.precision);
  }
  return runtime::Engine(std::move(prog), config.engine);
}

}  // namespace atenrt::builder
