#include "conversion/impl/index_ops.h"

#include "conversion/host_tensor.h"
#include "conversion/impl/indexing.h"

namespace atenrt::conversion::impl::index_ops {

using network::ElementwiseOp;
using network::GatherMode;
using network::ReduceOp;
using network::ScatterReduce;

namespace {

// index as int64 with negative entries counted from the end of a dim of `len`.
NetworkTensor* wrapped_index(const Scope& s, NetworkTensor* index, std::int64_t len) {
  auto* idx = cast(s, index, DType::Int64);
  auto* plus = ew(s, idx, scalar_constant(s, static_cast<double>(len), DType::Int64), ElementwiseOp::Add);
  return s.add_select("wrap", ew_scalar(s, idx, 0.0, ElementwiseOp::Less), plus, idx);
}

}  // namespace

std::optional<std::string> adds_bool_problem(DType self, bool adds) {
  if (adds && self == DType::Bool) return "adding into a bool tensor is not supported (the scatter layer adds numbers)";
  return std::nullopt;
}

NetworkTensor* index_add(const Scope& s, NetworkTensor* x, std::int64_t dim, NetworkTensor* index,
                         NetworkTensor* source, double alpha) {
  if (auto why = adds_bool_problem(x->dtype, true)) check(false, *why);
  check(index->rank() <= 1, "index_add takes a 0-d or 1-d index");
  // 0-d self/index/source work through their one-element views, as index_copy.
  const bool scalar_self = x->rank() == 0;
  auto* self = scalar_self ? reshape(s.child("self"), x, {1}) : x;
  const auto d = normalize_dim(dim, self->rank());
  auto* idx_1d = index->rank() == 0 ? reshape(s.child("index"), index, {1}) : index;
  auto* src = cast(s, source, x->dtype);
  if (src->rank() != self->rank()) {
    check(src->rank() == 0, "index_add source must have self's number of dims, or be a scalar");
    src = reshape(s.child("source"), src, Dims(static_cast<std::size_t>(self->rank()), 1));
  }
  if (alpha != 1.0) src = ew(s, src, scalar_constant(s, alpha, x->dtype), ElementwiseOp::Mul);
  Dims shape(static_cast<std::size_t>(src->rank()), 1);
  shape[static_cast<std::size_t>(d)] = idx_1d->dims[0];
  auto* idx = expand(s, reshape(s, cast(s, idx_1d, DType::Int64), shape), src->dims);
  if (!scalar_self) return s.add_scatter("", x, idx, src, d, ScatterReduce::Add);
  return reshape(s, s.add_scatter("scatter", self, idx, src, d, ScatterReduce::Add), {});
}

NetworkTensor* index_reduce(const Scope& s, NetworkTensor* x, std::int64_t dim, NetworkTensor* index,
                            NetworkTensor* source, const std::string& reduce, bool include_self) {
  check(reduce != "sum", "index_reduce reduce='sum' is not one of torch's ('prod', 'mean', 'amax', 'amin')");
  check(index->rank() <= 1, "index_reduce takes a 0-d or 1-d index");
  if (x->rank() == 0) return indexing::scatter_reduce(s, x, dim, index, source, reduce, include_self);
  const auto d = normalize_dim(dim, x->rank());
  auto* idx_1d = index->rank() == 0 ? reshape(s.child("index"), index, {1}) : index;
  check(source->rank() == x->rank(), "index_reduce source must have self's number of dims");
  Dims shape(static_cast<std::size_t>(source->rank()), 1);
  shape[static_cast<std::size_t>(d)] = idx_1d->dims[0];
  auto* idx = expand(s, reshape(s, cast(s, idx_1d, DType::Int64), shape), source->dims);
  return indexing::scatter_reduce(s, x, d, idx, source, reduce, include_self);
}

NetworkTensor* index_fill(const Scope& s, NetworkTensor* x, std::int64_t dim, NetworkTensor* index,
                          const Operand& value) {
  check(index->rank() <= 1, "index_fill takes a 0-d or 1-d index");
  const bool scalar_self = x->rank() == 0;
  auto* self = scalar_self ? reshape(s.child("self"), x, {1}) : x;
  const auto d = normalize_dim(dim, self->rank());
  const std::int64_t len = self->dims[static_cast<std::size_t>(d)];
  check(len >= 0, "index_fill needs a static size on the filled dim");
  auto* idx = reshape(s.child("index"), wrapped_index(s, index, len), {numel(static_dims(index, "index_fill")), 1});
  std::vector<std::int64_t> positions(static_cast<std::size_t>(len));
  for (std::int64_t i = 0; i < len; ++i) positions[static_cast<std::size_t>(i)] = i;
  auto* hit = ew(s, idx, s.add_constant("positions", int64_tensor({1, len}, positions)), ElementwiseOp::Equal);
  auto* mask = s.add_reduce("any", hit, ReduceOp::Any, {0}, false);  // [len]: filled positions
  Dims shape(static_cast<std::size_t>(self->rank()), 1);
  shape[static_cast<std::size_t>(d)] = len;
  mask = reshape(s.child("mask"), mask, shape);
  NetworkTensor* fill_value = value.is_scalar() ? scalar_constant(s, *value.scalar, x->dtype)
                                                : cast(s, value.tensor, x->dtype);
  if (fill_value->rank() > 0) fill_value = reshape(s.child("value"), fill_value, {});
  if (!scalar_self) return s.add_select("", mask, fill_value, x);
  return reshape(s, s.add_select("select", mask, fill_value, self), {});
}

NetworkTensor* put(const Scope& s, NetworkTensor* x, NetworkTensor* index, NetworkTensor* source, bool accumulate) {
  if (auto why = adds_bool_problem(x->dtype, accumulate)) check(false, *why);
  const std::int64_t n = numel(static_dims(x, "put"));
  const std::int64_t k = numel(static_dims(index, "put"));
  check(numel(static_dims(source, "put")) == k, "put: source and index must have as many elements");
  if (k == 0) return identity(s, x);
  auto* flat = reshape(s.child("flat"), x, {n});
  auto* idx = reshape(s.child("index"), wrapped_index(s, index, n), {k});
  auto* src = reshape(s.child("source"), cast(s, source, x->dtype), {k});
  auto* y = s.add_scatter("scatter", flat, idx, src, 0, accumulate ? ScatterReduce::Add : ScatterReduce::None);
  return s.add_reshape("", y, x->dims);
}

NetworkTensor* masked_scatter(const Scope& s, NetworkTensor* x, NetworkTensor* mask, NetworkTensor* source) {
  // The result has the shape self and mask broadcast to.
  const auto broadcast = network::broadcast_dims(static_dims(x, "masked_scatter"), static_dims(mask, "masked_scatter"));
  check(broadcast.has_value(), "masked_scatter: mask does not broadcast with self");
  const Dims dims = *broadcast;
  const std::int64_t n = numel(dims);
  const std::int64_t available = numel(static_dims(source, "masked_scatter"));
  if (n == 0) return expand(s, x, dims);
  check(available > 0, "masked_scatter with an empty source");
  x = expand(s.child("self"), x, dims);
  auto* m = reshape(s.child("mask"), expand(s, cast(s, mask, DType::Bool), dims), {n});
  // The k-th true position takes source's k-th element: k = (running count of trues) - 1.
  auto* count = s.add_cumulative("count", cast(s, m, DType::Int64), network::CumulativeOp::Sum, 0);
  auto* k = ew_scalar(s, ew_scalar(s, count, 1.0, ElementwiseOp::Sub), 0.0, ElementwiseOp::Max);
  k = ew_scalar(s, k, static_cast<double>(available - 1), ElementwiseOp::Min);
  auto* src = reshape(s.child("source"), cast(s, source, x->dtype), {available});
  auto* taken = s.add_gather("take", src, k, GatherMode::Axis, 0);
  auto* y = s.add_select("select", m, taken, reshape(s.child("flat"), x, {n}));
  return s.add_reshape("", y, dims);
}

}  // namespace atenrt::conversion::impl::index_ops
