// Max / average pooling, fixed windows and adaptive.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::pool {

// kernel has one entry per spatial dim (or one for all); an empty stride
// means stride = kernel (torch's default).
NetworkTensor* max_pool(const Scope& s, NetworkTensor* x,
                        std::size_t spatial, std::vector<std::int64_t> kernel, std::vector<std::int64_t> stride,
                        std::vector<std::int64_t> padding, std::vector<std::int64_t> dilation, bool ceil_mode);
NetworkTensor* avg_pool(const Scope& s, NetworkTensor* x,
                        std::size_t spatial, std::vector<std::int64_t> kernel, std::vector<std::int64_t> stride,
                        std::vector<std::int64_t> padding, bool ceil_mode, bool count_include_pad,
                        std::optional<std::int64_t> divisor_override);
NetworkTensor* adaptive_pool(const Scope& s, NetworkTensor* x,
                             std::size_t spatial, std::vector<std::int64_t> output_size, network::PoolingOp op);

}  // namespace atenrt::conversion::impl::pool
