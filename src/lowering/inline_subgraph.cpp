#include "lowering/inline_subgraph.h"

#include <map>
#include <set>

#include "atenrt/errors.h"

namespace atenrt::lowering {
namespace {

// The one value name an input or output argument names, or "".
std::string name_of(const ir::Argument& a) {
  std::vector<std::string> names;
  ir::for_each_value(a, [&](const std::string& n) { names.push_back(n); });
  return names.size() == 1 && !a.is<ir::TensorList>() && !a.is<ir::SymIntList>() ? names[0] : "";
}

std::vector<std::string> flat_names(const std::vector<ir::Argument>& args) {
  std::vector<std::string> out;
  for (const auto& a : args) ir::for_each_value(a, [&](const std::string& n) { out.push_back(n); });
  return out;
}

class Rewriter {
 public:
  Rewriter(std::string where, const std::map<std::string, ir::Argument>& bound,
           const std::map<std::string, std::string>& renamed)
      : where_(std::move(where)), bound_(bound), renamed_(renamed) {}

  // A value name the body defines → its new name; a body input → the bound operand's name.
  std::string name(const std::string& n) const {
    if (auto it = renamed_.find(n); it != renamed_.end()) return it->second;
    if (auto it = bound_.find(n); it != bound_.end()) {
      const std::string outer = name_of(it->second);
      if (outer.empty()) {
        throw UnsupportedError(where_ + ": the subgraph input '" + n + "' is bound to " + it->second.to_string() +
                               ", which it reads where a value is needed");
      }
      return outer;
    }
    return n;  // not the body's: left for validate() to name
  }
  // A body input bound to a literal, where the argument can hold one.
  std::optional<ir::Argument> literal(const std::string& n) const {
    auto it = bound_.find(n);
    if (it == bound_.end() || !name_of(it->second).empty()) return std::nullopt;
    return it->second;
  }

  void rewrite(ir::Argument& a) const {
    if (auto* t = std::get_if<ir::TensorRef>(&a.value)) t->name = name(t->name);
    if (auto* l = std::get_if<ir::TensorList>(&a.value)) {
      for (auto& t : *l) t.name = name(t.name);
    }
    if (auto* l = std::get_if<ir::OptionalTensorList>(&a.value)) {
      for (auto& t : *l) {
        if (t) t->name = name(t->name);
      }
    }
    if (auto* s = std::get_if<ir::SymInt>(&a.value); s && !s->is_static()) *s = sym_int(*s);
    if (auto* l = std::get_if<ir::SymIntList>(&a.value)) {
      for (auto& s : *l) {
        if (!s.is_static()) s = sym_int(s);
      }
    }
    if (const auto* b = a.get_if<ir::SymBoolRef>()) {
      if (auto lit = literal(b->name)) {
        a = *lit;
        return;
      }
      a = ir::SymBoolRef{name(b->name)};
    }
    if (const auto* f = a.get_if<ir::SymFloatRef>()) {
      if (auto lit = literal(f->name)) {
        a = *lit;
        return;
      }
      a = ir::SymFloatRef{name(f->name)};
    }
  }

 private:
  ir::SymInt sym_int(const ir::SymInt& s) const {
    if (auto lit = literal(s.name)) {
      if (auto v = ir::literal_int(*lit)) return ir::SymInt::of(*v);
    }
    ir::SymInt out = s;
    out.name = name(s.name);
    return out;
  }

  std::string where_;
  const std::map<std::string, ir::Argument>& bound_;
  const std::map<std::string, std::string>& renamed_;
};

void copy_meta(const ir::Graph& body, const std::string& from, ir::Graph& graph, const std::string& to) {
  if (auto it = body.tensor_values.find(from); it != body.tensor_values.end()) graph.tensor_values[to] = it->second;
  if (auto it = body.sym_int_values.find(from); it != body.sym_int_values.end()) graph.sym_int_values[to] = it->second;
  if (auto it = body.sym_bool_values.find(from); it != body.sym_bool_values.end()) graph.sym_bool_values[to] = it->second;
  if (auto it = body.sym_float_values.find(from); it != body.sym_float_values.end()) {
    graph.sym_float_values[to] = it->second;
  }
}

}  // namespace

std::vector<ir::Node> inline_subgraph(ir::Graph& graph, NameSet& names, const ir::Node& hop, const ir::GraphArg& arg,
                                      const std::vector<ir::Argument>& operands) {
  const ir::Graph& body = *arg.graph;
  const std::string where = hop.describe() + ", subgraph '" + arg.name + "'";
  if (operands.size() != body.inputs.size()) {
    throw FormatError(where + ": takes " + std::to_string(body.inputs.size()) + " inputs, the op passes " +
                      std::to_string(operands.size()));
  }
  std::map<std::string, ir::Argument> bound;
  for (std::size_t i = 0; i < operands.size(); ++i) {
    const std::string n = name_of(body.inputs[i]);
    if (n.empty()) throw FormatError(where + ": input " + std::to_string(i) + " is " + body.inputs[i].to_string() + ", not a value");
    bound[n] = operands[i];
  }
  const auto hop_outs = flat_names(hop.outputs);
  const auto body_outs = flat_names(body.outputs);
  if (hop_outs.size() != body_outs.size()) {
    throw FormatError(where + ": returns " + std::to_string(body_outs.size()) + " values, the op node has " +
                      std::to_string(hop_outs.size()));
  }
  // Values the body defines: the first time one is returned it takes the op's
  // output name; the rest are renamed apart.
  std::map<std::string, std::string> renamed;
  std::set<std::size_t> aliased;  // outputs that need a copy (a body input, or returned twice)
  for (std::size_t k = 0; k < body_outs.size(); ++k) {
    if (bound.contains(body_outs[k]) || renamed.contains(body_outs[k])) {
      aliased.insert(k);
    } else {
      renamed[body_outs[k]] = hop_outs[k];
    }
  }
  for (const auto& node : body.nodes) {
    for (const auto& o : node.outputs) {
      ir::for_each_value(o, [&](const std::string& v) {
        if (!renamed.contains(v)) renamed[v] = names.fresh(hop.name + "_" + v);
        copy_meta(body, v, graph, renamed[v]);
      });
    }
  }
  const Rewriter rw(where, bound, renamed);
  std::vector<ir::Node> out;
  for (const auto& node : body.nodes) {
    ir::Node n = node;
    n.name = names.fresh(hop.name + "_" + node.name);
    for (auto& in : n.inputs) rw.rewrite(in.arg);
    for (auto& o : n.outputs) rw.rewrite(o);
    for (const auto& [k, v] : hop.metadata) n.metadata.try_emplace(k, v);
    out.push_back(std::move(n));
  }
  for (auto k : aliased) {
    ir::Node copy;
    copy.name = names.fresh(hop.name + "_" + hop_outs[k]);
    copy.target = ir::OpName::parse("aten.alias.default");
    copy.inputs = {ir::NamedArgument{"self", ir::TensorRef{rw.name(body_outs[k])}}};
    copy.outputs = {ir::TensorRef{hop_outs[k]}};
    copy.metadata = hop.metadata;
    if (!graph.meta(hop_outs[k])) {
      throw UnsupportedError(where + ": output '" + hop_outs[k] + "' passes a value through and is not a tensor");
    }
    out.push_back(std::move(copy));
  }
  return out;
}

}  // namespace atenrt::lowering
