// The oneDNN side of WeightPacks (cpu/weight_packs.h).
#pragma once

#include "runtime/cpu/onednn/compat.h"
#include "runtime/cpu/weight_packs.h"

namespace atenrt::runtime::cpu::onednn {

// Constant `t` (whose plain layout is `have`) as memory in layout `want`:
// the engine's pack when there is one (read in place from a mapped file when
// stored in exactly that layout), else packed now. Without `packs` (no
// engine store) it is packed now and owned by the returned memory.
dnnl::memory packed_weight(WeightPacks* packs, const ProgramTensor& t, const compat::md_t& have,
                           const compat::md_t& want);

}  // namespace atenrt::runtime::cpu::onednn
