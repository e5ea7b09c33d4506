// The partitioner's plan, executed: engine segments are converted and built
// into engines of their own, the rest become torch segments that the libtorch
// fallback runs, joined through slots in one HybridProgram.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "conversion/context.h"
#include "ir/graph.h"
#include "partition/partitioner.h"
#include "runtime/hybrid.h"

namespace atenrt::api {

// Builds an engine from one converted engine segment.
using SegmentBuilder = std::function<std::shared_ptr<const runtime::Engine>(conversion::ConvertedGraph&&)>;

// Throws UnsupportedError naming the node, value or argument that a hybrid
// program cannot hold (a non-tensor value crossing segments, a dynamic
// shape, a non-aten node in the fallback, an argument kind 1.13 cannot take).
runtime::HybridProgram plan_hybrid(const ir::Graph& graph, const partition::Partition& partition,
                                   const std::vector<conversion::Selection>& selections,
                                   const conversion::ConversionSettings& conversion, const SegmentBuilder& build);

// Why the fallback would refuse this node ("" when it would take it), for
// the dry-run report: not an aten op, the allowlist, an argument it cannot
// pass. Schema checks against libtorch happen when the plugin prepares it.
std::string fallback_refusal(const ir::Node& node);

}  // namespace atenrt::api
