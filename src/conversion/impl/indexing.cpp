#include "conversion/impl/indexing.h"

#include <limits>

#include "conversion/host_tensor.h"

namespace atenrt::conversion::impl::indexing {

using network::ElementwiseOp;
using network::GatherMode;
using network::ScatterReduce;

NetworkTensor* take(const Scope& s, NetworkTensor* x, NetworkTensor* index) {
  const Dims& dims = static_dims(x, "take");
  const std::int64_t n = numel(dims);
  if (numel(static_dims(index, "take")) == 0) return fill(s, index->dims, 0.0, x->dtype);  // nothing to take
  auto* flat = reshape(s, x, {n});
  auto* idx = cast(s, index, DType::Int64);
  auto* wrapped = ew(s, idx, scalar_constant(s, static_cast<double>(n), DType::Int64), ElementwiseOp::Add);
  idx = s.add_select("wrap", ew_scalar(s, idx, 0.0, ElementwiseOp::Less), wrapped, idx);
  return s.add_gather("", flat, idx, GatherMode::Axis, 0);
}

std::optional<std::string> unfold_problem(std::int64_t len, std::int64_t size, std::int64_t step) {
  if (size >= 0 && step > 0 && (len < 0 || size <= len)) return std::nullopt;
  return "unfold: size " + std::to_string(size) + " and step " + std::to_string(step) + " do not fit a dim of " +
         std::to_string(len);
}

std::optional<std::string> max_unpool_problem(std::int64_t rank, std::size_t spatial) {
  const auto k = static_cast<std::int64_t>(spatial);
  if (rank < 0 || rank == k + 1 || rank == k + 2) return std::nullopt;
  return "max_unpool input must have " + std::to_string(k + 1) + " or " + std::to_string(k + 2) + " dims";
}

NetworkTensor* unfold(const Scope& s, NetworkTensor* x, std::int64_t dim, std::int64_t size, std::int64_t step) {
  if (x->rank() == 0) return reshape(s, x, {1});  // torch: a 0-d tensor unfolds to [1]
  const auto d = normalize_dim(dim, x->rank());
  const auto len = x->dims[static_cast<std::size_t>(d)];
  check(len >= 0, "unfold needs a static size on dim " + std::to_string(dim));
  if (auto why = unfold_problem(len, size, step)) check(false, *why);
  const std::int64_t windows = (len - size) / step + 1;
  std::vector<std::int64_t> idx;
  for (std::int64_t w = 0; w < windows; ++w) {
    for (std::int64_t j = 0; j < size; ++j) idx.push_back(w * step + j);
  }
  auto* gathered = s.add_gather("gather", x, s.add_constant("index", int64_tensor({windows, size}, idx)),
                                GatherMode::Axis, d);
  // [..., windows, size, ...] → the window dim last.
  Dims perm;
  for (std::int64_t a = 0; a <= x->rank(); ++a) {
    if (a != d + 1) perm.push_back(a);
  }
  perm.push_back(d + 1);
  return s.add_permute("", gathered, perm);
}

NetworkTensor* max_unpool(const Scope& s, NetworkTensor* x, NetworkTensor* indices,
                          const std::vector<std::int64_t>& output_size) {
  const Dims& dims = static_dims(x, "max_unpool");
  const auto k = static_cast<std::int64_t>(output_size.size());
  if (auto why = max_unpool_problem(x->rank(), output_size.size())) check(false, *why);
  const auto lead = x->rank() - k;  // [C] or [N, C]
  Dims lead_dims(dims.begin(), dims.begin() + lead);
  std::int64_t in_spatial = 1, out_spatial = 1;
  for (std::int64_t i = 0; i < k; ++i) {
    in_spatial *= dims[static_cast<std::size_t>(lead + i)];
    out_spatial *= output_size[static_cast<std::size_t>(i)];
  }
  Dims flat_in = lead_dims, flat_out = lead_dims, out_dims = lead_dims;
  flat_in.push_back(in_spatial);
  flat_out.push_back(out_spatial);
  out_dims.insert(out_dims.end(), output_size.begin(), output_size.end());
  auto* zeros = fill(s, flat_out, 0.0, x->dtype);
  auto* idx = reshape(s, cast(s, indices, DType::Int64), flat_in);
  auto* scattered = s.add_scatter("scatter", zeros, idx, reshape(s, x, flat_in), lead);
  return s.add_reshape("", scattered, out_dims);
}

std::optional<std::string> scatter_reduce_problem(const std::string& reduce) {
  if (reduce == "sum" || reduce == "prod" || reduce == "mean" || reduce == "amax" || reduce == "amin") return std::nullopt;
  return "scatter_reduce reduce='" + reduce + "' (one of 'sum', 'prod', 'mean', 'amax', 'amin')";
}

namespace {

// The value a reduction starts from where self is left out: its identity in x's dtype.
double reduction_identity(const std::string& reduce, DType dt) {
  if (reduce == "prod") return 1.0;
  if (reduce != "amax" && reduce != "amin") return 0.0;
  const bool low = reduce == "amax";
  if (is_floating(dt)) return low ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  switch (dt) {
    case DType::Int8: return low ? -128.0 : 127.0;
    case DType::UInt8: return low ? 0.0 : 255.0;
    case DType::Int16: return low ? -32768.0 : 32767.0;
    case DType::Int32: return low ? -2147483648.0 : 2147483647.0;
    default: return low ? -9223372036854775808.0 : 9223372036854774784.0;  // the largest double below 2^63
  }
}

ScatterReduce scatter_op(const std::string& reduce) {
  if (reduce == "prod") return ScatterReduce::Mul;
  if (reduce == "amax") return ScatterReduce::Max;
  if (reduce == "amin") return ScatterReduce::Min;
  return ScatterReduce::Add;
}

}  // namespace

NetworkTensor* scatter_reduce(const Scope& s, NetworkTensor* x, std::int64_t dim, NetworkTensor* index,
                              NetworkTensor* src, const std::string& reduce, bool include_self) {
  if (auto why = scatter_reduce_problem(reduce)) check(false, *why);
  if (x->rank() == 0) {  // torch treats 0-d self, index and src as one element
    auto one = [&](NetworkTensor* t, const char* what) { return t->rank() == 0 ? reshape(s.child(what), t, {1}) : t; };
    normalize_dim(dim, 0);
    return reshape(s, scatter_reduce(s.child("1d"), one(x, "self"), 0, one(index, "index"), one(src, "src"), reduce,
                                     include_self), {});
  }
  const auto d = normalize_dim(dim, x->rank());
  index = cast(s, index, DType::Int64);
  src = cast(s, src, x->dtype);
  if (src->dims != index->dims) {
    Dims starts(index->dims.size(), 0), steps(index->dims.size(), 1), axes;
    for (std::size_t a = 0; a < index->dims.size(); ++a) axes.push_back(static_cast<std::int64_t>(a));
    src = s.add_slice("src", src, axes, starts, index->dims, steps);
  }
  // Without self, the written positions start from the reduction's identity.
  NetworkTensor* base = x;
  if (!include_self) {
    base = s.add_scatter("reset", x, index, fill(s, index->dims, reduction_identity(reduce, x->dtype), x->dtype), d);
  }
  auto* acc = s.add_scatter(reduce == "mean" ? "sum" : "", base, index, src, d, scatter_op(reduce));
  if (reduce != "mean") return acc;
  // mean: the sum over self (when included) and the sources, divided by their count.
  const DType cdt = is_floating(x->dtype) ? x->dtype : DType::Int64;
  auto* ones = fill(s, index->dims, 1.0, cdt);
  auto* start = fill(s, x->dims, include_self ? 1.0 : 0.0, cdt);
  auto* count = s.add_scatter("count", start, index, ones, d, ScatterReduce::Add);
  auto* safe = s.add_select("nonzero", ew_scalar(s, count, 0.0, ElementwiseOp::Equal), scalar_constant(s, 1.0, cdt), count);
  auto* sum = cast(s, acc, cdt);
  auto* mean = ew(s, sum, safe, is_floating(cdt) ? ElementwiseOp::Div : ElementwiseOp::FloorDiv);
  return mean->dtype == x->dtype ? mean : cast(s, mean, x->dtype);
}

}  // namespace atenrt::conversion::impl::indexing
