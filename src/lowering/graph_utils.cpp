#include "lowering/graph_utils.h"

#include <sstream>

#include "lowering/node_args.h"

namespace atenrt::lowering {

std::string Renames::resolve(const std::string& name) const {
  std::string cur = name;
  for (std::size_t hops = 0; hops <= map_.size(); ++hops) {
    auto it = map_.find(cur);
    if (it == map_.end()) return cur;
    cur = it->second;
  }
  return cur;  // a cycle cannot be built by passes; stop anyway
}

bool Renames::apply(ir::Argument& a) const {
  if (map_.empty()) return false;
  bool changed = false;
  auto fix = [&](std::string& n) {
    std::string r = resolve(n);
    if (r != n) {
      n = std::move(r);
      changed = true;
    }
  };
  if (auto* t = std::get_if<ir::TensorRef>(&a.value)) fix(t->name);
  if (auto* l = std::get_if<ir::TensorList>(&a.value)) {
    for (auto& t : *l) fix(t.name);
  }
  if (auto* l = std::get_if<ir::OptionalTensorList>(&a.value)) {
    for (auto& t : *l) {
      if (t) fix(t->name);
    }
  }
  return changed;
}

bool Renames::apply(ir::Node& node) const {
  bool changed = false;
  for (auto& in : node.inputs) changed |= apply(in.arg);
  return changed;
}

void Renames::apply_outputs(ir::Graph& graph) const {
  for (auto& o : graph.outputs) apply(o);
  for (auto& spec : graph.signature.outputs) apply(spec.value);
}

std::unordered_map<std::string, int> use_counts(const ir::Graph& graph) {
  std::unordered_map<std::string, int> uses;
  for (const auto& node : graph.nodes) {
    for (const auto& in : node.inputs) ir::for_each_value(in.arg, [&](const std::string& n) { ++uses[n]; });
  }
  for (const auto& o : graph.outputs) ir::for_each_value(o, [&](const std::string& n) { ++uses[n]; });
  return uses;
}

std::set<std::string> graph_output_values(const ir::Graph& graph) {
  std::set<std::string> out;
  for (const auto& o : graph.outputs) ir::for_each_value(o, [&](const std::string& n) { out.insert(n); });
  return out;
}

std::set<std::string> graph_input_values(const ir::Graph& graph) {
  std::set<std::string> out;
  for (const auto& i : graph.inputs) ir::for_each_value(i, [&](const std::string& n) { out.insert(n); });
  return out;
}

void prune_value_table(ir::Graph& graph) {
  std::set<std::string> defined = graph_input_values(graph);
  for (const auto& node : graph.nodes) {
    for (const auto& o : node.outputs) ir::for_each_value(o, [&](const std::string& n) { defined.insert(n); });
  }
  std::erase_if(graph.tensor_values, [&](const auto& kv) { return !defined.contains(kv.first); });
}

std::map<std::string, int> op_histogram(const ir::Graph& graph) {
  std::map<std::string, int> h;
  for (const auto& node : graph.nodes) ++h[node.target.str()];
  return h;
}

std::string histogram_to_string(const std::map<std::string, int>& histogram) {
  std::ostringstream out;
  for (const auto& [op, n] : histogram) out << "  " << n << "\t" << op << "\n";
  return out.str();
}

std::string graph_to_string(const ir::Graph& graph) {
  std::ostringstream out;
  for (std::size_t i = 0; i < graph.inputs.size(); ++i) {
    out << "input " << graph.inputs[i].to_string();
    if (i < graph.signature.inputs.size()) {
      const auto& spec = graph.signature.inputs[i];
      out << " [" << ir::input_kind_name(spec.kind) << (spec.target.empty() ? "" : " " + spec.target) << "]";
    }
    if (auto* t = graph.inputs[i].get_if<ir::TensorRef>()) {
      if (auto* m = graph.meta(t->name)) out << " : " << m->to_string();
    }
    out << "\n";
  }
  for (const auto& node : graph.nodes) {
    out << "  ";
    for (std::size_t i = 0; i < node.outputs.size(); ++i) out << (i ? ", " : "") << node.outputs[i].to_string();
    out << " = " << node.target.str() << "(";
    for (std::size_t i = 0; i < node.inputs.size(); ++i) {
      out << (i ? ", " : "") << node.inputs[i].name << "=" << node.inputs[i].arg.to_string();
    }
    out << ")";
    if (!node.outputs.empty()) {
      if (auto* t = node.outputs[0].get_if<ir::TensorRef>()) {
        if (auto* m = graph.meta(t->name)) out << " : " << m->to_string();
      }
    }
    out << "\n";
  }
  out << "return (";
  for (std::size_t i = 0; i < graph.outputs.size(); ++i) out << (i ? ", " : "") << graph.outputs[i].to_string();
  out << ")\n";
  return out.str();
}

}  // namespace atenrt::lowering
