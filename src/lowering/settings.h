// What lowering runs: decomposition groups and keys, passes, and how a
// decomposition yields to (or overrides) a converter for the same op.
#pragma once

#include <functional>
#include <optional>
#include <set>
#include <string>

#include "ir/graph.h"

namespace atenrt::lowering {

struct LoweringSettings {
  // Master switches.
  bool decompositions_enabled = true;
  bool passes_enabled = true;

  // Groups ("linear_algebra", "activations", "normalization", "reductions",
  // "misc"). nullopt: every group is enabled; otherwise only those listed.
  std::optional<std::set<std::string>> enabled_groups;
  std::set<std::string> disabled_groups;
  // Decompositions switched off by key ("aten.addmm.default").
  std::set<std::string> disabled_decompositions;

  // Converter policy. A decomposition whose op has an enabled converter does
  // not run, unless it is marked preferred_over_converter, or its key is in
  // forced_decompositions, or prefer_decompositions is set. A key in
  // converter_preferred always keeps its converter, even when preferred.
  std::function<bool(const std::string& key)> has_converter;  // unset: no converters known
  // Finer than has_converter when set: does a converter accept this very
  // node (its validator passes)? A converter that refuses the node must not
  // stop the decomposition that could make it compile.
  std::function<bool(const ir::Graph& graph, const ir::Node& node)> converter_accepts;
  std::set<std::string> forced_decompositions;
  bool prefer_decompositions = false;
  std::set<std::string> converter_preferred;

  // Passes switched off by name ("dead_code", "constant_folding", ...).
  std::set<std::string> disabled_passes;

  // Constant folding refuses to create a tensor larger than this (elements).
  long long max_folded_elements = 1LL << 24;
  // Decompositions may emit ops that have decompositions; rounds bound it.
  int max_decomposition_rounds = 4;
};

}  // namespace atenrt::lowering
