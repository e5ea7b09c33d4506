// Resize taps with torch's coordinate rules (upsample_* kernels in ATen),
// shared by the reference resize and our own CPU kernel.
#pragma once

#include <cstddef>
#include <cstdint>

#include "network/layers.h"

namespace atenrt::reference::detail {

// One output coordinate's taps along one dim: source indices and weights.
struct Taps {
  std::int64_t index[4];
  double weight[4];
  int count;
};

// Taps of output coordinate `o` along spatial dim `d` (in → out elements).
Taps taps_for(const network::ResizeParams& p, std::size_t d, std::int64_t o, std::int64_t in, std::int64_t out);

}  // namespace atenrt::reference::detail
