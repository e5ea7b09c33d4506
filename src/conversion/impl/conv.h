// Convolution and transposed convolution (1-3 spatial dims).
#pragma once

#include <string_view>
#include <vector>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::conv {

// torch.convolution: list arguments may have one entry (applied to every
// spatial dim) or one per spatial dim. bias may be null.
NetworkTensor* convolution(const Scope& s, NetworkTensor* x,
                           NetworkTensor* weight, NetworkTensor* bias, std::vector<std::int64_t> stride,
                           std::vector<std::int64_t> padding, std::vector<std::int64_t> dilation, bool transposed,
                           std::vector<std::int64_t> output_padding, std::int64_t groups);

// Repeats a one-entry list to `n` entries; checks the length otherwise.
Dims per_spatial(std::vector<std::int64_t> v, std::size_t n, std::string_view what);

}  // namespace atenrt::conversion::impl::conv
