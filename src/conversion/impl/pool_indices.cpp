#include "conversion/impl/pool_indices.h"

#include <vector>

#include "conversion/host_tensor.h"

namespace atenrt::conversion::impl::pool {

using network::ElementwiseOp;
using network::GatherMode;
using network::ReduceOp;

namespace {

// The input positions each output position's window reads along one spatial dim (-1: outside
// the input, padding or past the end in ceil mode).
std::vector<std::vector<std::int64_t>> windows_1d(const network::PoolingParams& p, std::size_t i, std::int64_t in) {
  std::vector<std::vector<std::int64_t>> w;
  if (p.adaptive) {
    const std::int64_t out = p.output_size[i];
    for (std::int64_t j = 0; j < out; ++j) {
      const std::int64_t start = (j * in) / out, end = ((j + 1) * in + out - 1) / out;
      std::vector<std::int64_t> v;
      for (std::int64_t k = start; k < end; ++k) v.push_back(k);
      w.push_back(std::move(v));
    }
    return w;
  }
  const std::int64_t k = p.kernel[i], st = p.stride[i], pad = p.padding_pre[i];
  const std::int64_t dil = p.dilation.empty() ? 1 : p.dilation[i];
  const std::int64_t span = dil * (k - 1) + 1;
  std::int64_t out = (in + 2 * pad - span + (p.ceil_mode ? st - 1 : 0)) / st + 1;
  if (p.ceil_mode && (out - 1) * st >= in + pad) --out;  // the last window must start inside
  for (std::int64_t j = 0; j < out; ++j) {
    std::vector<std::int64_t> v;
    for (std::int64_t t = 0; t < k; ++t) {
      const std::int64_t pos = j * st - pad + t * dil;
      v.push_back(pos >= 0 && pos < in ? pos : -1);
    }
    w.push_back(std::move(v));
  }
  return w;
}

}  // namespace

std::pair<NetworkTensor*, NetworkTensor*> max_pool_with_indices(const Scope& s, NetworkTensor* x, const PoolArgs& a) {
  const network::PoolingParams p = a.params(x);
  const Dims& dims = static_dims(x, "max pooling with indices");
  const std::size_t n = a.spatial, lead = dims.size() - n;
  std::vector<std::vector<std::vector<std::int64_t>>> per_dim;
  Dims out_spatial;
  std::int64_t plane = 1;
  for (std::size_t i = 0; i < n; ++i) {
    per_dim.push_back(windows_1d(p, i, dims[lead + i]));
    out_spatial.push_back(static_cast<std::int64_t>(per_dim.back().size()));
    plane *= dims[lead + i];
  }
  // Window slots per output position: the product of the per-dim slots (the largest window, for
  // adaptive pooling; shorter ones repeat their first element, which changes neither the max nor
  // the first index of it).
  std::int64_t slots = 1;
  for (const auto& w : per_dim) {
    std::size_t most = 0;
    for (const auto& v : w) most = std::max(most, v.size());
    slots *= static_cast<std::int64_t>(most);
  }
  const std::int64_t outputs = numel(out_spatial);
  check(outputs > 0 && slots > 0 && plane > 0, "max pooling with indices of an empty window or input");
  std::vector<std::int64_t> table(static_cast<std::size_t>(outputs * slots), -1);
  std::vector<std::int64_t> out_idx(n, 0);
  for (std::int64_t o = 0; o < outputs; ++o) {
    // This output position's window: every combination of its per-dim positions, row-major.
    std::vector<std::int64_t> flat{0};
    for (std::size_t i = 0; i < n; ++i) {
      const auto& v = per_dim[i][static_cast<std::size_t>(out_idx[i])];
      std::vector<std::int64_t> next;
      for (auto f : flat) {
        for (auto pos : v) next.push_back(f < 0 || pos < 0 ? -1 : f * dims[lead + i] + pos);
      }
      flat = std::move(next);
    }
    std::int64_t first_valid = 0;
    for (auto f : flat) {
      if (f >= 0) {
        first_valid = f;
        break;
      }
    }
    for (std::int64_t k = 0; k < slots; ++k) {
      const auto f = k < static_cast<std::int64_t>(flat.size()) ? flat[static_cast<std::size_t>(k)] : -1;
      table[static_cast<std::size_t>(o * slots + k)] = f >= 0 ? f : first_valid;
    }
    for (std::size_t i = n; i-- > 0;) {
      if (++out_idx[i] < out_spatial[i]) break;
      out_idx[i] = 0;
    }
  }
  Dims flat_dims(dims.begin(), dims.begin() + static_cast<std::ptrdiff_t>(lead));
  flat_dims.push_back(plane);
  auto* xf = reshape(s.child("flat"), x, flat_dims);
  auto* windows = s.add_gather("windows", xf, s.add_constant("table", int64_tensor({outputs, slots}, table)),
                               GatherMode::Axis, static_cast<std::int64_t>(lead));
  const std::int64_t last = static_cast<std::int64_t>(lead) + 1;
  auto* values = s.add_reduce("max", windows, ReduceOp::Max, {last}, false);
  auto* slot = cast(s, s.add_reduce("argmax", windows, ReduceOp::ArgMax, {last}, false), DType::Int64);
  std::vector<std::int64_t> base(static_cast<std::size_t>(outputs));
  for (std::int64_t o = 0; o < outputs; ++o) base[static_cast<std::size_t>(o)] = o * slots;
  auto* linear = ew(s, slot, s.add_constant("base", int64_tensor({outputs}, base)), ElementwiseOp::Add);
  auto* indices = s.add_gather("indices", s.add_constant("table_flat", int64_tensor({outputs * slots}, table)), linear,
                               GatherMode::Axis, 0);
  Dims out_dims(dims.begin(), dims.begin() + static_cast<std::ptrdiff_t>(lead));
  out_dims.insert(out_dims.end(), out_spatial.begin(), out_spatial.end());
  return {s.add_reshape("values", values, out_dims), s.add_reshape("", indices, out_dims)};
}

std::optional<std::string> im2col_problem(const std::vector<std::int64_t>& kernel, const std::vector<std::int64_t>& dilation,
                                          const std::vector<std::int64_t>& padding, const std::vector<std::int64_t>& stride) {
  if (kernel.size() != 2 || dilation.size() != 2 || padding.size() != 2 || stride.size() != 2) {
    return "im2col takes two entries in kernel_size, dilation, padding and stride";
  }
  for (int i = 0; i < 2; ++i) {
    if (kernel[i] <= 0 || dilation[i] <= 0 || stride[i] <= 0 || padding[i] < 0) {
      return "im2col needs positive kernel_size, dilation and stride and a non-negative padding";
    }
  }
  return std::nullopt;
}

NetworkTensor* im2col(const Scope& s, NetworkTensor* x, const std::vector<std::int64_t>& kernel,
                      const std::vector<std::int64_t>& dilation, const std::vector<std::int64_t>& padding,
                      const std::vector<std::int64_t>& stride) {
  if (auto why = im2col_problem(kernel, dilation, padding, stride)) check(false, *why);
  check(x->rank() == 3 || x->rank() == 4, "im2col takes a [N, C, H, W] or [C, H, W] input");
  const Dims& dims = static_dims(x, "im2col");
  const std::size_t lead = dims.size() - 2;
  const std::int64_t ph = dims[lead] + 2 * padding[0], pw = dims[lead + 1] + 2 * padding[1];
  const std::int64_t oh = (ph - dilation[0] * (kernel[0] - 1) - 1) / stride[0] + 1;
  const std::int64_t ow = (pw - dilation[1] * (kernel[1] - 1) - 1) / stride[1] + 1;
  check(oh > 0 && ow > 0, "im2col: the kernel does not fit the padded input");
  // Zero padding, then each (kernel offset, window) pair's flat index in the padded plane.
  network::PaddingParams pad;
  pad.pre.assign(dims.size(), 0);
  pad.post.assign(dims.size(), 0);
  pad.pre[lead] = pad.post[lead] = padding[0];
  pad.pre[lead + 1] = pad.post[lead + 1] = padding[1];
  auto* padded = padding[0] || padding[1] ? s.add_padding("pad", x, pad) : x;
  const std::int64_t k = kernel[0] * kernel[1], windows = oh * ow;
  std::vector<std::int64_t> table;
  for (std::int64_t ki = 0; ki < kernel[0]; ++ki) {
    for (std::int64_t kj = 0; kj < kernel[1]; ++kj) {
      for (std::int64_t i = 0; i < oh; ++i) {
        for (std::int64_t j = 0; j < ow; ++j) {
          table.push_back((i * stride[0] + ki * dilation[0]) * pw + j * stride[1] + kj * dilation[1]);
        }
      }
    }
  }
  Dims flat(dims.begin(), dims.begin() + static_cast<std::ptrdiff_t>(lead));
  flat.push_back(ph * pw);
  auto* plane = reshape(s.child("flat"), padded, flat);
  auto* cols = s.add_gather("columns", plane, s.add_constant("table", int64_tensor({k, windows}, table)), GatherMode::Axis,
                            static_cast<std::int64_t>(lead));  // [N, C, k, L]
  Dims out(dims.begin(), dims.begin() + static_cast<std::ptrdiff_t>(lead - 1));
  out.push_back(dims[lead - 1] * k);
  out.push_back(windows);
  return s.add_reshape("", cols, out);
}

}  // namespace atenrt::conversion::impl::pool
