// Binary elementwise ops with PyTorch type promotion (tensors and wrapped
// numbers), broadcasting by the layer.
#pragma once

#include <optional>
#include <string_view>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::elementwise {

using network::ElementwiseOp;

// Base: promotes a and b to their result type and applies `op` (bool add /
// mul become or / and, as torch computes them).
NetworkTensor* arithmetic(const Scope& s, const Operand& a, const Operand& b, ElementwiseOp op);
// a + alpha * b, a - alpha * b.
NetworkTensor* add(const Scope& s, const Operand& a, const Operand& b, const Scalar& alpha);
NetworkTensor* sub(const Scope& s, const Operand& a, const Operand& b, const Scalar& alpha);
NetworkTensor* mul(const Scope& s, const Operand& a, const Operand& b);
// rounding_mode: none (true division, integers → float32), "trunc", "floor".
NetworkTensor* div(const Scope& s, const Operand& a,
                   const Operand& b, std::optional<std::string> rounding_mode = std::nullopt);
NetworkTensor* pow(const Scope& s, const Operand& a, const Operand& b);
NetworkTensor* atan2(const Scope& s, const Operand& a, const Operand& b);
// Comparisons: promote, compare, bool result.
NetworkTensor* compare(const Scope& s, const Operand& a, const Operand& b, ElementwiseOp op);
// logical_and/or/xor: any dtypes, non-zero is true, bool result.
NetworkTensor* logical(const Scope& s, const Operand& a, const Operand& b, ElementwiseOp op);
// bitwise_and/or/xor (op: And, Or or Xor): promote; bool results are the
// logical ops, integer results the bitwise layers; floats are refused.
// `out`: the result dtype when the graph records one (torch 1.13 types a bool
// Scalar as an int, so bool & True is int64 there).
NetworkTensor* bitwise(const Scope& s, const Operand& a, const Operand& b, ElementwiseOp op,
                       std::optional<DType> out = std::nullopt);
// a << b (left) or a >> b on the promoted integer dtype, with torch 1.13's
// results for counts at or past the width and negative counts (a number's
// count is reduced modulo the width here, the way the shift layer reduces a
// tensor's); bool and floats are refused.
NetworkTensor* shift(const Scope& s, const Operand& a, const Operand& b, bool left,
                     std::optional<DType> out = std::nullopt);
// clamp(x, min, max) with promotion over all three (either bound may be absent).
NetworkTensor* clamp(const Scope& s, const Operand& x,
                     const std::optional<Operand>& min, const std::optional<Operand>& max);

}  // namespace atenrt::conversion::impl::elementwise
