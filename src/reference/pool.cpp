// Reference kernels: pooling, softmax, normalization.
#include <cmath>
#include <limits>

#include "reference/kernels.h"
#include "reference/scalar_math.h"

namespace atenrt::reference::detail {

namespace {
Dims pad3(const Dims& v, std::int64_t fill) {
  Dims out(3 - v.size(), fill);
  out.insert(out.end(), v.begin(), v.end());
  return out;
}
}  // namespace

Outs kernel(const KernelContext& ctx, const PoolingParams& p) {
  const Dims& xs = ctx.in(0).sizes();
  const Dims& ys = ctx.out().dims;
  const std::size_t spatial = p.adaptive ? p.output_size.size() : p.kernel.size();
  const std::size_t lead = xs.size() - spatial;
  const std::int64_t planes = prod(xs, 0, lead);
  const Dims in = pad3(Dims(xs.begin() + lead, xs.end()), 1);
  const Dims out = pad3(Dims(ys.begin() + lead, ys.end()), 1);
  const auto x = load_f64(ctx.in(0));
  std::vector<double> y(static_cast<std::size_t>(numel_of(ys)));
  const bool is_max = p.op == PoolingOp::Max;
  Dims k, st, pp, pq, dl;
  if (!p.adaptive) {
    k = pad3(p.kernel, 1), st = pad3(p.stride, 1), pp = pad3(p.padding_pre, 0);
    pq = pad3(p.padding_post, 0), dl = pad3(p.dilation, 1);
  }
  const std::int64_t in_plane = in[0] * in[1] * in[2];
  std::size_t yi = 0;
  for (std::int64_t pl = 0; pl < planes; ++pl) {
    const double* xp = x.data() + pl * in_plane;
    for (std::int64_t o0 = 0; o0 < out[0]; ++o0)
      for (std::int64_t o1 = 0; o1 < out[1]; ++o1)
        for (std::int64_t o2 = 0; o2 < out[2]; ++o2) {
          const std::int64_t o[3] = {o0, o1, o2};
          std::int64_t lo[3], hi[3], step[3];
          double divisor = 1.0;
          if (p.adaptive) {
            // torch: [floor(o*in/out), ceil((o+1)*in/out))
            for (int d = 0; d < 3; ++d) {
              lo[d] = (o[d] * in[d]) / out[d];
              hi[d] = ((o[d] + 1) * in[d] + out[d] - 1) / out[d];
              step[d] = 1;
            }
            divisor = static_cast<double>((hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]));
          } else {
            std::int64_t padded_size = 1, valid_size = 1;
            for (int d = 0; d < 3; ++d) {
              const std::int64_t start = o[d] * st[d] - pp[d];
              if (is_max) {
                lo[d] = start;
                hi[d] = start + (k[d] - 1) * dl[d] + 1;
                step[d] = dl[d];
              } else {
                // Window clipped to the padded input, then to the input (torch avg_pool).
                const std::int64_t end = std::min(start + k[d], in[d] + pq[d]);
                padded_size *= end - start;
                lo[d] = std::max<std::int64_t>(start, 0);
                hi[d] = std::min(end, in[d]);
                valid_size *= hi[d] - lo[d];
                step[d] = 1;
              }
            }
            if (!is_max) {
              divisor = p.divisor_override ? static_cast<double>(*p.divisor_override)
                        : p.count_include_pad ? static_cast<double>(padded_size)
                                              : static_cast<double>(valid_size);
            }
          }
          double acc = is_max ? -std::numeric_limits<double>::infinity() : 0.0;
          for (std::int64_t i0 = lo[0]; i0 < hi[0]; i0 += step[0]) {
            if (i0 < 0 || i0 >= in[0]) continue;
            for (std::int64_t i1 = lo[1]; i1 < hi[1]; i1 += step[1]) {
              if (i1 < 0 || i1 >= in[1]) continue;
              for (std::int64_t i2 = lo[2]; i2 < hi[2]; i2 += step[2]) {
                if (i2 < 0 || i2 >= in[2]) continue;
                const double v = xp[(i0 * in[1] + i1) * in[2] + i2];
                if (is_max) {
                  if (v > acc || std::isnan(v)) acc = v;  // NaN wins, as torch
                  if (std::isnan(acc)) goto done;
                } else {
                  acc += v;
                }
              }
            }
          }
        done:
          y[yi++] = is_max ? acc : acc / divisor;
        }
  }
  return {make_f64(ctx.out().dtype, ys, y)};
}

Outs kernel(const KernelContext& ctx, const SoftmaxParams& p) {
  const Dims& dims = ctx.in(0).sizes();
  const auto rank = static_cast<std::int64_t>(dims.size());
  const std::int64_t axis = rank == 0 ? 0 : (p.axis < 0 ? p.axis + rank : p.axis);
  const std::int64_t outer = prod(dims, 0, axis);
  const std::int64_t len = rank == 0 ? 1 : dims[axis];
  const std::int64_t inner = prod(dims, axis + 1, dims.size());
  auto x = load_f64(ctx.in(0));
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t i = 0; i < inner; ++i) {
      auto at = [&](std::int64_t j) -> double& { return x[(o * len + j) * inner + i]; };
      double mx = -std::numeric_limits<double>::infinity();
      for (std::int64_t j = 0; j < len; ++j) mx = std::max(mx, at(j));
      if (std::isinf(mx) && mx < 0) mx = 0.0;  // all -inf: keep exp finite (gives NaN like torch)
      double sum = 0.0;
      for (std::int64_t j = 0; j < len; ++j) sum += std::exp(at(j) - mx);
      for (std::int64_t j = 0; j < len; ++j) {
        at(j) = p.log ? at(j) - mx - std::log(sum) : std::exp(at(j) - mx) / sum;
      }
    }
  return {make_f64(ctx.out().dtype, ctx.out().dims, x)};
}

Outs kernel(const KernelContext& ctx, const NormalizationParams& p) {
  const Dims& dims = ctx.in(0).sizes();
  auto x = load_f64(ctx.in(0));
  const auto scale = load_f64(ctx.in(1));
  const auto bias = load_f64(ctx.in(2));
  const auto rank = static_cast<std::int64_t>(dims.size());
  if (p.op == NormalizationOp::Batch) {
    const auto mean = load_f64(ctx.in(3));
    const auto var = load_f64(ctx.in(4));
    const std::int64_t c = dims[1], inner = prod(dims, 2, dims.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      const std::int64_t ch = (static_cast<std::int64_t>(i) / inner) % c;
      x[i] = (x[i] - mean[ch]) / std::sqrt(var[ch] + p.epsilon) * scale[ch] + bias[ch];
    }
    return {make_f64(ctx.out().dtype, dims, x)};
  }
  if (p.op == NormalizationOp::Layer) {
    // PyTorch's arithmetic in the dtype's precision (math::layer_norm_row): rows of `block` elements.
    const std::int64_t axis = p.axis < 0 ? p.axis + rank : p.axis;
    const std::int64_t block = prod(dims, axis, dims.size());
    const std::int64_t nblocks = block == 0 ? 0 : static_cast<std::int64_t>(x.size()) / block;
    const bool wide = ctx.out().dtype == DType::Float64;
    for (std::int64_t b = 0; b < nblocks; ++b) {
      double* v = x.data() + b * block;
      if (wide) {
        math::layer_norm_row<double>(v, block, p.epsilon, scale.data(), bias.data(), v);
      } else {
        math::layer_norm_row<float>(v, block, p.epsilon, scale.data(), bias.data(), v);
      }
    }
    return {make_f64(ctx.out().dtype, dims, x)};
  }
  // Group and instance norm normalize contiguous blocks of `block` elements (biased variance).
  const std::int64_t channels = dims[1];
  const std::int64_t channel_inner = prod(dims, 2, dims.size());  // elements per channel
  const std::int64_t per_block = p.op == NormalizationOp::Group ? channels / p.num_groups : 1;
  const std::int64_t block = per_block * channel_inner;
  const std::int64_t nblocks = block == 0 ? 0 : static_cast<std::int64_t>(x.size()) / block;
  for (std::int64_t b = 0; b < nblocks; ++b) {
    double* v = x.data() + b * block;
    const auto [mean, inv] = math::mean_inv_std(v, block, p.epsilon);
    for (std::int64_t i = 0; i < block; ++i) {
      const std::int64_t flat = b * block + i;
      v[i] = (v[i] - mean) * inv * scale[(flat / channel_inner) % channels] + bias[(flat / channel_inner) % channels];
    }
  }
  return {make_f64(ctx.out().dtype, dims, x)};
}

}  // namespace atenrt::reference::detail
