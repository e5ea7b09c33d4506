// The public extension API (include/atenrt/extension.h) over the converter
// room: a plugin's ConverterSpec becomes registrations whose validator and
// converter see atenrt::NodeInfo / atenrt::ConverterContext implemented over
// NodeView, Scope and NodeArgs.
#pragma once

#include <string>
#include <vector>

#include "atenrt/extension.h"
#include "conversion/registry.h"

namespace atenrt::conversion {

// One registration per key of `spec`, in family `family` (the plugin's name),
// `source` naming the plugin file in messages. Throws atenrt::Error when the
// spec has no key, no converter, or a key that is not an op overload.
std::vector<ConverterRegistration> registrations_of(const atenrt::ConverterSpec& spec, const std::string& family,
                                                    const std::string& source);

}  // namespace atenrt::conversion
