// Helpers shared by lowering passes: use counts, renaming values, printing.
#pragma once

#include <map>
#include <set>
#include <string>
#include <unordered_map>

#include "ir/graph.h"

namespace atenrt::lowering {

// Value renames applied as a pass walks the graph in order: uses of a key
// become uses of its value (chains resolved).
class Renames {
 public:
  void add(const std::string& from, const std::string& to) { map_[from] = to; }
  bool empty() const { return map_.empty(); }
  std::string resolve(const std::string& name) const;
  // Rewrites every value reference in the node's inputs; returns true if any changed.
  bool apply(ir::Node& node) const;
  bool apply(ir::Argument& arg) const;
  // Rewrites graph outputs and the signature's output specs.
  void apply_outputs(ir::Graph& graph) const;

 private:
  std::unordered_map<std::string, std::string> map_;
};

// How many times each value is used (node inputs and graph outputs).
std::unordered_map<std::string, int> use_counts(const ir::Graph& graph);
// Names of values listed as graph outputs.
std::set<std::string> graph_output_values(const ir::Graph& graph);
// Names of graph inputs (placeholders).
std::set<std::string> graph_input_values(const ir::Graph& graph);

// Removes tensor_values entries that no input or node defines any more.
void prune_value_table(ir::Graph& graph);

// "aten.addmm.default" → count.
std::map<std::string, int> op_histogram(const ir::Graph& graph);
std::string histogram_to_string(const std::map<std::string, int>& histogram);
// One line per input, node and output, for test failures and `inspect`.
std::string graph_to_string(const ir::Graph& graph);

}  // namespace atenrt::lowering
