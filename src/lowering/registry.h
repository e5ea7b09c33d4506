// Decompositions (one ATen op → several simpler ones) and graph passes, each
// registered under a name by a static registrar in its family's file.
#pragma once

#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "ir/node_view.h"
#include "lowering/graph_builder.h"
#include "lowering/settings.h"

namespace atenrt::lowering {

// Emits the replacement of `node` through `b` and returns one value per
// output of the node (output_values(node) order). It runs only after the
// validator said yes; it may still throw Decline when the graph builder
// meets what the validator could not foresee (a dynamic dim mid-way).
using DecomposeFn = std::function<std::vector<std::string>(GraphBuilder& b, const ir::Node& node)>;

// May this decomposition take this node? Yes, or no with the reason the
// lowering report prints: the same answer, and the same view of the node,
// as a converter's capability validator.
using DecompositionValidator = std::function<ir::Capability(const ir::NodeView& node)>;

struct DecompositionOptions {
  DecompositionValidator validator = {};  // empty: always yes
  // Runs even when the op has a converter (the converter is worse: e.g. a
  // composite whose pieces fuse better).
  bool preferred_over_converter = false;
};

struct Decomposition {
  std::string key;    // op overload: "aten.addmm.default"
  std::string group;  // "linear_algebra", "activations", "normalization", "reductions", "misc", "views"
  DecomposeFn fn;
  DecompositionOptions options;
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

// The op overloads one definition serves: one key, or several that share a
// function ({"aten.var.correction", "aten.var.dim"}).
struct DecompositionKeys {
  DecompositionKeys(const char* key) : keys{key} {}  // NOLINT: implicit, reads as a literal
  DecompositionKeys(std::initializer_list<const char*> list) : keys(list.begin(), list.end()) {}
  std::vector<std::string> keys;
};

struct DecompositionDef {
  DecompositionKeys keys;
  DecomposeFn fn;
  DecompositionOptions options = {};
};

// The one way to register decompositions: a static object in the group's
// file lists the group's definitions.
//   const DecompositionGroup registered{"views", {
//       {"aten.t.default", t},
//       {"aten.flatten.using_ints", flatten, {.validator = static_shape("self")}},
//   }};
struct DecompositionGroup {
  DecompositionGroup(std::string group, std::vector<DecompositionDef> defs);
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
