#include "frontend/signature_json.h"

#include <map>
#include <set>

#include "atenrt/errors.h"
#include "frontend/graph_json.h"

namespace atenrt::frontend {

namespace {

// A TensorArgument {"name": n}. Some writers wrap it as an Argument
// ({"as_tensor": {"name": n}}); both read.
std::string tensor_argument(const json& j, const JsonReader& r, const std::string& path) {
  r.object(j, path);
  if (!j.contains("name") && j.contains("as_tensor")) {
    return r.string(r.at(r.at(j, "as_tensor", path), "name", path + ".as_tensor"),
                    path + ".as_tensor.name");
  }
  return r.string(r.at(j, "name", path), path + ".name");
}

// The graph value an input/output argument names ("" for constants).
std::string value_name(const ir::Argument& a) {
  if (auto* t = a.get_if<ir::TensorRef>()) return t->name;
  if (auto* s = a.get_if<ir::SymInt>(); s && !s->is_static()) return s->name;
  if (auto* b = a.get_if<ir::SymBoolRef>()) return b->name;
  if (auto* f = a.get_if<ir::SymFloatRef>()) return f->name;
  return "";
}

ir::InputSpec input_spec(const json& j, const JsonReader& r, const std::string& q) {
  auto [key, vp] = r.union_member(j, q);
  const json& v = r.object(*vp, q + "." + key);
  const std::string p = q + "." + key;
  ir::InputSpec spec;
  auto named_arg = [&]() { return tensor_argument(r.at(v, "arg", p), r, p + ".arg"); };
  if (key == "user_input") {
    spec.kind = ir::InputKind::UserInput;
    ir::Argument a = read_argument(r.at(v, "arg", p), r, p + ".arg");
    spec.value_name = value_name(a);
    if (spec.value_name.empty()) spec.constant_value = a;  // a constant user input (e.g. an int)
  } else if (key == "parameter") {
    spec.kind = ir::InputKind::Parameter;
    spec.value_name = named_arg();
    spec.target = r.string(r.at(v, "parameter_name", p), p + ".parameter_name");
  } else if (key == "buffer") {
    spec.kind = ir::InputKind::Buffer;
    spec.value_name = named_arg();
    spec.target = r.string(r.at(v, "buffer_name", p), p + ".buffer_name");
    // Absent before schema 5: the reader then looks in both weights and constants.
    if (const json* per = r.find(v, "persistent", p)) spec.persistent = r.boolean(*per, p + ".persistent");
  } else if (key == "tensor_constant") {
    spec.kind = ir::InputKind::TensorConstant;
    spec.value_name = named_arg();
    spec.target = r.string(r.at(v, "tensor_constant_name", p), p + ".tensor_constant_name");
  } else if (key == "constant_input") {
    spec.kind = ir::InputKind::ConstantInput;
    spec.value_name = r.string(r.at(v, "name", p), p + ".name");
    spec.constant_value = read_argument(r.at(v, "value", p), r, p + ".value");
  } else if (key == "custom_obj") {
    r.unsupported(p, "custom object (torchbind) inputs are not supported: atenrt cannot run "
                     "TorchScript classes");
  } else if (key == "token") {
    r.unsupported(p, "effect-token inputs are not supported: they order side-effecting ops "
                     "(with_effects), which atenrt does not run");
  } else {
    r.unsupported(p, "unknown input spec kind '" + key + "'");
  }
  return spec;
}

ir::OutputSpec output_spec(const json& j, const JsonReader& r, const std::string& q) {
  auto [key, vp] = r.union_member(j, q);
  const json& v = r.object(*vp, q + "." + key);
  const std::string p = q + "." + key;
  ir::OutputSpec spec;
  auto mutation = [&](ir::OutputKind kind, const char* target_field) {
    spec.kind = kind;
    spec.value = ir::TensorRef{tensor_argument(r.at(v, "arg", p), r, p + ".arg")};
    spec.target = r.string(r.at(v, target_field, p), p + "." + target_field);
  };
  if (key == "user_output") {
    spec.value = read_argument(r.at(v, "arg", p), r, p + ".arg");
  } else if (key == "buffer_mutation") {
    mutation(ir::OutputKind::BufferMutation, "buffer_name");
  } else if (key == "user_input_mutation") {
    mutation(ir::OutputKind::UserInputMutation, "user_input_name");
  } else if (key == "parameter_mutation") {
    mutation(ir::OutputKind::ParameterMutation, "parameter_name");
  } else if (key == "loss_output") {
    spec.kind = ir::OutputKind::LossOutput;
    spec.value = ir::TensorRef{tensor_argument(r.at(v, "arg", p), r, p + ".arg")};
  } else if (key == "gradient_to_parameter" || key == "gradient_to_user_input") {
    r.unsupported(p, "joint forward-backward graphs (" + key + ") are not supported: atenrt "
                     "compiles inference programs");
  } else if (key == "token") {
    r.unsupported(p, "effect-token outputs are not supported: they order side-effecting ops "
                     "(with_effects), which atenrt does not run");
  } else {
    r.unsupported(p, "unknown output spec kind '" + key + "'");
  }
  return spec;
}

std::map<std::string, std::string> string_map(const json& sig, const char* key, const JsonReader& r,
                                              const std::string& path) {
  std::map<std::string, std::string> out;
  if (const json* m = r.find(sig, key, path)) {
    r.object(*m, path + "." + key);
    for (auto it = m->begin(); it != m->end(); ++it) {
      out[it.key()] = r.string(it.value(), path + "." + key + "." + it.key());
    }
  }
  return out;
}

std::vector<std::string> string_list(const json& sig, const char* key, const JsonReader& r,
                                     const std::string& path) {
  std::vector<std::string> out;
  if (const json* l = r.find(sig, key, path)) {
    r.array(*l, path + "." + key);
    for (std::size_t i = 0; i < l->size(); ++i) {
      out.push_back(r.string((*l)[i], path + "." + key + "[" + std::to_string(i) + "]"));
    }
  }
  return out;
}

// Schema 1 (torch 2.1): maps from placeholder names to fqns. Graph outputs
// are the mutated buffers' new values first, then the user outputs.
void read_flat_signature(const json& sig, const JsonReader& r, const std::string& path, ir::Graph& g) {
  const auto params = string_map(sig, "inputs_to_parameters", r, path);
  const auto buffers = string_map(sig, "inputs_to_buffers", r, path);
  const auto mutated = string_map(sig, "buffers_to_mutate", r, path);
  const auto user_inputs = string_list(sig, "user_inputs", r, path);
  const auto user_outputs = string_list(sig, "user_outputs", r, path);
  if (r.find(sig, "backward_signature", path)) {
    r.unsupported(path + ".backward_signature",
                  "joint forward-backward graphs are not supported: atenrt compiles inference programs");
  }
  const std::set<std::string> users(user_inputs.begin(), user_inputs.end());
  std::set<std::string> seen;
  for (std::size_t i = 0; i < g.inputs.size(); ++i) {
    ir::InputSpec spec;
    spec.value_name = value_name(g.inputs[i]);
    const std::string& n = spec.value_name;
    if (auto it = params.find(n); it != params.end()) {
      spec.kind = ir::InputKind::Parameter;
      spec.target = it->second;
    } else if (auto b = buffers.find(n); b != buffers.end()) {
      spec.kind = ir::InputKind::Buffer;
      spec.target = b->second;
    } else if (users.contains(n)) {
      spec.kind = ir::InputKind::UserInput;
    } else {
      r.fail(path, "graph input " + std::to_string(i) + " ('" + n +
                       "') is neither a parameter, a buffer nor a user input");
    }
    seen.insert(n);
    g.signature.inputs.push_back(std::move(spec));
  }
  for (const auto* m : {&params, &buffers}) {
    for (const auto& [name, fqn] : *m) {
      if (!seen.contains(name)) r.fail(path, "'" + fqn + "' is bound to '" + name + "', which is not a graph input");
    }
  }
  if (user_outputs.size() + mutated.size() != g.outputs.size()) {
    r.fail(path, "lists " + std::to_string(mutated.size()) + " buffer mutations and " +
                     std::to_string(user_outputs.size()) + " user outputs for " +
                     std::to_string(g.outputs.size()) + " graph outputs");
  }
  for (std::size_t i = 0; i < g.outputs.size(); ++i) {
    ir::OutputSpec spec;
    spec.value = g.outputs[i];
    const std::string n = value_name(g.outputs[i]);
    if (i < mutated.size()) {
      auto it = mutated.find(n);
      if (it == mutated.end()) {
        r.fail(path + ".buffers_to_mutate", "graph output " + std::to_string(i) + " ('" + n +
                                                "') should be a mutated buffer's new value");
      }
      spec.kind = ir::OutputKind::BufferMutation;
      spec.target = it->second;
    } else if (!n.empty() && user_outputs[i - mutated.size()] != n) {
      r.fail(path + ".user_outputs", "names '" + user_outputs[i - mutated.size()] +
                                         "' but graph output " + std::to_string(i) + " is '" + n + "'");
    }
    g.signature.outputs.push_back(std::move(spec));
  }
}

}  // namespace

void read_signature(const json& sig, const JsonReader& r, const std::string& path, ir::Graph& g) {
  r.object(sig, path);
  if (!sig.contains("input_specs") && !sig.contains("output_specs") &&
      (sig.contains("inputs_to_parameters") || sig.contains("user_inputs"))) {
    read_flat_signature(sig, r, path, g);
    return;
  }
  const json& ins = r.array(r.at(sig, "input_specs", path), path + ".input_specs");
  for (std::size_t i = 0; i < ins.size(); ++i) {
    g.signature.inputs.push_back(input_spec(ins[i], r, path + ".input_specs[" + std::to_string(i) + "]"));
  }
  const json& outs = r.array(r.at(sig, "output_specs", path), path + ".output_specs");
  for (std::size_t i = 0; i < outs.size(); ++i) {
    g.signature.outputs.push_back(output_spec(outs[i], r, path + ".output_specs[" + std::to_string(i) + "]"));
  }
  // Graph inputs and outputs are 1:1 with the specs and name the same values.
  if (g.inputs.size() != g.signature.inputs.size()) {
    r.fail("$.graph_module", "graph has " + std::to_string(g.inputs.size()) +
                                 " inputs but the signature lists " +
                                 std::to_string(g.signature.inputs.size()));
  }
  if (g.outputs.size() != g.signature.outputs.size()) {
    r.fail("$.graph_module", "graph has " + std::to_string(g.outputs.size()) +
                                 " outputs but the signature lists " +
                                 std::to_string(g.signature.outputs.size()));
  }
  for (std::size_t i = 0; i < g.inputs.size(); ++i) {
    const auto& spec = g.signature.inputs[i];
    if (spec.kind == ir::InputKind::ConstantInput) continue;
    const std::string name = value_name(g.inputs[i]);
    if (!spec.value_name.empty() && name != spec.value_name) {
      r.fail(path + ".input_specs[" + std::to_string(i) + "]",
             "names '" + spec.value_name + "' but graph input " + std::to_string(i) + " is '" + name + "'");
    }
  }
  for (std::size_t i = 0; i < g.outputs.size(); ++i) {
    const auto& spec = g.signature.outputs[i];
    if (spec.kind == ir::OutputKind::UserOutput) continue;
    const std::string name = value_name(g.outputs[i]);
    if (name != value_name(spec.value)) {
      r.fail(path + ".output_specs[" + std::to_string(i) + "]",
             "names '" + value_name(spec.value) + "' but graph output " + std::to_string(i) + " is '" +
                 name + "'");
    }
  }
}

}  // namespace atenrt::frontend
