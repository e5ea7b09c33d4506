// var/std/var_mean/std_mean, logsumexp, norm, linalg_vector_norm, frobenius_norm,
// cosine_similarity → sum/mean/amax/sqrt and arithmetic.
#include <cmath>
#include <limits>

#include "lowering/decompositions/common.h"

namespace atenrt::lowering::decomp {
namespace {

// var and mean in the dtype they are computed in; `result` rounds a value to the input's dtype.
struct Moments {
  std::string var, mean;
  DType dtype = DType::Float32;  // the input's
  std::string result(GraphBuilder& b, const std::string& v) const { return b.dtype(v) == dtype ? v : b.cast(v, dtype); }
};

// Variance with `correction` (N - correction in the denominator) over dims;
// mean comes along for var_mean.
Moments moments(GraphBuilder& b, const std::string& x, std::vector<std::int64_t> dims,
                double correction, bool keepdim) {
  // float16/bfloat16: computed in float32 and rounded once (Moments::result), as torch.var/std/
  // var_mean compute them.
  if (const DType dt = b.dtype(x); dt == DType::Float16 || dt == DType::BFloat16) {
    Moments m = moments(b, b.cast(x, DType::Float32), std::move(dims), correction, keepdim);
    m.dtype = dt;
    return m;
  }
  const std::int64_t count = count_over(b, x, dims, "var");
  const auto mean_k = b.mean(x, dims, true);
  const auto diff = b.sub(tv(x), tv(mean_k));
  const auto ss = b.sum(b.mul(tv(diff), tv(diff)), dims, keepdim);
  Moments m;
  m.dtype = b.dtype(x);
  m.var = b.div(tv(ss), num(std::max(0.0, static_cast<double>(count) - correction)));
  m.mean = keepdim || dims.empty() ? mean_k : b.squeeze(mean_k, dims);
  return m;
}

// The three overload shapes: .correction (dim?, correction?), .dim (dim?, unbiased), .default (unbiased).
Moments moments_of(GraphBuilder& b, const ir::Node& n) {
  const auto x = tensor_arg(n, "self");
  const int r = b.rank(x);
  const auto& ov = n.target.overload;
  std::vector<std::int64_t> dims;
  double correction = 1;
  bool keepdim = false;
  if (ov == "correction") {
    dims = dims_or_all(opt_int_list_arg(n, "dim"), r, n.describe());
    correction = opt_scalar_arg(n, "correction").value_or(1.0);
    keepdim = bool_arg(n, "keepdim");
  } else if (ov == "dim") {
    dims = dims_or_all(opt_int_list_arg(n, "dim"), r, n.describe());
    correction = bool_arg(n, "unbiased") ? 1 : 0;
    keepdim = bool_arg(n, "keepdim");
  } else {
    dims = dims_or_all(std::nullopt, r, n.describe());
    correction = bool_arg(n, "unbiased") ? 1 : 0;
  }
  return moments(b, x, dims, correction, keepdim);
}

// p-norm over dims; p = 0, 1, 2, ±inf special-cased as PyTorch does.
std::string pnorm(GraphBuilder& b, const std::string& x, double p, const std::vector<std::int64_t>& dims,
                  bool keepdim) {
  if (p == 2) return b.unary("sqrt", b.sum(b.mul(tv(x), tv(x)), dims, keepdim));
  const auto a = b.unary("abs", x);
  if (p == 1) return b.sum(a, dims, keepdim);
  if (p == std::numeric_limits<double>::infinity()) return b.amax(a, dims, keepdim);
  if (p == -std::numeric_limits<double>::infinity()) return b.amin(a, dims, keepdim);
  if (p == 0) return b.sum(b.cast(b.compare("ne", x, num(0)), b.dtype(x)), dims, keepdim);
  return b.pow(b.sum(b.pow(a, p), dims, keepdim), 1.0 / p);
}

const DecompositionOptions kMoments{.validator = floating({"self"}, "var")};
const DecompositionOptions kNorm{.validator = floating({"self"}, "norm")};

Capability vector_norm_fits(const ir::NodeView& n) {
  if (auto dt = dtype_after_cast(n, "self"); dt && !is_floating(*dt)) {
    return Capability::no("norm is decomposed for floating tensors only");
  }
  return Capability::yes();
}

Capability cosine_fits(const ir::NodeView& n) {
  if (auto fits = floating_tensors(n, {"x1", "x2"}); !fits) return fits;
  const ir::TensorMeta* a = n.meta("x1");
  const ir::TensorMeta* b = n.meta("x2");
  if (a && b && a->sizes.size() != b->sizes.size()) return Capability::no("inputs of different rank");
  return Capability::yes();
}

const DecompositionGroup registered{"reductions", {
  {{"aten.var.correction", "aten.var.dim", "aten.var.default"},
   [](GraphBuilder& b, const ir::Node& n) {
     auto m = moments_of(b, n);
     return Values{m.result(b, m.var)};
   }, kMoments},
  {{"aten.std.correction", "aten.std.dim", "aten.std.default"},
   [](GraphBuilder& b, const ir::Node& n) {
     auto m = moments_of(b, n);
     return Values{m.result(b, b.unary("sqrt", m.var))};
   }, kMoments},
  {{"aten.var_mean.correction", "aten.var_mean.dim", "aten.var_mean.default"},
   [](GraphBuilder& b, const ir::Node& n) {
     auto m = moments_of(b, n);
     return Values{m.result(b, m.var), m.result(b, m.mean)};
   }, kMoments},
  {{"aten.std_mean.correction", "aten.std_mean.dim", "aten.std_mean.default"},
   [](GraphBuilder& b, const ir::Node& n) {
     auto m = moments_of(b, n);
     return Values{m.result(b, b.unary("sqrt", m.var)), m.result(b, m.mean)};
   }, kMoments},
  // log(sum(exp(x - m))) + m, with m = max, replaced by 0 where it is infinite.
  {"aten.logsumexp.default", [](GraphBuilder& b, const ir::Node& n) {
    const auto x = tensor_arg(n, "self");
    const auto dims = dims_or_all(int_list_arg(n, "dim"), b.rank(x), n.describe());
    const bool keepdim = bool_arg(n, "keepdim");
    const auto m = b.amax(x, dims, true);
    const auto safe = b.where(b.unary("isinf", m), b.full({}, 0.0, b.dtype(x)), m);
    const auto lse = b.unary("log", b.sum(b.unary("exp", b.sub(tv(x), tv(safe))), dims, keepdim));
    const auto shift = keepdim ? safe : b.squeeze(safe, dims);
    return Values{b.add(tv(lse), tv(shift))};
  }, {.validator = floating({"self"})}},
  {"aten.norm.Scalar", [](GraphBuilder& b, const ir::Node& n) {
    const auto x = tensor_arg(n, "self");
    return Values{pnorm(b, x, scalar_arg(n, "p"), dims_or_all(std::nullopt, b.rank(x), n.describe()), false)};
  }, kNorm},
  {"aten.norm.ScalarOpt_dim", [](GraphBuilder& b, const ir::Node& n) {
    const auto x = tensor_arg(n, "self");
    return Values{pnorm(b, x, opt_scalar_arg(n, "p").value_or(2.0),
                        dims_or_all(int_list_arg(n, "dim"), b.rank(x), n.describe()), bool_arg(n, "keepdim"))};
  }, kNorm},
  {"aten.linalg_vector_norm.default", [](GraphBuilder& b, const ir::Node& n) {
    auto x = tensor_arg(n, "self");
    if (auto dt = opt_dtype_arg(n, "dtype")) x = b.cast(x, *dt);
    return Values{pnorm(b, x, scalar_arg(n, "ord"), dims_or_all(opt_int_list_arg(n, "dim"), b.rank(x), n.describe()),
                        bool_arg(n, "keepdim"))};
  }, {.validator = vector_norm_fits}},
  {"aten.frobenius_norm.dim", [](GraphBuilder& b, const ir::Node& n) {
    const auto x = tensor_arg(n, "self");
    return Values{pnorm(b, x, 2.0, dims_or_all(int_list_arg(n, "dim"), b.rank(x), n.describe()), bool_arg(n, "keepdim"))};
  }, kNorm},
  // sum((x1 / max(|x1|, eps)) * (x2 / max(|x2|, eps))) along dim.
  {"aten.cosine_similarity.default", [](GraphBuilder& b, const ir::Node& n) {
    const auto x1 = tensor_arg(n, "x1");
    const auto x2 = tensor_arg(n, "x2");
    const auto d = normalize_dim(int_arg(n, "dim"), b.rank(x1), n.describe());
    const double eps = scalar_arg(n, "eps");
    auto unit = [&](const std::string& x) {
      return b.div(tv(x), tv(b.clamp(pnorm(b, x, 2.0, {d}, true), eps, std::nullopt)));
    };
    return Values{b.sum(b.mul(tv(unit(x1)), tv(unit(x2))), {d}, false)};
  }, {.validator = cosine_fits}},
}};

}  // namespace
}  // namespace atenrt::lowering::decomp
