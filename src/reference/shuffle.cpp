// Reference kernels: data movement (shuffle, slice, concat, gather,
// scatter, padding) and constant, cast, shape, fill. Elements are copied raw,
// so these work for every dtype.
#include <algorithm>
#include <cstring>

#include "reference/kernels.h"
#include "reference/scalar_math.h"

namespace atenrt::reference::detail {

namespace {

// Copies out[i] = in[src(i)] for every flat index i of `dims`, where
// src(index) gives the flat source index or -1 for "leave as is".
template <typename F>
Tensor gather_elements(const Tensor& in, DType dtype, const Dims& dims, F&& src) {
  const Tensor c = in.contiguous();
  const std::size_t es = element_size(dtype);
  Tensor out(dtype, dims);
  std::byte* dst = out.raw_mutable_data();
  std::int64_t i = 0;
  for_each_index(dims, [&](const std::vector<std::int64_t>& idx) {
    const std::int64_t s = src(idx);
    if (s >= 0) std::memcpy(dst + i * es, c.raw_data() + s * es, es);
    ++i;
  });
  return out;
}

std::int64_t checked_index(const KernelContext& ctx, std::int64_t v, std::int64_t len, const char* what) {
  if (v < -len || v >= len) {
    ctx.input_error(std::string(what) + " " + std::to_string(v) + " is out of range for a dim of size " +
                    std::to_string(len));
  }
  return v < 0 ? v + len : v;
}

}  // namespace

Tensor permute_copy(const Tensor& x, const Dims& perm) {
  if (perm.empty()) return x.contiguous();
  Dims out_dims(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i) out_dims[i] = x.sizes()[perm[i]];
  const Dims in_strides = contiguous_strides(x.sizes());
  return gather_elements(x, x.dtype(), out_dims, [&](const std::vector<std::int64_t>& idx) {
    std::int64_t off = 0;
    for (std::size_t i = 0; i < perm.size(); ++i) off += idx[i] * in_strides[perm[i]];
    return off;
  });
}

Outs kernel(const KernelContext& ctx, const ShuffleParams& p) {
  const Tensor first = permute_copy(ctx.in(0), p.first_perm);
  // A reshape of contiguous data keeps the bytes: reinterpret with new dims.
  const bool reshaped = p.reshape || ctx.inputs.size() == 2;
  Dims mid = first.sizes();
  if (reshaped) {
    mid = ctx.out().dims;
    if (!p.second_perm.empty()) {  // undo the second permutation to get the reshape dims
      Dims undone(mid.size());
      for (std::size_t i = 0; i < p.second_perm.size(); ++i) undone[p.second_perm[i]] = mid[i];
      mid = undone;
    }
  }
  const Tensor reshaped_t(first.storage(), first.dtype(), mid, contiguous_strides(mid), first.storage_offset());
  return {permute_copy(reshaped_t, p.second_perm)};
}

Outs kernel(const KernelContext& ctx, const SliceParams& p) {
  const Dims in_strides = contiguous_strides(ctx.in(0).sizes());
  return {gather_elements(ctx.in(0), ctx.out().dtype, ctx.out().dims, [&](const std::vector<std::int64_t>& idx) {
    std::int64_t off = 0;
    for (std::size_t d = 0; d < idx.size(); ++d) off += (p.start[d] + idx[d] * p.step[d]) * in_strides[d];
    return off;
  })};
}

Outs kernel(const KernelContext& ctx, const ConcatenationParams& p) {
  const Dims& out = ctx.out().dims;
  const auto rank = static_cast<std::int64_t>(out.size());
  const std::int64_t axis = p.axis < 0 ? p.axis + rank : p.axis;
  const std::int64_t outer = prod(out, 0, axis), inner = prod(out, axis + 1, out.size());
  const std::size_t es = element_size(ctx.out().dtype);
  Tensor y(ctx.out().dtype, out);
  std::byte* dst = y.raw_mutable_data();
  std::int64_t offset = 0;  // along axis
  for (const Tensor& t : ctx.inputs) {
    const Tensor c = t.contiguous();
    const std::int64_t len = c.sizes()[axis];
    const std::size_t chunk = static_cast<std::size_t>(len * inner) * es;
    for (std::int64_t o = 0; o < outer && chunk; ++o) {
      std::memcpy(dst + ((o * out[axis] + offset) * inner) * static_cast<std::int64_t>(es),
                  c.raw_data() + o * len * inner * static_cast<std::int64_t>(es), chunk);
    }
    offset += len;
  }
  return {y};
}

Outs kernel(const KernelContext& ctx, const GatherParams& p) {
  const Tensor& data = ctx.in(0);
  const Dims& dd = data.sizes();
  const auto rank = static_cast<std::int64_t>(dd.size());
  const std::int64_t axis = p.axis < 0 ? p.axis + rank : p.axis;
  const auto idx = load_i64(ctx.in(1));
  const Dims ds = contiguous_strides(dd);
  const std::int64_t len = dd[axis];
  if (p.mode == GatherMode::Axis) {
    const std::size_t irank = ctx.in(1).sizes().size();
    const Dims is = contiguous_strides(ctx.in(1).sizes());
    return {gather_elements(data, ctx.out().dtype, ctx.out().dims, [&](const std::vector<std::int64_t>& o) {
      // o = [data dims before axis] + [index dims] + [data dims after axis]
      std::int64_t iflat = 0;
      for (std::size_t k = 0; k < irank; ++k) iflat += o[axis + k] * is[k];
      const std::int64_t j = checked_index(ctx, idx[iflat], len, "index");
      std::int64_t off = j * ds[axis];
      for (std::int64_t d = 0; d < axis; ++d) off += o[d] * ds[d];
      for (std::int64_t d = axis + 1; d < rank; ++d) off += o[d - 1 + irank] * ds[d];
      return off;
    })};
  }
  std::int64_t i = 0;
  return {gather_elements(data, ctx.out().dtype, ctx.out().dims, [&](const std::vector<std::int64_t>& o) {
    const std::int64_t j = checked_index(ctx, idx[i++], len, "index");
    std::int64_t off = 0;
    for (std::int64_t d = 0; d < rank; ++d) off += (d == axis ? j : o[d]) * ds[d];
    return off;
  })};
}

Outs kernel(const KernelContext& ctx, const ScatterParams& p) {
  const Dims& dd = ctx.in(0).sizes();
  const auto rank = static_cast<std::int64_t>(dd.size());
  const std::int64_t axis = p.axis < 0 ? p.axis + rank : p.axis;
  const auto idx = load_i64(ctx.in(1));
  const Dims ds = contiguous_strides(dd);
  const Dims us = contiguous_strides(ctx.in(2).sizes());
  const bool fl = is_floating(ctx.in(0).dtype());
  // Work in double or int64 for the reducing forms; raw bytes for plain scatter.
  std::vector<double> yf;
  std::vector<std::int64_t> yi;
  std::vector<double> uf;
  std::vector<std::int64_t> ui;
  Tensor y = ctx.in(0).contiguous();
  Tensor u = ctx.in(2).contiguous();
  if (p.reduce != ScatterReduce::None) {
    if (fl) {
      yf = load_f64(y), uf = load_f64(u);
    } else {
      yi = load_i64(y), ui = load_i64(u);
    }
  }
  Tensor out(ctx.out().dtype, dd);
  const std::size_t es = element_size(out.dtype());
  if (out.nbytes()) std::memcpy(out.raw_mutable_data(), y.raw_data(), out.nbytes());
  std::int64_t i = 0;
  for_each_index(ctx.in(1).sizes(), [&](const std::vector<std::int64_t>& o) {
    const std::int64_t j = checked_index(ctx, idx[i++], dd[axis], "scatter index");
    std::int64_t dst = 0, src = 0;
    for (std::int64_t d = 0; d < rank; ++d) {
      dst += (d == axis ? j : o[d]) * ds[d];
      src += o[d] * us[d];
    }
    if (p.reduce == ScatterReduce::None) {
      std::memcpy(out.raw_mutable_data() + dst * static_cast<std::int64_t>(es), u.raw_data() + src * static_cast<std::int64_t>(es), es);
    } else if (fl) {
      switch (p.reduce) {
        case ScatterReduce::Add: yf[dst] += uf[src]; break;
        case ScatterReduce::Mul: yf[dst] *= uf[src]; break;
        case ScatterReduce::Max: yf[dst] = math::binary(network::ElementwiseOp::Max, yf[dst], uf[src]); break;
        default: yf[dst] = math::binary(network::ElementwiseOp::Min, yf[dst], uf[src]); break;
      }
    } else if (p.reduce == ScatterReduce::Max || p.reduce == ScatterReduce::Min) {
      yi[dst] = p.reduce == ScatterReduce::Max ? std::max(yi[dst], ui[src]) : std::min(yi[dst], ui[src]);
    } else {
      const auto a = static_cast<std::uint64_t>(yi[dst]), b = static_cast<std::uint64_t>(ui[src]);
      yi[dst] = static_cast<std::int64_t>(p.reduce == ScatterReduce::Add ? a + b : a * b);
    }
  });
  if (p.reduce == ScatterReduce::None) return {out};
  return {fl ? make_f64(out.dtype(), dd, yf) : make_i64(out.dtype(), dd, yi)};
}

Outs kernel(const KernelContext& ctx, const PaddingParams& p) {
  const Dims& in = ctx.in(0).sizes();
  const Dims is = contiguous_strides(in);
  const DType dt = ctx.out().dtype;
  // Source index per dim, or -1 for the constant value.
  Tensor out = gather_elements(ctx.in(0), dt, ctx.out().dims, [&](const std::vector<std::int64_t>& o) {
    std::int64_t off = 0;
    for (std::size_t d = 0; d < in.size(); ++d) {
      std::int64_t s = o[d] - p.pre[d];
      const std::int64_t n = in[d];
      if (s < 0 || s >= n) {
        switch (p.mode) {
          case PaddingMode::Constant: return std::int64_t{-1};
          case PaddingMode::Reflect: s = s < 0 ? -s : 2 * (n - 1) - s; break;
          case PaddingMode::Replicate: s = s < 0 ? 0 : n - 1; break;
          case PaddingMode::Circular: s = ((s % n) + n) % n; break;
        }
      }
      off += s * is[d];
    }
    return off;
  });
  if (p.mode == PaddingMode::Constant) {
    // Second pass: write the pad value where no source element was copied.
    const std::size_t es = element_size(dt);
    std::vector<std::byte> value(es);
    write_f64(value.data(), dt, p.value);
    std::int64_t i = 0;
    std::byte* dst = out.raw_mutable_data();
    for_each_index(ctx.out().dims, [&](const std::vector<std::int64_t>& o) {
      for (std::size_t d = 0; d < in.size(); ++d) {
        const std::int64_t s = o[d] - p.pre[d];
        if (s < 0 || s >= in[d]) {
          std::memcpy(dst + i * static_cast<std::int64_t>(es), value.data(), es);
          break;
        }
      }
      ++i;
    });
  }
  return {out};
}

Outs kernel(const KernelContext& ctx, const ConstantParams& p) {
  (void)ctx;
  return {p.value.contiguous()};
}

Outs kernel(const KernelContext& ctx, const CastParams& p) {
  const Tensor& x = ctx.in(0);
  if (x.dtype() == p.to) return {x.contiguous()};
  if (is_floating(x.dtype())) return {make_f64(p.to, x.sizes(), load_f64(x))};
  return {make_i64(p.to, x.sizes(), load_i64(x))};
}

Outs kernel(const KernelContext& ctx, const ShapeParams&) {
  const Dims& d = ctx.in(0).sizes();
  return {make_i64(DType::Int64, {static_cast<std::int64_t>(d.size())}, std::vector<std::int64_t>(d.begin(), d.end()))};
}

// The message names the graph node and its condition; it is the whole error.
Outs kernel(const KernelContext& ctx, const CheckParams& p) {
  const Tensor c = ctx.in(0).contiguous();
  const auto bytes = c.to_bytes();
  for (std::byte b : bytes) {
    if (b == std::byte{0}) throw InputError(p.message);
  }
  return {c};
}

Outs kernel(const KernelContext& ctx, const FillParams& p) {
  const Dims& dims = ctx.out().dims;
  const DType dt = ctx.out().dtype;
  const std::int64_t n = numel_of(dims);
  if (p.op == FillOp::Constant) return {make_f64(dt, dims, std::vector<double>(static_cast<std::size_t>(n), p.value))};
  const auto rank = static_cast<std::int64_t>(dims.size());
  const std::int64_t axis = p.axis < 0 ? p.axis + rank : p.axis;
  const std::int64_t inner = prod(dims, axis + 1, dims.size()), len = dims[axis];
  std::vector<double> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[i] = p.value + p.delta * static_cast<double>((i / inner) % len);
  return {make_f64(dt, dims, v)};
}

}  // namespace atenrt::reference::detail
