// The stages behind atenrt::compile, for callers that already hold an
// ExportedProgram (tests that build graphs by hand, tools).
#pragma once

#include "atenrt/atenrt.h"
#include "conversion/context.h"
#include "frontend/zip_archive.h"
#include "ir/graph.h"
#include "lowering/settings.h"

namespace atenrt::api {

// Lowering settings that compile() uses for `settings` (the converter
// registry answers has_converter).
lowering::LoweringSettings lowering_settings(const CompileSettings& settings);

// Lowers, partitions, converts and builds `program`. `lowering` replaces the
// lowering settings derived from `settings` when given.
Engine compile_program(ir::ExportedProgram program, const CompileSettings& settings,
                       CompileReport* report = nullptr,
                       const lowering::LoweringSettings* lowering = nullptr);

// Lowers, partitions and converts `program` into one network, as
// compile_program does before building; UnsupportedError (with the dry-run
// report) when the graph would need the libtorch fallback.
conversion::ConvertedGraph convert_program(ir::ExportedProgram& program, const CompileSettings& settings);

// What the reader may hold for `settings` (the memory limit).
frontend::ReadLimits reader_limits(const CompileSettings& settings);

}  // namespace atenrt::api
