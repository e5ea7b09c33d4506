// What the data-dependent layers' shape inference and kernels share.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "atenrt/tensor.h"

namespace atenrt::network {

// Elements of `t` that are not zero (NaN counts, -0.0 does not), any dtype.
std::int64_t count_nonzero(const Tensor& t);

// torch.unique's groups of x's slices along `axis` (without one: of its
// elements), in the order torch 1.13's CPU kernels give (unique_groups.cpp:
// the flat unique's hash-set order when not `sorted`, NaN handling), or runs
// of equal neighbours when `consecutive`. Over a dim the order is always
// sorted, as torch's.
struct UniqueGroups {
  std::vector<std::int64_t> first;     // per group, its representative slice (the value)
  std::vector<std::int64_t> counts;    // per group, its slices
  std::vector<std::int64_t> group_of;  // per slice, its group (torch's inverse)
};
UniqueGroups unique_groups(const Tensor& x, bool has_axis, std::int64_t axis, bool consecutive, bool sorted);
// Why torch 1.13 has no unique of `dtype` (float16), if so.
std::optional<std::string> unique_dtype_problem(DType dtype);

}  // namespace atenrt::network
