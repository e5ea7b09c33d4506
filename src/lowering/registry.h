// Decompositions (one ATen op → several simpler ones) and graph passes, each
// registered under a name by a static registrar in its family's file.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "lowering/graph_builder.h"
#include "lowering/settings.h"

namespace atenrt::lowering {

// Emits the replacement of `node` through `b` and returns one value per
// output of the node (output_values(node) order); throws Decline to leave
// the node alone.
using DecomposeFn = std::function<std::vector<std::string>(GraphBuilder& b, const ir::Node& node)>;

struct Decomposition {
  std::string key;    // op overload: "aten.addmm.default"
  std::string group;  // "linear_algebra", "activations", "normalization", "reductions", "misc"
  DecomposeFn fn;
  // Runs even when the op has a converter (the converter is worse: e.g. a
  // composite whose pieces fuse better).
  bool preferred_over_converter = false;
};

class DecompositionRegistry {
 public:
  static DecompositionRegistry& instance();
  // A second registration of the same key is a hard error (std::logic_error).
  void add(Decomposition d);
  const Decomposition* find(const std::string& key) const;
  std::vector<const Decomposition*> all() const;  // sorted by key
  std::vector<std::string> groups() const;

 private:
  std::vector<Decomposition> entries_;
};

struct DecompositionRegistrar {
  DecompositionRegistrar(std::string key, std::string group, DecomposeFn fn, bool preferred_over_converter = false);
};

// Why a decomposition does or does not run for `key` under `settings`
// (empty: it runs). With the node (and its graph), a converter counts only
// when it accepts that node (LoweringSettings::converter_accepts).
std::string decomposition_blocker(const Decomposition& d, const LoweringSettings& settings,
                                  const ir::Graph* graph = nullptr, const ir::Node* node = nullptr);

// A graph pass: rewrites in place; returns how many changes it made.
using PassFn = std::function<int(ir::Graph& graph, const LoweringSettings& settings)>;

struct Pass {
  std::string name;  // "dead_code", "noop_removal", ...
  std::string description;
  int order = 0;  // place in the pipeline (see lower.cpp)
  PassFn fn;
};

class PassRegistry {
 public:
  static PassRegistry& instance();
  void add(Pass p);
  const Pass* find(const std::string& name) const;
  std::vector<const Pass*> all() const;  // by order

 private:
  std::vector<Pass> entries_;
};

struct PassRegistrar {
  PassRegistrar(std::string name, std::string description, int order, PassFn fn);
};

}  // namespace atenrt::lowering
