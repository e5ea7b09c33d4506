// The converter registry (DESIGN.md §3, Torch-TensorRT's dynamo_tensorrt_converter).
//
// A registration is keyed on an op overload ("aten.fmod.Scalar"), carries an
// optional capability validator (yes, or no with a reason), a priority and a
// dynamic-shape flag. Several may share a key: HIGH before STANDARD, then
// registration order; the first whose validator accepts the node wins.
// Family files register themselves with ATENRT_CONVERTER from static
// registrars into the process-wide registry (function-local static).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
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
using ConverterFn = std::function<Outputs(ConversionContext&, const NodeArgs&)>;

// Options of one registration; every field has the usual default, so
// `ConverterOptions{.validator = f}` reads as the seed's keyword arguments.
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

// Adds one registration to the global registry at static-initialisation
// time. An error (a duplicate) is reported on stderr and aborts: a broken
// registry must never run.
struct Registrar {
  Registrar(std::string key, std::string family, ConverterFn convert, ConverterOptions options,
            std::string source);
};

}  // namespace atenrt::conversion

#define ATENRT_CONCAT_INNER(a, b) a##b
#define ATENRT_CONCAT(a, b) ATENRT_CONCAT_INNER(a, b)

// Registers the function body that follows for KEY in the family named by
// the file's `kFamily` constant. Options are ConverterOptions designated
// initializers:
//   ATENRT_CONVERTER("aten.relu.default", .supports_dynamic_shapes = true) {
//     return {impl::activation::relu(ctx, SourceIR::ATen, args.name(), args.tensor("self"))};
//   }
#define ATENRT_CONVERTER(KEY, ...)                                                            \
  static ::atenrt::conversion::Outputs ATENRT_CONCAT(atenrt_convert_, __LINE__)(             \
      ::atenrt::conversion::ConversionContext & ctx, const ::atenrt::conversion::NodeArgs& args); \
  static const ::atenrt::conversion::Registrar ATENRT_CONCAT(atenrt_registrar_, __LINE__){   \
      KEY, kFamily, &ATENRT_CONCAT(atenrt_convert_, __LINE__),                                \
      ::atenrt::conversion::ConverterOptions{__VA_ARGS__}, __FILE__};                         \
  static ::atenrt::conversion::Outputs ATENRT_CONCAT(atenrt_convert_, __LINE__)(             \
      [[maybe_unused]] ::atenrt::conversion::ConversionContext & ctx,                         \
      [[maybe_unused]] const ::atenrt::conversion::NodeArgs& args)

// Registers an existing converter function for one more key.
#define ATENRT_REGISTER(KEY, FN, ...)                                                       \
  static const ::atenrt::conversion::Registrar ATENRT_CONCAT(atenrt_registrar_c, __COUNTER__){ \
      KEY, kFamily, FN, ::atenrt::conversion::ConverterOptions{__VA_ARGS__}, __FILE__}
