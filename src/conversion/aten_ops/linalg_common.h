// Shared by the linear-algebra registrations (linalg.cpp, linalg_factor.cpp).
#pragma once

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "conversion/aten_ops/common.h"
#include "conversion/impl/linalg.h"

namespace atenrt::conversion::aten_ops::linalg {

using network::Dims;
using network::LinalgOp;
using network::LinalgParams;
using impl::linalg::Operand;

// The named tensor arguments are float32/float64 (LAPACK's real types) with
// static shapes of at least the given rank.
Validator real_static(std::initializer_list<std::pair<const char*, int>> args);

inline LinalgParams op(LinalgOp o) {
  LinalgParams p;
  p.op = o;
  return p;
}
inline Operand mat(NetworkTensor* x, DType t) { return {x, 2, t}; }
inline Operand vec(NetworkTensor* x, DType t) { return {x, 1, t}; }
inline Outputs all(const std::vector<NetworkTensor*>& ys) { return Outputs(ys.begin(), ys.end()); }

}  // namespace atenrt::conversion::aten_ops::linalg
