// Builds the public DryRunReport from a partition of a graph.
#pragma once

#include "atenrt/report.h"
#include "ir/graph.h"
#include "partition/partitioner.h"

namespace atenrt::api {

DryRunReport make_dry_run_report(const ir::Graph& graph, const partition::Partition& partition,
                                 const partition::PartitionSettings& settings);

}  // namespace atenrt::api
