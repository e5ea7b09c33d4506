// ir::Graph::name_outputs: mutation outputs are named after what they update,
// and no two outputs, nor an output and an input, share a name.
#include <gtest/gtest.h>

#include "ir/graph.h"

namespace atenrt::ir {
namespace {

Node node(const std::string& name) {
  Node n;
  n.name = name;
  n.target = OpName{"aten", "clone", "default"};
  n.outputs.push_back(TensorRef{name});
  return n;
}

TEST(OutputNames, MutationsAreNamedAfterWhatTheyUpdateWithoutClashes) {
  Graph g;
  for (const char* in : {"b_bn_running_mean", "p_w", "b_steps", "x", "y"}) g.inputs.push_back(TensorRef{in});
  auto spec = [](InputKind kind, const char* value, const char* target) {
    InputSpec s;
    s.kind = kind, s.value_name = value, s.target = target;
    return s;
  };
  g.signature.inputs = {spec(InputKind::Buffer, "b_bn_running_mean", "bn.running_mean"),
                        spec(InputKind::Parameter, "p_w", "w"),
                        spec(InputKind::Buffer, "b_steps", "x.mutated"),  // a submodule x with a buffer 'mutated'
                        spec(InputKind::UserInput, "x", ""), spec(InputKind::UserInput, "y", "")};
  for (const char* n : {"copy_", "add_", "mul_", "w", "out", "steps"}) g.nodes.push_back(node(n));
  const std::pair<OutputKind, std::string> outs[] = {
      {OutputKind::BufferMutation, "bn.running_mean"},  // nested fqn: as it is
      {OutputKind::ParameterMutation, "w"},             // a node is named 'w': w.mutated
      {OutputKind::BufferMutation, "x.mutated"},        // free: as it is
      {OutputKind::UserInputMutation, "x"},             // x.mutated is taken by the buffer: x.mutated.mutated
      {OutputKind::UserInputMutation, "y"},             // y.mutated
      {OutputKind::UserOutput, ""},                     // a user output keeps its value's name
  };
  const char* values[] = {"copy_", "add_", "steps", "mul_", "y", "out"};
  for (std::size_t k = 0; k < 6; ++k) {
    g.outputs.push_back(TensorRef{values[k]});
    g.signature.outputs.push_back({TensorRef{values[k]}, outs[k].first, outs[k].second});
  }
  g.name_outputs();
  std::vector<std::string> names;
  for (std::size_t k = 0; k < g.outputs.size(); ++k) names.push_back(g.output_name(k));
  EXPECT_EQ(names, (std::vector<std::string>{"bn.running_mean", "w.mutated", "x.mutated", "x.mutated.mutated",
                                             "y.mutated", "out"}));
  // A mutation without a target (a hostile signature) keeps its value's name.
  g.signature.outputs[0].target.clear();
  g.signature.outputs[0].name.clear();
  g.name_outputs();
  EXPECT_EQ(g.output_name(0), "copy_");
}

}  // namespace
}  // namespace atenrt::ir
