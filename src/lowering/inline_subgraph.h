// Inlining a higher-order op's subgraph (torch.ops.higher_order.cond's chosen
// branch, the body of wrap_with_set_grad_enabled / wrap_with_autocast) in
// place of the op node.
#pragma once

#include <vector>

#include "ir/graph.h"
#include "lowering/graph_builder.h"

namespace atenrt::lowering {

// The nodes that replace `hop`: the body's nodes with every value it defines
// renamed apart (`<hop>_<value>`), its inputs bound to `operands` (values or
// literals, in the body's input order), and its outputs produced under the
// hop's own output names, so later readers need no renaming. Their metadata
// goes into `graph`. A body whose inputs or outputs do not match the op's is
// a FormatError naming the node.
std::vector<ir::Node> inline_subgraph(ir::Graph& graph, NameSet& names, const ir::Node& hop, const ir::GraphArg& body,
                                      const std::vector<ir::Argument>& operands);

}  // namespace atenrt::lowering
