// The converter registry (DESIGN.md §3, Torch-TensorRT's dynamo_tensorrt_converter).
//
// A registration is keyed on an op overload ("aten.fmod.Scalar"), carries an
// optional capability validator (yes, or no with a reason), a priority and a
// dynamic-shape flag. Several may share a key: HIGH before STANDARD, then
// registration order; the first whose validator accepts the node wins.
// Family files register themselves with ATENRT_CONVERTER from static
// registrars into the process-wide registry (function-local static); one
// registration may serve several keys, each listed on its own.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "conversion/settings.h"
#include "conversion/value.h"
#include "ir/node_view.h"

namespace atenrt::conversion {

class ConversionContext;
class NodeArgs;
// A validator's view of the node and its answer; decomposition validators
// use the same two (ir/node_view.h).
using ir::Capability;
using ir::NodeView;

enum class Priority : std::uint8_t { High, Standard };
const char* priority_name(Priority p);

using Validator = std::function<Capability(const NodeView&, const ConversionSettings&)>;
class Scope;
// A converter: the scope of the node (network, names, source IR) and its
// arguments in, one Value per node output back.
using ConverterFn = std::function<Outputs(const Scope&, const NodeArgs&)>;

// Options of one registration as the registry keeps them (dynamic-shape
// support resolved against the family's default).
struct ConverterOptions {
  Validator validator = {};  // empty: always yes
  Priority priority = Priority::Standard;
  bool supports_dynamic_shapes = false;
  bool enabled = true;
};

struct ConverterRegistration {
  std::string key;      // "aten.add.Tensor"
  std::string family;   // "elementwise", "evaluator", or a user's own
  ConverterFn convert;
  ConverterOptions options;
  std::string source;   // file that registered it, for messages
  std::size_t order = 0;  // registration order within the registry
};

// Which registration takes a node, and why each other candidate did not.
struct Selection {
  const ConverterRegistration* chosen = nullptr;
  std::vector<std::string> refusals;  // "<family> converter: <reason>"
  // One line: the refusals joined, or "no converter is registered for <key>".
  std::string reason() const;
};

class ConverterRegistry {
 public:
  // The process-wide registry that ATENRT_CONVERTER fills.
  static ConverterRegistry& global();

  // Throws atenrt::Error on a second registration of the same key, priority
  // and family (a different family, e.g. a user's override, may share both).
  void add(ConverterRegistration registration);

  // Candidates for `key`, in the order they are tried (disabled ones left out).
  std::vector<const ConverterRegistration*> candidates(std::string_view key) const;
  // Picks the converter for a node: key = its target (an overload-less aten
  // target also tries ".default"), then priority, validators and the
  // dynamic-shape flag.
  Selection select(const NodeView& node, const ConversionSettings& settings) const;
  // Every registration, sorted by key, then in trial order.
  std::vector<const ConverterRegistration*> all() const;
  std::size_t size() const { return entries_.size(); }

 private:
  std::vector<std::unique_ptr<ConverterRegistration>> entries_;
};

// Keys that select() tries for a node target, most specific first.
std::vector<std::string> lookup_keys(const ir::OpName& target);

// A family of converters ("activation", "elementwise", a user's own): its
// name, and the defaults its registrations share.
struct Family {
  const char* name;
  bool supports_dynamic_shapes = false;
};

// What an author writes after the keys: ConverterOptions, with
// supports_dynamic_shapes left to the family unless given.
struct RegisterOptions {
  Validator validator = {};
  Priority priority = Priority::Standard;
  std::optional<bool> supports_dynamic_shapes = {};
  bool enabled = true;
};

// The op overloads one registration serves: one key, or several
// (`keys("aten.add.Tensor", "aten.add.Scalar")`).
struct Keys {
  std::vector<std::string> list;
  Keys(const char* key) : list{key} {}  // NOLINT: implicit, a lone key reads as itself
  Keys(std::vector<std::string> keys) : list(std::move(keys)) {}  // NOLINT
};
template <typename... K>
Keys keys(K... k) {
  return Keys(std::vector<std::string>{std::string(k)...});
}

// Adds one registration per key to the global registry at static-
// initialisation time. An error (a duplicate) is logged (ir/log.h) and
// aborts: a broken registry must never run.
struct Registrar {
  Registrar(const Family& family, const Keys& keys, ConverterFn convert, RegisterOptions options,
            std::string source);
};

}  // namespace atenrt::conversion

#define ATENRT_CONCAT_INNER(a, b) a##b
#define ATENRT_CONCAT(a, b) ATENRT_CONCAT_INNER(a, b)

// Registers the function whose parameter list and body follow for KEYS
// (a key or keys(...)) in FAMILY (a Family). Options are RegisterOptions
// designated initializers:
//   ATENRT_CONVERTER(kActivation, "aten.relu.default")(const Scope& s, const NodeArgs& args) {
//     return one(impl::activation::relu(s, args.tensor("self")));
//   }
#define ATENRT_CONVERTER(FAMILY, KEYS, ...)                                                        \
  static ::atenrt::conversion::Outputs ATENRT_CONCAT(atenrt_convert_, __LINE__)(                  \
      const ::atenrt::conversion::Scope&, const ::atenrt::conversion::NodeArgs&);                 \
  static const ::atenrt::conversion::Registrar ATENRT_CONCAT(atenrt_registrar_, __LINE__){        \
      FAMILY, KEYS, &ATENRT_CONCAT(atenrt_convert_, __LINE__),                                     \
      ::atenrt::conversion::RegisterOptions{__VA_ARGS__}, __FILE__};                               \
  static ::atenrt::conversion::Outputs ATENRT_CONCAT(atenrt_convert_, __LINE__)

// Registers an existing converter function for KEYS.
#define ATENRT_REGISTER(FAMILY, KEYS, FN, ...)                                                     \
  static const ::atenrt::conversion::Registrar ATENRT_CONCAT(atenrt_registrar_c, __COUNTER__){     \
      FAMILY, KEYS, FN, ::atenrt::conversion::RegisterOptions{__VA_ARGS__}, __FILE__}
