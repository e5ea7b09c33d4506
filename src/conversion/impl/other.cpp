#include "conversion/impl/other.h"

#include <cmath>

#include "conversion/host_tensor.h"
#include "conversion/impl/reduce.h"

namespace atenrt::conversion::impl::other {

using network::ElementwiseOp;

NetworkTensor* upsample(ConversionContext& ctx, SourceIR, std::string_view name, NetworkTensor* x,
                        network::ResizeMode mode, std::size_t spatial,
                        std::optional<std::vector<std::int64_t>> output_size,
                        std::optional<std::vector<double>> scales, bool align_corners) {
  check(static_cast<std::size_t>(x->rank()) == spatial + 2,
        "upsample needs [N, C] + " + std::to_string(spatial) + " spatial dims, got " + network::desc_to_string(x->desc()));
  if (!is_floating(x->dtype)) x = cast(ctx, name, x, DType::Float32);
  network::ResizeParams p;
  p.mode = mode;
  p.align_corners = align_corners;
  if (scales && scales->size() == 1 && spatial > 1) scales->assign(spatial, (*scales)[0]);
  if (output_size && !output_size->empty()) {
    check(output_size->size() == spatial, "output_size needs " + std::to_string(spatial) + " entries");
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
  return ctx.net().add_resize(ctx.layer_name(name), x, p);
}

std::pair<NetworkTensor*, NetworkTensor*> topk(ConversionContext& ctx, SourceIR, std::string_view name,
                                               NetworkTensor* x, std::int64_t k, std::int64_t dim, bool largest) {
  NetworkTensor* in = x;
  if (x->rank() == 0) in = reshape(ctx, name, x, {1});
  const auto d = normalize_dim(dim, in->rank());
  auto* layer = ctx.net().add_topk(ctx.layer_name(name), in, k, d, largest);
  NetworkTensor* values = layer->output(0);
  NetworkTensor* indices = layer->output(1);
  if (x->rank() == 0) {
    values = reshape(ctx, std::string(name) + ".values", values, {});
    indices = reshape(ctx, std::string(name) + ".indices", indices, {});
  }
  return {values, indices};
}

NetworkTensor* cross(ConversionContext& ctx, SourceIR, std::string_view name, NetworkTensor* a, NetworkTensor* b,
                     std::int64_t dim) {
  const DType dt = promote_types(a->dtype, b->dtype);
  a = cast(ctx, name, a, dt);
  b = cast(ctx, name, b, dt);
  auto dims = network::broadcast_dims(a->dims, b->dims);
  check(dims.has_value(), "cross: inputs do not broadcast");
  a = expand(ctx, name, a, *dims);
  b = expand(ctx, name, b, *dims);
  const auto d = normalize_dim(dim, static_cast<std::int64_t>(dims->size()));
  check((*dims)[static_cast<std::size_t>(d)] == 3, "cross needs size 3 on dim " + std::to_string(dim));
  auto part = [&](NetworkTensor* t, std::int64_t i) { return slice_axis(ctx, name, t, d, i, i + 1); };
  auto term = [&](std::int64_t i, std::int64_t j) {
    return ew(ctx, name, ew(ctx, name, part(a, i), part(b, j), ElementwiseOp::Mul),
              ew(ctx, name, part(a, j), part(b, i), ElementwiseOp::Mul), ElementwiseOp::Sub);
  };
  return ctx.net().add_concatenation(ctx.layer_name(name), {term(1, 2), term(2, 0), term(0, 1)}, d);
}

NetworkTensor* cdist(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x1, NetworkTensor* x2,
                     double p) {
  check(x1->rank() >= 2 && x2->rank() >= 2, "cdist inputs need at least 2 dims");
  auto* a = unsqueeze(ctx, name, x1, -2);  // [*, P, 1, M]
  auto* b = unsqueeze(ctx, name, x2, -3);  // [*, 1, R, M]
  auto* diff = ew(ctx, name, a, cast(ctx, name, b, a->dtype), ElementwiseOp::Sub);
  return reduce::vector_norm(ctx, src, name, diff, p, {-1}, false);
}

NetworkTensor* pdist(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x, double p) {
  check(x->rank() == 2 && x->dims[0] >= 2, "pdist needs a 2-d input with at least 2 rows");
  const auto n = x->dims[0];
  std::vector<std::int64_t> is, js;
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = i + 1; j < n; ++j) {
      is.push_back(i);
      js.push_back(j);
    }
  }
  const auto k = static_cast<std::int64_t>(is.size());
  auto* ri = ctx.net().add_gather(ctx.layer_name(name, "rows_i"), x,
                                  ctx.net().add_constant(ctx.layer_name(name, "i"), int64_tensor({k}, is)),
                                  network::GatherMode::Axis, 0);
  auto* rj = ctx.net().add_gather(ctx.layer_name(name, "rows_j"), x,
                                  ctx.net().add_constant(ctx.layer_name(name, "j"), int64_tensor({k}, js)),
                                  network::GatherMode::Axis, 0);
  return reduce::vector_norm(ctx, src, name, ew(ctx, name, ri, rj, ElementwiseOp::Sub), p, {1}, false);
}

NetworkTensor* grid_sample_2d(ConversionContext& ctx, SourceIR, std::string_view name, NetworkTensor* x,
                              NetworkTensor* grid, std::int64_t mode, std::int64_t padding, bool align_corners) {
  check(x->rank() == 4 && grid->rank() == 4 && grid->dims[3] == 2, "grid_sampler_2d needs [N, C, H, W] and [N, Ho, Wo, 2]");
  const Dims& xd = static_dims(x, "grid_sampler_2d");
  const Dims& gd = static_dims(grid, "grid_sampler_2d");
  const auto n = xd[0], c = xd[1], h = xd[2], w = xd[3], ho = gd[1], wo = gd[2];
  if (!is_floating(x->dtype)) x = cast(ctx, name, x, DType::Float32);
  grid = cast(ctx, name, grid, x->dtype);
  const DType dt = x->dtype;
  auto coord = [&](std::int64_t axis, std::int64_t size) {
    auto* g = reshape(ctx, name, slice_axis(ctx, name, grid, 3, axis, axis + 1), {n, ho, wo});
    // Unnormalize [-1, 1] to pixel coordinates.
    NetworkTensor* r;
    if (align_corners) {
      r = ew_scalar(ctx, name, ew_scalar(ctx, name, g, 1.0, ElementwiseOp::Add), (size - 1) / 2.0, ElementwiseOp::Mul);
    } else {
      r = ew_scalar(ctx, name, ew_scalar(ctx, name, ew_scalar(ctx, name, g, 1.0, ElementwiseOp::Add),
                                         static_cast<double>(size), ElementwiseOp::Mul),
                    0.5, ElementwiseOp::Mul);
      r = ew_scalar(ctx, name, r, 0.5, ElementwiseOp::Sub);
    }
    if (padding == 1) {
      r = ew_scalar(ctx, name, ew_scalar(ctx, name, r, 0.0, ElementwiseOp::Max), static_cast<double>(size - 1),
                    ElementwiseOp::Min);
    }
    return r;
  };
  auto* ix = coord(0, w);
  auto* iy = coord(1, h);
  auto* data = reshape(ctx, name, x, {n, c, h * w});
  // One corner: value at (xc, yc) times weight, zero outside the image.
  auto sample = [&](NetworkTensor* xc, NetworkTensor* yc, NetworkTensor* weight) {
    auto inside = [&](NetworkTensor* v, std::int64_t size) {
      return ew(ctx, name, ew_scalar(ctx, name, v, 0.0, ElementwiseOp::GreaterEqual),
                ew_scalar(ctx, name, v, static_cast<double>(size - 1), ElementwiseOp::LessEqual), ElementwiseOp::And);
    };
    auto* valid = ew(ctx, name, inside(xc, w), inside(yc, h), ElementwiseOp::And);
    auto clampi = [&](NetworkTensor* v, std::int64_t size) {
      auto* cl = ew_scalar(ctx, name, ew_scalar(ctx, name, v, 0.0, ElementwiseOp::Max), static_cast<double>(size - 1),
                           ElementwiseOp::Min);
      return cast(ctx, name, cl, DType::Int64);
    };
    auto* flat = ew(ctx, name, ew_scalar(ctx, name, clampi(yc, h), static_cast<double>(w), ElementwiseOp::Mul),
                    clampi(xc, w), ElementwiseOp::Add);
    auto* idx = expand(ctx, name, reshape(ctx, name, flat, {n, 1, ho * wo}), {n, c, ho * wo});
    auto* vals = ctx.net().add_gather(ctx.layer_name(name, "gather"), data, idx, network::GatherMode::Elements, 2);
    auto* wv = ew(ctx, name, weight, cast(ctx, name, valid, dt), ElementwiseOp::Mul);
    return ew(ctx, name, vals, reshape(ctx, name, wv, {n, 1, ho * wo}), ElementwiseOp::Mul);
  };
  NetworkTensor* out;
  if (mode == 1) {
    auto* rx = ctx.net().add_unary(ctx.layer_name(name, "round"), ix, network::UnaryOp::Round);
    auto* ry = ctx.net().add_unary(ctx.layer_name(name, "round"), iy, network::UnaryOp::Round);
    out = sample(rx, ry, fill(ctx, name, {n, ho, wo}, 1.0, dt));
  } else {
    check(mode == 0, "grid_sampler interpolation mode " + std::to_string(mode) + " (only bilinear and nearest)");
    auto* x0 = ctx.net().add_unary(ctx.layer_name(name, "floor"), ix, network::UnaryOp::Floor);
    auto* y0 = ctx.net().add_unary(ctx.layer_name(name, "floor"), iy, network::UnaryOp::Floor);
    auto* x1 = ew_scalar(ctx, name, x0, 1.0, ElementwiseOp::Add);
    auto* y1 = ew_scalar(ctx, name, y0, 1.0, ElementwiseOp::Add);
    auto* wx1 = ew(ctx, name, ix, x0, ElementwiseOp::Sub);
    auto* wy1 = ew(ctx, name, iy, y0, ElementwiseOp::Sub);
    auto* one = scalar_constant(ctx, name, 1.0, dt);
    auto* wx0 = ew(ctx, name, one, wx1, ElementwiseOp::Sub);
    auto* wy0 = ew(ctx, name, one, wy1, ElementwiseOp::Sub);
    out = sample(x0, y0, ew(ctx, name, wx0, wy0, ElementwiseOp::Mul));
    out = ew(ctx, name, out, sample(x1, y0, ew(ctx, name, wx1, wy0, ElementwiseOp::Mul)), ElementwiseOp::Add);
    out = ew(ctx, name, out, sample(x0, y1, ew(ctx, name, wx0, wy1, ElementwiseOp::Mul)), ElementwiseOp::Add);
    out = ew(ctx, name, out, sample(x1, y1, ew(ctx, name, wx1, wy1, ElementwiseOp::Mul)), ElementwiseOp::Add);
  }
  return ctx.net().add_reshape(ctx.layer_name(name), out, {n, c, ho, wo});
}

}  // namespace atenrt::conversion::impl::other
