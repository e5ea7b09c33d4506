// Random tensors, drawn once at conversion time from a seed derived from the
// node's name (as Torch-TensorRT's evaluators do): every run of the engine
// sees the same values, which PyTorch does not.
#pragma once

#include <cstdint>
#include <vector>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::random {

// U[0, 1) values of `size`.
Tensor uniform(const Scope& s, const std::vector<std::int64_t>& size, DType dtype);
// N(0, 1) values of `size`.
Tensor normal(const Scope& s, const std::vector<std::int64_t>& size, DType dtype);
// A permutation of 0 .. n-1 (n >= 0).
Tensor permutation(const Scope& s, std::int64_t n, DType dtype);

}  // namespace atenrt::conversion::impl::random
