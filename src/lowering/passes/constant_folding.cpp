// Constant folding: nodes whose inputs are all weights, lifted constants or
// folded values are evaluated now (const_eval); results still needed become
// new tensor-constant inputs of the graph (e.g. a transposed linear weight).
#include <unordered_map>

#include "lowering/const_eval.h"
#include "lowering/graph_utils.h"
#include "lowering/node_args.h"
#include "lowering/registry.h"

namespace atenrt::lowering {
namespace {

bool all_inputs_constant(const ir::Node& node, const std::unordered_map<std::string, Tensor>& constants) {
  for (const auto& in : node.inputs) {
    const ir::Argument& a = in.arg;
    if (auto* t = a.get_if<ir::TensorRef>(); t && !constants.contains(t->name)) return false;
    if (a.is<ir::TensorList>() || a.is<ir::OptionalTensorList>()) return false;
    if (auto* s = a.get_if<ir::SymInt>(); s && !s->is_static()) return false;
    if (auto* l = a.get_if<ir::SymIntList>()) {
      for (const auto& s : *l) {
        if (!s.is_static()) return false;
      }
    }
  }
  return true;
}

int constant_folding(ir::Graph& graph, const LoweringSettings& settings) {
  std::unordered_map<std::string, Tensor> constants;
  for (const auto& spec : graph.signature.inputs) {
    if (const Tensor* w = graph.weight_for_value(spec.value_name)) constants.emplace(spec.value_name, *w);
  }
  const ConstLookup lookup = [&](const std::string& name) -> const Tensor* {
    auto it = constants.find(name);
    return it == constants.end() ? nullptr : &it->second;
  };
  std::vector<bool> folded(graph.nodes.size(), false);
  std::vector<std::string> folded_values;
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    const auto& node = graph.nodes[i];
    const auto outs = output_values(node);
    if (outs.size() != 1 || node.outputs.size() != 1 || !const_evaluable(node)) continue;
    if (!all_inputs_constant(node, constants)) continue;
    const ir::TensorMeta* meta = graph.meta(outs[0]);
    if (!meta || !meta->is_static() || numel_of(meta->static_sizes()) > settings.max_folded_elements) continue;
    auto value = const_evaluate(node, *meta, lookup);
    if (!value) continue;
    constants.emplace(outs[0], std::move(*value));
    folded[i] = true;
    folded_values.push_back(outs[0]);
  }
  if (folded_values.empty()) return 0;
  // Drop folded nodes; their results that unfolded nodes or outputs read become constants.
  std::vector<ir::Node> kept;
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    if (!folded[i]) kept.push_back(std::move(graph.nodes[i]));
  }
  graph.nodes = std::move(kept);
  const auto uses = use_counts(graph);
  std::size_t insert_at = 0;  // after the last non-user input, as torch orders placeholders
  for (std::size_t i = 0; i < graph.signature.inputs.size(); ++i) {
    if (graph.signature.inputs[i].kind != ir::InputKind::UserInput) insert_at = i + 1;
  }
  for (const auto& v : folded_values) {
    if (!uses.contains(v)) {
      graph.tensor_values.erase(v);
      continue;
    }
    std::string target = "_folded." + v;
    while (graph.weights.contains(target)) target += "_";
    graph.weights[target] = constants.at(v);
    if (auto it = graph.tensor_values.find(v); it != graph.tensor_values.end()) {  // now a contiguous weight
      it->second.strides.clear();
      for (auto s : contiguous_strides(it->second.static_sizes())) it->second.strides.push_back(ir::SymInt::of(s));
    }
    ir::InputSpec spec;
    spec.kind = ir::InputKind::TensorConstant;
    spec.value_name = v;
    spec.target = target;
    const auto pos = static_cast<std::ptrdiff_t>(insert_at++);
    graph.signature.inputs.insert(graph.signature.inputs.begin() + pos, spec);
    graph.inputs.insert(graph.inputs.begin() + pos, ir::Argument(ir::TensorRef{v}));
  }
  return static_cast<int>(folded_values.size());
}

const PassRegistrar reg("constant_folding",
                        "evaluates view/transposition/arithmetic subgraphs of weights and constants into new constants",
                        110, constant_folding);

}  // namespace
}  // namespace atenrt::lowering
