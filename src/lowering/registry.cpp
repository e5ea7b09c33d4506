#include "lowering/registry.h"

#include <algorithm>
#include <stdexcept>

namespace atenrt::lowering {

DecompositionRegistry& DecompositionRegistry::instance() {
  static DecompositionRegistry registry;
  return registry;
}

void DecompositionRegistry::add(Decomposition d) {
  if (find(d.key)) throw std::logic_error("decomposition registered twice for " + d.key);
  if (ir::OpName::parse(d.key).overload.empty()) {
    throw std::logic_error("decomposition key '" + d.key + "' names no overload");
  }
  entries_.push_back(std::move(d));
}

const Decomposition* DecompositionRegistry::find(const std::string& key) const {
  for (const auto& e : entries_) {
    if (e.key == key) return &e;
  }
  return nullptr;
}

std::vector<const Decomposition*> DecompositionRegistry::all() const {
  std::vector<const Decomposition*> out;
  for (const auto& e : entries_) out.push_back(&e);
  std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->key < b->key; });
  return out;
}

std::vector<std::string> DecompositionRegistry::groups() const {
  std::vector<std::string> out;
  for (const auto& e : entries_) {
    if (std::find(out.begin(), out.end(), e.group) == out.end()) out.push_back(e.group);
  }
  std::sort(out.begin(), out.end());
  return out;
}

DecompositionGroup::DecompositionGroup(std::string group, std::vector<DecompositionDef> defs) {
  for (auto& def : defs) {
    for (auto& key : def.keys.keys) {
      DecompositionRegistry::instance().add(Decomposition{std::move(key), group, def.fn, def.options});
    }
  }
}

std::string decomposition_blocker(const Decomposition& d, const LoweringSettings& s, const ir::Graph* graph,
                                  const ir::Node* node) {
  if (!s.decompositions_enabled) return "decompositions are disabled";
  if (s.disabled_decompositions.contains(d.key)) return "disabled by key";
  if (s.disabled_groups.contains(d.group)) return "group '" + d.group + "' is disabled";
  if (s.enabled_groups && !s.enabled_groups->contains(d.group)) return "group '" + d.group + "' is not enabled";
  const bool converter = (graph && node && s.converter_accepts) ? s.converter_accepts(*graph, *node)
                                                                : s.has_converter && s.has_converter(d.key);
  if (!converter) return {};
  if (s.converter_preferred.contains(d.key)) return "the converter is preferred by settings";
  if (s.forced_decompositions.contains(d.key) || s.prefer_decompositions || d.options.preferred_over_converter) return {};
  return "a converter handles it";
}

PassRegistry& PassRegistry::instance() {
  static PassRegistry registry;
  return registry;
}

void PassRegistry::add(Pass p) {
  if (find(p.name)) throw std::logic_error("pass registered twice: " + p.name);
  entries_.push_back(std::move(p));
}

const Pass* PassRegistry::find(const std::string& name) const {
  for (const auto& e : entries_) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

std::vector<const Pass*> PassRegistry::all() const {
  std::vector<const Pass*> out;
  for (const auto& e : entries_) out.push_back(&e);
  std::stable_sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->order < b->order; });
  return out;
}

PassRegistrar::PassRegistrar(std::string name, std::string description, int order, PassFn fn) {
  PassRegistry::instance().add(Pass{std::move(name), std::move(description), order, std::move(fn)});
}

}  // namespace atenrt::lowering
