// Reference kernel: resize (nearest, nearest-exact, linear, bicubic) with
// torch's coordinate rules (upsample_* kernels in ATen).
#include <cmath>

#include "reference/kernels.h"
#include "reference/resize_taps.h"

namespace atenrt::reference::detail {

namespace {
double cubic1(double x, double a) { return ((a + 2) * x - (a + 3)) * x * x + 1; }
double cubic2(double x, double a) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; }

}  // namespace

Taps taps_for(const ResizeParams& p, std::size_t d, std::int64_t o, std::int64_t in, std::int64_t out) {
  Taps t{};
  const bool has_scale = !p.scales.empty();
  if (p.mode == ResizeMode::Nearest || p.mode == ResizeMode::NearestExact) {
    // torch computes this scale in float.
    const float scale = has_scale ? static_cast<float>(1.0 / p.scales[d])
                                  : static_cast<float>(in) / static_cast<float>(out);
    const float offset = p.mode == ResizeMode::NearestExact ? 0.5f : 0.0f;
    const auto src = static_cast<std::int64_t>(std::floor((static_cast<float>(o) + offset) * scale));
    t.index[0] = std::min(src, in - 1);
    t.weight[0] = 1.0;
    t.count = 1;
    return t;
  }
  const bool cubic = p.mode == ResizeMode::Cubic;
  double src;
  if (p.align_corners) {
    src = out > 1 ? static_cast<double>(in - 1) / static_cast<double>(out - 1) * static_cast<double>(o) : 0.0;
  } else {
    const double scale = has_scale ? 1.0 / p.scales[d] : static_cast<double>(in) / static_cast<double>(out);
    src = scale * (static_cast<double>(o) + 0.5) - 0.5;
    if (!cubic && src < 0) src = 0;
  }
  const auto i0 = static_cast<std::int64_t>(std::floor(src));
  const double f = src - static_cast<double>(i0);
  if (!cubic) {
    const std::int64_t lo = std::min(i0, in - 1);
    t.index[0] = lo;
    t.index[1] = lo + (lo < in - 1 ? 1 : 0);
    t.weight[0] = 1.0 - f;
    t.weight[1] = f;
    t.count = 2;
    return t;
  }
  constexpr double kA = -0.75;
  t.weight[0] = cubic2(f + 1, kA);
  t.weight[1] = cubic1(f, kA);
  t.weight[2] = cubic1(1 - f, kA);
  t.weight[3] = cubic2(2 - f, kA);
  for (int k = 0; k < 4; ++k) t.index[k] = std::min(std::max<std::int64_t>(i0 - 1 + k, 0), in - 1);
  t.count = 4;
  return t;
}


Outs kernel(const KernelContext& ctx, const ResizeParams& p) {
  const Dims& xs = ctx.in(0).sizes();
  const Dims& ys = ctx.out().dims;
  const std::size_t spatial = p.output_size.size();
  // Pad to 3 spatial dims with size-1 dims (a single tap of weight 1).
  std::int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1};
  for (std::size_t d = 0; d < spatial; ++d) {
    in[3 - spatial + d] = xs[2 + d];
    out[3 - spatial + d] = ys[2 + d];
  }
  std::vector<Taps> taps[3];
  for (int d = 0; d < 3; ++d) {
    const int real = d - static_cast<int>(3 - spatial);
    for (std::int64_t o = 0; o < out[d]; ++o) {
      if (real < 0) {
        taps[d].push_back(Taps{{0, 0, 0, 0}, {1, 0, 0, 0}, 1});
      } else {
        taps[d].push_back(taps_for(p, static_cast<std::size_t>(real), o, in[d], out[d]));
      }
    }
  }
  const auto x = load_f64(ctx.in(0));
  const std::int64_t planes = xs[0] * xs[1], in_plane = in[0] * in[1] * in[2];
  std::vector<double> y;
  y.reserve(static_cast<std::size_t>(numel_of(ys)));
  for (std::int64_t pl = 0; pl < planes; ++pl)
    for (std::int64_t a = 0; a < out[0]; ++a)
      for (std::int64_t b = 0; b < out[1]; ++b)
        for (std::int64_t c = 0; c < out[2]; ++c) {
          const Taps &ta = taps[0][a], &tb = taps[1][b], &tc = taps[2][c];
          double acc = 0.0;
          for (int i = 0; i < ta.count; ++i)
            for (int j = 0; j < tb.count; ++j)
              for (int k = 0; k < tc.count; ++k) {
                acc += ta.weight[i] * tb.weight[j] * tc.weight[k] *
                       x[pl * in_plane + (ta.index[i] * in[1] + tb.index[j]) * in[2] + tc.index[k]];
              }
          y.push_back(acc);
        }
  return {make_f64(ctx.out().dtype, ys, y)};
}

}  // namespace atenrt::reference::detail
