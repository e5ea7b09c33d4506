// layer_norm, group_norm, instance_norm (and their native_ forms) → mean/rsqrt/arithmetic.
#include "lowering/decompositions/common.h"

namespace atenrt::lowering::decomp {
namespace {

struct Normalized {
  std::string out, mean, rstd;  // mean/rstd keep the reduced dims as size 1
};

// (x - mean) * rsqrt(biased var + eps) over `dims`.
Normalized normalize(GraphBuilder& b, const std::string& x, const std::vector<std::int64_t>& dims, double eps) {
  Normalized r;
  r.mean = b.mean(x, dims, true);
  const auto diff = b.sub(tv(x), tv(r.mean));
  const auto var = b.mean(b.mul(tv(diff), tv(diff)), dims, true);
  r.rstd = b.unary("rsqrt", b.add(tv(var), num(eps)));
  r.out = b.mul(tv(diff), tv(r.rstd));
  return r;
}

// Per-channel weight/bias ([C]) applied to x of shape [N, C, *].
std::string channel_affine(GraphBuilder& b, std::string x, const std::optional<std::string>& w,
                           const std::optional<std::string>& bias) {
  std::vector<std::int64_t> shape{-1};
  for (int i = 2; i < b.rank(x); ++i) shape.push_back(1);
  if (w) x = b.mul(tv(x), tv(b.view(*w, shape)));
  if (bias) x = b.add(tv(x), tv(b.view(*bias, shape)));
  return x;
}

Normalized layer_norm(GraphBuilder& b, const ir::Node& n) {
  const auto x = tensor_arg(n, "input");
  const auto shape = int_list_arg(n, "normalized_shape");
  const int r = b.rank(x);
  if (shape.empty() || static_cast<int>(shape.size()) > r) throw FormatError(n.describe() + ": bad normalized_shape");
  std::vector<std::int64_t> dims;
  for (int i = r - static_cast<int>(shape.size()); i < r; ++i) dims.push_back(i);
  Normalized norm = normalize(b, x, dims, scalar_arg(n, "eps"));
  if (auto w = opt_tensor_arg(n, "weight")) norm.out = b.mul(tv(norm.out), tv(*w));
  if (auto bias = opt_tensor_arg(n, "bias")) norm.out = b.add(tv(norm.out), tv(*bias));
  return norm;
}

// Group statistics over [N, G, C/G * HxW]; returns out in x's shape, mean and rstd as [N, G].
Normalized group_norm(GraphBuilder& b, const std::string& x, std::int64_t groups, const std::optional<std::string>& w,
                      const std::optional<std::string>& bias, double eps, const ir::Node& n) {
  const auto sizes = b.static_sizes(x, "group_norm");
  if (sizes.size() < 2) throw FormatError(n.describe() + ": group_norm needs at least 2 dims");
  const std::int64_t N = sizes[0], C = sizes[1];
  if (groups <= 0 || C % groups != 0) {
    throw FormatError(n.describe() + ": " + std::to_string(C) + " channels do not split into " +
                      std::to_string(groups) + " groups");
  }
  std::int64_t per_group = C / groups;
  for (std::size_t i = 2; i < sizes.size(); ++i) per_group *= sizes[i];
  Normalized g = normalize(b, b.view(x, {N, groups, per_group}), {2}, eps);
  Normalized r;
  r.out = channel_affine(b, b.view(g.out, sizes), w, bias);
  r.mean = b.view(g.mean, {N, groups});
  r.rstd = b.view(g.rstd, {N, groups});
  return r;
}

const DecompositionOptions kFloatingInput{.validator = floating({"input"})};

const DecompositionGroup registered{"normalization", {
  {"aten.native_layer_norm.default", [](GraphBuilder& b, const ir::Node& n) {
    auto r = layer_norm(b, n);
    return Values{r.out, r.mean, r.rstd};
  }, kFloatingInput},
  {"aten.layer_norm.default", [](GraphBuilder& b, const ir::Node& n) { return Values{layer_norm(b, n).out}; }, kFloatingInput},
  {"aten.native_group_norm.default", [](GraphBuilder& b, const ir::Node& n) {
    auto r = group_norm(b, tensor_arg(n, "input"), int_arg(n, "group"), opt_tensor_arg(n, "weight"),
                        opt_tensor_arg(n, "bias"), scalar_arg(n, "eps"), n);
    return Values{r.out, r.mean, r.rstd};
  }, kFloatingInput},
  {"aten.group_norm.default", [](GraphBuilder& b, const ir::Node& n) {
    return Values{group_norm(b, tensor_arg(n, "input"), int_arg(n, "num_groups"), opt_tensor_arg(n, "weight"),
                             opt_tensor_arg(n, "bias"), scalar_arg(n, "eps"), n)
                      .out};
  }, kFloatingInput},
  {"aten.instance_norm.default", [](GraphBuilder& b, const ir::Node& n) {
    const auto x = tensor_arg(n, "input");
    const int r = b.rank(x);
    if (r < 3) throw FormatError(n.describe() + ": instance_norm needs at least 3 dims");
    const double eps = scalar_arg(n, "eps");
    std::string out;
    if (bool_arg(n, "use_input_stats")) {
      std::vector<std::int64_t> dims;
      for (int i = 2; i < r; ++i) dims.push_back(i);
      out = normalize(b, x, dims, eps).out;
    } else {
      const auto rm = opt_tensor_arg(n, "running_mean");
      const auto rv = opt_tensor_arg(n, "running_var");
      if (!rm || !rv) throw FormatError(n.describe() + ": use_input_stats=False needs running_mean and running_var");
      std::vector<std::int64_t> shape{-1};
      for (int i = 2; i < r; ++i) shape.push_back(1);
      const auto centered = b.sub(tv(x), tv(b.view(*rm, shape)));
      const auto rstd = b.unary("rsqrt", b.add(tv(b.view(*rv, shape)), num(eps)));
      out = b.mul(tv(centered), tv(rstd));
    }
    return Values{channel_affine(b, out, opt_tensor_arg(n, "weight"), opt_tensor_arg(n, "bias"))};
  }, kFloatingInput},
}};

}  // namespace
}  // namespace atenrt::lowering::decomp
