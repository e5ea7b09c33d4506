// What a dynamic engine's specializations ask of their shared weight packs
// (runtime::SharedWeightPacks, engine.h) beyond making engines with them.
#pragma once

#include <cstddef>

#include "atenrt/tensor.h"
#include "runtime/engine.h"

namespace atenrt::runtime {

// A dynamic engine holds each weight once (builder/plain_weights.h): whether
// the plain bytes of `constant` (contiguous, as its engines' programs hold
// it) can be written again from its packs in `packs` (every kernel made so
// far reads a pack, and one was reordered from it losslessly), and writing
// them back into its own bytes. The store's packs, in bytes.
bool plain_rebuildable(const SharedWeightPacks& packs, const Tensor& constant);
void rebuild_plain(const SharedWeightPacks& packs, const Tensor& constant);
std::size_t packed_bytes(const SharedWeightPacks& packs);

}  // namespace atenrt::runtime
