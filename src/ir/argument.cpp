#include "ir/argument.h"

#include <sstream>

namespace atenrt::ir {
namespace {

template <typename... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <typename... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

std::string sym_to_string(const SymInt& s) {
  return s.value ? std::to_string(*s.value) : s.name;
}

template <typename T, typename F>
std::string join(const std::vector<T>& items, F&& render) {
  std::ostringstream out;
  out << '[';
  for (std::size_t i = 0; i < items.size(); ++i) out << (i ? ", " : "") << render(items[i]);
  out << ']';
  return out.str();
}

std::string float_to_string(double v) {
  std::ostringstream out;
  out.precision(9);
  out << v;
  return out.str();
}

}  // namespace

std::string Argument::kind_name() const {
  return std::visit(
      Overloaded{
          [](const None&) -> std::string { return "None"; },
          [](const TensorRef&) -> std::string { return "Tensor"; },
          [](const TensorList&) -> std::string { return "Tensor[]"; },
          [](const OptionalTensorList&) -> std::string { return "Tensor?[]"; },
          [](const std::int64_t&) -> std::string { return "int"; },
          [](const IntList&) -> std::string { return "int[]"; },
          [](const double&) -> std::string { return "float"; },
          [](const FloatList&) -> std::string { return "float[]"; },
          [](const bool&) -> std::string { return "bool"; },
          [](const BoolList&) -> std::string { return "bool[]"; },
          [](const std::string&) -> std::string { return "str"; },
          [](const StringList&) -> std::string { return "str[]"; },
          [](const SymInt&) -> std::string { return "SymInt"; },
          [](const SymIntList&) -> std::string { return "SymInt[]"; },
          [](const ScalarTypeArg&) -> std::string { return "ScalarType"; },
          [](const MemoryFormatArg&) -> std::string { return "MemoryFormat"; },
          [](const LayoutArg&) -> std::string { return "Layout"; },
          [](const DeviceArg&) -> std::string { return "Device"; },
          [](const SymBoolRef&) -> std::string { return "SymBool"; },
          [](const SymFloatRef&) -> std::string { return "SymFloat"; },
          [](const GraphArg&) -> std::string { return "Graph"; },
          [](const OperatorArg&) -> std::string { return "Operator"; },
      },
      value);
}

std::string Argument::to_string() const {
  return std::visit(
      Overloaded{
          [](const None&) -> std::string { return "None"; },
          [](const TensorRef& t) { return "%" + t.name; },
          [](const TensorList& l) { return join(l, [](const TensorRef& t) { return "%" + t.name; }); },
          [](const OptionalTensorList& l) {
            return join(l, [](const OptionalTensorRef& t) {
              return t ? "%" + t->name : std::string("None");
            });
          },
          [](const std::int64_t& v) { return std::to_string(v); },
          [](const IntList& l) { return join(l, [](std::int64_t v) { return std::to_string(v); }); },
          [](const double& v) { return float_to_string(v); },
          [](const FloatList& l) { return join(l, float_to_string); },
          [](const bool& v) -> std::string { return v ? "True" : "False"; },
          [](const BoolList& l) {
            return join(l, [](bool v) { return std::string(v ? "True" : "False"); });
          },
          [](const std::string& s) { return "'" + s + "'"; },
          [](const StringList& l) { return join(l, [](const std::string& s) { return "'" + s + "'"; }); },
          [](const SymInt& s) { return sym_to_string(s); },
          [](const SymIntList& l) { return join(l, sym_to_string); },
          [](const ScalarTypeArg& s) {
            return s.dtype ? std::string(dtype_name(*s.dtype))
                           : "ScalarType(" + std::to_string(s.code) + ")";
          },
          [](const MemoryFormatArg& m) { return "MemoryFormat(" + std::to_string(m.code) + ")"; },
          [](const LayoutArg& l) { return "Layout(" + std::to_string(l.code) + ")"; },
          [](const DeviceArg& d) {
            return d.type + (d.index ? ":" + std::to_string(*d.index) : std::string());
          },
          [](const SymBoolRef& b) { return "%" + b.name; },
          [](const SymFloatRef& f) { return "%" + f.name; },
          [](const GraphArg& g) { return "graph(" + g.name + ")"; },
          [](const OperatorArg& o) { return "operator(" + o.target + ")"; },
      },
      value);
}

std::optional<std::int64_t> literal_int(const Argument& arg) {
  if (const auto* i = arg.get_if<std::int64_t>()) return *i;
  if (const auto* s = arg.get_if<SymInt>()) return s->value;
  return std::nullopt;
}

std::optional<double> literal_number(const Argument& arg) {
  if (const auto* d = arg.get_if<double>()) return *d;
  if (const auto* b = arg.get_if<bool>()) return *b ? 1.0 : 0.0;
  if (auto i = literal_int(arg)) return static_cast<double>(*i);
  return std::nullopt;
}

std::optional<bool> literal_bool(const Argument& arg) {
  if (const auto* b = arg.get_if<bool>()) return *b;
  return std::nullopt;
}

std::optional<std::string> literal_string(const Argument& arg) {
  if (const auto* s = arg.get_if<std::string>()) return *s;
  return std::nullopt;
}

std::optional<std::vector<std::int64_t>> literal_ints(const Argument& arg) {
  if (const auto* l = arg.get_if<IntList>()) return *l;
  if (const auto* i = arg.get_if<std::int64_t>()) return std::vector<std::int64_t>{*i};
  if (const auto* l = arg.get_if<SymIntList>()) {
    std::vector<std::int64_t> out;
    for (const auto& s : *l) {
      if (!s.value) return std::nullopt;
      out.push_back(*s.value);
    }
    return out;
  }
  return std::nullopt;
}

}  // namespace atenrt::ir
