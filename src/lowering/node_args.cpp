#include "lowering/node_args.h"

#include "atenrt/errors.h"
#include "lowering/graph_builder.h"

namespace atenrt::lowering {

namespace {

[[noreturn]] void bad(const ir::Node& node, const std::string& name, const std::string& expected,
                      const ir::Argument& got) {
  throw FormatError(node.describe() + ", argument '" + name + "': expected " + expected + ", got " +
                    got.kind_name() + " " + got.to_string());
}

}  // namespace

const ir::Argument& arg(const ir::Node& node, const std::string& name) {
  const ir::Argument* a = node.input(name);
  if (!a) throw FormatError(node.describe() + ": argument '" + name + "' is missing");
  return *a;
}

std::string tensor_arg(const ir::Node& node, const std::string& name) {
  const auto& a = arg(node, name);
  if (auto* t = a.get_if<ir::TensorRef>()) return t->name;
  bad(node, name, "a tensor", a);
}

std::optional<std::string> opt_tensor_arg(const ir::Node& node, const std::string& name) {
  const ir::Argument* a = node.input(name);
  if (!a || a->is_none()) return std::nullopt;
  if (auto* t = a->get_if<ir::TensorRef>()) return t->name;
  bad(node, name, "a tensor or None", *a);
}

double scalar_arg(const ir::Node& node, const std::string& name) {
  const auto& a = arg(node, name);
  if (auto v = ir::literal_number(a)) return *v;
  bad(node, name, "a number", a);
}

std::optional<double> opt_scalar_arg(const ir::Node& node, const std::string& name) {
  const ir::Argument* a = node.input(name);
  if (!a || a->is_none()) return std::nullopt;
  return scalar_arg(node, name);
}

std::int64_t int_arg(const ir::Node& node, const std::string& name) {
  const auto& a = arg(node, name);
  if (auto v = ir::literal_int(a)) return *v;
  if (auto b = ir::literal_bool(a)) return *b ? 1 : 0;
  bad(node, name, "an int", a);
}

std::optional<std::int64_t> opt_int_arg(const ir::Node& node, const std::string& name) {
  const ir::Argument* a = node.input(name);
  if (!a || a->is_none()) return std::nullopt;
  if (auto* d = a->get_if<double>()) {  // Scalar? correction written as a float
    if (*d == static_cast<double>(static_cast<std::int64_t>(*d))) return static_cast<std::int64_t>(*d);
    bad(node, name, "an integral value", *a);
  }
  return int_arg(node, name);
}

bool bool_arg(const ir::Node& node, const std::string& name) {
  const auto& a = arg(node, name);
  if (auto b = ir::literal_bool(a)) return *b;
  if (auto* i = a.get_if<std::int64_t>()) return *i != 0;
  bad(node, name, "a bool", a);
}

std::vector<std::int64_t> int_list_arg(const ir::Node& node, const std::string& name) {
  const auto& a = arg(node, name);
  if (auto v = ir::literal_ints(a)) return *v;
  if (auto* l = a.get_if<ir::SymIntList>()) {
    for (const auto& s : *l) {
      if (!s.value) throw Decline{"argument '" + name + "' has a symbolic element '" + s.name + "'"};
    }
  }
  bad(node, name, "a list of ints", a);
}

std::optional<std::vector<std::int64_t>> opt_int_list_arg(const ir::Node& node, const std::string& name) {
  const ir::Argument* a = node.input(name);
  if (!a || a->is_none()) return std::nullopt;
  return int_list_arg(node, name);
}

std::optional<DType> opt_dtype_arg(const ir::Node& node, const std::string& name) {
  const ir::Argument* a = node.input(name);
  if (!a || a->is_none()) return std::nullopt;
  if (auto* s = a->get_if<ir::ScalarTypeArg>()) {
    if (!s->dtype) {
      throw UnsupportedError(node.describe() + ", argument '" + name + "': scalar type code " +
                             std::to_string(s->code) + " is not supported");
    }
    return s->dtype;
  }
  bad(node, name, "a ScalarType or None", *a);
}

std::optional<std::string> opt_string_arg(const ir::Node& node, const std::string& name) {
  const ir::Argument* a = node.input(name);
  if (!a || a->is_none()) return std::nullopt;
  if (auto s = ir::literal_string(*a)) return s;
  bad(node, name, "a string", *a);
}

std::vector<std::string> output_values(const ir::Node& node) {
  std::vector<std::string> out;
  for (const auto& o : node.outputs) {
    if (auto* t = o.get_if<ir::TensorRef>()) out.push_back(t->name);
    if (auto* l = o.get_if<ir::TensorList>()) {
      for (const auto& t : *l) out.push_back(t.name);
    }
  }
  return out;
}

}  // namespace atenrt::lowering
