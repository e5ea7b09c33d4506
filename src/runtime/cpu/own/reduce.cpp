// Our own reduce kernels: what oneDNN's reduction does not take or gets wrong
// (max/min with NaN or -inf, arg-max/min, any/all, integer dtypes, nothing
// reduced). torch semantics: NaN wins max/min/argmax (the first NaN for the
// arg forms), ties keep the first index; float sums run in double, integer
// ones wrap. Nothing is allocated in run: counters live on the stack.
#include <cmath>

#include "runtime/cpu/own/util.h"
#include "reference/scalar_math.h"

namespace atenrt::runtime::cpu::own {
namespace {

using network::ReduceOp;

constexpr int kMaxRank = 12;

// The input as kept dims × reduced dims, both with input strides.
struct Split {
  int kept_rank = 0, red_rank = 0;
  std::int64_t kept_dims[kMaxRank] = {}, kept_strides[kMaxRank] = {};
  std::int64_t red_dims[kMaxRank] = {}, red_strides[kMaxRank] = {};
  std::int64_t nout = 1, count = 1;
};

// Calls f(offset) for every offset of a dims/strides space, row-major.
template <typename F>
void walk(int rank, const std::int64_t* dims, const std::int64_t* strides, std::int64_t n, F&& f) {
  std::int64_t idx[kMaxRank] = {};
  std::int64_t off = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    f(off);
    for (int d = rank - 1; d >= 0; --d) {
      off += strides[d];
      if (++idx[d] < dims[d]) break;
      off -= strides[d] * dims[d];
      idx[d] = 0;
    }
  }
}

template <typename T, typename Load, typename Store>
void reduce_one(ReduceOp op, const Split& s, const void* x, void* y, Load load, Store store) {
  std::int64_t o = 0;
  walk(s.kept_rank, s.kept_dims, s.kept_strides, s.nout, [&](std::int64_t base) {
    T acc = (op == ReduceOp::Prod || op == ReduceOp::All) ? T(1) : T(0);
    bool seen = false;
    std::int64_t arg = 0, at = 0;
    walk(s.red_rank, s.red_dims, s.red_strides, s.count, [&](std::int64_t off) {
      const T v = load(x, base + off);
      switch (op) {
        case ReduceOp::Sum:
        case ReduceOp::Mean:
          if constexpr (std::is_integral_v<T>) {
            acc = static_cast<T>(static_cast<std::uint64_t>(acc) + static_cast<std::uint64_t>(v));
          } else {
            acc += v;
          }
          break;
        case ReduceOp::Prod:
          if constexpr (std::is_integral_v<T>) {
            acc = static_cast<T>(static_cast<std::uint64_t>(acc) * static_cast<std::uint64_t>(v));
          } else {
            acc *= v;
          }
          break;
        case ReduceOp::Max:
        case ReduceOp::Min:
        case ReduceOp::ArgMax:
        case ReduceOp::ArgMin: {
          const bool want_max = op == ReduceOp::Max || op == ReduceOp::ArgMax;
          bool better;
          if constexpr (std::is_floating_point_v<T>) {
            better = reference::math::beats(v, acc, want_max);
          } else {
            better = want_max ? v > acc : v < acc;
          }
          if (!seen || better) {
            acc = v;
            arg = at;
          }
          seen = true;
          break;
        }
        case ReduceOp::Any: acc = (acc != T(0) || v != T(0)) ? T(1) : T(0); break;
        case ReduceOp::All: acc = (acc != T(0) && v != T(0)) ? T(1) : T(0); break;
      }
      ++at;
    });
    if (op == ReduceOp::Mean) {
      if constexpr (std::is_floating_point_v<T>) {
        acc = s.count == 0 ? reference::math::kNaN : acc / static_cast<T>(s.count);
      } else {
        acc = s.count == 0 ? T(0) : acc / static_cast<T>(s.count);
      }
    }
    if (op == ReduceOp::ArgMax || op == ReduceOp::ArgMin) {
      static_cast<std::int64_t*>(y)[o++] = arg;
    } else {
      store(y, o++, acc);
    }
  });
}

}  // namespace

std::unique_ptr<Kernel> make_reduce_kernel(const KernelRequest& r) {
  const auto& p = std::get<network::ReduceParams>(r.step->params);
  const auto& x = *r.inputs[0].tensor;
  const DType in = x.dtype, out = r.outputs[0]->dtype;
  if (!numeric(in) || !numeric(out)) return nullptr;
  const int rank = static_cast<int>(x.dims.size());
  if (rank > kMaxRank) return nullptr;
  std::vector<bool> reduced(rank, p.axes.empty());
  for (auto a : p.axes) {
    if (rank > 0) reduced[a < 0 ? a + rank : a] = true;
  }
  const Dims strides = contiguous(x.dims);
  Split s;
  for (int d = 0; d < rank; ++d) {
    if (reduced[d]) {
      s.red_dims[s.red_rank] = x.dims[d];
      s.red_strides[s.red_rank++] = strides[d];
      s.count *= x.dims[d];
    } else {
      s.kept_dims[s.kept_rank] = x.dims[d];
      s.kept_strides[s.kept_rank++] = strides[d];
      s.nout *= x.dims[d];
    }
  }
  if ((p.op == ReduceOp::ArgMax || p.op == ReduceOp::ArgMin) && (out != DType::Int64 || s.count == 0)) {
    return nullptr;  // an empty arg-reduce is the reference's error to raise
  }
  if ((p.op == ReduceOp::Max || p.op == ReduceOp::Min) && s.count == 0) return nullptr;
  const ReduceOp op = p.op;
  if (is_floating(in)) {
    return fn_kernel([=](const KernelArgs& a) {
      reduce_one<double>(op, s, a.inputs[0], a.outputs[0],
                         [in](const void* b, std::int64_t i) { return load_f(in, b, i); },
                         [out](void* b, std::int64_t i, double v) { store_f(out, b, i, v); });
    });
  }
  return fn_kernel([=](const KernelArgs& a) {
    reduce_one<std::int64_t>(op, s, a.inputs[0], a.outputs[0],
                             [in](const void* b, std::int64_t i) { return load_i(in, b, i); },
                             [out](void* b, std::int64_t i, std::int64_t v) { store_i(out, b, i, v); });
  });
}

}  // namespace atenrt::runtime::cpu::own
