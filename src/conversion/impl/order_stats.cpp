#include "conversion/impl/order_stats.h"

namespace atenrt::conversion::impl::order_stats {

using network::ElementwiseOp;
using network::GatherMode;
using network::ReduceOp;
using network::UnaryOp;

std::optional<std::string> kth_problem(std::int64_t k, std::int64_t size) {
  if (k < 1 || (size >= 0 && k > size)) {
    return "kthvalue: k = " + std::to_string(k) + " is out of range for a dim of " + std::to_string(size);
  }
  return std::nullopt;
}

std::optional<std::string> kth_dtype_problem(DType dtype) {
  if (is_floating(dtype)) return std::nullopt;
  return "kthvalue of " + std::string(dtype_name(dtype)) + ": which of equal values' indices torch returns is not reproduced";
}

std::pair<NetworkTensor*, NetworkTensor*> order_statistic(const Scope& s, NetworkTensor* x, Statistic what,
                                                          std::optional<std::int64_t> dim, bool keepdim,
                                                          std::int64_t k) {
  check(x->dtype != DType::Bool, "order statistics of bool tensors are not supported");
  const Dims& dims = static_dims(x, "median");
  NetworkTensor* in = x;
  std::int64_t d = 0;
  if (!dim) {
    in = reshape(s.child("flat"), x, {numel(dims)});
  } else if (x->rank() == 0) {
    normalize_dim(*dim, 1);
    in = reshape(s.child("1d"), x, {1});
  } else {
    d = normalize_dim(*dim, x->rank());
  }
  const std::int64_t n = in->dims[static_cast<std::size_t>(d)];
  check(n > 0, "the order statistic of an empty dim is not defined");
  if (what == Statistic::KthValue) {
    if (auto why = kth_problem(k, n)) check(false, *why);
    if (auto why = kth_dtype_problem(x->dtype)) check(false, *why);
  }
  auto* sorted = s.add_topk("sort", in, n, d, false);
  // The position to read, per slice ([.., 1, ..] along d).
  Dims one = in->dims;
  one[static_cast<std::size_t>(d)] = 1;
  const std::int64_t lower_median = (n - 1) / 2;
  NetworkTensor* pos = fill(s, one, static_cast<double>(what == Statistic::KthValue ? k - 1 : lower_median), DType::Int64);
  if (is_floating(x->dtype) && what != Statistic::KthValue) {
    auto* nans = s.add_reduce("nans", cast(s, s.add_unary("isnan", in, UnaryOp::IsNan), DType::Int64), ReduceOp::Sum, {d}, true);
    auto* numbers = ew(s, scalar_constant(s, static_cast<double>(n), DType::Int64), nans, ElementwiseOp::Sub);
    if (what == Statistic::Median) {
      // With a NaN the first one (sorted after every number) is the answer.
      pos = s.add_select("position", ew_scalar(s, nans, 0.0, ElementwiseOp::Greater), numbers, pos);
    } else {
      auto* half = ew_scalar(s, ew_scalar(s, numbers, 1.0, ElementwiseOp::Sub), 2.0, ElementwiseOp::FloorDiv);
      pos = ew_scalar(s, half, 0.0, ElementwiseOp::Max);
    }
  }
  auto* values = s.add_gather("values", sorted->output(0), pos, GatherMode::Elements, d);
  auto* indices = s.add_gather("indices", sorted->output(1), pos, GatherMode::Elements, d);
  if (!dim) return {reshape(s, values, {}), reshape(s.child("indices"), indices, {})};
  Dims out = x->dims;
  if (x->rank() > 0 && keepdim) out[static_cast<std::size_t>(d)] = 1;
  if (x->rank() > 0 && !keepdim) out.erase(out.begin() + d);
  return {s.add_reshape("", values, out), s.add_reshape("indices_out", indices, out)};
}

}  // namespace atenrt::conversion::impl::order_stats
