// Reference kernels: reduce, arg-reduce, cumulative, topk/sort.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "reference/kernels.h"
#include "reference/scalar_math.h"
#include "reference/topk_order.h"

namespace atenrt::reference::detail {

namespace {

// Maps every input flat index to the flat index of its output (reduced dims
// collapsed to 0); the output layout is the keep_dims one.
std::vector<std::int64_t> reduce_map(const Dims& dims, const std::vector<bool>& reduced,
                                     Dims& kept_dims) {
  kept_dims = dims;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    if (reduced[d]) kept_dims[d] = 1;
  }
  const Dims ks = contiguous_strides(kept_dims);
  std::vector<std::int64_t> map;
  map.reserve(static_cast<std::size_t>(numel_of(dims)));
  for_each_index(dims, [&](const std::vector<std::int64_t>& idx) {
    std::int64_t off = 0;
    for (std::size_t d = 0; d < dims.size(); ++d) off += reduced[d] ? 0 : idx[d] * ks[d];
    map.push_back(off);
  });
  return map;
}

template <typename T>
bool beats(T v, T best, bool want_max) {
  if constexpr (std::is_floating_point_v<T>) {
    return math::beats(v, best, want_max);
  } else {
    return want_max ? v > best : v < best;
  }
}

template <typename T>
std::vector<T> reduce_values(ReduceOp op, const std::vector<T>& x, const std::vector<std::int64_t>& map,
                             std::int64_t nout, std::int64_t count) {
  std::vector<T> acc(static_cast<std::size_t>(nout));
  std::vector<bool> seen(static_cast<std::size_t>(nout), false);
  for (auto& a : acc) {
    a = (op == ReduceOp::Prod || op == ReduceOp::All) ? T(1) : T(0);
  }
  for (std::size_t i = 0; i < x.size(); ++i) {
    T& a = acc[map[i]];
    const T v = x[i];
    switch (op) {
      case ReduceOp::Sum:
      case ReduceOp::Mean: a += v; break;
      case ReduceOp::Prod: a *= v; break;
      case ReduceOp::Max:
      case ReduceOp::Min:
        if (!seen[map[i]] || beats(v, a, op == ReduceOp::Max)) a = v;
        seen[map[i]] = true;
        break;
      case ReduceOp::Any: a = (a != T(0) || v != T(0)) ? T(1) : T(0); break;
      case ReduceOp::All: a = (a != T(0) && v != T(0)) ? T(1) : T(0); break;
      default: break;
    }
  }
  if (op == ReduceOp::Mean) {
    for (auto& a : acc) a /= static_cast<T>(count);
  }
  return acc;
}

template <typename T>
std::vector<std::int64_t> arg_reduce(bool want_max, const std::vector<T>& x, std::int64_t outer,
                                     std::int64_t len, std::int64_t inner) {
  std::vector<std::int64_t> out(static_cast<std::size_t>(outer * inner));
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t i = 0; i < inner; ++i) {
      std::int64_t best = 0;
      for (std::int64_t j = 1; j < len; ++j) {
        if (beats(x[(o * len + j) * inner + i], x[(o * len + best) * inner + i], want_max)) best = j;
      }
      out[o * inner + i] = best;
    }
  return out;
}

}  // namespace

Outs kernel(const KernelContext& ctx, const ReduceParams& p) {
  const Tensor& xt = ctx.in(0);
  const Dims& dims = xt.sizes();
  const auto rank = static_cast<std::int64_t>(dims.size());
  const TensorDesc& out = ctx.out();
  if (p.op == ReduceOp::ArgMax || p.op == ReduceOp::ArgMin) {
    const auto [axis, outer, len, inner] = split_at(dims, rank == 0 ? 0 : p.axes[0]);
    const bool want_max = p.op == ReduceOp::ArgMax;
    const auto y = is_floating(xt.dtype()) ? arg_reduce(want_max, load_f64(xt), outer, len, inner)
                                           : arg_reduce(want_max, load_i64(xt), outer, len, inner);
    return {make_i64(DType::Int64, out.dims, y)};
  }
  std::vector<bool> reduced(dims.size(), p.axes.empty());
  for (auto a : p.axes) {
    if (rank > 0) reduced[a < 0 ? a + rank : a] = true;
  }
  Dims kept;
  const auto map = reduce_map(dims, reduced, kept);
  const std::int64_t nout = numel_of(kept);
  const std::int64_t count = nout == 0 ? 0 : numel_of(dims) / nout;
  if (is_floating(xt.dtype())) {
    auto y = reduce_values(p.op, load_f64(xt), map, nout, count);
    if (p.op == ReduceOp::Mean && count == 0) {
      for (auto& v : y) v = std::numeric_limits<double>::quiet_NaN();
    }
    return {make_f64(out.dtype, out.dims, y)};
  }
  return {make_i64(out.dtype, out.dims, reduce_values(p.op, load_i64(xt), map, nout, count))};
}

Outs kernel(const KernelContext& ctx, const CumulativeParams& p) {
  const Tensor& xt = ctx.in(0);
  const Dims& dims = xt.sizes();
  // Plain variables, not a structured binding: the lambdas below capture them,
  // which clang before 16 refuses for bindings (the fuzz build uses clang 14).
  const AxisSplit split = split_at(dims, p.axis);
  const std::int64_t outer = split.outer, len = split.len, inner = split.inner;
  auto scan = [&](auto values) {
    using T = typename decltype(values)::value_type;
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t i = 0; i < inner; ++i) {
        T acc = p.op == CumulativeOp::Sum ? T(0) : T(1);
        for (std::int64_t s = 0; s < len; ++s) {
          const std::int64_t j = p.reverse ? len - 1 - s : s;
          T& v = values[(o * len + j) * inner + i];
          const T cur = v;
          if (p.exclusive) v = acc;
          if constexpr (std::is_integral_v<T>) {  // wrap, do not overflow
            const auto a = static_cast<std::uint64_t>(acc), c = static_cast<std::uint64_t>(cur);
            acc = static_cast<T>(p.op == CumulativeOp::Sum ? a + c : a * c);
          } else {
            acc = p.op == CumulativeOp::Sum ? acc + cur : acc * cur;
          }
          if (!p.exclusive) v = acc;
        }
      }
    return values;
  };
  if (is_floating(xt.dtype())) return {make_f64(ctx.out().dtype, dims, scan(load_f64(xt)))};
  return {make_i64(ctx.out().dtype, dims, scan(load_i64(xt)))};
}

Outs kernel(const KernelContext& ctx, const TopKParams& p) {
  const Tensor& xt = ctx.in(0);
  const Dims& dims = xt.sizes();
  // Plain variables, not a structured binding: the lambdas below capture them,
  // which clang before 16 refuses for bindings (the fuzz build uses clang 14).
  const AxisSplit split = split_at(dims, p.axis);
  const std::int64_t outer = split.outer, len = split.len, inner = split.inner;
  const std::int64_t k = p.k;
  std::vector<std::int64_t> indices(static_cast<std::size_t>(outer * k * inner));
  auto select = [&](const auto& x) {
    using V = std::decay_t<decltype(x[0])>;
    std::vector<std::pair<V, std::int64_t>> pairs(static_cast<std::size_t>(len));
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t i = 0; i < inner; ++i) {
        for (std::int64_t j = 0; j < len; ++j) pairs[static_cast<std::size_t>(j)] = {x[(o * len + j) * inner + i], j};
        order_topk(pairs.data(), len, k, p.largest, p.ties);
        for (std::int64_t j = 0; j < k; ++j) indices[(o * k + j) * inner + i] = pairs[static_cast<std::size_t>(j)].second;
      }
  };
  // Values are copied raw from the input so every dtype passes unchanged.
  if (is_floating(xt.dtype())) {
    select(load_f64(xt));
  } else {
    select(load_i64(xt));
  }
  const Tensor xc = xt.contiguous();
  const std::size_t es = element_size(xc.dtype());
  Tensor values(xc.dtype(), ctx.out(0).dims);
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t j = 0; j < k; ++j)
      for (std::int64_t i = 0; i < inner; ++i) {
        const std::int64_t dst = (o * k + j) * inner + i;
        const std::int64_t src = (o * len + indices[dst]) * inner + i;
        std::memcpy(values.raw_mutable_data() + dst * es, xc.raw_data() + src * es, es);
      }
  return {values, make_i64(DType::Int64, ctx.out(1).dims, indices)};
}

}  // namespace atenrt::reference::detail
