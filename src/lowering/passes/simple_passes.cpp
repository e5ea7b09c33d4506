// The structural passes: in-place leftovers → functional ops, no-op removal,
// view canonicalization, common subexpression elimination, dead code removal.
#include <unordered_map>
#include <unordered_set>

#include "ir/op_schema.h"
#include "lowering/graph_utils.h"
#include "lowering/node_args.h"
#include "lowering/registry.h"

namespace atenrt::lowering {
namespace {

const std::unordered_set<std::string>& view_op_names() {
  static const std::unordered_set<std::string> names = {
      "view", "_unsafe_view", "_reshape_alias", "reshape", "permute", "t", "transpose", "expand", "slice", "select",
      "unsqueeze", "squeeze", "as_strided", "diagonal", "alias", "narrow", "unfold", "split", "chunk", "unbind",
      "view_as", "expand_as", "flatten", "unflatten", "detach"};
  return names;
}

bool is_inplace(const ir::OpName& op) {
  return op.ns == "aten" && op.name.size() > 1 && op.name.back() == '_' && !op.name.ends_with("__");
}

// Ops that must stay even when nothing reads their result.
bool has_side_effects(const ir::Node& node) {
  if (node.outputs.empty() || is_inplace(node.target)) return true;
  const auto& n = node.target.name;
  return n.starts_with("_assert") || n == "sym_constrain_range" || n == "sym_constrain_range_for_size" ||
         node.target.ns == "higher_order";
}

bool nondeterministic(const ir::Node& node) {
  static const std::unordered_set<std::string> names = {
      "rand", "randn", "rand_like", "randn_like", "randint", "randint_like", "randperm", "bernoulli", "normal",
      "uniform", "multinomial", "dropout", "native_dropout", "empty", "empty_like", "empty_strided", "new_empty",
      "poisson", "exponential", "geometric", "cauchy", "log_normal", "rrelu"};
  return names.contains(node.target.name);
}

std::optional<std::vector<std::int64_t>> static_shape(const ir::Graph& g, const std::string& v) {
  const ir::TensorMeta* m = g.meta(v);
  if (!m || !m->is_static()) return std::nullopt;
  return m->static_sizes();
}

// ------------------------------------------------------------- in-place → functional

// Whether anything after node `index` (a later node or a graph output) reads a
// value that aliases `self` through view ops, other than `self` itself: the
// view's base and the base's other views. Mutating a view changes those too,
// so renaming alone is right only when none of them is read again (and the
// base is not a graph input).
bool view_base_read_later(const ir::Graph& graph, std::size_t index, const std::string& self,
                          const std::unordered_map<std::string, const ir::Node*>& producer, const Renames& renames) {
  std::string root = self;
  for (auto it = producer.find(root); it != producer.end() && view_op_names().contains(it->second->target.name);
       it = producer.find(root)) {
    const auto* base = it->second->inputs.empty() ? nullptr : it->second->inputs[0].arg.get_if<ir::TensorRef>();
    if (!base) return true;  // a view of something that is not a tensor value: do not reason about it
    root = base->name;
  }
  // A graph input's (user input, parameter, buffer) mutation is observable
  // outside the graph: left for the signature's mutation outputs to say.
  if (graph_input_values(graph).contains(root)) return true;
  std::unordered_set<std::string> aliases = {root};
  for (std::size_t i = 0; i < index; ++i) {
    const auto& n = graph.nodes[i];
    if (!view_op_names().contains(n.target.name) || n.inputs.empty()) continue;
    const auto* in = n.inputs[0].arg.get_if<ir::TensorRef>();
    if (!in || !aliases.contains(in->name)) continue;
    for (const auto& v : output_values(n)) aliases.insert(v);
  }
  aliases.erase(self);
  bool read = false;
  // Later nodes are not renamed yet: compare what their names will become.
  const auto check = [&](const std::string& v) { read = read || aliases.contains(renames.resolve(v)); };
  for (std::size_t i = index + 1; i < graph.nodes.size() && !read; ++i) {
    for (const auto& in : graph.nodes[i].inputs) ir::for_each_value(in.arg, check);
  }
  for (const auto& o : graph.outputs) ir::for_each_value(o, check);
  return read;
}

int inplace_to_functional(ir::Graph& graph, const LoweringSettings&) {
  std::unordered_map<std::string, const ir::Node*> producer;
  Renames renames;
  int changed = 0;
  for (std::size_t index = 0; index < graph.nodes.size(); ++index) {
    auto& node = graph.nodes[index];
    renames.apply(node);
    for (const auto& v : output_values(node)) producer[v] = &node;
    if (!is_inplace(node.target) || node.inputs.empty() || node.outputs.empty()) continue;
    ir::OpName functional = node.target;
    functional.name.pop_back();
    if (!ir::find_schema(functional.schema_name())) continue;
    const auto* self = node.inputs[0].arg.get_if<ir::TensorRef>();
    const auto outs = output_values(node);
    if (!self || outs.size() != 1) continue;
    // Mutating a view also changes its base: renaming expresses that only when
    // the base (and its other views) is not read again (`x = x.flatten(1);
    // x.relu_()`, nn.Dropout(inplace=True) after a flatten).
    if (auto it = producer.find(self->name); it != producer.end() &&
                                             view_op_names().contains(it->second->target.name) &&
                                             view_base_read_later(graph, index, self->name, producer, renames)) {
      continue;
    }
    const std::string mutated = self->name;
    node.target = functional;
    renames.add(mutated, outs[0]);  // later readers of the mutated tensor see the new value
    ++changed;
  }
  renames.apply_outputs(graph);
  return changed;
}

// ------------------------------------------------------------- no-op removal

// The input an op passes through unchanged, or nullopt.
std::optional<std::string> passthrough(const ir::Graph& g, const ir::Node& node) {
  const auto& name = node.target.name;
  const auto outs = output_values(node);
  if (outs.size() != 1 && !(name == "native_dropout" && outs.size() == 2)) return std::nullopt;
  const ir::Argument* first = node.inputs.empty() ? nullptr : &node.inputs[0].arg;
  const auto* in = first ? first->get_if<ir::TensorRef>() : nullptr;
  if (!in) return std::nullopt;
  const ir::TensorMeta* mi = g.meta(in->name);
  const ir::TensorMeta* mo = g.meta(outs[0]);
  if (!mi || !mo || mi->dtype != mo->dtype) return std::nullopt;
  static const std::unordered_set<std::string> always = {"detach", "clone", "alias", "lift_fresh_copy", "lift_fresh",
                                                          "contiguous", "alias_copy", "detach_copy"};
  if (always.contains(name) && node.target.ns == "aten") return in->name;
  if (name == "dropout" && !bool_arg(node, "train")) return in->name;
  if (name == "native_dropout") {
    const ir::Argument* train = node.input("train");
    if (train && train->is<bool>() && !*train->get_if<bool>()) return in->name;
    return std::nullopt;
  }
  if (name == "_to_copy" || (name == "to" && node.target.overload == "dtype")) {
    return in->name;  // dtype equality checked above; device/layout/memory format do not change values
  }
  static const std::unordered_set<std::string> views = {"view", "reshape", "_unsafe_view", "_reshape_alias",
                                                        "expand", "permute", "slice", "squeeze", "unsqueeze"};
  if (!views.contains(name)) return std::nullopt;
  auto si = static_shape(g, in->name), so = static_shape(g, outs[0]);
  if (!si || !so || *si != *so) return std::nullopt;
  if (name == "permute") {
    const auto dims = int_list_arg(node, "dims");
    for (std::size_t i = 0; i < dims.size(); ++i) {
      const auto d = dims[i] < 0 ? dims[i] + static_cast<std::int64_t>(dims.size()) : dims[i];
      if (d != static_cast<std::int64_t>(i)) return std::nullopt;
    }
  }
  if (name == "slice" && int_arg(node, "step") != 1) return std::nullopt;
  return in->name;
}

int noop_removal(ir::Graph& graph, const LoweringSettings&) {
  const auto inputs = graph_input_values(graph);
  const auto outputs = graph_output_values(graph);
  const auto uses = use_counts(graph);
  Renames renames;
  std::vector<ir::Node> kept;
  int removed = 0;
  for (auto& node : graph.nodes) {
    renames.apply(node);
    const auto src = passthrough(graph, node);
    const auto outs = output_values(node);
    // native_dropout's mask output must be unused for the node to vanish.
    const bool mask_used = outs.size() == 2 && uses.contains(outs[1]);
    // An output that is exactly a graph input would alias it: keep one copy.
    if (!src || mask_used || (inputs.contains(*src) && outputs.contains(outs[0]))) {
      kept.push_back(std::move(node));
      continue;
    }
    renames.add(outs[0], *src);
    ++removed;
  }
  graph.nodes = std::move(kept);
  renames.apply_outputs(graph);
  return removed;
}

// ------------------------------------------------------------- view canonicalization

int view_canonicalization(ir::Graph& graph, const LoweringSettings&) {
  std::unordered_map<std::string, const ir::Node*> producer;
  int changed = 0;
  auto is_reshape_like = [](const ir::Node* n) {
    return n && n->target.ns == "aten" && (n->target.name == "view" || n->target.name == "reshape");
  };
  for (auto& node : graph.nodes) {
    const auto& name = node.target.name;
    if (node.target.ns == "aten" && (name == "_reshape_alias" || name == "_unsafe_view" || name == "_reshape_copy")) {
      const auto self = tensor_arg(node, "self");
      ir::Argument size = arg(node, "size");
      node.target = ir::OpName::parse("aten.view.default");
      node.inputs = {ir::NamedArgument{"self", ir::TensorRef{self}}, ir::NamedArgument{"size", size}};
      ++changed;
    }
    if (is_reshape_like(&node)) {
      // Sizes written out (no -1) when the output shape is static.
      const char* size_name = node.target.name == "view" ? "size" : "shape";
      if (auto so = static_shape(graph, output_values(node).at(0))) {
        ir::Argument want = ir::IntList(*so);
        for (auto& in : node.inputs) {
          if (in.name == size_name && !(in.arg == want)) {
            in.arg = want;
            ++changed;
          }
        }
      }
      // A view of a view reads the first view's source directly.
      auto& self = std::get<ir::TensorRef>(node.inputs[0].arg.value);
      auto it = producer.find(self.name);
      if (it != producer.end() && is_reshape_like(it->second)) {
        const bool any_reshape = it->second->target.name == "reshape" || node.target.name == "reshape";
        self.name = tensor_arg(*it->second, "self");
        if (any_reshape && node.target.name == "view") {
          ir::Argument size = arg(node, "size");
          node.target = ir::OpName::parse("aten.reshape.default");
          node.inputs = {node.inputs[0], ir::NamedArgument{"shape", size}};
        }
        ++changed;
      }
    }
    for (const auto& v : output_values(node)) producer[v] = &node;
  }
  return changed;
}

// ------------------------------------------------------------- CSE

std::string node_key(const ir::Node& node) {
  std::string key = node.target.str() + "(";
  for (const auto& in : node.inputs) key += in.name + "=" + in.arg.to_string() + "|" + in.arg.kind_name() + ",";
  return key + ")";
}

int common_subexpression_elimination(ir::Graph& graph, const LoweringSettings&) {
  std::unordered_map<std::string, std::vector<std::string>> seen;  // key → outputs of the first node
  Renames renames;
  std::vector<ir::Node> kept;
  int removed = 0;
  for (auto& node : graph.nodes) {
    renames.apply(node);
    const auto outs = output_values(node);
    if (has_side_effects(node) || nondeterministic(node) || outs.size() != node.outputs.size()) {
      kept.push_back(std::move(node));
      continue;
    }
    auto [it, inserted] = seen.try_emplace(node_key(node), outs);
    if (inserted || it->second.size() != outs.size()) {
      kept.push_back(std::move(node));
      continue;
    }
    for (std::size_t i = 0; i < outs.size(); ++i) renames.add(outs[i], it->second[i]);
    ++removed;
  }
  graph.nodes = std::move(kept);
  renames.apply_outputs(graph);
  return removed;
}

// ------------------------------------------------------------- dead code

int dead_code(ir::Graph& graph, const LoweringSettings&) {
  auto uses = use_counts(graph);
  std::vector<bool> keep(graph.nodes.size(), true);
  int removed = 0;
  auto dec = [&](const ir::Argument& a) { ir::for_each_value(a, [&](const std::string& n) { --uses[n]; }); };
  for (std::size_t i = graph.nodes.size(); i-- > 0;) {
    const auto& node = graph.nodes[i];
    if (has_side_effects(node)) continue;
    bool used = false;
    for (const auto& o : node.outputs) {
      ir::for_each_value(o, [&](const std::string& n) { used |= uses[n] > 0; });
    }
    if (used) continue;
    keep[i] = false;
    ++removed;
    for (const auto& in : node.inputs) dec(in.arg);
  }
  std::vector<ir::Node> kept;
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    if (keep[i]) kept.push_back(std::move(graph.nodes[i]));
  }
  graph.nodes = std::move(kept);
  // Weights nothing reads any more (e.g. folded into a transposed copy).
  for (std::size_t i = graph.inputs.size(); i-- > 0;) {
    const auto& spec = graph.signature.inputs[i];
    if (spec.kind == ir::InputKind::UserInput || spec.kind == ir::InputKind::ConstantInput) continue;
    const auto* t = graph.inputs[i].get_if<ir::TensorRef>();
    if (!t || uses[t->name] > 0) continue;
    const std::string target = spec.target;
    graph.inputs.erase(graph.inputs.begin() + static_cast<std::ptrdiff_t>(i));
    graph.signature.inputs.erase(graph.signature.inputs.begin() + static_cast<std::ptrdiff_t>(i));
    bool shared = false;
    for (const auto& other : graph.signature.inputs) shared |= other.target == target;
    if (!shared) graph.weights.erase(target);
    ++removed;
  }
  prune_value_table(graph);
  return removed;
}

const PassRegistrar r1("inplace_to_functional", "in-place ops (add_, relu_, copy_) become their functional forms", 10,
                       inplace_to_functional);
const PassRegistrar r2("noop_removal",
                       "drops detach, clone, alias, lift_fresh_copy, contiguous, same-dtype _to_copy, eval dropout "
                       "and identity views",
                       20, noop_removal);
const PassRegistrar r3("view_canonicalization",
                       "_reshape_alias/_unsafe_view become view, -1 sizes are written out, view chains collapse", 30,
                       view_canonicalization);
const PassRegistrar r5("cse", "common subexpression elimination", 120, common_subexpression_elimination);
const PassRegistrar r6("dead_code", "removes nodes and weights whose results nothing uses", 130, dead_code);

}  // namespace
}  // namespace atenrt::lowering
