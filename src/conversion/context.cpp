#include "conversion/context.h"

#include <set>

#include "atenrt/errors.h"
#include "conversion/host_tensor.h"
#include "conversion/registry.h"
#include "conversion/scope.h"

namespace atenrt::conversion {

// ------------------------------------------------------------ context

ConversionContext::ConversionContext(const ir::Graph& graph, ConversionSettings settings)
    : graph_(&graph), settings_(settings) {}

const Value& ConversionContext::value(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) {
    throw UnsupportedError("value '" + name + "' is not defined (not a graph input, weight or node output)");
  }
  if (it->second.is_none()) {
    auto p = producers_.find(name);
    if (p != producers_.end() && !p->second.empty()) {
      throw UnsupportedError("value '" + name + "' (an output of " + p->second +
                             ") is not computed by its converter");
    }
  }
  return it->second;
}

network::NetworkTensor* ConversionContext::tensor(const Value& v, const std::string& name) {
  if (v.is_network_tensor()) return v.network_tensor();
  if (v.is_host_tensor()) return constant(v.host_tensor(), name);
  if (v.is_int()) return constant(scalar_tensor_int(DType::Int64, v.as_int()), name);
  if (v.is_double()) return constant(scalar_tensor(DType::Float32, v.as_double()), name);
  if (v.is_bool()) return constant(scalar_tensor(DType::Bool, v.as_bool() ? 1.0 : 0.0), name);
  throw UnsupportedError(name + ": expected a tensor, got " + v.describe());
}

network::NetworkTensor* ConversionContext::constant(const Tensor& t, std::string_view name) {
  ConstKey key{t.storage().get(), t.storage_offset(), t.sizes(), t.strides(), t.dtype()};
  if (auto it = constants_.find(key); it != constants_.end()) return it->second;
  auto* out = net_.add_constant(net_.unique_layer_name(name), t.contiguous());
  constants_.emplace(std::move(key), out);
  return out;
}

void ConversionContext::bind(const std::string& name, Value v, std::string producer) {
  values_[name] = std::move(v);
  producers_[name] = std::move(producer);
}

network::Network ConversionContext::release_network() { return std::move(net_); }

// ------------------------------------------------------------ node args

NodeArgs::NodeArgs(const Scope& scope, const ir::Node& node)
    : NodeView(scope.ctx().graph(), node), scope_(&scope), ctx_(&scope.ctx()) {}

network::NetworkTensor* NodeArgs::as_network_tensor(const Value& v, const std::string& what) const {
  if (v.is_network_tensor()) return v.network_tensor();
  return ctx_->tensor(v, scope_->layer_name(what));
}

void NodeArgs::fail(std::string_view arg_name, const std::string& why) const {
  throw UnsupportedError(where() + ": argument '" + std::string(arg_name) + "': " + why);
}

Value NodeArgs::resolve(const ir::Argument& a, std::string_view what) const {
  if (a.is_none()) return {};
  if (const auto* t = a.get_if<ir::TensorRef>()) return ctx_->value(t->name);
  if (const auto* l = a.get_if<ir::TensorList>()) {
    Value::List out;
    for (const auto& t : *l) out.push_back(ctx_->value(t.name));
    return out;
  }
  if (const auto* l = a.get_if<ir::OptionalTensorList>()) {
    Value::List out;
    for (const auto& t : *l) out.push_back(t ? ctx_->value(t->name) : Value());
    return out;
  }
  if (const auto* i = a.get_if<std::int64_t>()) return *i;
  if (const auto* d = a.get_if<double>()) return *d;
  if (const auto* b = a.get_if<bool>()) return *b;
  if (const auto* s = a.get_if<ir::SymInt>()) return s->value ? Value(*s->value) : ctx_->value(s->name);
  if (const auto* b = a.get_if<ir::SymBoolRef>()) return ctx_->value(b->name);
  if (const auto* f = a.get_if<ir::SymFloatRef>()) return ctx_->value(f->name);
  if (const auto* l = a.get_if<ir::IntList>()) {
    Value::List out;
    for (auto i : *l) out.emplace_back(i);
    return out;
  }
  if (const auto* l = a.get_if<ir::SymIntList>()) {
    Value::List out;
    for (const auto& s : *l) out.push_back(s.value ? Value(*s.value) : ctx_->value(s.name));
    return out;
  }
  if (const auto* l = a.get_if<ir::FloatList>()) {
    Value::List out;
    for (auto d : *l) out.emplace_back(d);
    return out;
  }
  if (const auto* l = a.get_if<ir::BoolList>()) {
    Value::List out;
    for (bool b : *l) out.emplace_back(b);
    return out;
  }
  throw UnsupportedError(where() + ": argument '" + std::string(what) + "' of kind " + a.kind_name() +
                         " cannot be used as a value");
}

Value NodeArgs::value(std::string_view arg_name) const { return resolve(arg(arg_name), arg_name); }
Value NodeArgs::value(std::size_t index) const {
  return resolve(arg(index), "#" + std::to_string(index));
}

network::NetworkTensor* NodeArgs::tensor(std::string_view arg_name) const {
  const Value v = value(arg_name);
  if (!v.is_tensor()) fail(arg_name, "expected a tensor, got " + v.describe());
  return as_network_tensor(v, std::string(arg_name));
}

network::NetworkTensor* NodeArgs::opt_tensor(std::string_view arg_name) const {
  if (is_none(arg_name)) return nullptr;
  return tensor(arg_name);
}

std::vector<network::NetworkTensor*> NodeArgs::tensors(std::string_view arg_name) const {
  auto out = opt_tensors(arg_name);
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (!out[i]) fail(arg_name, "element " + std::to_string(i) + " is None");
  }
  return out;
}

std::vector<network::NetworkTensor*> NodeArgs::opt_tensors(std::string_view arg_name) const {
  const Value v = value(arg_name);
  if (!v.is_list()) fail(arg_name, "expected a list of tensors, got " + v.describe());
  std::vector<network::NetworkTensor*> out;
  for (std::size_t i = 0; i < v.list().size(); ++i) {
    const Value& e = v.list()[i];
    if (e.is_none()) {
      out.push_back(nullptr);
    } else if (e.is_tensor()) {
      out.push_back(as_network_tensor(e, std::string(arg_name) + "." + std::to_string(i)));
    } else {
      fail(arg_name, "element " + std::to_string(i) + " is " + e.describe() + ", not a tensor");
    }
  }
  return out;
}

std::optional<Tensor> NodeArgs::host_tensor(std::string_view arg_name) const {
  const Value v = value(arg_name);
  if (v.is_host_tensor()) return v.host_tensor();
  return std::nullopt;
}

std::optional<Scalar> NodeArgs::as_scalar(const Value& v) {
  if (v.is_int()) return Scalar::of_int(v.as_int());
  if (v.is_double()) return Scalar::of_float(v.as_double());
  if (v.is_bool()) return Scalar::of_bool(v.as_bool());
  if (v.is_host_tensor() && v.host_tensor().numel() == 1) {
    const Tensor t = v.host_tensor().contiguous();
    if (t.dtype() == DType::Bool) return Scalar::of_bool(element_as_int(t, 0) != 0);
    if (is_floating(t.dtype())) return Scalar::of_float(element_as_double(t, 0));
    return Scalar::of_int(element_as_int(t, 0));
  }
  return std::nullopt;
}

std::int64_t NodeArgs::i(std::string_view arg_name) const {
  const Value v = value(arg_name);
  if (v.is_int()) return v.as_int();
  if (v.is_bool()) return v.as_bool() ? 1 : 0;
  if (v.is_network_tensor()) fail(arg_name, "expected an int known at conversion time, got a run-time value");
  fail(arg_name, "expected an int, got " + v.describe());
}

double NodeArgs::f(std::string_view arg_name) const {
  const Value v = value(arg_name);
  if (v.is_double()) return v.as_double();
  if (v.is_int()) return static_cast<double>(v.as_int());
  if (v.is_bool()) return v.as_bool() ? 1.0 : 0.0;
  fail(arg_name, "expected a number, got " + v.describe());
}

bool NodeArgs::b(std::string_view arg_name) const {
  const Value v = value(arg_name);
  if (v.is_bool()) return v.as_bool();
  if (v.is_int()) return v.as_int() != 0;
  fail(arg_name, "expected a bool, got " + v.describe());
}

std::string NodeArgs::str(std::string_view arg_name) const {
  if (auto s = literal_string(arg_name)) return *s;
  fail(arg_name, "expected a string, got " + arg(arg_name).kind_name());
}

std::vector<std::int64_t> NodeArgs::ints(std::string_view arg_name) const {
  const Value v = value(arg_name);
  if (v.is_int()) return {v.as_int()};
  if (!v.is_list()) fail(arg_name, "expected a list of ints, got " + v.describe());
  std::vector<std::int64_t> out;
  for (std::size_t k = 0; k < v.list().size(); ++k) {
    const Value& e = v.list()[k];
    if (e.is_int()) {
      out.push_back(e.as_int());
    } else if (e.is_network_tensor()) {
      fail(arg_name, "element " + std::to_string(k) + " is only known at run time (dynamic shape)");
    } else {
      fail(arg_name, "element " + std::to_string(k) + " is " + e.describe() + ", not an int");
    }
  }
  return out;
}

std::optional<std::int64_t> NodeArgs::opt_i(std::string_view arg_name) const {
  if (is_none(arg_name)) return std::nullopt;
  return i(arg_name);
}
std::optional<double> NodeArgs::opt_f(std::string_view arg_name) const {
  if (is_none(arg_name)) return std::nullopt;
  return f(arg_name);
}
std::optional<bool> NodeArgs::opt_b(std::string_view arg_name) const {
  if (is_none(arg_name)) return std::nullopt;
  return b(arg_name);
}
std::optional<std::string> NodeArgs::opt_str(std::string_view arg_name) const {
  if (is_none(arg_name)) return std::nullopt;
  return str(arg_name);
}
std::optional<std::vector<std::int64_t>> NodeArgs::opt_ints(std::string_view arg_name) const {
  if (is_none(arg_name)) return std::nullopt;
  return ints(arg_name);
}

std::optional<DType> NodeArgs::opt_dtype(std::string_view arg_name) const {
  if (is_none(arg_name)) return std::nullopt;
  const ir::Argument& a = arg(arg_name);
  if (const auto* s = a.get_if<ir::ScalarTypeArg>()) {
    if (!s->dtype) fail(arg_name, "dtype code " + std::to_string(s->code) + " is not supported");
    return s->dtype;
  }
  // Some exporters write a dtype as its serde code.
  if (const auto* code = a.get_if<std::int64_t>()) {
    if (auto d = dtype_from_serde(*code)) return d;
  }
  fail(arg_name, "expected a dtype, got " + a.kind_name());
}

Scalar NodeArgs::scalar(std::string_view arg_name) const {
  const Value v = value(arg_name);
  if (auto s = as_scalar(v)) return *s;
  fail(arg_name, "expected a number known at conversion time, got " + v.describe());
}

std::optional<Scalar> NodeArgs::opt_scalar(std::string_view arg_name) const {
  if (is_none(arg_name)) return std::nullopt;
  return scalar(arg_name);
}

Operand NodeArgs::operand(std::string_view arg_name) const {
  const Value v = value(arg_name);
  if (v.is_tensor()) return {as_network_tensor(v, std::string(arg_name)), std::nullopt};
  if (auto s = as_scalar(v)) return {nullptr, s};
  fail(arg_name, "expected a tensor or a number, got " + v.describe());
}

// ------------------------------------------------------------ convert_graph

namespace {

void check_output(const NodeView& node, const std::string& value_name, const Value& v) {
  if (!v.is_network_tensor()) return;
  const ir::TensorMeta* m = node.graph().meta(value_name);
  if (!m || !m->dtype) return;
  const auto* t = v.network_tensor();
  const auto expect = m->static_sizes();
  bool dims_ok = expect.size() == t->dims.size();
  for (std::size_t d = 0; dims_ok && d < expect.size(); ++d) {
    if (expect[d] >= 0 && t->dims[d] >= 0 && expect[d] != t->dims[d]) dims_ok = false;
  }
  if (*m->dtype != t->dtype || !dims_ok) {
    throw UnsupportedError("converter produced " + network::desc_to_string(t->desc()) + " for '" +
                           value_name + "' but the graph says " + m->to_string());
  }
}

void bind_outputs(ConversionContext& ctx, const NodeView& node, const Outputs& outs) {
  const auto& decl = node.node().outputs;
  if (outs.size() != decl.size()) {
    throw UnsupportedError("converter returned " + std::to_string(outs.size()) + " outputs, the node has " +
                           std::to_string(decl.size()));
  }
  const std::string producer = node.where();
  for (std::size_t k = 0; k < decl.size(); ++k) {
    const ir::Argument& d = decl[k];
    const Value& v = outs[k];
    if (const auto* t = d.get_if<ir::TensorRef>()) {
      check_output(node, t->name, v);
      ctx.bind(t->name, v, producer);
    } else if (const auto* l = d.get_if<ir::TensorList>()) {
      if (!v.is_list() || v.list().size() != l->size()) {
        throw UnsupportedError("converter returned " + v.describe() + " for a list of " +
                               std::to_string(l->size()) + " tensors");
      }
      for (std::size_t e = 0; e < l->size(); ++e) {
        check_output(node, (*l)[e].name, v.list()[e]);
        ctx.bind((*l)[e].name, v.list()[e], producer);
      }
      // The list itself may be read whole by getitem under the node's name.
      ctx.bind(node.name(), v, producer);
    } else if (const auto* s = d.get_if<ir::SymInt>()) {
      if (!s->value) ctx.bind(s->name, v, producer);
    } else if (const auto* b = d.get_if<ir::SymBoolRef>()) {
      ctx.bind(b->name, v, producer);
    } else if (const auto* f = d.get_if<ir::SymFloatRef>()) {
      ctx.bind(f->name, v, producer);
    }
  }
}

}  // namespace

ConvertedGraph convert_graph(const ir::Graph& graph, const ConversionSettings& settings) {
  SegmentPlan plan;
  const auto& registry = ConverterRegistry::global();
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    plan.nodes.push_back(i);
    plan.selections.push_back(registry.select(NodeView(graph, graph.nodes[i]), settings));
  }
  return convert_segment(graph, plan, settings);
}

namespace {

// User inputs become network inputs, weights and constants bind as host values.
void bind_graph_inputs(ConversionContext& ctx, const ir::Graph& graph, ConvertedGraph& result) {
  const ir::Node no_node{"graph inputs", ir::OpName{"graph", "input", ""}, {}, {}, {}};
  const Scope inputs_scope(ctx, no_node);
  const auto& specs = graph.signature.inputs;
  if (specs.size() != graph.inputs.size()) {
    throw FormatError("graph has " + std::to_string(graph.inputs.size()) + " inputs but its signature lists " +
                      std::to_string(specs.size()));
  }
  for (std::size_t k = 0; k < specs.size(); ++k) {
    const ir::InputSpec& spec = specs[k];
    const ir::Argument& in = graph.inputs[k];
    const std::string& name = spec.value_name;
    switch (spec.kind) {
      case ir::InputKind::UserInput: {
        if (const auto* t = in.get_if<ir::TensorRef>()) {
          const ir::TensorMeta* m = graph.meta(t->name);
          if (!m) throw FormatError("user input '" + t->name + "' has no tensor metadata");
          if (!m->dtype) {
            throw UnsupportedError("user input '" + t->name + "' has dtype code " +
                                   std::to_string(m->dtype_code) + ", which atenrt does not support");
          }
          auto* net_in = ctx.net().add_input(t->name, *m->dtype, m->static_sizes());
          ctx.bind(t->name, net_in, "");
          result.input_values.push_back(t->name);
          result.inputs.push_back(net_in);
        } else if (const auto* s = in.get_if<ir::SymInt>()) {
          if (s->value) {
            ctx.bind(name, *s->value, "");
          } else {
            throw UnsupportedError("user input '" + s->name + "' is a symbolic int; atenrt takes tensor inputs");
          }
        } else {
          ctx.bind(name, NodeArgs(inputs_scope, no_node).resolve(in, name), "");
        }
        break;
      }
      case ir::InputKind::Parameter:
      case ir::InputKind::Buffer:
      case ir::InputKind::TensorConstant: {
        const Tensor* w = graph.weight_for_value(name);
        if (!w) {
          throw FormatError(std::string(ir::input_kind_name(spec.kind)) + " '" + spec.target +
                            "' (input '" + name + "') has no weight data");
        }
        ctx.bind(name, *w, "");
        break;
      }
      case ir::InputKind::ConstantInput: {
        ctx.bind(name, NodeArgs(inputs_scope, no_node).resolve(spec.constant_value, name), "");
        break;
      }
    }
  }

}

void check_plan(const ir::Graph& graph, const SegmentPlan& plan) {
  if (plan.selections.size() != plan.nodes.size()) {
    throw std::logic_error("segment plan has " + std::to_string(plan.selections.size()) + " selections for " +
                           std::to_string(plan.nodes.size()) + " nodes");
  }
  for (std::size_t k = 0; k < plan.nodes.size(); ++k) {
    if (plan.nodes[k] >= graph.nodes.size() || (k > 0 && plan.nodes[k] <= plan.nodes[k - 1])) {
      throw std::logic_error("segment plan lists nodes out of graph order");
    }
  }
}

// Runs the chosen converter on one node and binds its outputs; any failure
// becomes an UnsupportedError that starts with the node's name and op.
void convert_node(ConversionContext& ctx, const ir::Node& node, const Selection& sel) {
  NodeView view(ctx.graph(), node);
  if (!sel.chosen) throw UnsupportedError(view.where() + ": not supported: " + sel.reason());
  try {
    const Scope scope(ctx, node);
    const NodeArgs args(scope, node);
    bind_outputs(ctx, view, sel.chosen->convert(scope, args));
  } catch (const Error& e) {
    const std::string msg = e.what();
    if (msg.rfind(view.where(), 0) == 0) throw UnsupportedError(msg);
    throw UnsupportedError(view.where() + ": " + msg);
  } catch (const std::exception& e) {
    throw UnsupportedError(view.where() + ": internal error in the " + sel.chosen->family +
                           " converter: " + e.what());
  }
}

// The graph's outputs become network outputs (each a distinct tensor), named
// after their values; with mark_all_outputs, the plan's node values too.
void bind_graph_outputs(ConversionContext& ctx, const ir::Graph& graph, const SegmentPlan& plan,
                        const ConversionSettings& settings, ConvertedGraph& result) {
  const ir::Node output_node{"graph outputs", ir::OpName{"graph", "output", ""}, {}, {}, {}};
  const Scope outputs_scope(ctx, output_node);
  const NodeArgs outputs_view(outputs_scope, output_node);
  for (std::size_t k = 0; k < graph.outputs.size(); ++k) {
    const ir::Argument& out = graph.outputs[k];
    const std::string what = "graph output " + std::to_string(k);
    Value v = outputs_view.resolve(out, what);
    if (v.is_none() || v.is_list()) throw UnsupportedError(what + " is " + v.describe() + ", not a tensor");
    const std::string copy_name = "output_" + std::to_string(k);
    auto* t = ctx.tensor(v, copy_name);
    // An input, or a tensor already returned, gets its own copy so that every
    // output is a distinct, non-input tensor.
    if (t->is_input || t->is_output || !t->producer) {
      t = ctx.net().add_cast(ctx.net().unique_layer_name(copy_name), t, t->dtype);
    }
    // Outputs keep the graph's value names (layer names carry the scope); a
    // mutation is named after what it updates (ir::Graph::name_outputs).
    const ir::OutputSpec* spec = k < graph.signature.outputs.size() ? &graph.signature.outputs[k] : nullptr;
    if (spec && !spec->name.empty()) {
      std::string name = spec->name;
      while (name != t->name && (ctx.net().find_tensor(name) || ctx.net().find_layer(name))) name += ".mutated";
      if (name != t->name) ctx.net().set_tensor_name(t, name);
    } else if (const auto* ref = out.get_if<ir::TensorRef>();
               ref && ref->name != t->name && !ctx.net().find_tensor(ref->name) && !ctx.net().find_layer(ref->name)) {
      ctx.net().set_tensor_name(t, ref->name);
    }
    ctx.net().mark_output(t);
    result.outputs.push_back(t);
  }
  if (settings.mark_all_outputs) mark_node_values(ctx, graph, plan, result);
}

}  // namespace

ConvertedGraph convert_segment(const ir::Graph& graph, const SegmentPlan& plan, const ConversionSettings& settings) {
  check_plan(graph, plan);
  ConversionContext ctx(graph, settings);
  ConvertedGraph result;
  bind_graph_inputs(ctx, graph, result);
  for (std::size_t k = 0; k < plan.nodes.size(); ++k) convert_node(ctx, graph.nodes[plan.nodes[k]], plan.selections[k]);
  bind_graph_outputs(ctx, graph, plan, settings, result);
  result.network = ctx.release_network();
  return result;
}

ConversionProbe probe_conversion(const ir::Graph& graph, const std::vector<Selection>& selections,
                                 const ConversionSettings& settings) {
  if (selections.size() != graph.nodes.size()) {
    throw std::logic_error("probe_conversion got " + std::to_string(selections.size()) + " selections for " +
                           std::to_string(graph.nodes.size()) + " nodes");
  }
  ConversionProbe probe;
  probe.failures.resize(graph.nodes.size());
  ConversionContext ctx(graph, settings);
  ConvertedGraph result;
  bind_graph_inputs(ctx, graph, result);
  // Values no converter produced and no stand-in input could replace: the
  // nodes that read them are not tried (their fate is their producer's).
  std::set<std::string> missing;
  bool complete = true;
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    const ir::Node& node = graph.nodes[i];
    bool reads_missing = false;
    for (const auto& in : node.inputs) {
      ir::for_each_value(in.arg, [&](const std::string& v) { reads_missing = reads_missing || missing.count(v) > 0; });
    }
    if (!reads_missing && selections[i].chosen) {
      try {
        convert_node(ctx, node, selections[i]);
        continue;
      } catch (const UnsupportedError& e) {
        // The report names the node and op itself.
        std::string why = e.what();
        const std::string where = NodeView(graph, node).where() + ": ";
        if (why.rfind(where, 0) == 0) why.erase(0, where.size());
        probe.failures[i] = why.empty() ? "its converter failed" : why;
      }
    }
    complete = false;
    // What the node would have produced arrives from outside, as it would in
    // an engine segment fed by the fallback: tensors the graph describes
    // become network inputs, anything else is missing.
    missing.insert(node.name);
    for (const auto& out : node.outputs) {
      const auto* t = out.get_if<ir::TensorRef>();
      const ir::TensorMeta* m = t ? graph.meta(t->name) : nullptr;
      if (t && m && m->dtype && !reads_missing && !ctx.net().find_tensor(t->name) && !ctx.net().find_layer(t->name)) {
        ctx.bind(t->name, ctx.net().add_input(t->name, *m->dtype, m->static_sizes()), "");
      } else {
        ir::for_each_value(out, [&](const std::string& v) { missing.insert(v); });
      }
    }
  }
  if (complete) {
    SegmentPlan plan;
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
      plan.nodes.push_back(i);
      plan.selections.push_back(selections[i]);
    }
    bind_graph_outputs(ctx, graph, plan, settings, result);
    result.network = ctx.release_network();
    probe.converted = std::move(result);
  }
  return probe;
}

}  // namespace atenrt::conversion
