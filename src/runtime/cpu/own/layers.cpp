// Our own kernels for layers real models hit that oneDNN 2.6 has no primitive
// for: group/instance normalization, layer norm of one-element rows, resize (taps precomputed at build),
// cumulative sum/product, top-k and log-softmax. Same formulas and accumulation order as
// the reference (double accumulators, reference/resize_taps.h), and nothing
// allocated in run: top-k's (value, index) pairs are context scratch.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "runtime/cpu/own/avx2_clones.h"
#include "runtime/cpu/own/parallel.h"
#include "runtime/cpu/own/util.h"
#include "reference/common.h"
#include "reference/resize_taps.h"
#include "reference/scalar_math.h"
#include "reference/topk_order.h"

namespace atenrt::runtime::cpu::own {
namespace {

using network::LayerKind;

// Group and instance norm over [N, C, *]: blocks of (C / groups) channels,
// biased variance, two passes in double, per-channel scale and shift.
std::unique_ptr<Kernel> group_norm(const KernelRequest& r) {
  const auto& p = std::get<network::NormalizationParams>(r.step->params);
  using N = network::NormalizationOp;
  if (p.op != N::Group && p.op != N::Instance) return nullptr;
  for (const auto& in : r.inputs) {
    if (in.tensor->dtype != DType::Float32) return nullptr;
  }
  const Dims& dims = r.inputs[0].tensor->dims;
  if (dims.size() < 2 || r.outputs[0]->dtype != DType::Float32) return nullptr;
  const std::int64_t channels = dims[1];
  std::int64_t channel_inner = 1;
  for (std::size_t d = 2; d < dims.size(); ++d) channel_inner *= dims[d];
  const std::int64_t per_block = p.op == N::Group ? (p.num_groups > 0 ? channels / p.num_groups : 0) : 1;
  if (per_block <= 0) return nullptr;
  const std::int64_t block = per_block * channel_inner;
  const std::int64_t nblocks = block == 0 ? 0 : numel_of(dims) / block;
  const double eps = p.epsilon;
  return fn_kernel([=](const KernelArgs& a) {
    const auto* x = static_cast<const float*>(a.inputs[0]);
    const auto* scale = static_cast<const float*>(a.inputs[1]);
    const auto* shift = static_cast<const float*>(a.inputs[2]);
    auto* y = static_cast<float*>(a.outputs[0]);
    for (std::int64_t b = 0; b < nblocks; ++b) {
      const float* v = x + b * block;
      const auto [mean, inv] = reference::math::mean_inv_std(v, block, eps);
      for (std::int64_t c = 0; c < per_block; ++c) {
        const std::int64_t ch = (b * per_block + c) % channels;
        const double s = scale[ch], t = shift[ch];
        const std::int64_t base = c * channel_inner;
        for (std::int64_t i = 0; i < channel_inner; ++i) {
          y[b * block + base + i] = static_cast<float>((v[base + i] - mean) * inv * s + t);
        }
      }
    }
  });
}

// Layer norm over rows of dims [axis, rank) in PyTorch's arithmetic
// (reference::math::layer_norm_row). oneDNN takes every layer norm but
// one-element rows (onednn/normalization.cpp), whose result is PyTorch's
// rounding alone.
std::unique_ptr<Kernel> layer_norm(const KernelRequest& r) {
  const auto& p = std::get<network::NormalizationParams>(r.step->params);
  if (p.op != network::NormalizationOp::Layer || r.outputs[0]->dtype != DType::Float32) return nullptr;
  for (const auto& in : r.inputs) {
    if (in.tensor->dtype != DType::Float32) return nullptr;
  }
  const Dims& dims = r.inputs[0].tensor->dims;
  const auto rank = static_cast<std::int64_t>(dims.size());
  const std::int64_t axis = p.axis < 0 ? p.axis + rank : p.axis;
  if (axis < 0 || axis > rank) return nullptr;
  std::int64_t row = 1;
  for (std::int64_t d = axis; d < rank; ++d) row *= dims[d];
  const std::int64_t rows = row == 0 ? 0 : numel_of(dims) / row;
  const double eps = p.epsilon;
  return fn_kernel([=](const KernelArgs& a) {
    const auto* x = static_cast<const float*>(a.inputs[0]);
    const auto* gamma = static_cast<const float*>(a.inputs[1]);
    const auto* beta = static_cast<const float*>(a.inputs[2]);
    auto* y = static_cast<float*>(a.outputs[0]);
    for (std::int64_t b = 0; b < rows; ++b) {
      reference::math::layer_norm_row<float>(x + b * row, row, eps, gamma, beta, y + b * row);
    }
  });
}

// Resize over [N, C, up to 3 spatial dims] with taps computed now.
std::unique_ptr<Kernel> resize(const KernelRequest& r) {
  const auto& p = std::get<network::ResizeParams>(r.step->params);
  const Dims& xs = r.inputs[0].tensor->dims;
  const Dims& ys = r.outputs[0]->dims;
  const std::size_t spatial = p.output_size.size();
  if (r.inputs[0].tensor->dtype != DType::Float32 || r.outputs[0]->dtype != DType::Float32) return nullptr;
  if (spatial == 0 || spatial > 3 || xs.size() != spatial + 2 || numel_of(xs) == 0) return nullptr;
  std::int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1};
  for (std::size_t d = 0; d < spatial; ++d) {
    in[3 - spatial + d] = xs[2 + d];
    out[3 - spatial + d] = ys[2 + d];
  }
  using reference::detail::Taps;
  std::array<std::vector<Taps>, 3> taps;
  for (int d = 0; d < 3; ++d) {
    const int real = d - static_cast<int>(3 - spatial);
    for (std::int64_t o = 0; o < out[d]; ++o) {
      taps[d].push_back(real < 0 ? Taps{{0, 0, 0, 0}, {1, 0, 0, 0}, 1}
                                 : reference::detail::taps_for(p, static_cast<std::size_t>(real), o, in[d], out[d]));
    }
  }
  const std::int64_t planes = xs[0] * xs[1], in_plane = in[0] * in[1] * in[2];
  const std::int64_t rows = planes * out[0] * out[1];
  // Rows of the output (a plane's i0, i1) are independent: the engine's
  // threads take contiguous runs of them. A row reads the same few source
  // rows throughout (ta x tb of them), so their pointers and weights are
  // found once per row; the sum runs in double as the reference's (the
  // order differs: each source row's taps first).
  const std::int64_t row_grain = std::max<std::int64_t>(1, kCostlyGrain / std::max<std::int64_t>(out[2], 1));
  return fn_kernel([=](const KernelArgs& a) {
    const auto* x = static_cast<const float*>(a.inputs[0]);
    auto* y = static_cast<float*>(a.outputs[0]);
    parallel_for(rows, row_grain, [&](std::int64_t begin, std::int64_t end) {
      for (std::int64_t r = begin; r < end; ++r) {
        const std::int64_t pl = r / (out[0] * out[1]), i0 = r / out[1] % out[0], i1 = r % out[1];
        const Taps &ta = taps[0][i0], &tb = taps[1][i1];
        const float* src[16];
        double w[16];
        int n = 0;
        for (int i = 0; i < ta.count; ++i)
          for (int j = 0; j < tb.count; ++j) {
            src[n] = x + pl * in_plane + (ta.index[i] * in[1] + tb.index[j]) * in[2];
            w[n++] = ta.weight[i] * tb.weight[j];
          }
        float* yr = y + r * out[2];
        for (std::int64_t i2 = 0; i2 < out[2]; ++i2) {
          const Taps& tc = taps[2][i2];
          double acc = 0.0;
          for (int s = 0; s < n; ++s) {
            double v = 0.0;
            for (int k = 0; k < tc.count; ++k) v += tc.weight[k] * src[s][tc.index[k]];
            acc += w[s] * v;
          }
          yr[i2] = static_cast<float>(acc);
        }
      }
    });
  });
}

template <int B>
inline void affine_rows(const float* x, float* y, const float* s, const float* t, std::int64_t spatial) {
  for (std::int64_t i = 0; i < spatial; ++i)
    for (int j = 0; j < B; ++j) y[i * B + j] = x[i * B + j] * s[j] + t[j];
}

// y = x * s + t over `spatial` positions of `block` channels each (s, t: the block's).
ATENRT_AVX2_CLONES void affine_block_row(const float* x, float* y, const float* s, const float* t,
                                         std::int64_t spatial, std::int64_t block) {
  switch (block) {
    case 1: {
      const float s0 = *s, t0 = *t;
      for (std::int64_t i = 0; i < spatial; ++i) y[i] = x[i] * s0 + t0;
      return;
    }
    case 8: affine_rows<8>(x, y, s, t, spatial); return;
    case 16: affine_rows<16>(x, y, s, t, spatial); return;
    default:
      for (std::int64_t i = 0; i < spatial; ++i)
        for (std::int64_t j = 0; j < block; ++j) y[i * block + j] = x[i * block + j] * s[j] + t[j];
  }
}

std::unique_ptr<Kernel> batch_norm_kernel(const KernelRequest& r, std::int64_t in_block, std::int64_t out_block) {
  const auto& p = std::get<network::NormalizationParams>(r.step->params);
  const Dims& dims = r.inputs[0].tensor->dims;
  if (p.op != network::NormalizationOp::Batch || dims.size() < 2 || r.inputs.size() != 5) return nullptr;
  if (in_block < 1 || (out_block != in_block && out_block != 1)) return nullptr;
  for (const auto& in : r.inputs) {
    if (in.tensor->dtype != DType::Float32) return nullptr;
  }
  std::vector<network::ActivationParams> acts;
  for (const auto& op : r.step->post_ops) {
    if (op.kind != PostOpKind::Activation) return nullptr;
    acts.push_back(op.activation);
  }
  const std::int64_t n = dims[0], c = dims[1];
  const std::int64_t blocks = (c + in_block - 1) / in_block, padded = blocks * in_block;
  std::int64_t spatial = 1;
  for (std::size_t d = 2; d < dims.size(); ++d) spatial *= dims[d];
  const double eps = p.epsilon;
  const std::int64_t row = spatial * in_block;  // one channel block of one batch index
  return fn_kernel(
      [=](const KernelArgs& a) {
        const auto* x = static_cast<const float*>(a.inputs[0]);
        const auto* gamma = static_cast<const float*>(a.inputs[1]);
        const auto* beta = static_cast<const float*>(a.inputs[2]);
        const auto* mean = static_cast<const float*>(a.inputs[3]);
        const auto* var = static_cast<const float*>(a.inputs[4]);
        auto* y = static_cast<float*>(a.outputs[0]);
        auto* scale = static_cast<float*>(a.scratch);
        float* shift = scale + padded;
        for (std::int64_t ch = 0; ch < padded; ++ch) {  // padding channels: 0 * x + 0
          const double s = ch < c ? gamma[ch] / std::sqrt(static_cast<double>(var[ch]) + eps) : 0.0;
          scale[ch] = static_cast<float>(s);
          shift[ch] = ch < c ? static_cast<float>(beta[ch] - mean[ch] * static_cast<double>(scale[ch])) : 0.0f;
        }
        // Shares of pixels rather than of whole rows: a channels-last x at
        // batch 1 is a single row (one block of all C channels).
        parallel_for(n * blocks * spatial, std::max<std::int64_t>(1, kSimpleGrain / in_block),
                     [&](std::int64_t begin, std::int64_t end) {
                       for (std::int64_t at = begin; at < end;) {
                         const std::int64_t nb = at / spatial, i0 = at % spatial;
                         const std::int64_t len = std::min(spatial - i0, end - at);
                         at += len;
                         const std::int64_t b = nb % blocks, c0 = b * in_block;
                         const float* xr = x + nb * row + i0 * in_block;
                         if (out_block == in_block) {
                           float* yr = y + nb * row + i0 * in_block;
                           affine_block_row(xr, yr, scale + c0, shift + c0, len, in_block);
                           for (const auto& act : acts) apply_activation_here(act, yr, yr, len * in_block);
                           // A padded block's padding channels stay zero (sigmoid(0) is not).
                           for (std::int64_t i = 0; c0 + in_block > c && i < len; ++i) {
                             std::fill(yr + i * in_block + (c - c0), yr + (i + 1) * in_block, 0.0f);
                           }
                           continue;
                         }
                         // Blocked in, plain out: each channel's run of the result.
                         for (std::int64_t j = 0; j < in_block && c0 + j < c; ++j) {
                           float* yc = y + ((nb / blocks) * c + c0 + j) * spatial + i0;
                           for (std::int64_t i = 0; i < len; ++i) yc[i] = xr[i * in_block + j] * scale[c0 + j] + shift[c0 + j];
                           for (const auto& act : acts) apply_activation_here(act, yc, yc, len);
                         }
                       }
                     });
      },
      static_cast<std::size_t>(2 * padded) * sizeof(float));
}

// Cumulative sum/product along an axis (inclusive or exclusive, either
// direction); floats accumulate in double, integers wrap.
std::unique_ptr<Kernel> cumulative(const KernelRequest& r) {
  const auto& p = std::get<network::CumulativeParams>(r.step->params);
  const DType in = r.inputs[0].tensor->dtype, out = r.outputs[0]->dtype;
  if (!numeric(in) || !numeric(out)) return nullptr;
  const auto ax = reference::detail::split_at(r.inputs[0].tensor->dims, p.axis);
  const bool floating = is_floating(in), sum = p.op == network::CumulativeOp::Sum;
  return fn_kernel([=](const KernelArgs& a) {
    for (std::int64_t o = 0; o < ax.outer; ++o)
      for (std::int64_t i = 0; i < ax.inner; ++i) {
        double facc = sum ? 0.0 : 1.0;
        std::uint64_t iacc = sum ? 0 : 1;
        for (std::int64_t s = 0; s < ax.len; ++s) {
          const std::int64_t j = p.reverse ? ax.len - 1 - s : s;
          const std::int64_t at = (o * ax.len + j) * ax.inner + i;
          if (floating) {
            const double cur = load_f(in, a.inputs[0], at);
            if (p.exclusive) store_f(out, a.outputs[0], at, facc);
            facc = sum ? facc + cur : facc * cur;
            if (!p.exclusive) store_f(out, a.outputs[0], at, facc);
          } else {
            const auto cur = static_cast<std::uint64_t>(load_i(in, a.inputs[0], at));
            if (p.exclusive) store_i(out, a.outputs[0], at, static_cast<std::int64_t>(iacc));
            iacc = sum ? iacc + cur : iacc * cur;
            if (!p.exclusive) store_i(out, a.outputs[0], at, static_cast<std::int64_t>(iacc));
          }
        }
      }
  });
}

// Top-k along an axis: torch's order (reference/topk_order.h), values copied raw, indices int64.
// The (value, index) pairs of a slice live in scratch.
std::unique_ptr<Kernel> topk(const KernelRequest& r) {
  const auto& p = std::get<network::TopKParams>(r.step->params);
  const DType in = r.inputs[0].tensor->dtype;
  if (!numeric(in) || r.outputs.size() != 2 || r.outputs[1]->dtype != DType::Int64) return nullptr;
  const auto ax = reference::detail::split_at(r.inputs[0].tensor->dims, p.axis);
  const std::int64_t k = p.k;
  if (k < 0 || k > ax.len) return nullptr;
  const bool floating = is_floating(in);
  const std::size_t elem = element_size(in);
  static_assert(sizeof(std::pair<double, std::int64_t>) == sizeof(std::pair<std::int64_t, std::int64_t>));
  const std::size_t scratch = static_cast<std::size_t>(ax.len) * sizeof(std::pair<double, std::int64_t>);
  return fn_kernel([=](const KernelArgs& a) {
    const auto* src = static_cast<const std::byte*>(a.inputs[0]);
    auto* values = static_cast<std::byte*>(a.outputs[0]);
    auto* indices = static_cast<std::int64_t*>(a.outputs[1]);
    auto slice = [&](auto* pairs, std::int64_t o, std::int64_t i, auto load) {
      auto at = [&](std::int64_t j) { return (o * ax.len + j) * ax.inner + i; };
      for (std::int64_t j = 0; j < ax.len; ++j) pairs[j] = {load(in, src, at(j)), j};
      reference::order_topk(pairs, ax.len, k, p.largest, p.ties);
      for (std::int64_t j = 0; j < k; ++j) {
        const std::int64_t dst = (o * k + j) * ax.inner + i;
        std::memcpy(values + dst * static_cast<std::int64_t>(elem),
                    src + at(pairs[j].second) * static_cast<std::int64_t>(elem), elem);
        indices[dst] = pairs[j].second;
      }
    };
    for (std::int64_t o = 0; o < ax.outer; ++o)
      for (std::int64_t i = 0; i < ax.inner; ++i) {
        if (floating) {
          slice(static_cast<std::pair<double, std::int64_t>*>(a.scratch), o, i, load_f);
        } else {
          slice(static_cast<std::pair<std::int64_t, std::int64_t>*>(a.scratch), o, i, load_i);
        }
      }
  }, scratch);
}

// Log-softmax as torch computes it, in float: (x - max) - log(sum exp(x -
// max)). oneDNN's log(1) is -1.4e-6, so its log-softmax gave a masked row's
// one unmasked entry 1.4e-6 where torch gives exactly 0 (onednn/softmax.cpp
// leaves log-softmax here). A row with NaN or +inf, or all -inf, is NaN, as
// the formula makes it with a NaN-propagating max.
std::unique_ptr<Kernel> log_softmax(const KernelRequest& r) {
  const auto& p = std::get<network::SoftmaxParams>(r.step->params);
  const auto& dims = r.inputs[0].tensor->dims;
  if (!p.log || r.inputs[0].tensor->dtype != DType::Float32 || dims.empty()) return nullptr;
  const int rank = static_cast<int>(dims.size());
  const int axis = static_cast<int>(p.axis < 0 ? p.axis + rank : p.axis);
  std::int64_t outer = 1, inner = 1;
  for (int i = 0; i < axis; ++i) outer *= dims[i];
  for (int i = axis + 1; i < rank; ++i) inner *= dims[i];
  const std::int64_t len = dims[axis];
  return fn_kernel([=](const KernelArgs& a) {
    const auto* x = static_cast<const float*>(a.inputs[0]);
    auto* y = static_cast<float*>(a.outputs[0]);
    for (std::int64_t o = 0; o < outer; ++o) {
      for (std::int64_t i = 0; i < inner; ++i) {
        const float* xr = x + o * len * inner + i;
        float* yr = y + o * len * inner + i;
        float mx = -INFINITY;
        for (std::int64_t j = 0; j < len; ++j) {
          const float v = xr[j * inner];
          mx = (v > mx || std::isnan(v)) && !std::isnan(mx) ? v : mx;
        }
        float sum = 0.f;
        for (std::int64_t j = 0; j < len; ++j) sum += std::exp(xr[j * inner] - mx);
        const float log_sum = std::log(sum);
        for (std::int64_t j = 0; j < len; ++j) yr[j * inner] = (xr[j * inner] - mx) - log_sum;
      }
    }
  });
}

}  // namespace

std::unique_ptr<Kernel> make_batch_norm(const KernelRequest& r, std::int64_t in_block, std::int64_t out_block) {
  return batch_norm_kernel(r, in_block, out_block);
}

std::unique_ptr<Kernel> make_layer_kernel(const KernelRequest& r) {
  switch (r.step->kind()) {
    case LayerKind::Normalization: {
      auto k = group_norm(r);
      return k ? std::move(k) : layer_norm(r);
    }
    case LayerKind::Resize: return resize(r);
    case LayerKind::Cumulative: return cumulative(r);
    case LayerKind::TopK: return topk(r);
    case LayerKind::Softmax: return log_softmax(r);
    default: return nullptr;
  }
}

}  // namespace atenrt::runtime::cpu::own
