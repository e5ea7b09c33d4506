// The partitioner's plan, executed: engine segments are converted and built
// into engines of their own, the rest become torch segments that the libtorch
// fallback runs, joined through slots in one HybridProgram.
#pragma once

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "conversion/context.h"
#include "ir/graph.h"
#include "partition/partitioner.h"
#include "runtime/hybrid.h"

namespace atenrt::api {

// Builds one converted engine segment: a static engine, or, given the
// ranges of its inputs (in the network's input order), a shaped segment.
struct SegmentBuilders {
  std::function<std::shared_ptr<const runtime::Engine>(conversion::ConvertedGraph&&)> engine;
  std::function<std::shared_ptr<const runtime::ShapedSegment>(conversion::ConvertedGraph&&,
                                                              std::vector<runtime::InputRange>)>
      shaped;
};

// `input_ranges`: the user inputs' ranges (graph.user_inputs() order), empty
// when they are static. An engine segment becomes a shaped segment when an
// input of it has a dynamic dim or its sizes depend on the data; the range
// of a dim inside the program is its size expression's over the inputs'
// ranges (unbacked sizes: range_constraints, else unbounded).
//
// Throws UnsupportedError naming the node, value or argument that a hybrid
// program cannot hold (a non-tensor value crossing segments, a size the
// fallback would need at run time, a non-aten node in the fallback, an
// argument kind 1.13 cannot take).
runtime::HybridProgram plan_hybrid(const ir::Graph& graph, const partition::Partition& partition,
                                   const std::vector<conversion::Selection>& selections,
                                   const conversion::ConversionSettings& conversion,
                                   std::vector<runtime::InputRange> input_ranges, const SegmentBuilders& build);

// Why the fallback would refuse this node ("" when it would take it), for
// the dry-run report: not an aten op, the allowlist, an argument it cannot
// pass. Schema checks against libtorch happen when the plugin prepares it.
std::string fallback_refusal(const ir::Graph& graph, const ir::Node& node);

// The size symbols the graph's user inputs bind with a dim of their own
// ("s0" of x[s0, 3]): a run knows their values.
std::set<std::string> input_size_symbols(const ir::Graph& graph);

}  // namespace atenrt::api
