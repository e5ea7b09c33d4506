// The `atenrt inspect` report of a loaded .pt2: producer, schema and layout,
// inputs/outputs with shapes and dtypes, parameter count and bytes, and the
// op histogram. The CLI prints it; the report itself is built here.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "ir/graph.h"

namespace atenrt::frontend {

nlohmann::json inspect_json(const ir::ExportedProgram& ep);
std::string inspect_text(const ir::ExportedProgram& ep);

}  // namespace atenrt::frontend
