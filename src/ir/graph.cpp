#include "ir/graph.h"

#include <set>
#include <sstream>

#include "atenrt/errors.h"

namespace atenrt::ir {

std::vector<std::int64_t> TensorMeta::static_sizes() const {
  std::vector<std::int64_t> out;
  out.reserve(sizes.size());
  for (const auto& s : sizes) out.push_back(s.value.value_or(-1));
  return out;
}

bool TensorMeta::is_static() const {
  for (const auto& s : sizes) {
    if (!s.is_static()) return false;
  }
  return true;
}

std::string TensorMeta::to_string() const {
  std::ostringstream out;
  out << (dtype ? std::string(dtype_name(*dtype)) : "dtype(" + std::to_string(dtype_code) + ")");
  out << '[';
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    out << (i ? ", " : "") << (sizes[i].value ? std::to_string(*sizes[i].value) : sizes[i].name);
  }
  out << ']';
  return out.str();
}

OpName OpName::parse(const std::string& target) {
  std::string t = target;
  constexpr std::string_view kTorchOps = "torch.ops.";
  if (t.starts_with(kTorchOps)) t = t.substr(kTorchOps.size());
  if (t.starts_with("_operator.")) t = "operator." + t.substr(std::string_view("_operator.").size());
  OpName op;
  const auto first = t.find('.');
  if (first == std::string::npos) {
    op.name = t;
    return op;
  }
  op.ns = t.substr(0, first);
  const auto rest = t.substr(first + 1);
  // ATen-style namespaces carry an overload; Python operators do not.
  const bool has_overload = op.ns == "aten" || op.ns == "prims" || op.ns == "higher_order" ||
                            op.ns == "quantized_decomposed";
  const auto last = rest.rfind('.');
  if (has_overload && last != std::string::npos) {
    op.name = rest.substr(0, last);
    op.overload = rest.substr(last + 1);
  } else {
    op.name = rest;
  }
  return op;
}

std::string OpName::str() const {
  std::string s = ns.empty() ? name : ns + "." + name;
  if (!overload.empty()) s += "." + overload;
  return s;
}

std::string OpName::schema_name() const {
  std::string s = ns + "::" + name;
  if (!overload.empty() && overload != "default") s += "." + overload;
  return s;
}

const Argument* Node::input(const std::string& arg_name) const {
  for (const auto& a : inputs) {
    if (a.name == arg_name) return &a.arg;
  }
  return nullptr;
}

const char* input_kind_name(InputKind kind) {
  switch (kind) {
    case InputKind::UserInput: return "user_input";
    case InputKind::Parameter: return "parameter";
    case InputKind::Buffer: return "buffer";
    case InputKind::TensorConstant: return "tensor_constant";
    case InputKind::ConstantInput: return "constant_input";
  }
  return "unknown";
}

const char* output_kind_name(OutputKind kind) {
  switch (kind) {
    case OutputKind::UserOutput: return "user_output";
    case OutputKind::BufferMutation: return "buffer_mutation";
    case OutputKind::UserInputMutation: return "user_input_mutation";
    case OutputKind::ParameterMutation: return "parameter_mutation";
    case OutputKind::LossOutput: return "loss_output";
  }
  return "unknown";
}

void Graph::name_outputs() {
  std::set<std::string> taken;
  for (const auto& in : inputs) for_each_value(in, [&](const std::string& v) { taken.insert(v); });
  for (const auto& n : nodes) {
    for (const auto& out : n.outputs) for_each_value(out, [&](const std::string& v) { taken.insert(v); });
  }
  for (std::size_t k = 0; k < signature.outputs.size() && k < outputs.size(); ++k) {
    OutputSpec& spec = signature.outputs[k];
    const bool mutation = spec.kind == OutputKind::BufferMutation || spec.kind == OutputKind::ParameterMutation ||
                          spec.kind == OutputKind::UserInputMutation;
    if (!mutation || spec.target.empty()) {
      if (const auto* t = outputs[k].get_if<TensorRef>()) taken.insert(t->name);
      continue;
    }
    std::string name = spec.kind == OutputKind::UserInputMutation ? spec.target + ".mutated" : spec.target;
    while (taken.contains(name)) name += ".mutated";
    taken.insert(spec.name = name);
  }
}

std::string Graph::output_name(std::size_t k) const {
  if (k < signature.outputs.size() && !signature.outputs[k].name.empty()) return signature.outputs[k].name;
  if (k < outputs.size()) {
    if (const auto* t = outputs[k].get_if<TensorRef>()) return t->name;
  }
  return "output_" + std::to_string(k);
}

const TensorMeta* Graph::meta(const std::string& value_name) const {
  auto it = tensor_values.find(value_name);
  return it == tensor_values.end() ? nullptr : &it->second;
}

const Tensor* Graph::weight_for_value(const std::string& value_name) const {
  for (const auto& spec : signature.inputs) {
    if (spec.value_name != value_name || spec.kind == InputKind::UserInput ||
        spec.kind == InputKind::ConstantInput) {
      continue;
    }
    auto it = weights.find(spec.target);
    return it == weights.end() ? nullptr : &it->second;
  }
  return nullptr;
}

bool Graph::has_dynamic_inputs() const {
  for (const auto* spec : user_inputs()) {
    const TensorMeta* m = meta(spec->value_name);
    if (m && !m->is_static()) return true;
  }
  return false;
}

std::vector<const InputSpec*> Graph::user_inputs() const {
  std::vector<const InputSpec*> out;
  for (const auto& spec : signature.inputs) {
    if (spec.kind == InputKind::UserInput) out.push_back(&spec);
  }
  return out;
}

void Graph::validate() const {
  if (inputs.size() != signature.inputs.size()) {
    throw FormatError("graph has " + std::to_string(inputs.size()) + " inputs but the signature lists " +
                      std::to_string(signature.inputs.size()));
  }
  validate_body();
}

void Graph::validate_body() const {
  std::set<std::string> defined;
  auto define = [&](const std::string& name, const std::string& where) {
    if (!defined.insert(name).second) {
      throw FormatError(where + ": value '" + name + "' is defined twice");
    }
  };
  for (const auto& in : inputs) {
    for_each_value(in, [&](const std::string& n) { define(n, "graph input"); });
  }
  for (const auto& node : nodes) {
    const std::string where = node.describe();
    for (const auto& a : node.inputs) {
      for_each_value(a.arg, [&](const std::string& n) {
        if (!defined.contains(n)) {
          throw FormatError(where + ", argument '" + a.name + "': value '" + n +
                            "' is used before it is defined");
        }
      });
    }
    for (const auto& out : node.outputs) {
      for_each_value(out, [&](const std::string& n) { define(n, where); });
    }
  }
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    for_each_value(outputs[i], [&](const std::string& n) {
      if (!defined.contains(n)) {
        throw FormatError("graph output " + std::to_string(i) + ": value '" + n + "' is never defined");
      }
    });
  }
}

}  // namespace atenrt::ir
