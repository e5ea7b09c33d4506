// The .pt2 reader: every layout torch.export.save has written (torch 2.1 to
// today, pt2_format.md §1) → an ir::ExportedProgram with its weights bound to
// the signature. Errors are atenrt::FormatError (corrupt, hostile or unknown
// input) or atenrt::UnsupportedError (valid but beyond the IR), and name the
// file, the zip entry and, inside the graph JSON, the path/node/argument.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "frontend/zip_archive.h"
#include "ir/graph.h"

namespace atenrt::frontend {

ir::ExportedProgram load_pt2(const std::string& path, const ReadLimits& limits = {});

// The graph and the archive's sample inputs, without reading the weights
// (what `run` and `bench` need to feed a model its archive's own inputs).
ir::ExportedProgram load_pt2_graph_and_sample_inputs(const std::string& path, const ReadLimits& limits = {});

// The same from bytes in memory; `display_name` stands for the file in messages.
ir::ExportedProgram load_pt2_from_memory(const std::vector<std::byte>& bytes,
                                         const std::string& display_name,
                                         const ReadLimits& limits = {});
ir::ExportedProgram load_pt2_from_memory(const std::byte* data, std::size_t size,
                                         const std::string& display_name,
                                         const ReadLimits& limits = {});

}  // namespace atenrt::frontend
