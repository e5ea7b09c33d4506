// Tensors made from numbers: full/zeros/ones (folded to host tensors when
// small), *_like fills (at run time when the shape is dynamic), arange.
// Each op's limits are a function of its decoded arguments, so the
// validator (on literal arguments) and the converter check the same rule.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::creation {

// Fills up to this many elements fold to a host tensor; bigger ones become a
// Fill layer.
inline constexpr std::int64_t kMaxFolded = 4096;

// Why `size` cannot be a tensor's size (a negative dim), or nullopt.
std::optional<std::string> size_problem(const std::vector<std::int64_t>& size);

// A tensor of `size` holding `value` as `dtype`.
Value full(const Scope& s, const std::vector<std::int64_t>& size, const Scalar& value, DType dtype);
// Same, for a size list whose elements may be known only at run time (0-d
// integer network tensors: item() -> a size, a dynamic size): a Fill layer
// over the sizes gathered into a shape tensor.
Value full_sized(const Scope& s, const Value& size, const Scalar& value, DType dtype);
// A tensor shaped like x holding `value` as `dtype` (a Fill layer over x's
// run-time shape when x has a dynamic dim).
Value full_like(const Scope& s, NetworkTensor* x, const Scalar& value, DType dtype);

// arange(start, end, step), decoded.
struct ArangeArgs {
  Scalar start = Scalar::of_int(0);
  Scalar end = Scalar::of_int(0);
  Scalar step = Scalar::of_int(1);
  // torch's default dtype: int64 when every bound is an integer, else float32.
  DType default_dtype() const;
  // The element count, or why there is none (step 0, too many elements).
  std::optional<std::int64_t> count(std::string* why) const;
};
// The values of arange (a host tensor); throws UnsupportedError for what
// ArangeArgs::count refuses.
Tensor arange(const ArangeArgs& a, DType dtype);
// arange whose end is known at run time only (`end`, a 0-d integer network
// tensor: a dynamic size such as sym_size(x, 1)), with integer start and
// step: a Fill(Iota) layer of max(ceil((end - start) / step), 0) elements.
NetworkTensor* arange_to(const Scope& s, std::int64_t start, NetworkTensor* end, std::int64_t step, DType dtype);

}  // namespace atenrt::conversion::impl::creation
