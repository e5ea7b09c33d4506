// Capability-based partitioning (DESIGN.md §1.3): asks only the converters'
// validators whether a node can be converted, then cuts the graph into
// segments that atenrt compiles and segments it cannot, honouring
// min_block_size, torch_executed_ops and require_full_compilation as
// Torch-TensorRT does.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace atenrt::partition {

// A validator's answer for one node; `reason` says why not.
struct NodeSupport {
  bool supported = false;
  std::string reason;
};
using SupportFn = std::function<NodeSupport(const ir::Node&)>;

struct PartitionSettings {
  std::int64_t min_block_size = 5;
  std::set<std::string> torch_executed_ops;  // op overloads ("aten.relu.default") or packets ("aten.relu")
  bool require_full_compilation = false;
  bool use_fast_partitioner = true;  // adjacency partitioner; false = global partitioner
};

enum class SegmentTarget { Engine, Fallback };

struct Segment {
  SegmentTarget target = SegmentTarget::Engine;
  std::vector<std::size_t> nodes;   // indices into graph.nodes, in graph order
  std::vector<std::string> inputs;  // values used here, defined elsewhere
  std::vector<std::string> outputs; // values defined here, used elsewhere or graph outputs
  std::int64_t compute_ops = 0;     // nodes other than views and getitem
};

struct Partition {
  std::vector<NodeSupport> support;  // per graph node
  // Per graph node: the compute ops of its supported block when that block
  // went to the fallback for being below min_block_size; 0 otherwise.
  std::vector<std::int64_t> demoted_block;
  std::vector<Segment> segments;     // in graph order of their first node
  std::int64_t total_ops = 0;
  std::int64_t supported_ops = 0;
  std::int64_t suggested_min_block_size = 1;

  bool fully_supported() const { return supported_ops == total_ops; }
  std::size_t engine_segments() const;
  // The dry-run report: coverage, segments with I/O shapes and dtypes,
  // unsupported nodes with their op and reason, a min_block_size suggestion.
  std::string report(const ir::Graph& graph) const;
};

// Views and getitem do not count towards a block's size (Torch-TensorRT's rule).
bool is_compute_op(const ir::Node& node);

Partition partition_graph(const ir::Graph& graph, const SupportFn& supports,
                          const PartitionSettings& settings);

// Throws UnsupportedError with the report when the partition cannot be
// compiled into a single engine (callers that cannot run a fallback).
void require_single_engine(const ir::Graph& graph, const Partition& partition,
                           const PartitionSettings& settings);

}  // namespace atenrt::partition
