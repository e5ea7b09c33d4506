// Math ops composed of reductions, scans and matmuls: angle (real), renorm, logcumsumexp and
// _euclidean_dist (cdist's matmul form).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::math_composites {

// torch.angle of a real tensor: 0 for x >= 0, pi below, NaN kept (integers → float32).
NetworkTensor* angle(const Scope& s, NetworkTensor* x);
// renorm's limits: a positive p and a non-negative maxnorm.
std::optional<std::string> renorm_problem(double p, double maxnorm);
// Each slice along dim scaled to p-norm <= maxnorm (factor maxnorm / (norm + 1e-7)).
NetworkTensor* renorm(const Scope& s, NetworkTensor* x, double p, std::int64_t dim, double maxnorm);
// log(cumsum(exp(x))) along dim, shifted by each slice's maximum and computed in float64.
NetworkTensor* logcumsumexp(const Scope& s, NetworkTensor* x, std::int64_t dim);
// histc's limits: bins > 0 and min <= max.
std::optional<std::string> histc_problem(std::int64_t bins, double min, double max);
// torch.histc: counts of x's elements in `bins` equal bins over [min, max] (min == max: x's own
// range, widened by 1 each way when that is one value), elements outside left out.
NetworkTensor* histc(const Scope& s, NetworkTensor* x, std::int64_t bins, double min, double max);
// torch.cummax / cummin along dim: (values, int64 indices). Later equal values win the index and
// a NaN, once seen, stays (its last occurrence's index), as torch's loop does; computed as a
// log-step scan of (value, index) pairs.
std::pair<NetworkTensor*, NetworkTensor*> cumulative_extreme(const Scope& s, NetworkTensor* x, std::int64_t dim, bool max);
// aten._trilinear (F.bilinear): each input with size-1 dims inserted at its expand positions, the
// three multiplied (broadcast) and summed over sumdim.
NetworkTensor* trilinear(const Scope& s, NetworkTensor* a, NetworkTensor* b, NetworkTensor* c,
                         const std::vector<std::int64_t>& expand_a, const std::vector<std::int64_t>& expand_b,
                         const std::vector<std::int64_t>& expand_c, const std::vector<std::int64_t>& sumdim);
// sqrt(max(|a|^2 + |b|^2 - 2 a.b, 1e-30)) between the rows of x1 [.., n, d] and x2 [.., m, d].
NetworkTensor* euclidean_dist(const Scope& s, NetworkTensor* x1, NetworkTensor* x2);

}  // namespace atenrt::conversion::impl::math_composites
