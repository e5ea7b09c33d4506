// A read-only view of one graph node with its graph: what validators look
// at (argument literals, tensor metadata) and where error messages start.
// Converter and decomposition validators both take it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/graph.h"

namespace atenrt::ir {

// A validator's answer: yes, or no with a reason the reports print.
struct Capability {
  bool ok = true;
  std::string reason;
  static Capability yes() { return {}; }
  static Capability no(std::string why) { return {false, std::move(why)}; }
  explicit operator bool() const { return ok; }
};

class NodeView {
 public:
  NodeView(const Graph& graph, const Node& node) : graph_(&graph), node_(&node) {}

  const Graph& graph() const { return *graph_; }
  const Node& node() const { return *node_; }
  const std::string& name() const { return node_->name; }
  std::string target() const { return node_->target.str(); }
  // "node 'relu_1' (aten.relu.default)": the prefix of every message about it.
  std::string where() const;

  // Arguments by schema name (full: defaults are filled in by the reader).
  const Argument* find(std::string_view arg_name) const;
  bool has(std::string_view arg_name) const { return find(arg_name) != nullptr; }
  // Throws UnsupportedError naming the node when the argument is absent.
  const Argument& arg(std::string_view arg_name) const;
  // Positional access (Python operators: operator.mul(a, b)).
  std::size_t num_args() const { return node_->inputs.size(); }
  const Argument& arg(std::size_t index) const;
  bool is_none(std::string_view arg_name) const;

  // Literal values written in the node (not resolved through other nodes);
  // nullopt when absent, None or not a literal of that kind.
  std::optional<std::int64_t> literal_int(std::string_view arg_name) const;
  std::optional<double> literal_number(std::string_view arg_name) const;
  std::optional<bool> literal_bool(std::string_view arg_name) const;
  std::optional<std::string> literal_string(std::string_view arg_name) const;
  std::optional<std::vector<std::int64_t>> literal_ints(std::string_view arg_name) const;

  // Metadata of the tensor passed as `arg_name` (nullptr if not a tensor or unknown).
  const TensorMeta* meta(std::string_view arg_name) const;
  // Metadata of output `index` (nullptr if not a tensor).
  const TensorMeta* output_meta(std::size_t index = 0) const;
  std::optional<DType> dtype_of(std::string_view arg_name) const;
  // Whether output `index` is read by any node or is a graph output.
  bool output_used(std::size_t index) const;
  // Whether a tensor input or output has a dynamic dim.
  bool has_dynamic_shapes() const;

 private:
  const Graph* graph_;
  const Node* node_;
};

}  // namespace atenrt::ir
