#include "conversion/impl/creation.h"

#include <cmath>

#include "conversion/host_tensor.h"

namespace atenrt::conversion::impl::creation {

std::optional<std::string> size_problem(const std::vector<std::int64_t>& size) {
  for (auto d : size) {
    if (d < 0) return "size " + shape_to_string(size) + " has a negative dim";
  }
  return std::nullopt;
}

Value full(const Scope& s, const std::vector<std::int64_t>& size, const Scalar& value, DType dtype) {
  if (auto why = size_problem(size)) check(false, *why);
  if (numel(size) > kMaxFolded) return fill(s, size, value.f, dtype);
  Tensor t(dtype, size);
  for (std::int64_t i = 0; i < t.numel(); ++i) {
    if (is_floating(dtype) || dtype == DType::Bool || value.is_float()) set_element(t, i, value.f);
    else set_element_int(t, i, value.i);
  }
  return t;
}

Value full_sized(const Scope& s, const Value& size, const Scalar& value, DType dtype) {
  std::vector<std::int64_t> known;
  std::vector<NetworkTensor*> pieces;
  bool run_time = false;
  check(size.is_list(), "size is " + size.describe() + ", not a list");
  for (std::size_t k = 0; k < size.list().size(); ++k) {
    const Value& e = size.list()[k];
    if (e.is_int()) {
      check(e.as_int() >= 0, "size element " + std::to_string(k) + " is negative (" + std::to_string(e.as_int()) + ")");
      known.push_back(e.as_int());
      pieces.push_back(s.constant(int64_tensor({1}, {e.as_int()}), "size_" + std::to_string(k)));
      continue;
    }
    check(e.is_network_tensor() && e.network_tensor()->rank() == 0 && is_integral(e.network_tensor()->dtype),
          "size element " + std::to_string(k) + " is " + e.describe() + ", not an integer");
    run_time = true;
    pieces.push_back(s.add_reshape("size_" + std::to_string(k), cast(s, e.network_tensor(), DType::Int64), {1}));
  }
  if (!run_time) return full(s, known, value, dtype);
  network::FillParams p;
  p.dtype = dtype;
  p.value = value.f;
  return s.add_fill("", p, pieces.size() == 1 ? pieces[0] : s.add_concatenation("size", pieces, 0));
}

Value full_like(const Scope& s, NetworkTensor* x, const Scalar& value, DType dtype) {
  if (x->is_static()) return full(s, x->dims, value, dtype);
  network::FillParams p;
  p.dtype = dtype;
  p.value = value.f;
  return s.add_fill("", p, s.add_shape("shape", x));
}

DType ArangeArgs::default_dtype() const {
  const bool floating = start.is_float() || end.is_float() || step.is_float();
  return floating ? DType::Float32 : DType::Int64;
}

std::optional<std::int64_t> ArangeArgs::count(std::string* why) const {
  if (step.f == 0.0) {
    *why = "arange step must not be 0";
    return std::nullopt;
  }
  double n = std::ceil((end.f - start.f) / step.f);
  if (default_dtype() == DType::Int64) {
    // Exact integer count.
    const auto span = end.i - start.i;
    n = static_cast<double>((span + step.i + (step.i > 0 ? -1 : 1)) / step.i);
  }
  if (!(n >= 0 && n < 1e9)) {
    *why = "arange would have " + std::to_string(n) + " elements";
    return std::nullopt;
  }
  return static_cast<std::int64_t>(n);
}

Tensor arange(const ArangeArgs& a, DType dtype) {
  std::string why;
  const auto n = a.count(&why);
  check(n.has_value(), why);
  const bool floating = a.default_dtype() != DType::Int64;
  Tensor t(dtype, {*n});
  for (std::int64_t i = 0; i < *n; ++i) {
    const double v = a.start.f + static_cast<double>(i) * a.step.f;
    if (is_floating(dtype) || floating) set_element(t, i, v);
    else set_element_int(t, i, a.start.i + i * a.step.i);
  }
  return t;
}

NetworkTensor* arange_to(const Scope& s, std::int64_t start, NetworkTensor* end, std::int64_t step, DType dtype) {
  using Op = network::ElementwiseOp;
  check(step != 0, "arange step must not be 0");
  check(end->rank() == 0 && !is_floating(end->dtype) && end->dtype != DType::Bool,
        "arange with an end known at run time only takes an integer size (got " +
            std::string(dtype_name(end->dtype)) + shape_to_string(end->dims) + ")");
  auto* e = cast(s, end, DType::Int64);
  // ceil(a / b) = -floor(-a / b) for either sign of b, in int64.
  auto* neg_span = ew_scalar(s, ew_scalar(s, e, static_cast<double>(start), Op::Sub), -1.0, Op::Mul);
  auto* count = ew_scalar(s, ew_scalar(s, neg_span, static_cast<double>(step), Op::FloorDiv), -1.0, Op::Mul);
  count = ew_scalar(s, count, 0.0, Op::Max);
  network::FillParams p;
  p.op = network::FillOp::Iota;
  p.dtype = dtype;
  p.value = static_cast<double>(start);
  p.delta = static_cast<double>(step);
  return s.add_fill("", p, reshape(s, count, {1}));
}

}  // namespace atenrt::conversion::impl::creation
