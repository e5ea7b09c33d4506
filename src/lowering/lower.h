// Lowering: decompositions and graph passes between import and partitioning.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "lowering/settings.h"

namespace atenrt::lowering {

struct PassRun {
  std::string name;
  int changes = 0;
};

struct LoweringReport {
  std::map<std::string, int> decompositions;        // key → times applied
  std::map<std::string, std::string> not_decomposed;  // key → why it stayed (converter, settings, declined)
  std::vector<PassRun> passes;                      // in the order they ran
  std::vector<std::string> skipped_passes;          // disabled by settings
  std::size_t nodes_before = 0;
  std::size_t nodes_after = 0;
  std::map<std::string, int> histogram_before;
  std::map<std::string, int> histogram_after;

  bool decomposed(const std::string& key) const { return decompositions.contains(key); }
  int pass_changes(const std::string& name) const;  // summed over runs; 0 when it did not run
  bool pass_ran(const std::string& name) const;
  std::string to_string() const;
};

// Rewrites `graph` in place. Throws FormatError for a malformed graph,
// UnsupportedError for dtypes atenrt cannot hold; a decomposition that does
// not fit a node leaves the node as it is (see not_decomposed).
LoweringReport lower(ir::Graph& graph, const LoweringSettings& settings = {});

// Runs the decomposition stage alone; returns the number of nodes replaced.
int run_decompositions(ir::Graph& graph, const LoweringSettings& settings, LoweringReport& report);

// Names of all registered passes, in pipeline order, and of decomposition keys.
std::vector<std::string> pass_names();
std::vector<std::string> decomposition_keys();

}  // namespace atenrt::lowering
