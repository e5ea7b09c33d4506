// The example inputs an archive carries (pt2_format.md §1): a torch.save of
// `(args, kwargs)` in <root>/data/sample_inputs/<model>.pt (torch >= 2.8) or
// serialized_example_inputs.pt (legacy zips), read by the restricted pickle
// reader: no code runs, only tensor rebuilds.
#pragma once

#include <string>

#include "frontend/zip_archive.h"
#include "ir/graph.h"

namespace atenrt::frontend {

// Fills ep.sample_inputs from `entry` when the archive has it. They are never
// needed to compile, so nothing here throws: a hostile or unreadable entry
// (forbidden globals such as torch's FakeTensor hook, sizes past a storage, a
// dtype atenrt lacks) or one that does not match the graph's tensor user
// inputs (count, dtype, static sizes) leaves the reason, naming the file and
// the entry, in `unavailable`; `run` and `bench` report it when asked to use
// them.
void read_sample_inputs(const ZipArchive& zip, const std::string& entry, const ReadLimits& limits,
                        ByteBudget& budget, ir::ExportedProgram& ep);

}  // namespace atenrt::frontend
