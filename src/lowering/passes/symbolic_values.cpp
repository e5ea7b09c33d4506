// Symbolic values known at compile time, and the no-compute assertions on
// them. torch.export (2.12 onward especially) records size arithmetic as
// nodes (`sym_size.int`, `_operator.ge`, `torch.sym_max`, `math.trunc`) whose
// results feed `_assert_scalar`, `sym_constrain_range(_for_size)` and the
// shapes of later ops; `_assert_tensor_metadata` checks a tensor's dtype and
// sizes. Where the sizes are static every such value is a constant: it is
// computed here (Python's rules, ir/py_scalar.h) and written into the
// arguments that read it, and each assertion is checked and removed. An
// assertion that is false is an error naming the node. An _assert_scalar on a
// value known only at run time stays, and conversion makes it a Check layer
// (a run where it is false is an InputError); sym_constrain_range on such a
// value is removed (the engine's input ranges are the archive's
// range_constraints).
// Higher-order ops are resolved in the same walk (passes/higher_order.h), since
// cond's predicate and while_loop's condition are such values: what replaces
// them (a branch, a wrapper's body, an unrolled loop) is walked next.
#include <algorithm>
#include <deque>
#include <iterator>
#include <unordered_map>

#include "atenrt/errors.h"
#include "ir/py_scalar.h"
#include "lowering/graph_utils.h"
#include "lowering/node_args.h"
#include "lowering/passes/higher_order.h"
#include "lowering/registry.h"

namespace atenrt::lowering {
namespace {

using ir::PyNumber;
using Known = std::unordered_map<std::string, PyNumber>;

std::optional<PyNumber> literal(const ir::Argument& a) {
  if (const auto* b = a.get_if<bool>()) return PyNumber::of_bool(*b);
  if (const auto* i = a.get_if<std::int64_t>()) return PyNumber::of_int(*i);
  if (const auto* d = a.get_if<double>()) return PyNumber::of_float(*d);
  if (const auto* s = a.get_if<ir::SymInt>(); s && s->is_static()) return PyNumber::of_int(*s->value);
  return std::nullopt;
}

// Writes known values into the argument's symbolic references; true if any changed.
bool substitute(ir::Argument& a, const Known& known) {
  auto find = [&](const std::string& name) -> const PyNumber* {
    auto it = known.find(name);
    return it == known.end() ? nullptr : &it->second;
  };
  if (auto* s = std::get_if<ir::SymInt>(&a.value); s && !s->is_static()) {
    const PyNumber* v = find(s->name);
    if (!v || v->is_float()) return false;
    a = ir::SymInt::of(v->i);
    return true;
  }
  if (auto* l = std::get_if<ir::SymIntList>(&a.value)) {
    bool changed = false;
    for (auto& s : *l) {
      if (s.is_static()) continue;
      if (const PyNumber* v = find(s.name); v && !v->is_float()) {
        s = ir::SymInt::of(v->i);
        changed = true;
      }
    }
    return changed;
  }
  if (const auto* b = a.get_if<ir::SymBoolRef>()) {
    const PyNumber* v = find(b->name);
    if (!v || !v->is_bool()) return false;
    a = v->i != 0;
    return true;
  }
  if (const auto* f = a.get_if<ir::SymFloatRef>()) {
    const PyNumber* v = find(f->name);
    if (!v) return false;
    a = v->as_double();
    return true;
  }
  return false;
}

// The name of the single symbolic value a node produces, or "".
std::string symbolic_output(const ir::Node& node) {
  if (node.outputs.size() != 1) return "";
  const ir::Argument& o = node.outputs[0];
  if (const auto* s = o.get_if<ir::SymInt>(); s && !s->is_static()) return s->name;
  if (const auto* b = o.get_if<ir::SymBoolRef>()) return b->name;
  if (const auto* f = o.get_if<ir::SymFloatRef>()) return f->name;
  return "";
}

const ir::TensorMeta* self_meta(const ir::Graph& g, const ir::Node& node) {
  const ir::Argument* self = node.input("self");
  const auto* t = self ? self->get_if<ir::TensorRef>() : nullptr;
  return t ? g.meta(t->name) : nullptr;
}

std::optional<std::int64_t> dim_of(const ir::Node& node, const ir::TensorMeta& m) {
  const ir::Argument* d = node.input("dim");
  if (!d && node.inputs.size() >= 2) d = &node.inputs[1].arg;  // torch 1.13's sym_size packet
  const auto dim = d ? ir::literal_int(*d) : std::nullopt;
  const auto rank = static_cast<std::int64_t>(m.sizes.size());
  if (!dim || *dim < -rank || *dim >= rank) return std::nullopt;
  return *dim < 0 ? *dim + rank : *dim;
}

// The value of a size query or Python operator whose inputs are known.
std::optional<PyNumber> evaluate(const ir::Graph& g, const ir::Node& node) {
  const std::string key = node.target.str();
  if (ir::is_python_scalar_op(key)) {
    std::vector<PyNumber> args;
    for (const auto& in : node.inputs) {
      auto v = literal(in.arg);
      if (!v) return std::nullopt;
      args.push_back(*v);
    }
    try {
      return ir::eval_python_scalar_op(key, args);
    } catch (const UnsupportedError& e) {
      throw UnsupportedError(node.describe() + ": " + e.what());
    }
  }
  if (node.target.ns != "aten") return std::nullopt;
  const ir::TensorMeta* m = self_meta(g, node);
  if (!m) return std::nullopt;
  const auto& name = node.target.name;
  if (name == "sym_size") {
    const auto d = dim_of(node, *m);
    if (!d || !m->sizes[static_cast<std::size_t>(*d)].is_static()) return std::nullopt;
    return PyNumber::of_int(*m->sizes[static_cast<std::size_t>(*d)].value);
  }
  if (name == "sym_stride") {
    const auto d = dim_of(node, *m);
    if (!d || m->strides.size() != m->sizes.size() || !m->strides[static_cast<std::size_t>(*d)].is_static()) {
      return std::nullopt;
    }
    return PyNumber::of_int(*m->strides[static_cast<std::size_t>(*d)].value);
  }
  if (name == "sym_numel" && m->is_static()) {
    std::int64_t n = 1;
    for (auto s : m->static_sizes()) {
      if (__builtin_mul_overflow(n, s, &n)) return std::nullopt;
    }
    return PyNumber::of_int(n);
  }
  if (name == "sym_storage_offset" && m->storage_offset.is_static()) return PyNumber::of_int(*m->storage_offset.value);
  return std::nullopt;
}

bool is_assertion(const ir::Node& node) {
  if (node.target.ns != "aten") return false;
  const auto& n = node.target.name;
  return n == "_assert_scalar" || n == "_assert_tensor_metadata" || n == "sym_constrain_range" ||
         n == "sym_constrain_range_for_size";
}

[[noreturn]] void assertion_failed(const ir::Node& node, const std::string& why) {
  throw FormatError(node.describe() + ": the archive's assertion is false for its own static shapes: " + why);
}

void check_tensor_metadata(const ir::Graph& g, const ir::Node& node) {
  const ir::Argument* a = node.input("a");
  const auto* t = a ? a->get_if<ir::TensorRef>() : nullptr;
  const ir::TensorMeta* m = t ? g.meta(t->name) : nullptr;
  if (!m) return;
  if (const ir::Argument* dt = node.input("dtype")) {
    if (const auto* st = dt->get_if<ir::ScalarTypeArg>(); st && st->code != m->dtype_code) {
      assertion_failed(node, "'" + t->name + "' is " + m->to_string() + ", the assertion expects dtype " +
                                 dt->to_string());
    }
  }
  auto check_list = [&](const char* arg_name, const std::vector<ir::SymInt>& actual) {
    const ir::Argument* want = node.input(arg_name);
    if (!want || want->is_none()) return;
    const auto ints = ir::literal_ints(*want);
    if (!ints) return;  // symbolic entries: checked at run time by the engine's input checks
    bool same = ints->size() == actual.size();
    for (std::size_t i = 0; same && i < actual.size(); ++i) {
      same = !actual[i].is_static() || *actual[i].value == (*ints)[i];
    }
    if (!same) {
      assertion_failed(node, "'" + t->name + "' is " + m->to_string() + ", the assertion expects " + arg_name + " " +
                                 want->to_string());
    }
  };
  check_list("size", m->sizes);
  if (m->strides.size() == m->sizes.size()) check_list("stride", m->strides);
}

// Throws when the assertion is false. Returns whether it can go: true when it
// holds, or reads a run-time value that only sym_constrain_range limits (the
// engine's input ranges do); false for an _assert_scalar on a run-time
// value, which conversion makes a run-time check.
bool check_assertion(const ir::Graph& g, const ir::Node& node) {
  const auto& name = node.target.name;
  if (name == "_assert_tensor_metadata") {
    check_tensor_metadata(g, node);
    return true;
  }
  const ir::Argument* first = node.inputs.empty() ? nullptr : &node.inputs[0].arg;
  const auto value = first ? literal(*first) : std::nullopt;
  if (!value) return name != "_assert_scalar";
  if (name == "_assert_scalar") {
    if (!value->truthy()) {
      const auto msg = opt_string_arg(node, "assert_msg").value_or("");
      assertion_failed(node, "'" + msg.substr(0, 200) + "'");
    }
    return true;
  }
  // sym_constrain_range(_for_size): min <= value <= max (a size is never negative).
  const auto lo = opt_int_arg(node, "min").value_or(name == "sym_constrain_range_for_size" ? 0 : INT64_MIN);
  const auto hi = opt_int_arg(node, "max");
  const double v = value->as_double();
  if (v < static_cast<double>(lo) || (hi && v > static_cast<double>(*hi))) {
    assertion_failed(node, "value " + value->to_string() + " is outside [" + std::to_string(lo) + ", " +
                               (hi ? std::to_string(*hi) : std::string("inf")) + "]");
  }
  return true;
}

int symbolic_values(ir::Graph& graph, const LoweringSettings&) {
  Known known;
  for (std::size_t k = 0; k < graph.inputs.size() && k < graph.signature.inputs.size(); ++k) {
    const auto& spec = graph.signature.inputs[k];
    if (spec.kind != ir::InputKind::ConstantInput) continue;
    if (auto v = literal(spec.constant_value)) known.emplace(spec.value_name, *v);
  }
  NameSet names(graph);
  int changes = 0;
  std::vector<ir::Node> kept;
  kept.reserve(graph.nodes.size());
  // A worklist: an inlined subgraph's nodes are processed next, in order, so
  // nested higher-order ops and the body's own size arithmetic fold too.
  std::deque<ir::Node> pending(std::make_move_iterator(graph.nodes.begin()), std::make_move_iterator(graph.nodes.end()));
  graph.nodes.clear();
  const HigherOrderWalk walk{
      graph, names, kept,
      [&](const ir::Argument& a) {
        ir::Argument copy = a;
        substitute(copy, known);
        return literal(copy);
      },
      [&](const ir::Node& n) {
        ir::Node copy = n;
        for (auto& in : copy.inputs) substitute(in.arg, known);
        if (const std::string out = symbolic_output(copy); !out.empty()) {
          if (auto v = evaluate(graph, copy)) known.emplace(out, *v);
        }
      }};
  while (!pending.empty()) {
    ir::Node node = std::move(pending.front());
    pending.pop_front();
    for (auto& in : node.inputs) changes += substitute(in.arg, known) ? 1 : 0;
    if (node.target.ns == "higher_order") {
      auto inlined = resolve_higher_order(walk, node);
      for (auto it = inlined.rbegin(); it != inlined.rend(); ++it) pending.push_front(std::move(*it));
      ++changes;
      continue;
    }
    if (is_assertion(node) && check_assertion(graph, node)) {
      ++changes;
      continue;
    }
    if (const std::string out = symbolic_output(node); !out.empty()) {
      if (auto v = evaluate(graph, node)) known.emplace(out, *v);
    }
    kept.push_back(std::move(node));
  }
  graph.nodes = std::move(kept);
  return changes;
}

const PassRegistrar r("symbolic_values",
                      "computes size arithmetic known at compile time (sym_size, _operator.*, torch.sym_*, math.*) "
                      "into the arguments that read it; checks and removes _assert_scalar (kept on run-time values), _assert_tensor_metadata "
                      "and sym_constrain_range(_for_size); inlines cond's branch when its predicate is known, "
                      "while_loop when its trip count is, auto_functionalized of aten in-place ops, "
                      "wrap_with_set_grad_enabled and disabled wrap_with_autocast",
                      5, symbolic_values);

}  // namespace
}  // namespace atenrt::lowering
