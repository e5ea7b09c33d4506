#include "conversion/registry.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "atenrt/errors.h"
#include "ir/log.h"

namespace atenrt::conversion {
namespace {

std::string foreign_dtype_name(std::int64_t serde_code) {
  switch (serde_code) {
    case 9: return "complex32";
    case 10: return "complex64";
    case 11: return "complex128";
    default: return "with serde code " + std::to_string(serde_code);
  }
}

// Network tensors hold atenrt's dtypes only, so a node that takes, names or makes another one
// (complex, ...) is refused before any converter is asked, with the same reason for every op.
std::optional<std::string> foreign_dtype(const NodeView& node) {
  const auto why = [](const std::string& what, std::int64_t code) {
    return what + " has dtype " + foreign_dtype_name(code) + ", which atenrt engines do not support";
  };
  for (const auto& in : node.node().inputs) {
    if (const auto* s = in.arg.get_if<ir::ScalarTypeArg>(); s && !s->dtype) {
      return why("argument '" + in.name + "'", s->code);
    }
    std::optional<std::string> found;
    ir::for_each_value(in.arg, [&](const std::string& v) {
      const ir::TensorMeta* m = node.graph().meta(v);
      if (!found && m && !m->dtype) found = why("argument '" + in.name + "'", m->dtype_code);
    });
    if (found) return found;
  }
  for (std::size_t i = 0; i < node.node().outputs.size(); ++i) {
    std::optional<std::string> found;
    ir::for_each_value(node.node().outputs[i], [&](const std::string& v) {
      const ir::TensorMeta* m = node.graph().meta(v);
      if (!found && m && !m->dtype) found = why("output " + std::to_string(i), m->dtype_code);
    });
    if (found) return found;
  }
  return std::nullopt;
}

}  // namespace

const char* priority_name(Priority p) { return p == Priority::High ? "high" : "standard"; }

std::string Selection::reason() const {
  std::string out;
  for (const auto& r : refusals) out += (out.empty() ? "" : "; ") + r;
  return out;
}

ConverterRegistry& ConverterRegistry::global() {
  static ConverterRegistry registry;
  return registry;
}

void ConverterRegistry::add(ConverterRegistration registration) {
  if (registration.key.empty()) throw Error("converter registration from " + registration.source + " has an empty key");
  if (!registration.convert) {
    throw Error("converter registration for " + registration.key + " from " + registration.source +
                " has no function");
  }
  for (const auto& e : entries_) {
    if (e->key == registration.key && e->options.priority == registration.options.priority &&
        e->family == registration.family) {
      throw Error("duplicate converter for " + registration.key + " at " +
                  priority_name(registration.options.priority) + " priority in family '" +
                  registration.family + "' (first from " + e->source + ", again from " +
                  registration.source + "); register an override at high priority or from another family");
    }
  }
  registration.order = entries_.size();
  entries_.push_back(std::make_unique<ConverterRegistration>(std::move(registration)));
}

std::vector<const ConverterRegistration*> ConverterRegistry::candidates(std::string_view key) const {
  std::vector<const ConverterRegistration*> out;
  for (const auto& e : entries_) {
    if (e->key == key && e->options.enabled) out.push_back(e.get());
  }
  std::stable_sort(out.begin(), out.end(), [](const auto* a, const auto* b) {
    return static_cast<int>(a->options.priority) < static_cast<int>(b->options.priority);
  });
  return out;
}

std::vector<std::string> lookup_keys(const ir::OpName& target) {
  std::vector<std::string> keys{target.str()};
  // torch 1.13 tracing can leave an overload packet (aten.sym_size): its
  // default overload is the one called.
  if (target.overload.empty() && target.ns != "operator" && target.ns != "_operator" &&
      target.ns != "math" && target.ns != "torch") {
    keys.push_back(target.ns + "." + target.name + ".default");
  }
  return keys;
}

Selection ConverterRegistry::select(const NodeView& node, const ConversionSettings& settings) const {
  Selection sel;
  if (auto why = foreign_dtype(node)) {
    sel.refusals.push_back(*why);
    return sel;
  }
  bool any = false;
  for (const auto& key : lookup_keys(node.node().target)) {
    for (const auto* reg : candidates(key)) {
      any = true;
      if (reg->options.validator) {
        Capability c;
        try {
          c = reg->options.validator(node, settings);
        } catch (const std::exception& e) {
          c = Capability::no(std::string("validator failed: ") + e.what());
        }
        if (!c.ok) {
          sel.refusals.push_back(reg->family + " converter: " + c.reason);
          continue;
        }
      }
      // After the validator, whose reason is more specific.
      if (!reg->options.supports_dynamic_shapes && !settings.assume_dynamic_shape_support &&
          node.has_dynamic_shapes()) {
        sel.refusals.push_back(reg->family + " converter: does not support dynamic shapes");
        continue;
      }
      sel.chosen = reg;
      return sel;
    }
  }
  if (!any) sel.refusals.push_back("no converter is registered for " + node.target());
  return sel;
}

std::vector<const ConverterRegistration*> ConverterRegistry::all() const {
  std::vector<const ConverterRegistration*> out;
  for (const auto& e : entries_) out.push_back(e.get());
  std::stable_sort(out.begin(), out.end(), [](const auto* a, const auto* b) {
    if (a->key != b->key) return a->key < b->key;
    return static_cast<int>(a->options.priority) < static_cast<int>(b->options.priority);
  });
  return out;
}

Registrar::Registrar(const Family& family, const Keys& keys, ConverterFn convert, RegisterOptions options,
                     std::string source) {
  try {
    if (keys.list.empty()) throw Error("converter registration from " + source + " lists no key");
    const ConverterOptions resolved{options.validator, options.priority,
                                    options.supports_dynamic_shapes.value_or(family.supports_dynamic_shapes),
                                    options.enabled};
    for (const auto& key : keys.list) {
      ConverterRegistry::global().add({key, family.name, convert, resolved, source, 0});
    }
  } catch (const std::exception& e) {
    // A broken registration is a bug in the library: say so through the log, then stop.
    log(LogLevel::Error, std::string("fatal: ") + e.what());
    std::abort();
  }
}

}  // namespace atenrt::conversion
