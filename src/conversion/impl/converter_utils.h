// Helpers every family uses: type promotion (PyTorch rules, wrapped numbers
// included), casts, constants, dim normalisation, reshape/expand.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "conversion/context.h"
#include "conversion/scope.h"
#include "network/network.h"

namespace atenrt::conversion::impl {

using network::Dims;
using network::NetworkTensor;

// torch.promote_types over atenrt's dtypes.
DType promote_types(DType a, DType b);
// The dtype a number takes as a wrapped number (float32, int64 or bool).
DType scalar_dtype(const Scalar& s);
// torch.result_type over tensors (dimensioned and 0-d) and wrapped numbers.
DType result_type(std::span<const Operand> operands);
DType result_type(const Operand& a, const Operand& b);

// x as `to` (x itself when it already is).
NetworkTensor* cast(const Scope& s, NetworkTensor* x, DType to);
// An operand as a tensor of `dtype` (numbers become 0-d constants).
NetworkTensor* as_tensor(const Scope& s, const Operand& x, DType dtype);
// A constant of `dtype` holding `v` (0-d, or `rank` dims of 1).
NetworkTensor* scalar_constant(const Scope& s, double v, DType dtype, int rank = 0);
NetworkTensor* scalar_constant(const Scope& s, const Scalar& v, DType dtype, int rank = 0);
// A new layer that copies x (a graph output must not be an input).
NetworkTensor* identity(const Scope& s, NetworkTensor* x);

// dim in [-rank, rank) → [0, rank); rank 0 accepts -1 and 0 (as torch).
// Throws UnsupportedError saying which dim and rank.
std::int64_t normalize_dim(std::int64_t dim, std::int64_t rank);
// Why `dim` names no dim of a tensor of `rank` (a 0-d tensor takes -1 and 0),
// or nullopt: normalize_dim's rule, for validators (aten_ops::dim_in_range).
std::optional<std::string> dim_problem(std::int64_t dim, std::int64_t rank);
Dims normalize_dims(const std::vector<std::int64_t>& dims, std::int64_t rank);
// normalize_dims' rule: every dim in range, none twice.
std::optional<std::string> dims_problem(const std::vector<std::int64_t>& dims, std::int64_t rank);
// Dims of x; throws UnsupportedError when one is dynamic and `why` needs it static.
const Dims& static_dims(const NetworkTensor* x, std::string_view why);
std::int64_t numel(const Dims& dims);
// A list argument with one entry per spatial dim (kernel, stride, padding...):
// a lone entry repeats to `n`; nullopt when the length is neither 1 nor n.
std::optional<Dims> per_spatial(std::vector<std::int64_t> v, std::size_t n);

NetworkTensor* reshape(const Scope& s, NetworkTensor* x, Dims dims);
NetworkTensor* permute(const Scope& s, NetworkTensor* x, Dims perm);
NetworkTensor* unsqueeze(const Scope& s, NetworkTensor* x, std::int64_t dim);
// Broadcasts x to `dims` (torch.expand semantics: -1 keeps a dim; new dims
// are prepended). Works for any dtype.
NetworkTensor* expand(const Scope& s, NetworkTensor* x, const Dims& dims);
// A tensor of `dims` filled with `value`.
NetworkTensor* fill(const Scope& s, const Dims& dims, double value, DType dtype);
// Python slice on one axis.
NetworkTensor* slice_axis(const Scope& s, NetworkTensor* x, std::int64_t axis,
                     std::int64_t start, std::int64_t end, std::int64_t step = 1);
NetworkTensor* concat(const Scope& s, std::vector<NetworkTensor*> xs, std::int64_t axis);

// Elementwise helper without promotion (inputs already of one dtype).
NetworkTensor* ew(const Scope& s, NetworkTensor* a, NetworkTensor* b, network::ElementwiseOp op);
// a op scalar, with the scalar in a's dtype.
NetworkTensor* ew_scalar(const Scope& s, NetworkTensor* a, double value, network::ElementwiseOp op);

// Throws UnsupportedError "<what>: <why>" when `ok` is false.
void check(bool ok, const std::string& message);

}  // namespace atenrt::conversion::impl
