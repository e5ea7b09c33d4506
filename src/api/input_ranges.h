// The ranges of an archive's user inputs, from its symbolic sizes and
// range_constraints narrowed by CompileSettings::input_shapes.
#pragma once

#include <string>
#include <vector>

#include "atenrt/settings.h"
#include "builder/dynamic_engine.h"
#include "ir/graph.h"

namespace atenrt::api {

struct InputInfo {
  std::string name;  // the graph value (engine input) name
  DType dtype = DType::Float32;
};

// One InputRange per input, in the given order. Static dims are static
// ranges; a symbolic dim takes its symbol's range: the archive's
// range_constraints (min; max, which must be bounded by the archive or the
// settings), narrowed by min_shapes/max_shapes, opt from opt_shapes or the
// example size. Throws SettingsError for a name that is not an input, a
// rank that differs, a static dim given another size, two dims of one
// symbol given different sizes, a range outside the archive's or empty, and
// an unbounded max with no max given; UnsupportedError for an input dim
// that is an expression rather than a symbol.
std::vector<builder::InputRange> input_ranges(const ir::Graph& graph, const std::vector<InputInfo>& inputs,
                                              const CompileSettings& settings);

// Whether every dim has min == max (a static engine serves it).
bool is_pinned(const std::vector<builder::InputRange>& ranges);

}  // namespace atenrt::api
