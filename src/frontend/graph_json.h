// The serialized ExportedProgram JSON (pt2_format.md §3) → the Graph IR,
// without weights (those come from the payloads, see weights.h).
#pragma once

#include "frontend/json_util.h"
#include "ir/graph.h"

namespace atenrt::frontend {

// Fills out.graph (nodes, values, signature) and the schema/producer fields of
// out.info. Throws FormatError / UnsupportedError naming the JSON path.
void read_exported_program(const json& root, const JsonReader& r, ir::ExportedProgram& out);

// One Argument union (pt2_format.md §3.4), in any of the union encodings.
ir::Argument read_argument(const json& j, const JsonReader& r, const std::string& path);
ir::TensorMeta read_tensor_meta(const json& j, const JsonReader& r, const std::string& path);
ir::SymInt read_serde_sym_int(const json& j, const JsonReader& r, const std::string& path);

}  // namespace atenrt::frontend
