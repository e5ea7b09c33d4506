// Linear algebra (network::LinalgParams layers on LAPACK): the batch
// broadcasting PyTorch's linalg functions do before the layer, and the
// un-broadcasting of outputs that PyTorch computes on one operand's batch.
#pragma once

#include <vector>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::linalg {

// One input of a LinearAlgebra layer: a tensor with `core` trailing non-batch
// dims (2 for matrices, 1 for pivots and tau, 0 for per-matrix tolerances),
// cast to `dtype`.
struct Operand {
  NetworkTensor* x;
  int core;
  DType dtype;
};

// Adds the layer over the inputs with their batch dims broadcast to a
// common batch (returned in `batch` when not null).
std::vector<NetworkTensor*> layer(const Scope& s, const network::LinalgParams& p, std::vector<Operand> inputs,
                                  Dims* batch = nullptr);

// An output `y` computed over the broadcast `batch` reduced to `target`
// batch dims (each entry of target is 1 or batch's; missing leading dims are
// dropped): the broadcast copies are equal, so the first one is taken.
NetworkTensor* unbroadcast(const Scope& s, NetworkTensor* y, const Dims& batch, const Dims& target);

// The batch dims of x (all but its last `core` dims).
Dims batch_of(const NetworkTensor* x, int core);

// The identity matrix [n, m] of `dtype` (aten.eye).
NetworkTensor* eye(const Scope& s, std::int64_t n, std::int64_t m, DType dtype);

}  // namespace atenrt::conversion::impl::linalg
