// Max pooling that also returns the argmax indices (max_pool*d_with_indices, adaptive_max_pool*d
// with the indices used): each window's elements gathered by a constant table of flat spatial
// indices, reduced by max and argmax, the argmax mapped back through the table.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "conversion/impl/pool.h"

namespace atenrt::conversion::impl::pool {

// (values, int64 indices into each input plane's flattened spatial dims), as torch. Needs static
// spatial dims.
std::pair<NetworkTensor*, NetworkTensor*> max_pool_with_indices(const Scope& s, NetworkTensor* x, const PoolArgs& a);

// im2col's limits: two entries per list, positive kernel, dilation and stride, padding >= 0.
std::optional<std::string> im2col_problem(const std::vector<std::int64_t>& kernel, const std::vector<std::int64_t>& dilation,
                                          const std::vector<std::int64_t>& padding, const std::vector<std::int64_t>& stride);
// torch's im2col (nn.functional.unfold): [N, C, H, W] (or [C, H, W]) to [N, C*kh*kw, L], each
// sliding window's elements (zeros in the padding) as a column, gathered by a constant table.
NetworkTensor* im2col(const Scope& s, NetworkTensor* x, const std::vector<std::int64_t>& kernel,
                      const std::vector<std::int64_t>& dilation, const std::vector<std::int64_t>& padding,
                      const std::vector<std::int64_t>& stride);

}  // namespace atenrt::conversion::impl::pool
