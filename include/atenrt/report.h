// The dry-run report: what the partitioner made of a graph, as data, with a
// short text and a JSON rendering. compile() and dry_run() fill it; the CLI
// prints it (`compile --dryrun [--json]`), Python wraps it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "atenrt/export.h"

namespace atenrt {

struct UnsupportedNode {
  std::string node;    // graph node name
  std::string op;      // its op overload: "aten.relu.default"
  std::string reason;  // the validator's answer, or "listed in torch_executed_ops"
};

struct SegmentReport {
  bool engine = true;  // false: runs in the libtorch fallback
  std::int64_t nodes = 0;
  std::int64_t compute_ops = 0;
  // Values the segment reads from elsewhere, weights left out ("x: float32[1, 3]").
  std::vector<std::string> inputs;
  std::int64_t weight_inputs = 0;  // weights, buffers and constants it reads (counted, not listed)
  std::vector<std::string> outputs;
  std::int64_t supported_nodes = 0;  // in a fallback segment: supported but in a block below min_block_size
  // A fallback segment's nodes and why each runs there: "inv (aten.linalg_inv_ex.default): no converter ...",
  // "relu (aten.relu.default): listed in torch_executed_ops", "... in a block of 2 compute ops, below min_block_size 5".
  std::vector<std::string> fallback_why;
};

struct ATENRT_API DryRunReport {
  std::int64_t total_ops = 0;
  std::int64_t supported_ops = 0;
  std::vector<SegmentReport> segments;
  std::vector<UnsupportedNode> unsupported;
  // Nodes that must run in the fallback but that it refuses (not an aten op,
  // the allowlist, an argument it cannot pass): compile fails naming them.
  std::vector<UnsupportedNode> refused;
  // Nodes that would run outside the engine, and how many of those atenrt
  // could convert (kept out only because their block is below min_block_size).
  std::int64_t fallback_nodes = 0;
  std::int64_t fallback_supported_nodes = 0;
  std::int64_t min_block_size = 0;  // as set
  // Set only when a smaller min_block_size would move supported blocks into engines.
  std::optional<std::int64_t> suggested_min_block_size;

  bool fully_supported() const { return supported_ops == total_ops; }
  std::int64_t engine_segments() const;
  std::int64_t fallback_segments() const;
  std::string to_text() const;
  std::string to_json() const;  // one JSON object
  std::string summary() const;  // one line: "42 of 43 operators supported (97.7%), 2 segments"
};

}  // namespace atenrt
