// The argument kinds an ATen node takes (pt2_format.md §3.4).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "atenrt/dtype.h"

namespace atenrt::ir {

// A symbolic int is either a known value or the name of a graph value
// (a sym_size output or a symbolic input).
struct SymInt {
  std::optional<std::int64_t> value;
  std::string name;  // set when value is empty: a graph value, or a size expression ("s0", "2*s0")
  std::optional<std::int64_t> hint{};  // a size expression's example value, when the archive gives one
  static SymInt of(std::int64_t v) { return SymInt{v, {}}; }
  static SymInt named(std::string n) { return SymInt{std::nullopt, std::move(n)}; }
  bool is_static() const { return value.has_value(); }
  // The same size: the hint (an example) is not part of what a size is.
  bool operator==(const SymInt& o) const { return value == o.value && name == o.name; }
};

struct None {
  bool operator==(const None&) const = default;
};
struct TensorRef {  // a tensor value of the graph, by name
  std::string name;
  bool operator==(const TensorRef&) const = default;
};
using OptionalTensorRef = std::optional<TensorRef>;
struct ScalarTypeArg {
  // nullopt for a serde ScalarType atenrt cannot hold; `code` keeps the raw value.
  std::optional<DType> dtype;
  std::int64_t code = 0;
  bool operator==(const ScalarTypeArg&) const = default;
};
struct MemoryFormatArg {
  std::int64_t code = 0;  // 0 Unknown, 1 Contiguous, 2 ChannelsLast, 3 ChannelsLast3d, 4 Preserve
  bool operator==(const MemoryFormatArg&) const = default;
};
struct LayoutArg {
  std::int64_t code = 7;  // 7 Strided
  bool operator==(const LayoutArg&) const = default;
};
struct DeviceArg {
  std::string type = "cpu";
  std::optional<std::int64_t> index;
  bool operator==(const DeviceArg&) const = default;
};
// A symbolic bool or float (a comparison of sizes, a sym_float), by the name
// of the graph value that holds it; constant ones read as plain bool / double.
struct SymBoolRef {
  std::string name;
  bool operator==(const SymBoolRef&) const = default;
};
struct SymFloatRef {
  std::string name;
  bool operator==(const SymFloatRef&) const = default;
};
class Graph;
// A subgraph argument of a higher-order op (cond's branches, a wrapper's
// body): its own inputs, nodes and outputs, closed over its operands.
struct GraphArg {
  std::string name;
  std::shared_ptr<const Graph> graph;
  bool operator==(const GraphArg& o) const { return name == o.name && graph == o.graph; }
};
// An operator passed as an argument (auto_functionalized's first): its target as written
// ("torch.ops.aten.add_.Tensor").
struct OperatorArg {
  std::string target;
  bool operator==(const OperatorArg&) const = default;
};
using IntList = std::vector<std::int64_t>;
using FloatList = std::vector<double>;
using BoolList = std::vector<bool>;
using StringList = std::vector<std::string>;
using TensorList = std::vector<TensorRef>;
using OptionalTensorList = std::vector<OptionalTensorRef>;
using SymIntList = std::vector<SymInt>;

// One value an op argument can take. Order matters only for index().
using ArgumentValue =
    std::variant<None, TensorRef, TensorList, OptionalTensorList, std::int64_t, IntList, double,
                 FloatList, bool, BoolList, std::string, StringList, SymInt, SymIntList,
                 ScalarTypeArg, MemoryFormatArg, LayoutArg, DeviceArg, SymBoolRef, SymFloatRef,
                 GraphArg, OperatorArg>;

struct Argument {
  ArgumentValue value;

  Argument() : value(None{}) {}
  template <typename T>
  Argument(T v) : value(std::move(v)) {}  // NOLINT: implicit on purpose, reads as a literal

  bool is_none() const { return std::holds_alternative<None>(value); }
  template <typename T>
  bool is() const { return std::holds_alternative<T>(value); }
  template <typename T>
  const T* get_if() const { return std::get_if<T>(&value); }
  // A short description of the kind, for error messages ("int[]", "Tensor").
  std::string kind_name() const;
  // A readable rendering, for inspect and error messages.
  std::string to_string() const;
  bool operator==(const Argument&) const = default;
};

// Calls `f(name)` for every graph value an argument refers to: tensors (in
// lists too, None entries skipped) and symbolic ints, bools and floats. The one walker every
// room uses, so a new argument kind that names values is added here once.
template <typename F>
void for_each_value(const Argument& arg, F&& f) {
  if (const auto* t = arg.get_if<TensorRef>()) f(t->name);
  if (const auto* l = arg.get_if<TensorList>()) {
    for (const auto& t : *l) f(t.name);
  }
  if (const auto* l = arg.get_if<OptionalTensorList>()) {
    for (const auto& t : *l) {
      if (t) f(t->name);
    }
  }
  if (const auto* s = arg.get_if<SymInt>(); s && !s->is_static()) f(s->name);
  if (const auto* l = arg.get_if<SymIntList>()) {
    for (const auto& s : *l) {
      if (!s.is_static()) f(s.name);
    }
  }
  if (const auto* b = arg.get_if<SymBoolRef>()) f(b->name);
  if (const auto* x = arg.get_if<SymFloatRef>()) f(x->name);
}

// Literal readers: the value written in the argument itself (never resolved
// through other nodes); nullopt when it is not a literal of that kind.
// Lowering and conversion build their typed accessors and messages on these.
std::optional<std::int64_t> literal_int(const Argument& arg);  // int or static SymInt
std::optional<double> literal_number(const Argument& arg);     // float, bool, int or static SymInt
std::optional<bool> literal_bool(const Argument& arg);
std::optional<std::string> literal_string(const Argument& arg);
// int[], a lone int, or a SymInt[] whose elements are all static.
std::optional<std::vector<std::int64_t>> literal_ints(const Argument& arg);

enum class ArgumentKind : std::uint8_t { Positional, Keyword };

struct NamedArgument {
  std::string name;
  Argument arg;
  ArgumentKind kind = ArgumentKind::Positional;
  bool operator==(const NamedArgument&) const = default;
};

}  // namespace atenrt::ir
