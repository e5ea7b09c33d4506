// Reference executor: runs layers in topological order with the plain kernels.
#include "reference/reference.h"

#include <unordered_map>

#include "reference/kernels.h"

namespace atenrt::reference {

using network::Dims;
using network::TensorDesc;

std::vector<Tensor> run_kernel(const std::string& layer_name, const network::LayerParams& params,
                               const std::vector<Tensor>& inputs) {
  const network::LayerKind kind = network::kind_of(params);
  std::vector<TensorDesc> descs;
  std::vector<const Tensor*> values;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].defined()) {
      throw network::LayerError("layer '" + layer_name + "' (" + std::string(network::layer_kind_name(kind)) +
                                "): input " + std::to_string(i) + " is undefined");
    }
    descs.push_back({inputs[i].dtype(), inputs[i].sizes()});
    values.push_back(&inputs[i]);
  }
  network::LayerParams full = params;
  network::fill_param_defaults(full, descs);
  // With every input value known, inference gives concrete dims.
  const auto outs = network::infer_outputs(layer_name, full, descs, values);
  detail::KernelContext ctx{layer_name, kind, inputs, outs};
  for (const auto& o : outs) {
    for (auto d : o.dims) {
      if (d < 0) ctx.fail("output dims " + shape_to_string(o.dims) + " are not known at run time");
    }
  }
  auto results = std::visit([&](const auto& p) { return detail::kernel(ctx, p); }, full);
  if (results.size() != outs.size()) ctx.fail("kernel returned the wrong number of outputs");
  for (std::size_t i = 0; i < outs.size(); ++i) {
    if (results[i].dtype() != outs[i].dtype || results[i].sizes() != outs[i].dims) {
      ctx.fail("kernel output " + std::to_string(i) + " does not match its inferred desc " +
               network::desc_to_string(outs[i]));
    }
  }
  return results;
}

std::vector<Tensor> run_layer(const network::Layer& layer, const std::vector<Tensor>& inputs) {
  return run_kernel(layer.name, layer.params, inputs);
}

TensorMap run(const network::Network& net, const TensorMap& inputs) {
  std::unordered_map<const network::NetworkTensor*, Tensor> values;
  for (const auto& [name, tensor] : inputs) {
    const auto* t = net.find_tensor(name);
    if (!t || !t->is_input) throw InputError("reference::run: '" + name + "' is not a network input");
  }
  for (const auto* t : net.inputs()) {
    auto it = inputs.find(t->name);
    if (it == inputs.end()) throw InputError("reference::run: input '" + t->name + "' is missing");
    const Tensor& v = it->second;
    if (!v.defined()) throw InputError("reference::run: input '" + t->name + "' is undefined");
    bool ok = v.dtype() == t->dtype && v.sizes().size() == t->dims.size();
    for (std::size_t d = 0; ok && d < t->dims.size(); ++d) {
      ok = t->dims[d] == network::kDynamicDim || t->dims[d] == v.sizes()[d];
    }
    if (!ok) {
      throw InputError("reference::run: input '" + t->name + "' is " +
                       network::desc_to_string({v.dtype(), v.sizes()}) + ", expected " +
                       network::desc_to_string(t->desc()));
    }
    values[t] = v;
  }
  for (const auto* layer : net.topological_order()) {
    std::vector<Tensor> ins;
    for (const auto* t : layer->inputs) ins.push_back(values.at(t));
    auto outs = run_layer(*layer, ins);
    for (std::size_t i = 0; i < outs.size(); ++i) values[layer->outputs[i]] = std::move(outs[i]);
  }
  TensorMap result;
  for (const auto* t : net.outputs()) result[t->name] = values.at(t).contiguous();
  return result;
}

}  // namespace atenrt::reference
