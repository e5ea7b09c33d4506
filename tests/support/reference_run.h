// An ATen graph's values by the project's one reference executor: converted by
// the registered converters, then evaluated by the reference kernels
// (src/reference/). Tests that check what a graph computes use this rather
// than an evaluator of their own, so there is one definition of each op.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "conversion/context.h"
#include "ir/graph.h"
#include "reference/reference.h"

namespace atenrt::testing {

// `inputs` by user-input value name; the graph outputs in order.
inline std::vector<Tensor> run_on_reference(const ir::Graph& graph, const std::map<std::string, Tensor>& inputs) {
  const conversion::ConvertedGraph c = conversion::convert_graph(graph);
  reference::TensorMap feed;
  for (std::size_t i = 0; i < c.inputs.size(); ++i) {
    const auto it = inputs.find(c.input_values[i]);
    if (it == inputs.end()) throw std::runtime_error("run_on_reference: no value for input '" + c.input_values[i] + "'");
    feed[c.inputs[i]->name] = it->second;
  }
  const auto outs = reference::run(c.network, feed);
  std::vector<Tensor> result;
  for (const auto* t : c.outputs) result.push_back(outs.at(t->name));
  return result;
}

// `inputs` in the order of graph.user_inputs().
inline std::vector<Tensor> run_on_reference(const ir::Graph& graph, const std::vector<Tensor>& inputs) {
  const auto users = graph.user_inputs();
  if (inputs.size() != users.size()) {
    throw std::runtime_error("run_on_reference: " + std::to_string(inputs.size()) + " inputs for a graph of " +
                             std::to_string(users.size()));
  }
  std::map<std::string, Tensor> by_name;
  for (std::size_t i = 0; i < users.size(); ++i) by_name[users[i]->value_name] = inputs[i];
  return run_on_reference(graph, by_name);
}

}  // namespace atenrt::testing
