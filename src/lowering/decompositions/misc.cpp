// Pointwise composites (addcmul, addcdiv, rsub, lerp, masked_fill, clamp_min/max,
// square, outer), creation (linspace, *_like), and data movement (pixel_shuffle,
// pixel_unshuffle, flip, tril, triu).
#include <cmath>

#include "lowering/decompositions/common.h"

namespace atenrt::lowering::decomp {
namespace {

std::string scaled_keep_type(GraphBuilder& b, const std::string& v, double s) {
  return s == 1.0 ? v : b.mul(tv(v), number_for(b, v, s));
}

// Keeps where (col - row) compares with k; tril: <=, triu: >=.
std::string triangle(GraphBuilder& b, const ir::Node& n, const char* cmp) {
  const auto x = tensor_arg(n, "self");
  if (b.rank(x) < 2) throw FormatError(n.describe() + ": expects at least 2 dims");
  const auto rows_n = b.static_dim(x, -2, n.target.name.c_str());
  const auto cols_n = b.static_dim(x, -1, n.target.name.c_str());
  const auto rows = b.unsqueeze(b.arange(0, static_cast<double>(rows_n), 1, DType::Int64), 1);
  const auto cols = b.arange(0, static_cast<double>(cols_n), 1, DType::Int64);
  const auto mask = b.compare(cmp, b.sub(tv(cols), tv(rows)), ir::Argument(int_arg(n, "diagonal")));
  return b.where(mask, x, b.full({}, 0.0, b.dtype(x)));
}

Capability linspace_fits(const ir::NodeView& n) {
  if (auto dt = dtype_after_cast(n, ""); dt && !is_floating(*dt)) return Capability::no("integer linspace");
  if (auto steps = n.literal_int("steps"); steps && *steps < 1) return Capability::no("empty linspace");
  return Capability::yes();
}

// zeros_like / ones_like / full_like: a constant of the input's (static) shape.
DecomposeFn like(double fill_default) {
  return [fill_default](GraphBuilder& b, const ir::Node& n) {
    const auto x = tensor_arg(n, "self");
    const double fill = n.input("fill_value") ? scalar_arg(n, "fill_value") : fill_default;
    const DType dt = opt_dtype_arg(n, "dtype").value_or(b.dtype(x));
    return Values{b.full(b.static_sizes(x, n.target.name.c_str()), fill, dt)};
  };
}

const DecompositionGroup registered{"misc", {
  {"aten.addcmul.default", [](GraphBuilder& b, const ir::Node& n) {
    const auto self = tensor_arg(n, "self");
    const auto prod = b.mul(tv(tensor_arg(n, "tensor1")), tv(tensor_arg(n, "tensor2")));
    const DType common = is_floating(b.dtype(self)) ? b.dtype(self) : b.dtype(prod);
    const double value = kernel_scalar(common, scalar_arg(n, "value"));
    return Values{b.add(tv(self), tv(scaled_keep_type(b, prod, value)))};
  }},
  {"aten.addcdiv.default", [](GraphBuilder& b, const ir::Node& n) {
    const auto self = tensor_arg(n, "self");
    const auto quot = b.div(tv(tensor_arg(n, "tensor1")), tv(tensor_arg(n, "tensor2")));
    return Values{b.add(tv(self), tv(scaled(b, quot, scalar_arg(n, "value"))))};
  }},
  // other - alpha * self
  {"aten.rsub.Scalar", [](GraphBuilder& b, const ir::Node& n) {
    const auto self = tensor_arg(n, "self");
    const double alpha = scalar_arg(n, "alpha");
    const auto neg = alpha == 1.0 ? b.unary("neg", self) : b.mul(tv(self), number_for(b, self, -alpha));
    return Values{b.add(tv(neg), arg(n, "other"))};
  }},
  {"aten.rsub.Tensor", [](GraphBuilder& b, const ir::Node& n) {
    const auto self = tensor_arg(n, "self");
    return Values{b.sub(tv(tensor_arg(n, "other")), tv(scaled_keep_type(b, self, scalar_arg(n, "alpha"))))};
  }},
  // PyTorch's two-sided formula: small weights from self, large ones from end.
  {"aten.lerp.Scalar", [](GraphBuilder& b, const ir::Node& n) {
    const auto self = tensor_arg(n, "self");
    const auto end = tensor_arg(n, "end");
    const double w = scalar_arg(n, "weight");
    const auto diff = b.sub(tv(end), tv(self));
    if (std::abs(w) < 0.5) return Values{b.add(tv(self), tv(b.mul(tv(diff), num(w))))};
    return Values{b.sub(tv(end), tv(b.mul(tv(diff), num(1.0 - w))))};
  }, {.validator = floating({"self"})}},
  {"aten.masked_fill.Scalar", [](GraphBuilder& b, const ir::Node& n) {
    const auto self = tensor_arg(n, "self");
    const auto fill = b.full({}, scalar_arg(n, "value"), b.dtype(self));
    return Values{b.where(tensor_arg(n, "mask"), fill, self)};
  }},
  {"aten.masked_fill.Tensor", [](GraphBuilder& b, const ir::Node& n) {
    const auto self = tensor_arg(n, "self");
    auto value = tensor_arg(n, "value");
    if (b.rank(value) != 0) throw FormatError(n.describe() + ": value must be a 0-d tensor");
    if (b.dtype(value) != b.dtype(self)) value = b.cast(value, b.dtype(self));
    return Values{b.where(tensor_arg(n, "mask"), value, self)};
  }},
  {"aten.clamp_min.default", [](GraphBuilder& b, const ir::Node& n) {
    return Values{b.clamp(tensor_arg(n, "self"), scalar_arg(n, "min"), std::nullopt)};
  }},
  {"aten.clamp_max.default", [](GraphBuilder& b, const ir::Node& n) {
    return Values{b.clamp(tensor_arg(n, "self"), std::nullopt, scalar_arg(n, "max"))};
  }},
  {"aten.square.default", [](GraphBuilder& b, const ir::Node& n) {
    const auto x = tensor_arg(n, "self");
    return Values{b.mul(tv(x), tv(x))};
  }, {.validator = [](const ir::NodeView& n) {
    return n.dtype_of("self") == DType::Bool ? Capability::no("square of a bool tensor") : Capability::yes();
  }}},
  {"aten.outer.default", [](GraphBuilder& b, const ir::Node& n) {
    const auto x = tensor_arg(n, "self");
    const auto y = tensor_arg(n, "vec2");
    if (b.rank(x) != 1 || b.rank(y) != 1) throw FormatError(n.describe() + ": outer expects 1-D tensors");
    return Values{b.mul(tv(b.unsqueeze(x, 1)), tv(y))};
  }},
  // start + i*step for the first half, end - (steps-1-i)*step for the rest (as PyTorch).
  {"aten.linspace.default", [](GraphBuilder& b, const ir::Node& n) {
    const double start = scalar_arg(n, "start"), end = scalar_arg(n, "end");
    const std::int64_t steps = int_arg(n, "steps");
    const DType dt = opt_dtype_arg(n, "dtype").value_or(DType::Float32);
    if (steps == 1) return Values{b.full({1}, start, dt)};
    const double step = (end - start) / static_cast<double>(steps - 1);
    const auto idx = b.arange(0, static_cast<double>(steps), 1, dt);
    const auto lo = b.add(tv(b.mul(tv(idx), num(step))), num(start));
    const auto hi = b.add(tv(b.mul(tv(b.sub(tv(idx), num(static_cast<double>(steps - 1)))), num(step))), num(end));
    const auto first_half = b.compare("lt", idx, num(static_cast<double>(steps / 2)));
    return Values{b.where(first_half, lo, hi)};
  }, {.validator = linspace_fits}},
  {"aten.zeros_like.default", like(0.0)},
  {"aten.ones_like.default", like(1.0)},
  {"aten.full_like.default", like(0.0)},
  // [*, C*r*r, H, W] -> [*, C, r, r, H, W] -> [*, C, H, r, W, r] -> [*, C, H*r, W*r]
  {"aten.pixel_shuffle.default", [](GraphBuilder& b, const ir::Node& n) {
    const auto x = tensor_arg(n, "self");
    const std::int64_t r = int_arg(n, "upscale_factor");
    auto s = b.static_sizes(x, "pixel_shuffle");
    if (s.size() < 3 || r <= 0 || s[s.size() - 3] % (r * r) != 0) {
      throw FormatError(n.describe() + ": channels must be divisible by upscale_factor^2");
    }
    const std::int64_t W = s.back(), H = s[s.size() - 2], C = s[s.size() - 3] / (r * r);
    std::vector<std::int64_t> lead(s.begin(), s.end() - 3);
    const auto L = static_cast<std::int64_t>(lead.size());
    auto v = lead;
    v.insert(v.end(), {C, r, r, H, W});
    std::vector<std::int64_t> perm;
    for (std::int64_t i = 0; i < L; ++i) perm.push_back(i);
    perm.insert(perm.end(), {L, L + 3, L + 1, L + 4, L + 2});
    auto out = lead;
    out.insert(out.end(), {C, H * r, W * r});
    return Values{b.reshape(b.permute(b.view(x, v), perm), out)};
  }},
  // [*, C, H*r, W*r] -> [*, C, H, r, W, r] -> [*, C, r, r, H, W] -> [*, C*r*r, H, W]
  {"aten.pixel_unshuffle.default", [](GraphBuilder& b, const ir::Node& n) {
    const auto x = tensor_arg(n, "self");
    const std::int64_t r = int_arg(n, "downscale_factor");
    auto s = b.static_sizes(x, "pixel_unshuffle");
    if (s.size() < 3 || r <= 0 || s.back() % r != 0 || s[s.size() - 2] % r != 0) {
      throw FormatError(n.describe() + ": spatial dims must be divisible by downscale_factor");
    }
    const std::int64_t W = s.back() / r, H = s[s.size() - 2] / r, C = s[s.size() - 3];
    std::vector<std::int64_t> lead(s.begin(), s.end() - 3);
    const auto L = static_cast<std::int64_t>(lead.size());
    auto v = lead;
    v.insert(v.end(), {C, H, r, W, r});
    std::vector<std::int64_t> perm;
    for (std::int64_t i = 0; i < L; ++i) perm.push_back(i);
    perm.insert(perm.end(), {L, L + 2, L + 4, L + 1, L + 3});
    auto out = lead;
    out.insert(out.end(), {C * r * r, H, W});
    return Values{b.reshape(b.permute(b.view(x, v), perm), out)};
  }},
  // One index_select with a reversed arange per flipped dim.
  {"aten.flip.default", [](GraphBuilder& b, const ir::Node& n) {
    auto x = tensor_arg(n, "self");
    const auto in = x;
    for (auto d : int_list_arg(n, "dims")) {
      d = normalize_dim(d, b.rank(in), n.describe());
      const auto size = b.static_dim(in, static_cast<int>(d), "flip");
      if (size <= 1) continue;
      x = b.index_select(x, d, b.arange(static_cast<double>(size - 1), -1, -1, DType::Int64));
    }
    return Values{x};
  }},
  {"aten.tril.default", [](GraphBuilder& b, const ir::Node& n) { return Values{triangle(b, n, "le")}; }},
  {"aten.triu.default", [](GraphBuilder& b, const ir::Node& n) { return Values{triangle(b, n, "ge")}; }},
}};

}  // namespace
}  // namespace atenrt::lowering::decomp
