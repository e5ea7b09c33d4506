// Higher-order ops (torch.ops.higher_order.*), resolved during the
// symbolic_values walk, since cond's predicate and while_loop's condition are
// values that walk computes: cond's chosen branch and the wrappers' bodies are
// inlined, a while_loop whose trip count is known when the network is built is
// unrolled, auto_functionalized of an aten in-place op becomes its functional
// twin; everything else is an UnsupportedError naming the node and why.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "ir/graph.h"
#include "ir/py_scalar.h"
#include "lowering/graph_builder.h"

namespace atenrt::lowering {

// What the walk lends the resolver.
struct HigherOrderWalk {
  ir::Graph& graph;
  NameSet& names;
  // The nodes walked so far (producers of tensor values known now).
  const std::vector<ir::Node>& done;
  // The number a literal or a symbolic value known now holds.
  std::function<std::optional<ir::PyNumber>(const ir::Argument&)> number;
  // Computes the node's symbolic output, when its inputs are known, into what `number` knows.
  std::function<void(const ir::Node&)> learn;
};

// The nodes that replace `node` (a higher_order op), in order; they are walked next.
std::vector<ir::Node> resolve_higher_order(const HigherOrderWalk& walk, const ir::Node& node);

}  // namespace atenrt::lowering
