#include "conversion/impl/reduce.h"

#include <cmath>

namespace atenrt::conversion::impl::reduce {

using network::ElementwiseOp;

NetworkTensor* reduce(const Scope& s, NetworkTensor* x, ReduceOp op,
                      std::vector<std::int64_t> dims, bool keepdim, std::optional<DType> dtype) {
  if (dtype) x = cast(s, x, *dtype);
  if (op == ReduceOp::Mean && !is_floating(x->dtype)) x = cast(s, x, DType::Float32);
  if ((op == ReduceOp::Sum || op == ReduceOp::Prod) && !is_floating(x->dtype) && x->dtype != DType::Int64) {
    x = cast(s, x, DType::Int64);
  }
  if ((op == ReduceOp::Any || op == ReduceOp::All) && x->dtype != DType::Bool) x = cast(s, x, DType::Bool);
  if (x->rank() == 0) {
    // Reducing a 0-d tensor (over dim 0 / -1, or all) gives the value itself.
    for (auto d : dims) normalize_dim(d, 0);
    return identity(s, x);
  }
  Dims axes = normalize_dims(dims, x->rank());
  if (axes.empty()) {
    for (int d = 0; d < x->rank(); ++d) axes.push_back(d);
  }
  return s.add_reduce("", x, op, axes, keepdim);
}

NetworkTensor* arg_reduce(const Scope& s, NetworkTensor* x, ReduceOp op,
                          std::optional<std::int64_t> dim, bool keepdim) {
  if (x->dtype == DType::Bool) x = cast(s, x, DType::UInt8);
  if (x->rank() == 0) {
    if (dim) normalize_dim(*dim, 0);
    return s.add_constant("", Tensor(DType::Int64, {}));
  }
  if (!dim) {
    const Dims& d = static_dims(x, "argmax/argmin over every dim");
    auto* flat = reshape(s, x, {numel(d)});
    auto* r = s.add_reduce(keepdim ? "flat" : "", flat, op, {0}, false);
    if (!keepdim) return r;
    return s.add_reshape("", r, Dims(static_cast<std::size_t>(x->rank()), 1));
  }
  const auto axis = normalize_dim(*dim, x->rank());
  return s.add_reduce("", x, op, {axis}, keepdim);
}

NetworkTensor* cumulative(const Scope& s, NetworkTensor* x,
                          network::CumulativeOp op, std::int64_t dim, std::optional<DType> dtype) {
  if (dtype) x = cast(s, x, *dtype);
  if (!is_floating(x->dtype) && x->dtype != DType::Int64) x = cast(s, x, DType::Int64);
  if (x->rank() == 0) {
    normalize_dim(dim, 0);
    return identity(s, x);
  }
  return s.add_cumulative("", x, op, normalize_dim(dim, x->rank()));
}

NetworkTensor* var(const Scope& s, NetworkTensor* x,
                   std::vector<std::int64_t> dims, double correction, bool keepdim, bool take_sqrt) {
  // float16/bfloat16: computed in float32 and rounded once at the end, as torch.var/std compute them.
  const DType reduced = x->dtype;
  if (reduced == DType::Float16 || reduced == DType::BFloat16) {
    return cast(s, var(s.child("f32"), cast(s, x, DType::Float32), std::move(dims), correction, keepdim, take_sqrt),
                reduced);
  }
  if (!is_floating(x->dtype)) x = cast(s, x, DType::Float32);
  Dims axes = normalize_dims(dims, x->rank());
  if (axes.empty()) {
    for (int d = 0; d < x->rank(); ++d) axes.push_back(d);
  }
  std::int64_t n = 1;
  for (auto a : axes) {
    const auto size = x->dims[static_cast<std::size_t>(a)];
    check(size >= 0, "var/std needs static sizes on the reduced dims");
    n *= size;
  }
  auto* mean = s.add_reduce("mean", x, ReduceOp::Mean, axes, true);
  auto* d = ew(s, x, mean, ElementwiseOp::Sub);
  auto* ss = s.add_reduce("sumsq", ew(s, d, d, ElementwiseOp::Mul), ReduceOp::Sum, axes, keepdim);
  const double denom = std::max(0.0, static_cast<double>(n) - correction);
  // denom 0 gives inf/nan as torch does.
  auto* v = ew_scalar(take_sqrt ? s.child("var") : s, ss, denom, ElementwiseOp::Div);
  if (!take_sqrt) return v;
  return s.add_unary("", v, network::UnaryOp::Sqrt);
}

NetworkTensor* vector_norm(const Scope& s, NetworkTensor* x, double ord,
                           std::vector<std::int64_t> dims, bool keepdim) {
  if (!is_floating(x->dtype)) x = cast(s, x, DType::Float32);
  auto* a = s.add_unary("abs", x, network::UnaryOp::Abs);
  if (std::isinf(ord)) {
    return reduce(s, a, ord > 0 ? ReduceOp::Max : ReduceOp::Min, std::move(dims), keepdim);
  }
  if (ord == 0.0) {
    auto* nz = cast(s, ew_scalar(s, x, 0.0, ElementwiseOp::NotEqual), x->dtype);
    return reduce(s, nz, ReduceOp::Sum, std::move(dims), keepdim);
  }
  if (ord == 1.0) return reduce(s, a, ReduceOp::Sum, std::move(dims), keepdim);
  auto* p = ew_scalar(s, a, ord, ElementwiseOp::Pow);
  auto* sum = reduce(s.child("sum"), p, ReduceOp::Sum, std::move(dims), keepdim);
  return s.add_elementwise("", sum, scalar_constant(s, 1.0 / ord, sum->dtype), ElementwiseOp::Pow);
}

}  // namespace atenrt::conversion::impl::reduce
