// Builds small ir::Graphs by hand for conversion unit tests.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ir/graph.h"

namespace atenrt::testing {

class GraphBuilder {
 public:
  // A user input tensor.
  std::string input(const std::string& name, DType dtype, std::vector<std::int64_t> sizes) {
    meta(name, dtype, sizes);
    g.inputs.push_back(ir::TensorRef{name});
    ir::InputSpec spec;
    spec.kind = ir::InputKind::UserInput;
    spec.value_name = name;
    g.signature.inputs.push_back(spec);
    return name;
  }
  // A parameter with data.
  std::string weight(const std::string& name, const Tensor& t) {
    meta(name, t.dtype(), t.sizes());
    g.inputs.push_back(ir::TensorRef{name});
    ir::InputSpec spec;
    spec.kind = ir::InputKind::Parameter;
    spec.value_name = name;
    spec.target = name;
    g.signature.inputs.push_back(spec);
    g.weights[name] = t;
    return name;
  }
  // A node with one tensor output named after it.
  std::string node(const std::string& name, const std::string& target, std::vector<ir::NamedArgument> args,
                   DType out_dtype, std::vector<std::int64_t> out_sizes) {
    ir::Node n;
    n.name = name;
    n.target = ir::OpName::parse(target);
    n.inputs = std::move(args);
    n.outputs.push_back(ir::TensorRef{name});
    meta(name, out_dtype, out_sizes);
    g.nodes.push_back(std::move(n));
    return name;
  }
  void output(const std::string& name) {
    g.outputs.push_back(ir::TensorRef{name});
    g.signature.outputs.push_back(ir::OutputSpec{ir::TensorRef{name}});
  }
  void meta(const std::string& name, DType dtype, const std::vector<std::int64_t>& sizes) {
    ir::TensorMeta m;
    m.dtype = dtype;
    for (auto s : sizes) m.sizes.push_back(s < 0 ? ir::SymInt::named("s" + std::to_string(g.tensor_values.size())) : ir::SymInt::of(s));
    g.tensor_values[name] = m;
  }
  static ir::NamedArgument arg(std::string name, ir::Argument a) {
    return ir::NamedArgument{std::move(name), std::move(a), ir::ArgumentKind::Positional};
  }
  static ir::Argument t(const std::string& name) { return ir::TensorRef{name}; }

  ir::Graph g;
};

}  // namespace atenrt::testing
