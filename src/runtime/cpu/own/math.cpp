// Our own math kernels: unary ops, elementwise ops oneDNN's binary does not
// cover or gets wrong (integers, bool, comparisons, logical, pow, floor/trunc
// div, modulo, and maximum/minimum, whose oneDNN form drops NaN), activations
// oneDNN 2.6 lacks (softplus) or gets wrong on NaN (relu, clip, hardsigmoid),
// and select (where). Floating math runs in double and rounds once, with the
// reference's formulas (reference/scalar_math.h).
#include <algorithm>
#include <array>
#include <cmath>

#include "atenrt/errors.h"
#include "runtime/cpu/own/avx2_clones.h"
#include "runtime/cpu/own/parallel.h"
#include "runtime/cpu/own/util.h"
#include "reference/scalar_math.h"
#include "runtime/cpu/own/fast_activations.h"

namespace atenrt::runtime::cpu::own {
namespace {

using network::ElementwiseOp;
using network::UnaryOp;

// Calls f(out_index, offset_0, ..., offset_{N-1}) over out_dims with
// broadcast strides per operand, on the engine's threads: each chunk starts
// its odometer at its first index. f writes element out_index only.
template <std::size_t N, typename F>
void for_each_broadcast(const Dims& out_dims, const std::array<Dims, N>& strides, F f) {
  const int rank = static_cast<int>(out_dims.size());
  parallel_for(numel_of(out_dims), kCostlyGrain, [&](std::int64_t begin, std::int64_t end) {
    std::vector<std::int64_t> idx(rank, 0);
    std::array<std::int64_t, N> off{};
    std::int64_t rest = begin;
    for (int d = rank - 1; d >= 0; --d) {
      idx[d] = rest % out_dims[d];
      rest /= out_dims[d];
      for (std::size_t k = 0; k < N; ++k) off[k] += idx[d] * strides[k][d];
    }
    for (std::int64_t i = begin; i < end; ++i) {
      f(i, off);
      for (int d = rank - 1; d >= 0; --d) {
        for (std::size_t k = 0; k < N; ++k) off[k] += strides[k][d];
        if (++idx[d] < out_dims[d]) break;
        for (std::size_t k = 0; k < N; ++k) off[k] -= strides[k][d] * out_dims[d];
        idx[d] = 0;
      }
    }
  });
}

// Calls f(i) for i in [0, n) on the engine's threads (per element work of a
// switch on the op or dtype: the costly grain).
template <typename F>
void for_each_index(std::int64_t n, F f) {
  parallel_for(n, kCostlyGrain, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) f(i);
  });
}

// Integer ops that need no division (division by zero is the reference's call).
std::optional<std::int64_t> int_op(ElementwiseOp op, std::int64_t a, std::int64_t b, std::size_t element_bytes) {
  auto wrap = [](auto f) { return static_cast<std::int64_t>(f); };
  switch (op) {
    case ElementwiseOp::Add: return wrap(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
    case ElementwiseOp::Sub: return wrap(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
    case ElementwiseOp::Mul: return wrap(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
    case ElementwiseOp::Min: return std::min(a, b);
    case ElementwiseOp::Max: return std::max(a, b);
    case ElementwiseOp::BitAnd: return a & b;
    case ElementwiseOp::BitOr: return a | b;
    case ElementwiseOp::BitXor: return a ^ b;
    case ElementwiseOp::ShiftLeft:
    case ElementwiseOp::ShiftRight: return reference::math::shift(op, a, b, element_bytes);
    default: {
      const auto c = reference::math::compare(op, a, b);
      return c ? std::optional<std::int64_t>(*c) : std::nullopt;
    }
  }
}

// z[j] = op(a[j], b[j]) over a run of n, an operand that does not move
// along the run read once.
template <typename Op>
inline void run_of(Op op, const float* a, bool a_moves, const float* b, bool b_moves, float* z, std::int64_t n) {
  if (a_moves && b_moves) {
    for (std::int64_t j = 0; j < n; ++j) z[j] = op(a[j], b[j]);
  } else if (a_moves) {
    const float c = *b;
    for (std::int64_t j = 0; j < n; ++j) z[j] = op(a[j], c);
  } else if (b_moves) {
    const float c = *a;
    for (std::int64_t j = 0; j < n; ++j) z[j] = op(c, b[j]);
  } else {
    const float v = op(*a, *b);
    for (std::int64_t j = 0; j < n; ++j) z[j] = v;
  }
}

// Float32 add/sub/mul/div in float, as torch (and the reference's double
// then rounded: the same value for these four).
ATENRT_AVX2_CLONES void binary_run(ElementwiseOp op, const float* a, bool a_moves, const float* b, bool b_moves,
                                   float* z, std::int64_t n) {
  switch (op) {
    case ElementwiseOp::Add: run_of([](float x, float y) { return x + y; }, a, a_moves, b, b_moves, z, n); break;
    case ElementwiseOp::Sub: run_of([](float x, float y) { return x - y; }, a, a_moves, b, b_moves, z, n); break;
    case ElementwiseOp::Mul: run_of([](float x, float y) { return x * y; }, a, a_moves, b, b_moves, z, n); break;
    default: run_of([](float x, float y) { return x / y; }, a, a_moves, b, b_moves, z, n); break;
  }
}

// The trailing dims over which each operand either runs contiguously or stays
// put (a mask [1, W, 1, N, N] added to scores [1, W, H, N, N]: N * N), as
// (elements, whether each operand moves); 1 element when the last dim breaks it.
struct TrailingRun {
  std::int64_t length = 1;
  int dims = 0;
  std::array<bool, 2> moves{};
};
TrailingRun trailing_run(const Dims& out_dims, const std::array<Dims, 2>& strides) {
  TrailingRun run;
  bool decided = false;
  for (int d = static_cast<int>(out_dims.size()) - 1; d >= 0; --d) {
    if (out_dims[d] != 1) {
      std::array<bool, 2> moves{};
      bool fits = true;
      for (std::size_t k = 0; k < 2; ++k) {
        moves[k] = strides[k][d] != 0;
        fits = fits && (!moves[k] || strides[k][d] == run.length);
      }
      if (!fits || (decided && moves != run.moves)) break;
      run.moves = moves;
      decided = true;
      run.length *= out_dims[d];
    }
    ++run.dims;
  }
  return run;
}

std::unique_ptr<Kernel> elementwise(const KernelRequest& r) {
  const auto op = std::get<network::ElementwiseParams>(r.step->params).op;
  const DType in = r.inputs[0].tensor->dtype, out = r.outputs[0]->dtype;
  if (!numeric(in) || !numeric(out)) return nullptr;
  const bool floating = is_floating(in);
  const std::size_t bytes = element_size(in);
  if (!floating && !int_op(op, 1, 1, bytes)) return nullptr;  // integer division, pow: reference
  const Dims out_dims = r.outputs[0]->dims;
  const std::array<Dims, 2> strides{broadcast_strides(r.inputs[0].tensor->dims, out_dims),
                                    broadcast_strides(r.inputs[1].tensor->dims, out_dims)};
  const bool float_arith = in == DType::Float32 && out == DType::Float32 &&
                          (op == ElementwiseOp::Add || op == ElementwiseOp::Sub || op == ElementwiseOp::Mul ||
                           op == ElementwiseOp::Div);
  const TrailingRun run = trailing_run(out_dims, strides);
  if (float_arith && run.length >= 16) {
    // An odometer over the leading dims, a vectorized loop over each run:
    // Swin's shifted-window mask add (a broadcast over a middle dim, which
    // oneDNN 2.6's jit binary lacks) ran on oneDNN's reference kernel, ~30x slower.
    const int lead = static_cast<int>(out_dims.size()) - run.dims;
    const std::int64_t runs = numel_of(out_dims) / run.length;
    return fn_kernel([=](const KernelArgs& a) {
      const auto* x = static_cast<const float*>(a.inputs[0]);
      const auto* y = static_cast<const float*>(a.inputs[1]);
      auto* z = static_cast<float*>(a.outputs[0]);
      const std::int64_t grain = std::max<std::int64_t>(1, kSimpleGrain / run.length);
      parallel_for(runs, grain, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = begin; i < end; ++i) {
          std::int64_t rest = i, off0 = 0, off1 = 0;
          for (int d = lead - 1; d >= 0; --d) {
            const std::int64_t at = rest % out_dims[d];
            rest /= out_dims[d];
            off0 += at * strides[0][d];
            off1 += at * strides[1][d];
          }
          binary_run(op, x + off0, run.moves[0], y + off1, run.moves[1], z + i * run.length, run.length);
        }
      });
    });
  }
  return fn_kernel([=](const KernelArgs& a) {
    const void* x = a.inputs[0];
    const void* y = a.inputs[1];
    void* z = a.outputs[0];
    if (floating) {
      for_each_broadcast<2>(out_dims, strides, [&](std::int64_t i, const std::array<std::int64_t, 2>& o) {
        store_f(out, z, i, reference::math::binary_in(in, op, load_f(in, x, o[0]), load_f(in, y, o[1])));
      });
    } else {
      for_each_broadcast<2>(out_dims, strides, [&](std::int64_t i, const std::array<std::int64_t, 2>& o) {
        store_i(out, z, i, *int_op(op, load_i(in, x, o[0]), load_i(in, y, o[1]), bytes));
      });
    }
  });
}

std::unique_ptr<Kernel> unary(const KernelRequest& r) {
  const auto op = std::get<network::UnaryParams>(r.step->params).op;
  const DType in = r.inputs[0].tensor->dtype, out = r.outputs[0]->dtype;
  if (!numeric(in) || !numeric(out)) return nullptr;
  const std::int64_t n = numel_of(r.outputs[0]->dims);
  if (!is_floating(in)) {
    // Integer/bool: only the exact ops.
    if (op != UnaryOp::Abs && op != UnaryOp::Neg && op != UnaryOp::Sign && op != UnaryOp::Not &&
        op != UnaryOp::IsNan && op != UnaryOp::IsInf) {
      return nullptr;
    }
    return fn_kernel([=](const KernelArgs& a) {
      for_each_index(n, [&](std::int64_t i) {
        const std::int64_t v = load_i(in, a.inputs[0], i);
        std::int64_t y = 0;
        switch (op) {
          case UnaryOp::Abs: y = v < 0 ? -v : v; break;
          case UnaryOp::Neg: y = static_cast<std::int64_t>(0ULL - static_cast<std::uint64_t>(v)); break;
          case UnaryOp::Sign: y = (v > 0) - (v < 0); break;
          case UnaryOp::Not: y = v == 0; break;
          default: y = 0; break;  // isnan/isinf of integers
        }
        store_i(out, a.outputs[0], i, y);
      });
    });
  }
  if (in == DType::Float32 && out == DType::Float32) {
    return fn_kernel([=](const KernelArgs& a) {
      const auto* x = static_cast<const float*>(a.inputs[0]);
      auto* y = static_cast<float*>(a.outputs[0]);
      for_each_index(n, [&](std::int64_t i) {
        y[i] = static_cast<float>(reference::math::unary_in(DType::Float32, op, x[i]));
      });
    });
  }
  return fn_kernel([=](const KernelArgs& a) {
    for_each_index(n, [&](std::int64_t i) {
      store_f(out, a.outputs[0], i, reference::math::unary_in(in, op, load_f(in, a.inputs[0], i)));
    });
  });
}

std::unique_ptr<Kernel> activation(const KernelRequest& r) {
  const auto p = std::get<network::ActivationParams>(r.step->params);
  if (r.inputs[0].tensor->dtype != DType::Float32 || !r.inputs[0].layout.is_plain()) return nullptr;
  const std::int64_t n = numel_of(r.outputs[0]->dims);
  return fn_kernel([=](const KernelArgs& a) {
    apply_activation(p, static_cast<const float*>(a.inputs[0]), static_cast<float*>(a.outputs[0]), n);
  });
}

std::unique_ptr<Kernel> select(const KernelRequest& r) {
  const Dims out_dims = r.outputs[0]->dims;
  const std::size_t elem = element_size(r.outputs[0]->dtype);
  const std::array<Dims, 3> strides{broadcast_strides(r.inputs[0].tensor->dims, out_dims),
                                    broadcast_strides(r.inputs[1].tensor->dims, out_dims),
                                    broadcast_strides(r.inputs[2].tensor->dims, out_dims)};
  return fn_kernel([=](const KernelArgs& a) {
    const auto* c = static_cast<const std::uint8_t*>(a.inputs[0]);
    const auto* x = static_cast<const std::byte*>(a.inputs[1]);
    const auto* y = static_cast<const std::byte*>(a.inputs[2]);
    auto* z = static_cast<std::byte*>(a.outputs[0]);
    for_each_broadcast<3>(out_dims, strides, [&](std::int64_t i, const std::array<std::int64_t, 3>& o) {
      std::memcpy(z + i * elem, c[o[0]] ? x + o[1] * elem : y + o[2] * elem, elem);
    });
  });
}

// The loops of the cheap activations, 8 floats wide where the CPU has AVX2.
ATENRT_AVX2_CLONES void relu_floats(const float* x, float* y, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) y[i] = x[i] < 0.f ? 0.f : x[i];  // keeps NaN and -0, as torch
}
ATENRT_AVX2_CLONES void clip_floats(const float* x, float* y, std::int64_t n, float lo, float hi) {
  for (std::int64_t i = 0; i < n; ++i) y[i] = std::min(std::max(x[i], lo), hi);
}

}  // namespace

std::int64_t activation_grain(const network::ActivationParams& p) {
  using A = network::ActivationOp;
  return p.op == A::Relu || p.op == A::Clip || p.op == A::LeakyRelu ? kSimpleGrain : kCostlyGrain;
}

void apply_activation(const network::ActivationParams& p, const float* x, float* y, std::int64_t n) {
  parallel_for(n, activation_grain(p), [&](std::int64_t begin, std::int64_t end) {
    apply_activation_here(p, x + begin, y + begin, end - begin);
  });
}

void apply_activation_here(const network::ActivationParams& p, const float* x, float* y, std::int64_t n) {
  using A = network::ActivationOp;
  switch (p.op) {
    case A::Relu: relu_floats(x, y, n); return;
    case A::Clip:  // bounds rounded to float, as torch's clamp on a float tensor
      clip_floats(x, y, n, static_cast<float>(p.alpha), static_cast<float>(p.beta));
      return;
    case A::LeakyRelu: {
      const double slope = p.alpha;
      for (std::int64_t i = 0; i < n; ++i) y[i] = x[i] > 0.f ? x[i] : static_cast<float>(x[i] * slope);
      return;
    }
    case A::GeluTanh:
      gelu_tanh(x, y, n);
      return;
    case A::Mish:
      // tanh(log1p(e)) = m / (m + 2) with m = e * (e + 2): no cancellation for
      // very negative x (there it is x * e^x, as torch's); above 20 softplus is
      // x and tanh(x) 1 in float (torch's threshold), and m would overflow.
      for (std::int64_t i = 0; i < n; ++i) {
        const float v = x[i];
        if (v > 20.f) {
          y[i] = v;
          continue;
        }
        const float e = std::exp(v), m = e * (e + 2.f);
        y[i] = v * (m / (m + 2.f));
      }
      return;
    default:
      for (std::int64_t i = 0; i < n; ++i) {
        y[i] = static_cast<float>(reference::math::activate(p.op, x[i], p.alpha, p.beta));
      }
      return;
  }
}

std::unique_ptr<Kernel> make_math_kernel(const KernelRequest& r) {
  for (const auto& in : r.inputs) {
    if (!in.layout.is_plain()) return nullptr;
  }
  if (!r.step->post_ops.empty()) return nullptr;
  switch (r.step->kind()) {
    case network::LayerKind::Elementwise: return elementwise(r);
    case network::LayerKind::Unary: return unary(r);
    case network::LayerKind::Activation: return activation(r);
    case network::LayerKind::Select: return select(r);
    default: return nullptr;
  }
}

}  // namespace atenrt::runtime::cpu::own
