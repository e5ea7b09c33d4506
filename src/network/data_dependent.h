// What the data-dependent layers' shape inference and kernels share.
#pragma once

#include <cstdint>

#include "atenrt/tensor.h"

namespace atenrt::network {

// Elements of `t` that are not zero (NaN counts, -0.0 does not), any dtype.
std::int64_t count_nonzero(const Tensor& t);

}  // namespace atenrt::network
