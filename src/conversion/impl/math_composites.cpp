#include "conversion/impl/math_composites.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "conversion/host_tensor.h"
#include "conversion/impl/math.h"

namespace atenrt::conversion::impl::math_composites {

using network::ElementwiseOp;
using network::ReduceOp;
using network::UnaryOp;

NetworkTensor* angle(const Scope& s, NetworkTensor* x) {
  x = math::floating(s, x);
  const DType dt = x->dtype;
  auto* sign = s.add_select("negative", ew_scalar(s, x, 0.0, ElementwiseOp::Less), scalar_constant(s, std::numbers::pi, dt),
                            scalar_constant(s, 0.0, dt));
  return s.add_select("", s.add_unary("isnan", x, UnaryOp::IsNan), x, sign);
}

std::optional<std::string> renorm_problem(double p, double maxnorm) {
  if (!(p > 0.0)) return "renorm needs a positive p";
  if (!(maxnorm >= 0.0)) return "renorm needs a non-negative maxnorm";
  return std::nullopt;
}

NetworkTensor* renorm(const Scope& s, NetworkTensor* x, double p, std::int64_t dim, double maxnorm) {
  if (auto why = renorm_problem(p, maxnorm)) check(false, *why);
  check(is_floating(x->dtype), "renorm takes a floating tensor");
  check(x->rank() >= 1, "renorm needs at least 1 dim");
  const auto d = normalize_dim(dim, x->rank());
  Dims axes;
  for (std::int64_t a = 0; a < x->rank(); ++a) {
    if (a != d) axes.push_back(a);
  }
  if (x->dtype == DType::BFloat16 || x->dtype == DType::Float16) {  // torch accumulates in float32
    return s.add_cast("", renorm(s.child("f32"), cast(s, x, DType::Float32), p, dim, maxnorm), x->dtype);
  }
  const DType dt = x->dtype;
  auto* mag = s.add_unary("abs", x, UnaryOp::Abs);
  NetworkTensor* norm;
  if (std::isinf(p)) {
    norm = axes.empty() ? mag : s.add_reduce("norm", mag, ReduceOp::Max, axes, true);
  } else if (p == 1.0) {
    norm = axes.empty() ? mag : s.add_reduce("norm", mag, ReduceOp::Sum, axes, true);
  } else {
    auto* powered = p == 2.0 ? ew(s, mag, mag, ElementwiseOp::Mul) : ew(s, mag, scalar_constant(s, p, dt), ElementwiseOp::Pow);
    auto* sum = axes.empty() ? powered : s.add_reduce("sum", powered, ReduceOp::Sum, axes, true);
    norm = p == 2.0 ? s.add_unary("norm", sum, UnaryOp::Sqrt) : ew(s, sum, scalar_constant(s, 1.0 / p, dt), ElementwiseOp::Pow);
  }
  auto* scaled = ew(s, scalar_constant(s, maxnorm, dt), ew_scalar(s, norm, 1e-7, ElementwiseOp::Add), ElementwiseOp::Div);
  auto* factor = s.add_select("factor", ew_scalar(s, norm, maxnorm, ElementwiseOp::Greater), scaled, scalar_constant(s, 1.0, dt));
  return s.add_elementwise("", x, factor, ElementwiseOp::Mul);
}

NetworkTensor* logcumsumexp(const Scope& s, NetworkTensor* x, std::int64_t dim) {
  check(is_floating(x->dtype), "logcumsumexp takes a floating tensor");
  if (x->rank() == 0) {
    normalize_dim(dim, 1);
    return identity(s, x);
  }
  const auto d = normalize_dim(dim, x->rank());
  const DType dt = x->dtype;
  auto* xd = cast(s, x, DType::Float64);
  // Shift by the slice's maximum (0 where that is infinite or NaN, which exp handles itself).
  auto* m = s.add_reduce("max", xd, ReduceOp::Max, {d}, true);
  auto* bad = ew(s, s.add_unary("isinf", m, UnaryOp::IsInf), s.add_unary("isnan", m, UnaryOp::IsNan), ElementwiseOp::Or);
  auto* shift = s.add_select("shift", bad, scalar_constant(s, 0.0, DType::Float64), m);
  auto* e = s.add_unary("exp", ew(s, xd, shift, ElementwiseOp::Sub), UnaryOp::Exp);
  auto* c = s.add_cumulative("cumsum", e, network::CumulativeOp::Sum, d);
  auto* r = ew(s, s.add_unary("log", c, UnaryOp::Log), shift, ElementwiseOp::Add);
  return s.add_cast("", r, dt);
}

std::optional<std::string> histc_problem(std::int64_t bins, double min, double max) {
  if (bins <= 0) return "histc needs bins > 0";
  if (!(min <= max)) return "histc needs min <= max";
  return std::nullopt;
}

NetworkTensor* histc(const Scope& s, NetworkTensor* x, std::int64_t bins, double min, double max) {
  if (auto why = histc_problem(bins, min, max)) check(false, *why);
  check(is_floating(x->dtype), "histc takes a floating tensor");
  const DType dt = x->dtype;
  const std::int64_t n = numel(static_dims(x, "histc"));
  auto* flat = reshape(s.child("flat"), x, {n, 1});
  NetworkTensor* lo = scalar_constant(s, min, dt);
  NetworkTensor* hi = scalar_constant(s, max, dt);
  if (min == max) {
    if (n == 0) return fill(s, {bins}, 0.0, dt);
    // The data's own range; one value widens to [v - 1, v + 1].
    auto* dmin = s.add_reduce("min", flat, ReduceOp::Min, {}, false);
    auto* dmax = s.add_reduce("max", flat, ReduceOp::Max, {}, false);
    auto* same = ew(s, dmin, dmax, ElementwiseOp::Equal);
    lo = s.add_select("lo", same, ew_scalar(s, dmin, 1.0, ElementwiseOp::Sub), dmin);
    hi = s.add_select("hi", same, ew_scalar(s, dmax, 1.0, ElementwiseOp::Add), dmax);
  }
  if (n == 0) return fill(s, {bins}, 0.0, dt);
  // bin = trunc((x - lo) * bins / (hi - lo)), the top edge in the last bin.
  auto* pos = ew(s, ew_scalar(s, ew(s, flat, lo, ElementwiseOp::Sub), static_cast<double>(bins), ElementwiseOp::Mul),
                 ew(s, hi, lo, ElementwiseOp::Sub), ElementwiseOp::Div);
  auto* bin = ew_scalar(s, s.add_unary("bin", pos, UnaryOp::Trunc), static_cast<double>(bins - 1), ElementwiseOp::Min);
  auto* inside = ew(s, ew(s, flat, lo, ElementwiseOp::GreaterEqual), ew(s, flat, hi, ElementwiseOp::LessEqual),
                    ElementwiseOp::And);
  std::vector<std::int64_t> edges(static_cast<std::size_t>(bins));
  for (std::int64_t b = 0; b < bins; ++b) edges[static_cast<std::size_t>(b)] = b;
  auto* ids = cast(s, s.add_constant("bins", int64_tensor({1, bins}, edges)), dt);
  auto* hit = ew(s, ew(s, bin, ids, ElementwiseOp::Equal), inside, ElementwiseOp::And);  // [n, bins]
  return s.add_reduce("", cast(s, hit, dt), ReduceOp::Sum, {0}, false);
}

std::pair<NetworkTensor*, NetworkTensor*> cumulative_extreme(const Scope& s, NetworkTensor* x, std::int64_t dim, bool max) {
  if (x->rank() == 0) {
    normalize_dim(dim, 1);
    return {identity(s.child("values"), x), fill(s, {}, 0.0, DType::Int64)};
  }
  const auto d = normalize_dim(dim, x->rank());
  const Dims& dims = static_dims(x, max ? "cummax" : "cummin");
  const std::int64_t len = dims[static_cast<std::size_t>(d)];
  Dims line(dims.size(), 1);
  line[static_cast<std::size_t>(d)] = len;
  std::vector<std::int64_t> positions(static_cast<std::size_t>(len));
  for (std::int64_t i = 0; i < len; ++i) positions[static_cast<std::size_t>(i)] = i;
  auto* position = reshape(s.child("position"), s.add_constant("positions", int64_tensor({len}, positions)), line);
  NetworkTensor* v = x;
  NetworkTensor* idx = expand(s.child("index"), position, dims);
  // Compared as numbers (bool as uint8); NaN only in floating dtypes.
  const bool floating = is_floating(x->dtype);
  for (std::int64_t shift = 1; shift < len; shift *= 2) {
    const Scope step = s.child("step" + std::to_string(shift));
    // The pair `shift` places earlier (anything where there is none: `own` keeps the current one).
    network::PaddingParams pad;
    pad.pre.assign(dims.size(), 0);
    pad.post.assign(dims.size(), 0);
    pad.pre[static_cast<std::size_t>(d)] = shift;
    pad.post[static_cast<std::size_t>(d)] = -shift;
    auto* earlier_v = step.add_padding("earlier", v, pad);
    auto* earlier_i = step.add_padding("earlier_index", idx, pad);
    auto* own = ew_scalar(step, position, static_cast<double>(shift), ElementwiseOp::Less);
    auto* a = x->dtype == DType::Bool ? cast(step, earlier_v, DType::UInt8) : earlier_v;
    auto* b = x->dtype == DType::Bool ? cast(step, v, DType::UInt8) : v;
    auto* keep = ew(step, own, ew(step, b, a, max ? ElementwiseOp::GreaterEqual : ElementwiseOp::LessEqual), ElementwiseOp::Or);
    if (floating) {
      auto* a_nan = step.add_unary("earlier_nan", a, UnaryOp::IsNan);
      auto* b_nan = step.add_unary("nan", b, UnaryOp::IsNan);
      // pick the current pair: none earlier, a NaN now, or no NaN before and not beaten.
      auto* no_nan_before = step.add_unary("no_nan_before", a_nan, UnaryOp::Not);
      keep = ew(step, ew(step, own, b_nan, ElementwiseOp::Or), ew(step, keep, no_nan_before, ElementwiseOp::And),
                ElementwiseOp::Or);
    }
    v = step.add_select("values", keep, v, earlier_v);
    idx = step.add_select("indices", keep, idx, earlier_i);
  }
  return {identity(s.child("values"), v), identity(s, idx)};
}

NetworkTensor* trilinear(const Scope& s, NetworkTensor* a, NetworkTensor* b, NetworkTensor* c,
                         const std::vector<std::int64_t>& expand_a, const std::vector<std::int64_t>& expand_b,
                         const std::vector<std::int64_t>& expand_c, const std::vector<std::int64_t>& sumdim) {
  const std::int64_t rank = a->rank() + static_cast<std::int64_t>(expand_a.size());
  const DType dt = promote_types(promote_types(a->dtype, b->dtype), c->dtype);
  // x with size-1 dims at the (ascending) positions of `expand` in the full rank.
  auto spread = [&](NetworkTensor* x, const std::vector<std::int64_t>& expand, const char* what) {
    check(x->rank() + static_cast<std::int64_t>(expand.size()) == rank, "_trilinear: inputs of mismatched ranks");
    Dims dims;
    std::size_t next = 0;
    for (std::int64_t d = 0; d < rank; ++d) {
      const bool inserted = std::find(expand.begin(), expand.end(), d) != expand.end();
      dims.push_back(inserted ? 1 : x->dims[next++]);
    }
    return reshape(s.child(what), cast(s, x, dt), dims);
  };
  auto* product = ew(s, ew(s, spread(a, expand_a, "i1"), spread(b, expand_b, "i2"), ElementwiseOp::Mul),
                     spread(c, expand_c, "i3"), ElementwiseOp::Mul);
  if (sumdim.empty()) return identity(s, product);
  Dims axes;
  for (auto d : sumdim) axes.push_back(normalize_dim(d, rank));
  auto* sum = s.add_reduce(dt == DType::Int64 || is_floating(dt) ? "" : "sum", product, ReduceOp::Sum, axes, false);
  return sum->dtype == dt ? sum : s.add_cast("", sum, dt);  // integer sums come out int64
}

NetworkTensor* euclidean_dist(const Scope& s, NetworkTensor* x1, NetworkTensor* x2) {
  check(x1->rank() >= 2 && x2->rank() >= 2, "_euclidean_dist takes inputs of at least 2 dims");
  const DType dt = promote_types(x1->dtype, x2->dtype);
  check(is_floating(dt), "_euclidean_dist takes floating inputs");
  x1 = cast(s, x1, dt);
  x2 = cast(s, x2, dt);
  auto* n1 = s.add_reduce("norm1", ew(s, x1, x1, ElementwiseOp::Mul), ReduceOp::Sum, {x1->rank() - 1}, true);
  auto* n2 = s.add_reduce("norm2", ew(s, x2, x2, ElementwiseOp::Mul), ReduceOp::Sum, {x2->rank() - 1}, true);
  Dims swap;
  for (std::int64_t a = 0; a < n2->rank(); ++a) swap.push_back(a);
  std::swap(swap[swap.size() - 1], swap[swap.size() - 2]);
  auto* dot = s.add_matmul("dot", x1, x2, false, true);
  auto* sq = ew(s, ew(s, n1, s.add_permute("norm2_t", n2, swap), ElementwiseOp::Add),
                ew_scalar(s, dot, 2.0, ElementwiseOp::Mul), ElementwiseOp::Sub);
  return s.add_unary("", ew_scalar(s, sq, 1e-30, ElementwiseOp::Max), UnaryOp::Sqrt);
}

}  // namespace atenrt::conversion::impl::math_composites
