#include "conversion/impl/other.h"

#include <cmath>

#include "conversion/host_tensor.h"
#include "conversion/impl/reduce.h"

namespace atenrt::conversion::impl::other {

using network::ElementwiseOp;

std::optional<std::string> upsample_problem(std::int64_t rank, std::size_t spatial,
                                            const std::vector<std::int64_t>& output_size) {
  if (rank >= 0 && rank != static_cast<std::int64_t>(spatial) + 2) {
    return "upsample needs [N, C] + " + std::to_string(spatial) + " spatial dims, got rank " + std::to_string(rank);
  }
  if (!output_size.empty() && output_size.size() != spatial) {
    return "output_size needs " + std::to_string(spatial) + " entries";
  }
  return std::nullopt;
}

std::optional<std::string> cdist_problem(std::int64_t rank1, std::int64_t rank2) {
  if ((rank1 < 0 || rank1 >= 2) && (rank2 < 0 || rank2 >= 2)) return std::nullopt;
  return "cdist inputs need at least 2 dims";
}

NetworkTensor* upsample(const Scope& s, NetworkTensor* x, network::ResizeMode mode, std::size_t spatial,
                        std::optional<std::vector<std::int64_t>> output_size,
                        std::optional<std::vector<double>> scales, bool align_corners) {
  if (auto why = upsample_problem(x->rank(), spatial, output_size.value_or(std::vector<std::int64_t>{}))) {
    check(false, *why);
  }
  if (!is_floating(x->dtype)) x = cast(s, x, DType::Float32);
  network::ResizeParams p;
  p.mode = mode;
  p.align_corners = align_corners;
  if (scales && scales->size() == 1 && spatial > 1) scales->assign(spatial, (*scales)[0]);
  if (output_size && !output_size->empty()) {
    p.output_size = *output_size;
  } else {
    check(scales.has_value() && scales->size() == spatial, "upsample needs output_size or one scale per spatial dim");
    for (std::size_t i = 0; i < spatial; ++i) {
      const auto in = x->dims[2 + i];
      check(in >= 0, "upsample by scale needs static spatial dims");
      p.output_size.push_back(static_cast<std::int64_t>(std::floor(static_cast<double>(in) * (*scales)[i])));
    }
  }
  if (scales && scales->size() == spatial) p.scales = *scales;
  return s.add_resize("", x, p);
}

NetworkTensor* upsample_to(const Scope& s, NetworkTensor* x, network::ResizeMode mode, const std::vector<Value>& output_size,
                           std::optional<std::vector<double>> scales, bool align_corners) {
  const std::size_t spatial = output_size.size();
  if (auto why = upsample_problem(x->rank(), spatial, std::vector<std::int64_t>(spatial, 1))) check(false, *why);
  if (!is_floating(x->dtype)) x = cast(s, x, DType::Float32);
  std::vector<NetworkTensor*> pieces;
  for (std::size_t k = 0; k < spatial; ++k) {
    const Value& e = output_size[k];
    const std::string name = "size_" + std::to_string(k);
    if (e.is_int()) {
      check(e.as_int() >= 1, "output_size element " + std::to_string(k) + " must be positive");
      pieces.push_back(s.constant(int64_tensor({1}, {e.as_int()}), name));
      continue;
    }
    check(e.is_network_tensor() && e.network_tensor()->rank() == 0 && is_integral(e.network_tensor()->dtype),
          "output_size element " + std::to_string(k) + " is " + e.describe() + ", not an integer");
    pieces.push_back(s.add_reshape(name, cast(s, e.network_tensor(), DType::Int64), {1}));
  }
  network::ResizeParams p;
  p.mode = mode;
  p.align_corners = align_corners;
  p.output_size.assign(spatial, -1);
  if (scales && scales->size() == spatial) p.scales = *scales;
  return s.add_resize("", x, p, pieces.size() == 1 ? pieces[0] : s.add_concatenation("size", pieces, 0));
}

std::pair<NetworkTensor*, NetworkTensor*> topk(const Scope& s,
                                               NetworkTensor* x, std::int64_t k, std::int64_t dim, bool largest,
                                               network::TopKTies ties) {
  NetworkTensor* in = x;
  if (x->rank() == 0) in = reshape(s, x, {1});
  const auto d = normalize_dim(dim, in->rank());
  auto* layer = s.add_topk("", in, k, d, largest, ties);
  NetworkTensor* values = layer->output(0);
  NetworkTensor* indices = layer->output(1);
  if (x->rank() == 0) {
    values = reshape(s.child("values"), values, {});
    indices = reshape(s.child("indices"), indices, {});
  }
  return {values, indices};
}

NetworkTensor* cross(const Scope& s, NetworkTensor* a, NetworkTensor* b, std::int64_t dim) {
  const DType dt = promote_types(a->dtype, b->dtype);
  a = cast(s, a, dt);
  b = cast(s, b, dt);
  auto dims = network::broadcast_dims(a->dims, b->dims);
  check(dims.has_value(), "cross: inputs do not broadcast");
  a = expand(s, a, *dims);
  b = expand(s, b, *dims);
  const auto d = normalize_dim(dim, static_cast<std::int64_t>(dims->size()));
  check((*dims)[static_cast<std::size_t>(d)] == 3, "cross needs size 3 on dim " + std::to_string(dim));
  auto part = [&](NetworkTensor* t, std::int64_t i) { return slice_axis(s, t, d, i, i + 1); };
  auto term = [&](std::int64_t i, std::int64_t j) {
    return ew(s, ew(s, part(a, i), part(b, j), ElementwiseOp::Mul),
              ew(s, part(a, j), part(b, i), ElementwiseOp::Mul), ElementwiseOp::Sub);
  };
  return s.add_concatenation("", {term(1, 2), term(2, 0), term(0, 1)}, d);
}

NetworkTensor* cdist(const Scope& s, NetworkTensor* x1, NetworkTensor* x2, double p) {
  if (auto why = cdist_problem(x1->rank(), x2->rank())) check(false, *why);
  auto* a = unsqueeze(s, x1, -2);  // [*, P, 1, M]
  auto* b = unsqueeze(s, x2, -3);  // [*, 1, R, M]
  auto* diff = ew(s, a, cast(s, b, a->dtype), ElementwiseOp::Sub);
  return reduce::vector_norm(s, diff, p, {-1}, false);
}

NetworkTensor* pdist(const Scope& s, NetworkTensor* x, double p) {
  check(x->rank() == 2 && x->dims[0] >= 0, "pdist needs a 2-d input with a static row count");
  const auto n = x->dims[0];
  if (n < 2) return fill(s, {0}, 0.0, x->dtype);  // no pairs
  std::vector<std::int64_t> is, js;
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = i + 1; j < n; ++j) {
      is.push_back(i);
      js.push_back(j);
    }
  }
  const auto k = static_cast<std::int64_t>(is.size());
  auto* ri = s.add_gather("rows_i", x, s.add_constant("i", int64_tensor({k}, is)),
                                  network::GatherMode::Axis, 0);
  auto* rj = s.add_gather("rows_j", x, s.add_constant("j", int64_tensor({k}, js)),
                                  network::GatherMode::Axis, 0);
  return reduce::vector_norm(s, ew(s, ri, rj, ElementwiseOp::Sub), p, {1}, false);
}

NetworkTensor* grid_sample_2d(const Scope& s, NetworkTensor* x,
                              NetworkTensor* grid, std::int64_t mode, std::int64_t padding, bool align_corners) {
  check(x->rank() == 4 && grid->rank() == 4 && grid->dims[3] == 2, "grid_sampler_2d needs [N, C, H, W] and [N, Ho, Wo, 2]");
  const Dims& xd = static_dims(x, "grid_sampler_2d");
  const Dims& gd = static_dims(grid, "grid_sampler_2d");
  const auto n = xd[0], c = xd[1], h = xd[2], w = xd[3], ho = gd[1], wo = gd[2];
  if (!is_floating(x->dtype)) x = cast(s, x, DType::Float32);
  grid = cast(s, grid, x->dtype);
  const DType dt = x->dtype;
  auto coord = [&](std::int64_t axis, std::int64_t size) {
    auto* g = reshape(s, slice_axis(s, grid, 3, axis, axis + 1), {n, ho, wo});
    // Unnormalize [-1, 1] to pixel coordinates.
    NetworkTensor* r;
    if (align_corners) {
      r = ew_scalar(s, ew_scalar(s, g, 1.0, ElementwiseOp::Add), (size - 1) / 2.0, ElementwiseOp::Mul);
    } else {
      r = ew_scalar(s, ew_scalar(s, ew_scalar(s, g, 1.0, ElementwiseOp::Add),
                                         static_cast<double>(size), ElementwiseOp::Mul),
                    0.5, ElementwiseOp::Mul);
      r = ew_scalar(s, r, 0.5, ElementwiseOp::Sub);
    }
    if (padding == 1) {
      // PyTorch clamps with max(NaN, 0) = 0: a NaN coordinate samples the first row/column.
      auto* nan = s.add_unary("isnan", r, network::UnaryOp::IsNan);
      r = s.add_select("nan_to_zero", nan, scalar_constant(s, 0.0, dt), r);
      r = ew_scalar(s, ew_scalar(s, r, 0.0, ElementwiseOp::Max), static_cast<double>(size - 1),
                    ElementwiseOp::Min);
    }
    return r;
  };
  auto* ix = coord(0, w);
  auto* iy = coord(1, h);
  auto* data = reshape(s, x, {n, c, h * w});
  // One corner: value at (xc, yc) times weight, zero outside the image.
  auto sample = [&](NetworkTensor* xc, NetworkTensor* yc, NetworkTensor* weight) {
    auto inside = [&](NetworkTensor* v, std::int64_t size) {
      return ew(s, ew_scalar(s, v, 0.0, ElementwiseOp::GreaterEqual),
                ew_scalar(s, v, static_cast<double>(size - 1), ElementwiseOp::LessEqual), ElementwiseOp::And);
    };
    auto* valid = ew(s, inside(xc, w), inside(yc, h), ElementwiseOp::And);
    // Corners outside the image (NaN and ±inf included: their comparisons fail) read pixel 0 and
    // are weighted out; a non-finite weight still makes the result NaN, as in PyTorch.
    auto clampi = [&](NetworkTensor* v, NetworkTensor* ok, std::int64_t size) {
      auto* in = s.add_select("outside_to_zero", ok, v, scalar_constant(s, 0.0, dt));
      auto* cl = ew_scalar(s, ew_scalar(s, in, 0.0, ElementwiseOp::Max), static_cast<double>(size - 1),
                           ElementwiseOp::Min);
      return cast(s, cl, DType::Int64);
    };
    auto* flat = ew(s, ew_scalar(s, clampi(yc, valid, h), static_cast<double>(w), ElementwiseOp::Mul),
                    clampi(xc, valid, w), ElementwiseOp::Add);
    auto* idx = expand(s, reshape(s, flat, {n, 1, ho * wo}), {n, c, ho * wo});
    auto* vals = s.add_gather("gather", data, idx, network::GatherMode::Elements, 2);
    auto* wv = ew(s, weight, cast(s, valid, dt), ElementwiseOp::Mul);
    return ew(s, vals, reshape(s, wv, {n, 1, ho * wo}), ElementwiseOp::Mul);
  };
  NetworkTensor* out;
  if (mode == 1) {
    auto* rx = s.add_unary("round", ix, network::UnaryOp::Round);
    auto* ry = s.add_unary("round", iy, network::UnaryOp::Round);
    out = sample(rx, ry, fill(s, {n, ho, wo}, 1.0, dt));
  } else {
    check(mode == 0, "grid_sampler interpolation mode " + std::to_string(mode) + " (only bilinear and nearest)");
    auto* x0 = s.add_unary("floor", ix, network::UnaryOp::Floor);
    auto* y0 = s.add_unary("floor", iy, network::UnaryOp::Floor);
    auto* x1 = ew_scalar(s, x0, 1.0, ElementwiseOp::Add);
    auto* y1 = ew_scalar(s, y0, 1.0, ElementwiseOp::Add);
    auto* wx1 = ew(s, ix, x0, ElementwiseOp::Sub);
    auto* wy1 = ew(s, iy, y0, ElementwiseOp::Sub);
    auto* one = scalar_constant(s, 1.0, dt);
    auto* wx0 = ew(s, one, wx1, ElementwiseOp::Sub);
    auto* wy0 = ew(s, one, wy1, ElementwiseOp::Sub);
    out = sample(x0, y0, ew(s, wx0, wy0, ElementwiseOp::Mul));
    out = ew(s, out, sample(x1, y0, ew(s, wx1, wy0, ElementwiseOp::Mul)), ElementwiseOp::Add);
    out = ew(s, out, sample(x0, y1, ew(s, wx0, wy1, ElementwiseOp::Mul)), ElementwiseOp::Add);
    out = ew(s, out, sample(x1, y1, ew(s, wx1, wy1, ElementwiseOp::Mul)), ElementwiseOp::Add);
  }
  return s.add_reshape("", out, {n, c, ho, wo});
}

}  // namespace atenrt::conversion::impl::other
