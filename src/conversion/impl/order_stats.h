// Order statistics from a stable ascending sort (the TopK layer with k = the dim's size, NaN
// last) and a gather at a computed position: median, nanmedian, kthvalue.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::order_stats {

enum class Statistic : std::uint8_t {
  Median,     // the lower median; NaN (the first NaN's index) when the slice has one
  NanMedian,  // the lower median of the non-NaN values; NaN only when all are
  KthValue,   // the k-th smallest (NaN counts as the largest)
};

// kthvalue's k against the dim's size (< 0: not known).
std::optional<std::string> kth_problem(std::int64_t k, std::int64_t size);
// kthvalue of integers: among equal values torch's selection returns an index a stable sort does
// not reproduce, so integer inputs are refused.
std::optional<std::string> kth_dtype_problem(DType dtype);
// (values, int64 indices) along dim; the whole tensor flattened when dim is nullopt (values only
// matter then, and the result is 0-d).
std::pair<NetworkTensor*, NetworkTensor*> order_statistic(const Scope& s, NetworkTensor* x, Statistic what,
                                                          std::optional<std::int64_t> dim, bool keepdim,
                                                          std::int64_t k = 1);

}  // namespace atenrt::conversion::impl::order_stats
