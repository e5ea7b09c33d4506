// Reference kernels: matmul, convolution, deconvolution (direct loops).
#include "reference/kernels.h"

namespace atenrt::reference::detail {

namespace {

// Pads 1d/2d spatial vectors to 3 entries (leading unit dims) so one loop
// nest covers conv1d/2d/3d.
Dims to3(const Dims& v, std::int64_t fill) {
  Dims out(3 - v.size(), fill);
  out.insert(out.end(), v.begin(), v.end());
  return out;
}

// [N, C, s...] dims as [N, C, d, h, w].
Dims dims5(const Dims& d) {
  Dims out{d[0], d[1]};
  const Dims s = to3(Dims(d.begin() + 2, d.end()), 1);
  out.insert(out.end(), s.begin(), s.end());
  return out;
}

}  // namespace

Outs kernel(const KernelContext& ctx, const MatMulParams& p) {
  const Tensor& ta = ctx.in(0);
  const Tensor& tb = ctx.in(1);
  const Dims am = ta.dim() == 1 ? Dims{1, ta.sizes()[0]} : ta.sizes();
  const Dims bm = tb.dim() == 1 ? Dims{tb.sizes()[0], 1} : tb.sizes();
  const std::size_t ra = am.size(), rb = bm.size();
  const std::int64_t m = p.transpose_a ? am[ra - 1] : am[ra - 2];
  const std::int64_t k = p.transpose_a ? am[ra - 2] : am[ra - 1];
  const std::int64_t n = p.transpose_b ? bm[rb - 2] : bm[rb - 1];
  if ((p.transpose_b ? bm[rb - 1] : bm[rb - 2]) != k) ctx.input_error("inner dims differ at run time");
  const Dims batch_a(am.begin(), am.end() - 2), batch_b(bm.begin(), bm.end() - 2);
  const Dims batch = *broadcast_dims(batch_a, batch_b);
  const auto map_a = broadcast_map(batch, batch_a);
  const auto map_b = broadcast_map(batch, batch_b);
  const std::int64_t nb = numel_of(batch);
  // Element (i, j) of the (possibly transposed) matrices at batch offset.
  auto a_at = [&](std::int64_t base, std::int64_t i, std::int64_t j) {
    return base * m * k + (p.transpose_a ? j * m + i : i * k + j);
  };
  auto b_at = [&](std::int64_t base, std::int64_t i, std::int64_t j) {
    return base * k * n + (p.transpose_b ? j * k + i : i * n + j);
  };
  const bool fl = is_floating(ta.dtype());
  std::vector<double> yf;
  std::vector<std::int64_t> yi;
  if (fl) {
    const auto a = load_f64(ta), b = load_f64(tb);
    yf.assign(static_cast<std::size_t>(nb * m * n), 0.0);
    for (std::int64_t q = 0; q < nb; ++q) {
      for (std::int64_t i = 0; i < m; ++i) {
        for (std::int64_t j = 0; j < n; ++j) {
          double acc = 0.0;
          for (std::int64_t r = 0; r < k; ++r) acc += a[a_at(map_a[q], i, r)] * b[b_at(map_b[q], r, j)];
          yf[(q * m + i) * n + j] = acc;
        }
      }
    }
    return {make_f64(ctx.out().dtype, ctx.out().dims, yf)};
  }
  const auto a = load_i64(ta), b = load_i64(tb);
  yi.assign(static_cast<std::size_t>(nb * m * n), 0);
  for (std::int64_t q = 0; q < nb; ++q) {
    for (std::int64_t i = 0; i < m; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        std::uint64_t acc = 0;  // wraps like torch's integer matmul
        for (std::int64_t r = 0; r < k; ++r) {
          acc += static_cast<std::uint64_t>(a[a_at(map_a[q], i, r)]) *
                 static_cast<std::uint64_t>(b[b_at(map_b[q], r, j)]);
        }
        yi[(q * m + i) * n + j] = static_cast<std::int64_t>(acc);
      }
    }
  }
  return {make_i64(ctx.out().dtype, ctx.out().dims, yi)};
}

Outs kernel(const KernelContext& ctx, const ConvolutionParams& p) {
  const Dims xd = dims5(ctx.in(0).sizes()), wd = dims5(ctx.in(1).sizes()), yd = dims5(ctx.out().dims);
  const Dims st = to3(p.stride, 1), pp = to3(p.padding_pre, 0), dl = to3(p.dilation, 1);
  const auto x = load_f64(ctx.in(0));
  const auto w = load_f64(ctx.in(1));
  const std::vector<double> bias = ctx.inputs.size() > 2 ? load_f64(ctx.in(2)) : std::vector<double>();
  const std::int64_t cin_g = wd[1], cout_g = yd[1] / p.groups;
  std::vector<double> y(static_cast<std::size_t>(numel_of(yd)), 0.0);
  std::size_t yi = 0;
  for (std::int64_t n = 0; n < yd[0]; ++n)
    for (std::int64_t co = 0; co < yd[1]; ++co) {
      const std::int64_t g = co / cout_g;
      for (std::int64_t od = 0; od < yd[2]; ++od)
        for (std::int64_t oh = 0; oh < yd[3]; ++oh)
          for (std::int64_t ow = 0; ow < yd[4]; ++ow) {
            double acc = bias.empty() ? 0.0 : bias[co];
            for (std::int64_t ci = 0; ci < cin_g; ++ci) {
              const std::int64_t c = g * cin_g + ci;
              for (std::int64_t kd = 0; kd < wd[2]; ++kd) {
                const std::int64_t id = od * st[0] - pp[0] + kd * dl[0];
                if (id < 0 || id >= xd[2]) continue;
                for (std::int64_t kh = 0; kh < wd[3]; ++kh) {
                  const std::int64_t ih = oh * st[1] - pp[1] + kh * dl[1];
                  if (ih < 0 || ih >= xd[3]) continue;
                  for (std::int64_t kw = 0; kw < wd[4]; ++kw) {
                    const std::int64_t iw = ow * st[2] - pp[2] + kw * dl[2];
                    if (iw < 0 || iw >= xd[4]) continue;
                    acc += x[(((n * xd[1] + c) * xd[2] + id) * xd[3] + ih) * xd[4] + iw] *
                           w[(((co * wd[1] + ci) * wd[2] + kd) * wd[3] + kh) * wd[4] + kw];
                  }
                }
              }
            }
            y[yi++] = acc;
          }
    }
  return {make_f64(ctx.out().dtype, ctx.out().dims, y)};
}

Outs kernel(const KernelContext& ctx, const DeconvolutionParams& p) {
  const Dims xd = dims5(ctx.in(0).sizes()), wd = dims5(ctx.in(1).sizes()), yd = dims5(ctx.out().dims);
  const Dims st = to3(p.stride, 1), pp = to3(p.padding_pre, 0), dl = to3(p.dilation, 1);
  const auto x = load_f64(ctx.in(0));
  const auto w = load_f64(ctx.in(1));
  const std::int64_t cin_g = xd[1] / p.groups, cout_g = wd[1];
  std::vector<double> y(static_cast<std::size_t>(numel_of(yd)), 0.0);
  if (ctx.inputs.size() > 2) {
    const auto bias = load_f64(ctx.in(2));
    const std::int64_t plane = yd[2] * yd[3] * yd[4];
    for (std::int64_t i = 0; i < numel_of(yd); ++i) y[i] = bias[(i / plane) % yd[1]];
  }
  // Scatter form: every input element adds x * w to the outputs its kernel covers.
  for (std::int64_t n = 0; n < xd[0]; ++n)
    for (std::int64_t c = 0; c < xd[1]; ++c) {
      const std::int64_t g = c / cin_g;
      for (std::int64_t id = 0; id < xd[2]; ++id)
        for (std::int64_t ih = 0; ih < xd[3]; ++ih)
          for (std::int64_t iw = 0; iw < xd[4]; ++iw) {
            const double xv = x[(((n * xd[1] + c) * xd[2] + id) * xd[3] + ih) * xd[4] + iw];
            for (std::int64_t oc = 0; oc < cout_g; ++oc) {
              const std::int64_t co = g * cout_g + oc;
              for (std::int64_t kd = 0; kd < wd[2]; ++kd) {
                const std::int64_t od = id * st[0] - pp[0] + kd * dl[0];
                if (od < 0 || od >= yd[2]) continue;
                for (std::int64_t kh = 0; kh < wd[3]; ++kh) {
                  const std::int64_t oh = ih * st[1] - pp[1] + kh * dl[1];
                  if (oh < 0 || oh >= yd[3]) continue;
                  for (std::int64_t kw = 0; kw < wd[4]; ++kw) {
                    const std::int64_t ow = iw * st[2] - pp[2] + kw * dl[2];
                    if (ow < 0 || ow >= yd[4]) continue;
                    y[(((n * yd[1] + co) * yd[2] + od) * yd[3] + oh) * yd[4] + ow] +=
                        xv * w[(((c * wd[1] + oc) * wd[2] + kd) * wd[3] + kh) * wd[4] + kw];
                  }
                }
              }
            }
          }
    }
  return {make_f64(ctx.out().dtype, ctx.out().dims, y)};
}

}  // namespace atenrt::reference::detail
