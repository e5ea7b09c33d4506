#include "api/hybrid_compile.h"

#include <algorithm>
#include <map>
#include <set>

#include "atenrt/errors.h"
#include "builder/stages.h"
#include "ir/op_schema.h"
#include "runtime/torch_policy.h"

namespace atenrt::api {
namespace {

using torch_abi::Arg;
using torch_abi::ArgKind;

using runtime::kMaxArgInt;
using runtime::kMaxSlotBytes;  // the graph's metadata sizes what torch returns, and a run checks it

// The argument as the plugin takes it; tensors get call-local indices.
struct ArgBuilder {
  const ir::Graph& graph;
  const ir::Node& node;
  std::vector<std::string> tensors;  // value names, by call index
  // The size symbols the program's input dims bind (a run knows them); an
  // int that is an expression of these becomes a run-time size.
  const std::set<std::string>* bound = nullptr;
  std::vector<runtime::SymArg> sym_args;
  std::uint32_t arg_index = 0;  // of the argument being built

  // A dynamic SymInt: a run-time size when every symbol its value's size
  // expression uses is bound.
  std::int64_t size(const std::string& arg, const ir::SymInt& value, std::int64_t element) {
    if (value.is_static()) return *value.value;
    // The argument names a symbolic value (a sym_size or _operator node's);
    // its meta holds the expression.
    const auto meta = graph.sym_int_values.find(value.name);
    const ir::SymInt& s = meta != graph.sym_int_values.end() ? meta->second : value;
    if (s.is_static()) return *s.value;
    std::set<std::string> used;
    ir::SymExpr expr;
    try {
      expr = ir::SymExpr::parse(s.name);
    } catch (const FormatError& e) {
      refuse(arg, e.what());
    }
    expr.collect_symbols(used);
    for (const auto& sym : used) {
      if (!bound || !bound->contains(sym)) {
        refuse(arg, "symbolic int '" + s.name + "' (the fallback takes sizes that the inputs' dims give, and " + sym +
                        " is not one)");
      }
    }
    sym_args.push_back({arg_index, element, expr.to_string()});
    return s.hint.value_or(0);  // replaced at run time
  }

  [[noreturn]] void refuse(const std::string& arg, const std::string& why) const {
    throw UnsupportedError(node.describe() + ": argument '" + arg + "' cannot go to the libtorch fallback: " + why);
  }
  std::int64_t tensor(const std::string& name) {
    tensors.push_back(name);
    return static_cast<std::int64_t>(tensors.size() - 1);
  }

  Arg build(const ir::NamedArgument& in) {
    Arg a;
    a.name = in.name;
    const auto& v = in.arg.value;
    if (std::holds_alternative<ir::None>(v)) {
      a.kind = ArgKind::None;
    } else if (const auto* t = std::get_if<ir::TensorRef>(&v)) {
      a.kind = ArgKind::Tensor;
      a.ints = {tensor(t->name)};
    } else if (const auto* l = std::get_if<ir::TensorList>(&v)) {
      a.kind = ArgKind::TensorList;
      for (const auto& e : *l) a.ints.push_back(tensor(e.name));
    } else if (const auto* l = std::get_if<ir::OptionalTensorList>(&v)) {
      a.kind = ArgKind::OptionalTensorList;
      for (const auto& e : *l) a.ints.push_back(e ? tensor(e->name) : -1);
    } else if (const auto* i = std::get_if<std::int64_t>(&v)) {
      a.kind = ArgKind::Int;
      a.i = *i;
    } else if (const auto* l = std::get_if<ir::IntList>(&v)) {
      a.kind = ArgKind::IntList;
      a.ints = *l;
    } else if (const auto* d = std::get_if<double>(&v)) {
      a.kind = ArgKind::Double;
      a.f = *d;
    } else if (const auto* l = std::get_if<ir::FloatList>(&v)) {
      a.kind = ArgKind::DoubleList;
      a.floats = *l;
    } else if (const auto* b = std::get_if<bool>(&v)) {
      a.kind = ArgKind::Bool;
      a.i = *b;
    } else if (const auto* l = std::get_if<ir::BoolList>(&v)) {
      a.kind = ArgKind::BoolList;
      for (bool e : *l) a.ints.push_back(e);
    } else if (const auto* s = std::get_if<std::string>(&v)) {
      a.kind = ArgKind::String;
      a.s = *s;
    } else if (const auto* s = std::get_if<ir::SymInt>(&v)) {
      a.kind = ArgKind::Int;
      a.i = size(in.name, *s, -1);
    } else if (const auto* l = std::get_if<ir::SymIntList>(&v)) {
      a.kind = ArgKind::IntList;
      for (const auto& s : *l) a.ints.push_back(size(in.name, s, static_cast<std::int64_t>(a.ints.size())));
    } else if (const auto* st = std::get_if<ir::ScalarTypeArg>(&v)) {
      if (!st->dtype) refuse(in.name, "dtype code " + std::to_string(st->code) + " is not one atenrt holds");
      a.kind = ArgKind::ScalarType;
      a.i = static_cast<std::int64_t>(*st->dtype);
    } else if (const auto* m = std::get_if<ir::MemoryFormatArg>(&v)) {
      a.kind = ArgKind::MemoryFormat;
      a.i = m->code;
    } else if (const auto* lay = std::get_if<ir::LayoutArg>(&v)) {
      if (lay->code != 7) refuse(in.name, "layout code " + std::to_string(lay->code) + " (only strided tensors)");
      a.kind = ArgKind::Layout;
      a.i = lay->code;
    } else if (const auto* dev = std::get_if<ir::DeviceArg>(&v)) {
      if (dev->type != "cpu") refuse(in.name, "device '" + dev->type + "' (the fallback runs on the CPU)");
      a.kind = ArgKind::Device;
      a.s = "cpu";
    } else {
      refuse(in.name, "a " + in.arg.kind_name() + " argument");
    }
    // Kinds that carry integers the fallback passes on: keep them sane.
    for (auto i : a.kind == ArgKind::Int ? std::vector<std::int64_t>{a.i}
                                          : (a.kind == ArgKind::IntList ? a.ints : std::vector<std::int64_t>{})) {
      if (i > kMaxArgInt || i < -kMaxArgInt) refuse(in.name, "value " + std::to_string(i) + " out of range");
    }
    return a;
  }
};

torch_abi::OpCall make_call(const ir::Node& node, ArgBuilder& builder) {
  if (node.target.ns != "aten") {
    throw UnsupportedError(node.describe() + ": only aten operators run in the libtorch fallback");
  }
  torch_abi::OpCall call;
  call.node = node.describe();
  call.op = "aten::" + node.target.name;
  call.overload = node.target.overload == "default" ? "" : node.target.overload;
  if (auto why = torch_policy::refusal(call.op, call.overload); !why.empty()) {
    throw UnsupportedError(node.describe() + ": refused by the libtorch fallback's allowlist: " + why);
  }
  const ir::OpSchema* schema = ir::find_schema(node.target.schema_name());
  for (const auto& in : node.inputs) {
    builder.arg_index = static_cast<std::uint32_t>(call.args.size());
    Arg a = builder.build(in);
    if (schema) {
      for (const auto& s : schema->arguments) {
        if (s.name == in.name && s.default_value && *s.default_value == in.arg) a.at_default = true;
      }
    }
    call.args.push_back(std::move(a));
  }
  call.num_tensors = builder.tensors.size();
  return call;
}

bool computes_sizes_only(const ir::Node& node) {
  if (node.outputs.empty()) return false;  // an assert: it must run
  for (const auto& out : node.outputs) {
    if (!out.get_if<ir::SymInt>() && !out.get_if<ir::SymBoolRef>() && !out.get_if<ir::SymFloatRef>()) return false;
  }
  return true;
}

class Planner {
 public:
  Planner(const ir::Graph& graph, const std::vector<runtime::InputRange>& input_ranges) : graph_(graph) {
    // Symbols: the inputs' ranges first, then what the archive says of the
    // rest (sizes made inside the program).
    for (const auto& r : input_ranges) {
      for (const auto& d : r.dims) {
        if (d.is_static()) continue;
        symbols_[d.symbol] = {d.min, d.max};
        opt_[d.symbol] = d.opt;
      }
    }
    for (const auto& [symbol, range] : graph.range_constraints) symbols_.emplace(symbol, range);
  }

  // The slot of a value that crosses segments or feeds a torch node.
  int slot(const std::string& name, const std::string& where) {
    if (auto it = slots_.find(name); it != slots_.end()) return it->second;
    const ir::TensorMeta* meta = graph_.meta(name);
    if (!meta) {
      throw UnsupportedError(where + ": value '" + name + "' crosses between engine and fallback segments, but only "
                             "tensors do");
    }
    if (!meta->dtype) throw UnsupportedError(where + ": value '" + name + "' has a dtype atenrt cannot hold");
    runtime::Slot s{name, *meta->dtype, {}};
    unsigned __int128 bytes = element_size(s.dtype);  // of its static dims
    for (const auto& size : meta->sizes) {
      s.dims.push_back(size.is_static() ? *size.value : -1);
      if (size.is_static()) bytes = std::min<unsigned __int128>(bytes * static_cast<std::uint64_t>(*size.value), kMaxSlotBytes + 1);
    }
    if (bytes > kMaxSlotBytes) {
      throw UnsupportedError(where + ": value '" + name + "' (" + meta->to_string() + ") is larger than 64 GiB");
    }
    const int id = static_cast<int>(program.slots.size());
    program.slots.push_back(std::move(s));
    slots_[name] = id;
    if (const Tensor* w = graph_.weight_for_value(name)) program.constants.emplace_back(id, w->contiguous());
    return id;
  }

  // A value made and read inside one torch segment: stays a torch tensor.
  int torch_only_slot(const std::string& name) {
    if (auto it = slots_.find(name); it != slots_.end()) return it->second;
    runtime::Slot s;
    s.name = name;
    s.torch_only = true;
    const int id = static_cast<int>(program.slots.size());
    program.slots.push_back(std::move(s));
    slots_[name] = id;
    return id;
  }

  // The range of a value an engine segment reads: per dynamic dim its size
  // expression's range over the symbols', and its opt from theirs.
  runtime::InputRange range_of(const std::string& name) const {
    const ir::TensorMeta* meta = graph_.meta(name);
    runtime::InputRange r;
    r.name = name;
    r.dtype = *meta->dtype;  // slot() checked both
    for (const auto& size : meta->sizes) {
      if (size.is_static()) {
        r.dims.push_back({*size.value, *size.value, *size.value, ""});
        continue;
      }
      const ir::SymExpr expr = ir::SymExpr::parse(size.name);
      const auto bounds = expr.bounds(symbols_);
      runtime::DimRange d;
      d.symbol = expr.to_string();  // equal expressions, equal sizes
      d.min = std::clamp<std::int64_t>(bounds.lo.value_or(0), 0, runtime::kMaxRangeDim);
      d.max = bounds.hi ? std::clamp<std::int64_t>(*bounds.hi, d.min, runtime::kMaxRangeDim) : runtime::kMaxRangeDim;
      std::optional<std::int64_t> opt = expr.evaluate(opt_);
      if (!opt && size.hint) opt = *size.hint;
      d.opt = std::clamp<std::int64_t>(opt.value_or(d.min), d.min, d.max);
      r.dims.push_back(std::move(d));
    }
    return r;
  }

  // A shaped segment's output may vary where the graph recorded one size
  // (data-dependent layers the trace saw once): the slot then varies too.
  void widen(int id, const std::vector<std::int64_t>& dims) {
    auto& s = program.slots[static_cast<std::size_t>(id)];
    for (std::size_t d = 0; d < s.dims.size() && d < dims.size(); ++d) {
      if (dims[d] < 0) s.dims[d] = -1;
    }
  }

  runtime::HybridProgram program;

 private:
  const ir::Graph& graph_;
  std::map<std::string, int> slots_;
  std::map<std::string, ir::SymRange> symbols_;
  std::map<std::string, std::int64_t> opt_;
};

// One engine segment as a graph of its own: the weights it reads stay
// weights, the values it reads from elsewhere become its inputs.
ir::Graph segment_graph(const ir::Graph& graph, const partition::Segment& seg) {
  ir::Graph sub;
  sub.tensor_values = graph.tensor_values;
  sub.sym_int_values = graph.sym_int_values;
  sub.sym_bool_values = graph.sym_bool_values;
  sub.sym_float_values = graph.sym_float_values;
  std::set<std::string> wanted(seg.inputs.begin(), seg.inputs.end());
  for (std::size_t k = 0; k < graph.signature.inputs.size(); ++k) {
    const auto& spec = graph.signature.inputs[k];
    if (!wanted.erase(spec.value_name)) continue;
    sub.signature.inputs.push_back(spec);
    sub.inputs.push_back(graph.inputs[k]);
    if (spec.kind == ir::InputKind::Parameter || spec.kind == ir::InputKind::Buffer ||
        spec.kind == ir::InputKind::TensorConstant) {
      if (const Tensor* w = graph.weight_for_value(spec.value_name)) sub.weights[spec.target] = *w;
    }
  }
  for (const auto& name : seg.inputs) {
    if (!wanted.contains(name)) continue;
    ir::InputSpec spec;
    spec.kind = ir::InputKind::UserInput;
    spec.value_name = name;
    sub.signature.inputs.push_back(spec);
    sub.inputs.push_back(ir::TensorRef{name});
  }
  for (auto i : seg.nodes) sub.nodes.push_back(graph.nodes[i]);
  for (const auto& name : seg.outputs) {
    sub.outputs.push_back(ir::TensorRef{name});
    sub.signature.outputs.push_back({ir::TensorRef{name}, ir::OutputKind::UserOutput, ""});
  }
  return sub;
}

}  // namespace

std::set<std::string> input_size_symbols(const ir::Graph& graph) {
  std::set<std::string> out;
  for (const auto* spec : graph.user_inputs()) {
    const ir::TensorMeta* meta = graph.meta(spec->value_name);
    if (!meta) continue;
    for (const auto& size : meta->sizes) {
      if (size.is_static()) continue;
      if (const auto expr = ir::SymExpr::parse(size.name); expr.is_symbol()) out.insert(expr.symbol);
    }
  }
  return out;
}

std::string fallback_refusal(const ir::Graph& graph, const ir::Node& node) {
  try {
    const std::set<std::string> bound = input_size_symbols(graph);
    ArgBuilder builder{graph, node, {}, nullptr, {}, 0};
    builder.bound = &bound;
    make_call(node, builder);
  } catch (const UnsupportedError& e) {
    std::string why = e.what();
    const std::string prefix = node.describe() + ": ";
    return why.rfind(prefix, 0) == 0 ? why.substr(prefix.size()) : why;
  }
  return {};
}

runtime::HybridProgram plan_hybrid(const ir::Graph& graph, const partition::Partition& partition,
                                   const std::vector<conversion::Selection>& selections,
                                   const conversion::ConversionSettings& conversion,
                                   std::vector<runtime::InputRange> input_ranges, const SegmentBuilders& build) {
  Planner planner(graph, input_ranges);
  auto& program = planner.program;
  const std::set<std::string> bound_symbols = runtime::size_symbols(input_ranges);
  program.input_ranges = std::move(input_ranges);
  // Results nothing reads get no slot: libtorch may return them in another
  // shape than the trace recorded (native_batch_norm's saved stats in eval).
  // Readers by segment: -1 for the graph's outputs.
  std::vector<int> segment_of(graph.nodes.size(), -1);
  for (std::size_t k = 0; k < partition.segments.size(); ++k) {
    for (auto i : partition.segments[k].nodes) segment_of[i] = static_cast<int>(k);
  }
  std::map<std::string, std::set<int>> readers;
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    for (const auto& in : graph.nodes[i].inputs) {
      ir::for_each_value(in.arg, [&](const std::string& v) { readers[v].insert(segment_of[i]); });
    }
  }
  for (const auto& out : graph.outputs) ir::for_each_value(out, [&](const std::string& v) { readers[v].insert(-1); });
  auto result_slot = [&](const std::string& name, std::size_t node_index) {
    auto it = readers.find(name);
    if (it == readers.end()) return -1;
    if (it->second == std::set<int>{segment_of[node_index]}) return planner.torch_only_slot(name);
    return planner.slot(name, graph.nodes[node_index].describe());
  };
  for (const auto* spec : graph.user_inputs()) {
    program.inputs.push_back(planner.slot(spec->value_name, "graph input"));
  }
  for (std::size_t k = 0; k < partition.segments.size(); ++k) {
    const auto& seg = partition.segments[k];
    const std::string where = "segment " + std::to_string(k);
    runtime::HybridStage stage;
    if (seg.target == partition::SegmentTarget::Engine) {
      stage.kind = runtime::HybridStage::Kind::Engine;
      // Slots first, so a value that cannot cross is named before conversion runs.
      for (const auto& v : seg.inputs) {
        if (!graph.weight_for_value(v)) planner.slot(v, where);
      }
      for (const auto& v : seg.outputs) planner.slot(v, where);
      const ir::Graph sub = segment_graph(graph, seg);
      conversion::SegmentPlan plan;
      for (std::size_t j = 0; j < seg.nodes.size(); ++j) {
        plan.nodes.push_back(j);
        plan.selections.push_back(selections[seg.nodes[j]]);
      }
      conversion::ConvertedGraph converted = conversion::convert_segment(sub, plan, conversion);
      // Dynamic inputs, or sizes that depend on the data: a shaped segment.
      bool shaped = builder::has_data_dependent_layers(converted.network);
      std::vector<runtime::InputRange> ranges;
      for (const auto& v : converted.input_values) {
        stage.inputs.push_back(planner.slot(v, where));
        ranges.push_back(planner.range_of(v));
        for (const auto& d : ranges.back().dims) shaped = shaped || !d.is_static();
      }
      for (const auto& v : seg.outputs) stage.outputs.push_back(planner.slot(v, where));
      if (!shaped) {
        stage.engine = build.engine(std::move(converted));
      } else {
        stage.shaped = build.shaped(std::move(converted), std::move(ranges));
        const auto outs = stage.shaped->outputs();
        for (std::size_t i = 0; i < outs.size() && i < stage.outputs.size(); ++i) planner.widen(stage.outputs[i], outs[i].dims);
      }
    } else {
      stage.kind = runtime::HybridStage::Kind::Torch;
      for (auto i : seg.nodes) {
        const ir::Node& node = graph.nodes[i];
        // A node that only computes a size (sym_size, _operator.*): torch
        // nodes take its value from its size expression at run time.
        if (computes_sizes_only(node)) continue;
        ArgBuilder builder{graph, node, {}, nullptr, {}, 0};
        builder.bound = &bound_symbols;
        runtime::TorchNode tn;
        tn.call = make_call(node, builder);
        tn.sym_args = std::move(builder.sym_args);
        for (const auto& v : builder.tensors) tn.inputs.push_back(planner.slot(v, node.describe()));
        for (const auto& out : node.outputs) {
          if (out.is_none()) {
            tn.outputs.push_back(-1);
          } else if (const auto* t = out.get_if<ir::TensorRef>()) {
            tn.outputs.push_back(result_slot(t->name, i));
          } else if (const auto* l = out.get_if<ir::TensorList>()) {
            for (const auto& e : *l) tn.outputs.push_back(result_slot(e.name, i));
          } else {
            throw UnsupportedError(node.describe() + ": returns a " + out.kind_name() +
                                   "; the libtorch fallback returns tensors only");
          }
        }
        tn.call.num_outputs = tn.outputs.size();
        stage.nodes.push_back(std::move(tn));
      }
    }
    if (stage.kind == runtime::HybridStage::Kind::Torch && stage.nodes.empty()) continue;
    program.stages.push_back(std::move(stage));
  }
  for (std::size_t k = 0; k < graph.outputs.size(); ++k) {
    const auto* t = graph.outputs[k].get_if<ir::TensorRef>();
    if (!t || graph.signature.outputs[k].kind != ir::OutputKind::UserOutput) {
      throw UnsupportedError("graph output " + std::to_string(k) + " (" + graph.outputs[k].to_string() +
                             "): a hybrid program returns user output tensors only");
    }
    program.outputs.push_back(planner.slot(t->name, "graph output"));
  }
  return std::move(program);
}

}  // namespace atenrt::api
