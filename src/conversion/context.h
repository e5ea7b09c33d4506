// The conversion context: owns the Network being built, binds graph values
// to network tensors or static values, names layers after their node.
// Converters read their arguments through NodeArgs and never touch the maps.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "conversion/registry.h"
#include "conversion/settings.h"
#include "conversion/value.h"
#include "ir/checked_math.h"
#include "ir/graph.h"
#include "ir/node_view.h"
#include "network/network.h"

namespace atenrt::conversion {

using ir::NodeView;

// A number written in a graph (PyTorch's "Scalar" / a wrapped number).
struct Scalar {
  enum class Kind : std::uint8_t { Bool, Int, Float };
  Kind kind = Kind::Float;
  double f = 0.0;        // the value as a double (all kinds)
  std::int64_t i = 0;    // the value when Int or Bool
  static Scalar of_int(std::int64_t v) { return {Kind::Int, static_cast<double>(v), v}; }
  static Scalar of_float(double v) { return {Kind::Float, v, checked::saturating_i64(v)}; }
  static Scalar of_bool(bool v) { return {Kind::Bool, v ? 1.0 : 0.0, v ? 1 : 0}; }
  bool is_float() const { return kind == Kind::Float; }
};

// A tensor operand or a wrapped number, before type promotion.
struct Operand {
  network::NetworkTensor* tensor = nullptr;
  std::optional<Scalar> scalar;
  bool is_scalar() const { return tensor == nullptr; }
};

class ConversionContext {
 public:
  ConversionContext(const ir::Graph& graph, ConversionSettings settings);

  network::Network& net() { return net_; }
  const ir::Graph& graph() const { return *graph_; }
  const ConversionSettings& settings() const { return settings_; }

  // The value bound to a graph value name; throws UnsupportedError naming
  // the value (and the node that should have produced it) when unbound.
  const Value& value(const std::string& name) const;
  // A network tensor for a value: network tensors as they are, host tensors
  // and numbers become constant layers named `name` (made once per host
  // tensor). Converters use NodeArgs::tensor / Scope::constant.
  network::NetworkTensor* tensor(const Value& v, const std::string& name);
  // A constant layer holding `t`, named `name` (made unique); the same
  // storage view gives the same layer.
  network::NetworkTensor* constant(const Tensor& t, std::string_view name);

  // ---- used by convert_graph (and unit tests that drive it by hand)
  void bind(const std::string& name, Value v, std::string producer);
  network::Network release_network();

 private:
  const ir::Graph* graph_;
  ConversionSettings settings_;
  network::Network net_;
  std::map<std::string, Value> values_;
  std::map<std::string, std::string> producers_;  // value -> "node 'x' (op)"
  struct ConstKey {
    const void* storage;
    std::int64_t offset;
    std::vector<std::int64_t> sizes, strides;
    DType dtype;
    auto operator<=>(const ConstKey&) const = default;
  };
  std::map<ConstKey, network::NetworkTensor*> constants_;
};

class Scope;

// A node's arguments resolved through the context: what a converter reads.
// Constants made from arguments are named in the node's scope.
class NodeArgs : public NodeView {
 public:
  NodeArgs(const Scope& scope, const ir::Node& node);

  // The resolved value of an argument (graph value names looked up).
  Value value(std::string_view arg_name) const;
  Value value(std::size_t index) const;
  Value resolve(const ir::Argument& a, std::string_view what) const;

  // Tensors (host tensors and numbers become constants).
  network::NetworkTensor* tensor(std::string_view arg_name) const;
  network::NetworkTensor* opt_tensor(std::string_view arg_name) const;  // null for None
  std::vector<network::NetworkTensor*> tensors(std::string_view arg_name) const;
  // Tensor?[]: null entries for None.
  std::vector<network::NetworkTensor*> opt_tensors(std::string_view arg_name) const;
  // The host tensor when the argument is known at conversion time (a weight
  // or a folded constant), else nullopt.
  std::optional<Tensor> host_tensor(std::string_view arg_name) const;

  // Static values; each throws UnsupportedError naming node and argument
  // when the argument is not of that kind or not known at conversion time.
  std::int64_t i(std::string_view arg_name) const;
  double f(std::string_view arg_name) const;  // int/bool accepted
  bool b(std::string_view arg_name) const;
  std::string str(std::string_view arg_name) const;
  std::vector<std::int64_t> ints(std::string_view arg_name) const;  // int[] or SymInt[]; a lone int too
  std::optional<std::int64_t> opt_i(std::string_view arg_name) const;
  std::optional<double> opt_f(std::string_view arg_name) const;
  std::optional<bool> opt_b(std::string_view arg_name) const;
  std::optional<std::string> opt_str(std::string_view arg_name) const;
  std::optional<std::vector<std::int64_t>> opt_ints(std::string_view arg_name) const;
  std::optional<DType> opt_dtype(std::string_view arg_name) const;  // ScalarType?
  Scalar scalar(std::string_view arg_name) const;
  std::optional<Scalar> opt_scalar(std::string_view arg_name) const;
  // A tensor or a wrapped number (for type promotion).
  Operand operand(std::string_view arg_name) const;

  // Helpers for number-valued values (evaluators).
  static std::optional<Scalar> as_scalar(const Value& v);

 private:
  [[noreturn]] void fail(std::string_view arg_name, const std::string& why) const;
  network::NetworkTensor* as_network_tensor(const Value& v, const std::string& what) const;
  const Scope* scope_;
  ConversionContext* ctx_;
};

// The result of converting a whole graph.
struct ConvertedGraph {
  network::Network network;
  // One entry per graph input that is a user input tensor, in order: the
  // graph value name and the network input made for it.
  std::vector<std::string> input_values;
  std::vector<network::NetworkTensor*> inputs;
  // One entry per graph output: the network output tensor.
  std::vector<network::NetworkTensor*> outputs;
  // With ConversionSettings::mark_all_outputs: the node values also made
  // network outputs (after the graph outputs), in graph order, each named
  // after its value.
  std::vector<network::NetworkTensor*> marked;
};

// What to convert: nodes (indices into graph.nodes, in graph order) and,
// one per node, the registry's answer for it. The pipeline fills it from
// the partition, whose query already chose each converter, so conversion
// never asks the registry again.
struct SegmentPlan {
  std::vector<std::size_t> nodes;
  std::vector<Selection> selections;
};

// Converts the plan's nodes with the converters it chose: user inputs →
// network inputs, weights → constants, outputs = the graph's outputs, in
// order (atenrt compiles a graph into one engine, so the engine segment's
// nodes are every node). Throws UnsupportedError naming the node when it has
// no converter or its converter fails.
ConvertedGraph convert_segment(const ir::Graph& graph, const SegmentPlan& plan, const ConversionSettings& settings = {});

// Conversion that puts the validators' answers to the test, for the dry run
// and the partition: every node with a chosen converter is converted, in
// graph order. A converter that fails records its message (the node then
// counts as unsupported) and the node's tensor outputs stand in as network
// inputs, as an engine segment fed by the fallback receives them, so later
// nodes are still tried. Nodes reading a value no stand-in can replace are
// not tried. When every node converted, `converted` is the real result.
struct ConversionProbe {
  std::vector<std::string> failures;  // per graph node: the converter's error, or empty
  std::optional<ConvertedGraph> converted;
};
ConversionProbe probe_conversion(const ir::Graph& graph, const std::vector<Selection>& selections,
                                 const ConversionSettings& settings = {});

// Selects a converter for every node (registry order rules), then
// convert_segment: for callers without a partition (tests, tools).
ConvertedGraph convert_graph(const ir::Graph& graph, const ConversionSettings& settings = {});

// Marks the tensor value of every node of `plan` as a network output (see
// ConversionSettings::mark_all_outputs); values that are inputs, weights,
// folded to constants, already outputs, or whose name another tensor or
// layer holds are left out.
void mark_node_values(ConversionContext& ctx, const ir::Graph& graph, const SegmentPlan& plan, ConvertedGraph& result);

}  // namespace atenrt::conversion
