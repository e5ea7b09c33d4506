// The graph signature: which graph inputs are parameters, buffers, constants
// or user inputs, and which outputs are user outputs or mutations. Two shapes
// exist: the flat maps of schema 1 (torch 2.1) and the input_specs /
// output_specs unions of every later schema (pt2_schema_history.md).
#pragma once

#include "frontend/json_util.h"
#include "ir/graph.h"

namespace atenrt::frontend {

// Reads `sig` into g.signature; g.inputs and g.outputs must be read already
// (the flat form names graph values, and both forms are checked against them).
void read_signature(const json& sig, const JsonReader& r, const std::string& path, ir::Graph& g);

}  // namespace atenrt::frontend
