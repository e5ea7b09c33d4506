#include "lowering/passes/higher_order.h"

#include <algorithm>
#include <deque>
#include <unordered_map>

#include "atenrt/errors.h"
#include "ir/op_schema.h"
#include "lowering/const_eval.h"
#include "lowering/graph_utils.h"
#include "lowering/inline_subgraph.h"
#include "lowering/node_args.h"

namespace atenrt::lowering {
namespace {

// Bounds on what is computed now: a while_loop's iterations, the elements of a tensor evaluated for
// a condition, and how far back through producers a value is traced.
constexpr int kMaxTrips = 1024;
constexpr std::int64_t kMaxElements = 1 << 16;
constexpr int kMaxDepth = 256;

const ir::GraphArg& graph_arg(const ir::Node& node, std::size_t index) {
  const auto* g = index < node.inputs.size() ? node.inputs[index].arg.get_if<ir::GraphArg>() : nullptr;
  if (!g || !g->graph) throw FormatError(node.describe() + ": argument " + std::to_string(index) + " is not a subgraph");
  return *g;
}

// The argument's operands: a Tensor[] or SymInt[] spread into its elements.
void spread(const ir::Argument& a, std::vector<ir::Argument>& out) {
  if (const auto* l = a.get_if<ir::TensorList>()) {
    for (const auto& t : *l) out.emplace_back(t);
  } else if (const auto* l = a.get_if<ir::SymIntList>()) {
    for (const auto& v : *l) out.emplace_back(v);
  } else if (const auto* l = a.get_if<ir::IntList>()) {
    for (auto v : *l) out.emplace_back(v);
  } else {
    out.push_back(a);
  }
}
std::vector<ir::Argument> operands_from(const ir::Node& node, std::size_t first) {
  std::vector<ir::Argument> out;
  for (std::size_t i = first; i < node.inputs.size(); ++i) spread(node.inputs[i].arg, out);
  return out;
}

// Tensor values known now: weights and lifted constants, and what const_eval computes from them
// through the nodes walked so far and those inlined here.
class KnownTensors {
 public:
  KnownTensors(const ir::Graph& g, const std::vector<ir::Node>& done) : g_(g) {
    for (const auto& n : done) index(n);
  }
  void add(const ir::Node& n) { index(owned_.emplace_back(n)); }

  const Tensor* get(const std::string& name, int depth = 0) {
    if (const Tensor* w = g_.weight_for_value(name)) return w;
    if (auto it = cache_.find(name); it != cache_.end()) return it->second ? &*it->second : nullptr;
    std::optional<Tensor> value;
    auto p = producer_.find(name);
    const ir::TensorMeta* m = g_.meta(name);
    if (p != producer_.end() && depth < kMaxDepth && m && m->is_static() &&
        numel_of(m->static_sizes()) <= kMaxElements) {
      const ir::Node& n = *p->second;
      if (n.outputs.size() == 1 && const_evaluable(n)) {
        value = const_evaluate(n, *m, [&](const std::string& v) { return get(v, depth + 1); });
      }
    }
    auto& slot = cache_[name];  // element references survive rehashing
    slot = std::move(value);
    return slot ? &*slot : nullptr;
  }

 private:
  void index(const ir::Node& n) {
    for (const auto& v : output_values(n)) producer_[v] = &n;
  }
  const ir::Graph& g_;
  std::deque<ir::Node> owned_;  // stable addresses
  std::unordered_map<std::string, const ir::Node*> producer_;
  std::unordered_map<std::string, std::optional<Tensor>> cache_;
};

// Python's bool() of a one-element tensor: non-zero (NaN included); -0.0 is false.
bool truth(const Tensor& t) {
  auto bytes = t.contiguous().to_bytes();
  if (is_floating(t.dtype())) bytes.back() &= std::byte{0x7f};  // little-endian: the sign bit
  return std::any_of(bytes.begin(), bytes.end(), [](std::byte b) { return b != std::byte{0}; });
}

// A condition's value when it is known now: a literal, a symbolic value the walk computed, or a
// one-element tensor computed from constants. nullopt for a tensor known only at run time; a
// symbolic value known only then is reported by the caller too.
std::optional<bool> known_truth(const HigherOrderWalk& walk, KnownTensors& tensors, const ir::Argument& a) {
  if (auto v = walk.number(a)) return v->truthy();
  if (const auto* t = a.get_if<ir::TensorRef>()) {
    if (const Tensor* v = tensors.get(t->name); v && v->numel() == 1) return truth(*v);
  }
  return std::nullopt;
}

std::vector<ir::Node> resolve_cond(const HigherOrderWalk& walk, const ir::Node& node) {
  if (node.inputs.size() < 3) throw FormatError(node.describe() + ": cond takes a predicate and two branches");
  const ir::Argument& pred = node.inputs[0].arg;
  KnownTensors tensors(walk.graph, walk.done);
  const auto taken = known_truth(walk, tensors, pred);
  if (!taken) {
    if (const auto* t = pred.get_if<ir::TensorRef>()) {
      throw UnsupportedError(node.describe() + ": its predicate '" + t->name +
                             "' is computed from tensor data at run time; atenrt resolves cond when the network is "
                             "built, so the predicate must be known then");
    }
    throw UnsupportedError(node.describe() + ": its predicate " + pred.to_string() +
                           " depends on sizes known only at run time; atenrt resolves cond when the network is built");
  }
  return inline_subgraph(walk.graph, walk.names, node, graph_arg(node, *taken ? 1 : 2), operands_from(node, 3));
}

// A stand-in for one use of a while_loop's subgraph: the loop node with fresh output names, one per
// value the subgraph returns, carrying the metadata of the values they stand for.
ir::Node stand_in(const HigherOrderWalk& walk, const ir::Node& loop, const std::string& what,
                  const std::vector<ir::Argument>& like) {
  ir::Node n = loop;
  n.name = walk.names.fresh(loop.name + "_" + what);
  n.outputs.clear();
  for (const auto& a : like) {
    const std::string fresh = walk.names.fresh(n.name);
    if (const auto* t = a.get_if<ir::TensorRef>()) {
      if (const ir::TensorMeta* m = walk.graph.meta(t->name)) walk.graph.tensor_values[fresh] = *m;
      n.outputs.emplace_back(ir::TensorRef{fresh});
    } else if (const auto* b = a.get_if<ir::SymBoolRef>()) {
      (void)b;
      n.outputs.emplace_back(ir::SymBoolRef{fresh});
    } else {
      n.outputs.emplace_back(ir::SymInt::named(fresh));
    }
  }
  return n;
}

// torch.ops.higher_order.while_loop(cond_fn, body_fn, carried_inputs, additional_inputs): unrolled
// when its condition is known, iteration after iteration, when the network is built (a counter
// from a constant, a static size); each iteration's body is inlined with the values the last one
// carried, and the loop's outputs are the values carried when the condition turns false.
std::vector<ir::Node> resolve_while_loop(const HigherOrderWalk& walk, const ir::Node& node) {
  if (node.inputs.size() != 4) {
    throw FormatError(node.describe() + ": while_loop takes a condition, a body, the carried inputs and the "
                      "additional inputs, the node has " + std::to_string(node.inputs.size()) + " arguments");
  }
  const ir::GraphArg& cond = graph_arg(node, 0);
  const ir::GraphArg& body = graph_arg(node, 1);
  std::vector<ir::Argument> carried, extra;
  spread(node.inputs[2].arg, carried);
  spread(node.inputs[3].arg, extra);
  if (carried.size() != node.outputs.size()) {
    throw FormatError(node.describe() + ": carries " + std::to_string(carried.size()) + " values and has " +
                      std::to_string(node.outputs.size()) + " outputs");
  }
  KnownTensors tensors(walk.graph, walk.done);
  std::vector<ir::Node> out;
  for (int trip = 0;; ++trip) {
    if (trip == kMaxTrips) {
      throw UnsupportedError(node.describe() + ": still looping after " + std::to_string(kMaxTrips) +
                             " iterations; atenrt unrolls a while_loop when the network is built and stops there");
    }
    std::vector<ir::Argument> operands = carried;
    operands.insert(operands.end(), extra.begin(), extra.end());
    const ir::Graph& cg = *cond.graph;
    if (cg.outputs.size() != 1) {
      throw FormatError(node.describe() + ", subgraph '" + cond.name + "': returns " +
                        std::to_string(cg.outputs.size()) + " values, a condition returns one");
    }
    ir::Node probe = stand_in(walk, node, "cond", {cg.outputs[0].is<ir::TensorRef>() ? ir::Argument(ir::TensorRef{})
                                                                                       : cg.outputs[0]});
    if (const auto* t = cg.outputs[0].get_if<ir::TensorRef>()) {
      if (const ir::TensorMeta* m = cg.meta(t->name)) {
        walk.graph.tensor_values[probe.outputs[0].get_if<ir::TensorRef>()->name] = *m;
      }
    }
    for (const auto& n : inline_subgraph(walk.graph, walk.names, probe, cond, operands)) {
      walk.learn(n);
      tensors.add(n);
    }
    const ir::Argument& verdict = probe.outputs[0];
    const auto go_on = known_truth(walk, tensors, verdict);
    if (!go_on) {
      throw UnsupportedError(node.describe() + ": its condition (subgraph '" + cond.name + "') at iteration " +
                             std::to_string(trip) + " depends on values known only at run time; atenrt unrolls "
                             "while_loop when the network is built, so its trip count must be known then");
    }
    if (!*go_on) break;
    ir::Node step = stand_in(walk, node, "iter" + std::to_string(trip), node.outputs);
    for (auto& n : inline_subgraph(walk.graph, walk.names, step, body, operands)) {
      walk.learn(n);
      tensors.add(n);
      out.push_back(std::move(n));
    }
    carried = step.outputs;
  }
  // The loop's outputs: the values carried last (the inputs themselves when it never ran).
  for (std::size_t k = 0; k < carried.size(); ++k) {
    const auto* to = node.outputs[k].get_if<ir::TensorRef>();
    const auto* from = carried[k].get_if<ir::TensorRef>();
    if (!to || !from) {
      throw UnsupportedError(node.describe() + ": carried value " + std::to_string(k) + " (" + carried[k].to_string() +
                             ") is not a tensor; atenrt unrolls while_loops that carry tensors");
    }
    ir::Node copy;
    copy.name = walk.names.fresh(node.name + "_" + to->name);
    copy.target = ir::OpName::parse("aten.alias.default");
    copy.inputs = {ir::NamedArgument{"self", *from}};
    copy.outputs = {*to};
    copy.metadata = node.metadata;
    out.push_back(std::move(copy));
  }
  return out;
}

bool mutable_type(const std::string& type) { return type.find('!') != std::string::npos; }

// auto_functionalized(op, **kwargs): op run on copies of the arguments it mutates, whose new values
// follow op's own results. For an aten op with a functional twin (add_ → add, relu_ → relu,
// _native_batch_norm_legit → _native_batch_norm_legit_functional) the twin computes exactly that.
std::vector<ir::Node> resolve_auto_functionalized(const HigherOrderWalk& walk, const ir::Node& node) {
  const auto* op = node.inputs.empty() ? nullptr : node.inputs[0].arg.get_if<ir::OperatorArg>();
  if (!op) throw FormatError(node.describe() + ": auto_functionalized's first argument must be the operator");
  const ir::OpName target = ir::OpName::parse(op->target);
  const std::string what = node.describe() + ": auto_functionalized of " + target.str();
  if (target.ns != "aten") {
    throw UnsupportedError(what + ", a custom op that mutates its inputs; atenrt converts aten ops, and inlines "
                           "auto_functionalized only for aten in-place ops with a functional twin");
  }
  const ir::OpSchema* schema = ir::find_schema(target.schema_name());
  if (!schema) throw UnsupportedError(what + ": atenrt does not know this operator");
  std::vector<std::string> mutated;
  for (const auto& a : schema->arguments) {
    if (mutable_type(a.type)) mutated.push_back(a.name);
  }
  // The twin: the in-place op's out-of-place form (its result is the one mutated value), or the
  // "_functional" form, whose results are op's followed by the mutated values.
  ir::OpName twin = target;
  bool inplace = false;
  if (target.name.size() > 1 && target.name.back() == '_' && mutated == std::vector<std::string>{"self"}) {
    twin.name.pop_back();
    inplace = true;
  } else {
    twin.name += "_functional";
  }
  const ir::OpSchema* twin_schema = ir::find_schema(twin.schema_name());
  if (mutated.empty() || !twin_schema ||
      (!inplace && twin_schema->returns.size() != schema->returns.size() + mutated.size())) {
    throw UnsupportedError(what + ": atenrt inlines auto_functionalized only for aten ops with a functional twin "
                           "(an in-place op's out-of-place form, or a '_functional' op returning the new values)");
  }
  const std::size_t want = inplace ? 1 + mutated.size() : twin_schema->returns.size();
  if (node.outputs.size() != want) {
    throw FormatError(what + ": has " + std::to_string(node.outputs.size()) + " outputs; the op's results and the " +
                      std::to_string(mutated.size()) + " mutated values make " + std::to_string(want));
  }
  ir::Node call;
  call.name = walk.names.fresh(node.name + "_" + twin.name);
  call.target = twin;
  call.metadata = node.metadata;
  for (std::size_t i = 1; i < node.inputs.size(); ++i) {
    const auto& in = node.inputs[i];
    const bool known = std::any_of(twin_schema->arguments.begin(), twin_schema->arguments.end(),
                                   [&](const ir::SchemaArgument& a) { return a.name == in.name; });
    if (known) call.inputs.push_back(in);
  }
  ir::fill_schema_defaults(call.name, twin.str(), call.inputs);
  std::vector<ir::Node> out;
  if (!inplace) {
    call.outputs = node.outputs;
    out.push_back(std::move(call));
    return out;
  }
  // In place: op's result and the mutated self are the same value.
  std::vector<std::string> names;
  for (const auto& o : node.outputs) {
    const auto* t = o.get_if<ir::TensorRef>();
    names.push_back(t ? t->name : "");
  }
  const std::string result = !names[0].empty() ? names[0] : names[1];
  if (result.empty()) throw FormatError(what + ": neither its result nor the mutated value is a tensor");
  call.outputs = {ir::TensorRef{result}};
  out.push_back(std::move(call));
  if (!names[0].empty() && !names[1].empty()) {
    ir::Node copy;
    copy.name = walk.names.fresh(node.name + "_" + names[1]);
    copy.target = ir::OpName::parse("aten.alias.default");
    copy.inputs = {ir::NamedArgument{"self", ir::TensorRef{result}}};
    copy.outputs = {ir::TensorRef{names[1]}};
    copy.metadata = node.metadata;
    out.push_back(std::move(copy));
  }
  return out;
}

}  // namespace

std::vector<ir::Node> resolve_higher_order(const HigherOrderWalk& walk, const ir::Node& node) {
  const std::string& op = node.target.name;
  if (op == "cond") return resolve_cond(walk, node);
  if (op == "while_loop") return resolve_while_loop(walk, node);
  if (op == "auto_functionalized") return resolve_auto_functionalized(walk, node);
  // The wrappers: parameters, then the body, then its operands.
  std::size_t body = 0;
  while (body < node.inputs.size() && !node.inputs[body].arg.is<ir::GraphArg>()) ++body;
  if (op == "wrap_with_set_grad_enabled") {
    // Gradients do not change what inference computes.
    return inline_subgraph(walk.graph, walk.names, node, graph_arg(node, body), operands_from(node, body + 1));
  }
  if (op == "wrap_with_autocast") {
    // (device_type, dtype, enabled, cache_enabled, body, *operands). An enabled region runs the ops on
    // torch's autocast lists in another dtype, casts the subgraph does not record; which ops, and
    // how, changes from one torch release to the next (docs/torch-versions.md).
    const auto enabled = body >= 3 ? ir::literal_bool(node.inputs[2].arg) : std::nullopt;
    if (!enabled || *enabled) {
      throw UnsupportedError(node.describe() + ": an enabled autocast region runs the ops on torch's autocast "
                             "lists (matmul, linear, convolution, ...) in " +
                             (body >= 2 ? node.inputs[1].arg.to_string() : std::string("another dtype")) +
                             ", casts its subgraph does not record and whose op lists differ between torch "
                             "releases; atenrt inlines only disabled regions (ep.run_decompositions() writes the "
                             "casts as _to_copy nodes)");
    }
    return inline_subgraph(walk.graph, walk.names, node, graph_arg(node, body), operands_from(node, body + 1));
  }
  if (op == "auto_functionalized_v2") {
    throw UnsupportedError(node.describe() + ": auto_functionalized_v2 (torch.compile's form, with view bases) is not "
                           "supported; atenrt inlines auto_functionalized of aten in-place ops");
  }
  throw UnsupportedError(node.describe() + ": higher-order op '" + op +
                         "' is not supported; atenrt inlines cond with a predicate known when the network is built, "
                         "while_loop with a trip count known then, auto_functionalized of aten in-place ops, "
                         "wrap_with_set_grad_enabled and disabled wrap_with_autocast");
}

}  // namespace atenrt::lowering
