#include "frontend/inspect.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace atenrt::frontend {

namespace {

using nlohmann::json;


json value_json(const ir::Graph& g, const std::string& name) {
  json v = {{"name", name}};
  if (const ir::TensorMeta* m = g.meta(name)) {
    v["dtype"] = m->dtype ? std::string(dtype_name(*m->dtype)) : "code " + std::to_string(m->dtype_code);
    json shape = json::array();
    for (const auto& s : m->sizes) {
      if (s.is_static()) {
        shape.push_back(*s.value);
      } else {
        shape.push_back(s.name);
      }
    }
    v["shape"] = shape;
  } else if (g.sym_int_values.contains(name)) {
    v["dtype"] = "symint";
  } else if (g.sym_bool_values.contains(name)) {
    v["dtype"] = "symbool";
  } else if (g.sym_float_values.contains(name)) {
    v["dtype"] = "symfloat";
  }
  return v;
}

json argument_json(const ir::Graph& g, const ir::Argument& a) {
  if (auto* t = a.get_if<ir::TensorRef>()) return value_json(g, t->name);
  if (auto* s = a.get_if<ir::SymInt>(); s && !s->is_static()) return value_json(g, s->name);
  if (auto* b = a.get_if<ir::SymBoolRef>()) return value_json(g, b->name);
  if (auto* f = a.get_if<ir::SymFloatRef>()) return value_json(g, f->name);
  return json{{"value", a.to_string()}};
}

}  // namespace

nlohmann::json inspect_json(const ir::ExportedProgram& ep) {
  const ir::Graph& g = ep.graph;
  json r;
  r["producer"] = ep.info.torch_version.empty() ? "unknown" : ep.info.torch_version;
  r["schema_version"] = std::to_string(ep.info.schema_major) + "." + std::to_string(ep.info.schema_minor);
  r["layout"] = ep.info.layout;
  r["root"] = ep.info.root;
  r["verifiers"] = ep.info.verifiers;

  json inputs = json::array();
  for (std::size_t i = 0; i < g.signature.inputs.size(); ++i) {
    const auto& spec = g.signature.inputs[i];
    if (spec.kind == ir::InputKind::UserInput) {
      inputs.push_back(argument_json(g, g.inputs.at(i)));
    } else if (spec.kind == ir::InputKind::ConstantInput) {
      inputs.push_back(json{{"name", spec.value_name}, {"value", spec.constant_value.to_string()}});
    }
  }
  r["inputs"] = inputs;
  // The archive's own example inputs, by the name of the input each feeds.
  const ir::SampleInputs& sample = ep.sample_inputs;
  if (sample.entry.empty()) {
    r["sample_inputs"] = nullptr;
  } else {
    json tensors = json::array();
    std::size_t k = 0;
    for (std::size_t i = 0; i < g.signature.inputs.size() && k < sample.tensors.size(); ++i) {
      const auto* t = g.inputs.at(i).get_if<ir::TensorRef>();
      if (g.signature.inputs[i].kind != ir::InputKind::UserInput || !t) continue;
      const Tensor& x = sample.tensors[k++];
      tensors.push_back(json{{"name", t->name}, {"dtype", dtype_name(x.dtype())}, {"shape", x.sizes()}});
    }
    r["sample_inputs"] = json{{"entry", sample.entry}, {"tensors", tensors}};
    if (!sample.unavailable.empty()) r["sample_inputs"]["unavailable"] = sample.unavailable;
  }
  json outputs = json::array();
  for (std::size_t k = 0; k < g.signature.outputs.size(); ++k) {
    const ir::OutputSpec& o = g.signature.outputs[k];
    json v = argument_json(g, o.value);
    // Mutations: named after what they update (ir::Graph::name_outputs), the value kept as "value_name".
    if (!o.name.empty() && v.contains("name") && v["name"] != o.name) {
      v["value_name"] = v["name"];
      v["name"] = o.name;
    }
    if (o.kind != ir::OutputKind::UserOutput) {
      v["kind"] = ir::output_kind_name(o.kind);
      if (!o.target.empty()) v["updates"] = o.target;
    }
    outputs.push_back(v);
  }
  r["outputs"] = outputs;
  // Dynamic shapes: each size symbol's range (range_constraints); max null when unbounded.
  json ranges = json::object();
  for (const auto& [symbol, range] : g.range_constraints) {
    ranges[symbol] = json{{"min", range.min}, {"max", range.max ? json(*range.max) : json(nullptr)}};
  }
  r["dynamic_dims"] = ranges;

  // Parameters apart from buffers and constants; bytes as the tensors' own sizes.
  std::int64_t p_count = 0, p_tensors = 0, p_bytes = 0, o_tensors = 0, o_bytes = 0;
  for (const auto& spec : g.signature.inputs) {
    auto it = g.weights.find(spec.target);
    if (spec.target.empty() || it == g.weights.end()) continue;
    const Tensor& t = it->second;
    if (spec.kind == ir::InputKind::Parameter) {
      p_count += t.numel();
      p_tensors += 1;
      p_bytes += static_cast<std::int64_t>(t.nbytes());
    } else {
      o_tensors += 1;
      o_bytes += static_cast<std::int64_t>(t.nbytes());
    }
  }
  r["parameters"] = {{"count", p_count}, {"tensors", p_tensors}, {"bytes", p_bytes}};
  r["buffers_and_constants"] = {{"tensors", o_tensors}, {"bytes", o_bytes}};

  std::map<std::string, std::int64_t> hist;
  for (const auto& n : g.nodes) hist[n.target.str()] += 1;
  std::vector<std::pair<std::string, std::int64_t>> ops(hist.begin(), hist.end());
  std::stable_sort(ops.begin(), ops.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  json op_list = json::array();
  for (const auto& [op, count] : ops) op_list.push_back(json{{"op", op}, {"count", count}});
  r["ops"] = op_list;
  r["node_count"] = g.nodes.size();
  return r;
}

std::string inspect_text(const ir::ExportedProgram& ep) {
  const json r = inspect_json(ep);
  std::ostringstream out;
  auto describe = [](const json& v) {
    std::string s = v.value("name", std::string());
    if (v.contains("value")) return s + (s.empty() ? "" : " = ") + v["value"].get<std::string>();
    if (v.contains("dtype")) s += ": " + v["dtype"].get<std::string>();
    if (v.contains("shape")) {
      s += "[";
      for (std::size_t i = 0; i < v["shape"].size(); ++i) {
        const auto& d = v["shape"][i];
        s += (i ? ", " : "") + (d.is_string() ? d.get<std::string>() : std::to_string(d.get<std::int64_t>()));
      }
      s += "]";
    }
    return s;
  };
  out << "producer:        torch " << r["producer"].get<std::string>() << "\n";
  out << "schema version:  " << r["schema_version"].get<std::string>() << "\n";
  out << "layout:          " << r["layout"].get<std::string>();
  if (!ep.info.root.empty()) out << " (root '" << ep.info.root << "')";
  out << "\n";
  out << "inputs:\n";
  for (const auto& v : r["inputs"]) out << "  " << describe(v) << "\n";
  out << "outputs:\n";
  for (const auto& v : r["outputs"]) {
    out << "  " << describe(v);
    if (v.contains("updates")) out << "  (" << v["kind"].get<std::string>() << " of '" << v["updates"].get<std::string>() << "')";
    out << "\n";
  }
  if (const auto& sample = r["sample_inputs"]; sample.is_null()) {
    out << "sample inputs:   none\n";
  } else if (sample.contains("unavailable")) {
    out << "sample inputs:   " << sample["entry"].get<std::string>() << ", unusable: "
        << sample["unavailable"].get<std::string>() << "\n";
  } else {
    out << "sample inputs:   " << sample["entry"].get<std::string>() << " (run and bench use them without --inputs)\n";
    for (const auto& v : sample["tensors"]) out << "  " << describe(v) << "\n";
  }
  if (!ep.graph.range_constraints.empty()) {
    out << "dynamic dims:   ";
    for (const auto& [symbol, range] : ep.graph.range_constraints) out << " " << symbol << " in " << range.to_string();
    out << "\n";
  }
  const auto& p = r["parameters"];
  out << "parameters:      " << p["count"].get<std::int64_t>() << " in " << p["tensors"].get<std::int64_t>()
      << " tensors, " << p["bytes"].get<std::int64_t>() << " bytes\n";
  const auto& b = r["buffers_and_constants"];
  out << "buffers+consts:  " << b["tensors"].get<std::int64_t>() << " tensors, "
      << b["bytes"].get<std::int64_t>() << " bytes\n";
  out << "ops (" << r["node_count"].get<std::size_t>() << " nodes):\n";
  for (const auto& op : r["ops"]) {
    std::string count = std::to_string(op["count"].get<std::int64_t>());
    out << "  " << std::string(count.size() < 6 ? 6 - count.size() : 0, ' ') << count << "  "
        << op["op"].get<std::string>() << "\n";
  }
  return out.str();
}

}  // namespace atenrt::frontend
