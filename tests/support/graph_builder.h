// Builds small ir::Graphs by hand for the lowering, partition and conversion
// tests (one builder for all of them).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "atenrt/tensor.h"
#include "ir/graph.h"
#include "ir/op_schema.h"

namespace atenrt::testing {

// A tensor's meta as the frontend makes it: the serde dtype code and, when
// every size is static, contiguous strides. A negative size is a fresh symbol
// (s<k>, k = the graph's value count when made).
inline ir::TensorMeta tensor_meta(DType dtype, const std::vector<std::int64_t>& sizes, std::size_t symbol_seed = 0) {
  ir::TensorMeta m;
  m.dtype = dtype;
  m.dtype_code = dtype_to_serde(dtype);
  bool all_static = true;
  for (auto s : sizes) {
    if (s < 0) all_static = false;
    m.sizes.push_back(s < 0 ? ir::SymInt::named("s" + std::to_string(symbol_seed)) : ir::SymInt::of(s));
  }
  if (all_static) {
    for (auto s : contiguous_strides(sizes)) m.strides.push_back(ir::SymInt::of(s));
  }
  return m;
}

class GraphBuilder {
 public:
  // Fill each node's omitted arguments from its schema, as the frontend does
  // for a read .pt2 (the lowering tests); off, a node keeps exactly the
  // arguments written (conversion tests build malformed nodes on purpose).
  bool fill_schema_defaults = false;

  // A user input tensor.
  std::string input(const std::string& name, DType dtype, const std::vector<std::int64_t>& sizes) {
    meta(name, dtype, sizes);
    g.inputs.push_back(ir::TensorRef{name});
    g.signature.inputs.push_back(ir::InputSpec{ir::InputKind::UserInput, name, "", true, {}});
    return name;
  }
  // A parameter (or buffer, or constant) with data, stored as "model.<name>"
  // as make_fx names a module's weights.
  std::string weight(const std::string& name, const Tensor& t, ir::InputKind kind = ir::InputKind::Parameter) {
    meta(name, t.dtype(), t.sizes());
    const std::string fqn = "model." + name;
    g.inputs.push_back(ir::TensorRef{name});
    g.signature.inputs.push_back(ir::InputSpec{kind, name, fqn, true, {}});
    g.weights[fqn] = t;
    return name;
  }
  // A node with one tensor output named after it.
  std::string node(const std::string& name, const std::string& target, std::vector<ir::NamedArgument> args,
                   DType out_dtype, const std::vector<std::int64_t>& out_sizes) {
    ir::Node n;
    n.name = name;
    n.target = ir::OpName::parse(target);
    if (fill_schema_defaults) ir::fill_schema_defaults(name, target, args);
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
    g.tensor_values[name] = tensor_meta(dtype, sizes, g.tensor_values.size());
  }
  static ir::NamedArgument arg(std::string name, ir::Argument a) {
    return ir::NamedArgument{std::move(name), std::move(a), ir::ArgumentKind::Positional};
  }
  static ir::Argument t(const std::string& name) { return ir::TensorRef{name}; }

  ir::Graph g;
};

// A node beside the tensor ops: "aten.sym_size.int", "operator.mul" (or
// "_operator.mul", as torch.export spells it), "aten._assert_scalar.default";
// `out` its one output (none for an assert). `expr`, when given, is the size
// expression the archive records for a SymInt output ("2*s0").
inline void add_sym_node(GraphBuilder& b, const std::string& name, const std::string& target,
                     std::vector<ir::NamedArgument> args, std::optional<ir::Argument> out, const std::string& expr = "") {
  ir::Node n;
  n.name = name;
  if (target.rfind("aten.", 0) == 0) {
    n.target = ir::OpName::parse(target);
  } else {
    const std::string t = target.rfind("_operator.", 0) == 0 ? target.substr(1) : target;
    n.target = ir::OpName{t.substr(0, t.find('.')), t.substr(t.find('.') + 1), ""};
  }
  n.inputs = std::move(args);
  if (out) n.outputs = {*out};
  b.g.nodes.push_back(std::move(n));
  if (!expr.empty()) b.g.sym_int_values[name] = ir::SymInt::named(expr);
}

}  // namespace atenrt::testing
