// Hand-built graphs for lowering tests.
#pragma once

#include <string>
#include <vector>

#include "ir/graph.h"
#include "ir/op_schema.h"

namespace atenrt::lowering::testing {

inline ir::TensorMeta tmeta(std::vector<std::int64_t> sizes, DType dtype = DType::Float32) {
  ir::TensorMeta m;
  m.dtype = dtype;
  m.dtype_code = dtype_to_serde(dtype);
  for (auto s : sizes) m.sizes.push_back(ir::SymInt::of(s));
  for (auto s : contiguous_strides(sizes)) m.strides.push_back(ir::SymInt::of(s));
  return m;
}

class GraphMaker {
 public:
  ir::Graph g;

  // A user input, or a weight (kind Parameter/Buffer/TensorConstant) with values.
  std::string input(const std::string& name, std::vector<std::int64_t> sizes, DType dtype = DType::Float32) {
    g.inputs.emplace_back(ir::TensorRef{name});
    g.signature.inputs.push_back(ir::InputSpec{ir::InputKind::UserInput, name, "", true, {}});
    g.tensor_values[name] = tmeta(std::move(sizes), dtype);
    return name;
  }
  std::string weight(const std::string& name, std::vector<std::int64_t> sizes, const std::vector<float>& values,
                     ir::InputKind kind = ir::InputKind::Parameter) {
    Tensor t(DType::Float32, sizes);
    for (std::size_t i = 0; i < values.size(); ++i) t.mutable_data<float>()[i] = values[i];
    const std::string fqn = "model." + name;
    g.weights[fqn] = t;
    g.inputs.emplace_back(ir::TensorRef{name});
    g.signature.inputs.push_back(ir::InputSpec{kind, name, fqn, true, {}});
    g.tensor_values[name] = tmeta(std::move(sizes));
    return name;
  }
  // A node with one tensor output (meta given); arguments are schema-filled.
  std::string node(const std::string& target, std::vector<ir::NamedArgument> args, const std::string& out,
                   const ir::TensorMeta& meta) {
    ir::Node n;
    n.name = out;
    n.target = ir::OpName::parse(target);
    ir::fill_schema_defaults(out, target, args);
    n.inputs = std::move(args);
    n.outputs.emplace_back(ir::TensorRef{out});
    g.tensor_values[out] = meta;
    g.nodes.push_back(std::move(n));
    return out;
  }
  void output(const std::string& v) {
    g.outputs.emplace_back(ir::TensorRef{v});
    g.signature.outputs.push_back(ir::OutputSpec{ir::TensorRef{v}});
  }
};

inline ir::NamedArgument A(const char* name, ir::Argument a) { return ir::NamedArgument{name, std::move(a)}; }
inline ir::Argument R(const std::string& v) { return ir::TensorRef{v}; }

}  // namespace atenrt::lowering::testing
