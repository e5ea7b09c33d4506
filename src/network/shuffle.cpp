// Shuffle (permute, reshape, permute), slice and concatenation.
#include <algorithm>
#include <limits>

#include "network/infer.h"

namespace atenrt::network::detail {

namespace {

Dims apply_perm(const InferContext& ctx, const Dims& dims, const Dims& perm, const char* what) {
  if (perm.empty()) return dims;
  if (perm.size() != dims.size()) {
    ctx.fail(std::string(what) + " " + dims_to_string(perm) + " has the wrong length for " +
             dims_to_string(dims));
  }
  std::vector<bool> seen(dims.size(), false);
  Dims out(dims.size());
  for (std::size_t i = 0; i < perm.size(); ++i) {
    const auto n = static_cast<std::int64_t>(dims.size());
    if (perm[i] < 0 || perm[i] >= n || seen[perm[i]]) {
      ctx.fail(std::string(what) + " " + dims_to_string(perm) + " is not a permutation");
    }
    seen[perm[i]] = true;
    out[i] = dims[perm[i]];
  }
  return out;
}

// The element count, or -1 when a dim is dynamic. Dims come from untrusted
// files: a product past int64 is an error, not a wrap.
std::int64_t numel_or_unknown(const InferContext& ctx, const Dims& dims) {
  __int128 n = 1;
  bool zero = false;
  for (auto d : dims) {
    if (d < 0) return -1;
    zero = zero || d == 0;
    n = std::min<__int128>(n * d, __int128{1} << 64);
  }
  if (zero) return 0;
  if (n > std::numeric_limits<std::int64_t>::max()) {
    ctx.fail("input dims " + dims_to_string(dims) + " hold more than 2^63 - 1 elements");
  }
  return static_cast<std::int64_t>(n);
}

}  // namespace

Descs infer(const InferContext& ctx, const ShuffleParams& p) {
  ctx.expect_inputs(1, 2);
  const TensorDesc& x = ctx.in(0);
  Dims dims = apply_perm(ctx, x.dims, p.first_perm, "first_perm");
  if (ctx.inputs.size() == 2) {
    const TensorDesc& s = ctx.in(1);
    if (s.dtype != DType::Int64 || s.dims.size() != 1 || s.dims[0] < 0) {
      ctx.fail("shape input must be int64 with one static dim, got " + desc_to_string(s));
    }
    const Dims& known = p.reshape_dims;
    if (!known.empty()) {
      if (known.size() != static_cast<std::size_t>(s.dims[0])) {
        ctx.fail("the known reshape dims " + dims_to_string(known) + " do not match the shape input " +
                 desc_to_string(s));
      }
      for (auto d : known) {
        if (d < kDynamicDim) ctx.fail("the known reshape dims " + dims_to_string(known) + " have a negative size");
      }
    }
    if (const Tensor* v = ctx.value(1)) {
      const Tensor c = v->contiguous();
      dims = resolve_reshape(ctx, Dims(c.data<std::int64_t>(), c.data<std::int64_t>() + c.numel()),
                             numel_or_unknown(ctx, dims));
      for (std::size_t i = 0; i < known.size(); ++i) {
        if (known[i] >= 0 && dims[i] >= 0 && known[i] != dims[i]) {
          ctx.fail("the shape input gives " + dims_to_string(dims) + ", but the known reshape dims are " +
                   dims_to_string(known));
        }
      }
    } else if (!known.empty()) {
      dims = known;
    } else {
      dims.assign(static_cast<std::size_t>(s.dims[0]), kDynamicDim);
    }
  } else if (p.reshape) {
    dims = resolve_reshape(ctx, p.reshape_dims, numel_or_unknown(ctx, dims));
  }
  dims = apply_perm(ctx, dims, p.second_perm, "second_perm");
  return {{x.dtype, dims}};
}

Descs infer(const InferContext& ctx, const SliceParams& p) {
  ctx.expect_inputs(1, 1);
  const TensorDesc& x = ctx.in(0);
  const std::size_t rank = x.dims.size();
  if (p.start.size() != rank || p.size.size() != rank || p.step.size() != rank) {
    ctx.fail("start, size and step need one entry per input dim (" + std::to_string(rank) + ")");
  }
  Dims out = p.size;
  for (std::size_t d = 0; d < rank; ++d) {
    if (p.step[d] == 0) ctx.fail("step must not be 0");
    if (p.size[d] < 0) {
      // A whole dim that was dynamic when the layer was made: whatever size it has (so that a
      // specialization of a dynamic network, where it is known, takes the same layer).
      if (p.size[d] == kDynamicDim && p.start[d] == 0 && p.step[d] == 1) {
        out[d] = x.dims[d];
        continue;
      }
      ctx.fail("size " + dims_to_string(p.size) + " must be non-negative (except a whole dynamic dim)");
    }
    if (p.size[d] == 0 || x.dims[d] < 0) continue;
    const __int128 last = __int128{p.start[d]} + __int128{p.size[d] - 1} * p.step[d];  // may not fit int64
    if (p.start[d] < 0 || p.start[d] >= x.dims[d] || last < 0 || last >= x.dims[d]) {
      ctx.fail("slice of dim " + std::to_string(d) + " (start " + std::to_string(p.start[d]) + ", size " +
               std::to_string(p.size[d]) + ", step " + std::to_string(p.step[d]) +
               ") leaves the input " + dims_to_string(x.dims));
    }
  }
  return {{x.dtype, out}};
}

Descs infer(const InferContext& ctx, const ConcatenationParams& p) {
  if (ctx.inputs.empty()) ctx.fail("takes at least 1 input");
  const TensorDesc& x0 = ctx.in(0);
  const auto rank = static_cast<std::int64_t>(x0.dims.size());
  if (rank == 0) ctx.fail("cannot concatenate scalars");
  const std::int64_t axis = ctx.axis(p.axis, rank, "axis");
  Dims out = x0.dims;
  for (std::size_t i = 1; i < ctx.inputs.size(); ++i) {
    const TensorDesc& xi = ctx.in(i);
    if (xi.dtype != x0.dtype) {
      ctx.fail("input " + std::to_string(i) + " is " + std::string(dtype_name(xi.dtype)) + ", input 0 is " +
               std::string(dtype_name(x0.dtype)));
    }
    if (xi.dims.size() != x0.dims.size()) {
      ctx.fail("input " + std::to_string(i) + " " + dims_to_string(xi.dims) + " and input 0 " +
               dims_to_string(x0.dims) + " differ in rank");
    }
    for (std::int64_t d = 0; d < rank; ++d) {
      if (d == axis) {
        out[d] = (out[d] < 0 || xi.dims[d] < 0) ? kDynamicDim : out[d] + xi.dims[d];
      } else if (xi.dims[d] != out[d] && xi.dims[d] >= 0 && out[d] >= 0) {
        ctx.fail("input " + std::to_string(i) + " " + dims_to_string(xi.dims) + " and input 0 " +
                 dims_to_string(x0.dims) + " differ outside axis " + std::to_string(axis));
      } else if (out[d] < 0) {
        out[d] = xi.dims[d];
      }
    }
  }
  return {{x0.dtype, out}};
}

}  // namespace atenrt::network::detail
