// Our own math kernels: unary ops, elementwise ops oneDNN's binary does not
// cover (integers, bool, comparisons, logical, pow, floor/trunc div, modulo),
// activations oneDNN 2.6 lacks (softplus), and select (where).
// Floating math runs in double and rounds once, as the reference does.
#include <array>
#include <cmath>

#include "atenrt/errors.h"
#include "runtime/cpu/own_util.h"

namespace atenrt::runtime::cpu::own {
namespace {

using network::ElementwiseOp;
using network::UnaryOp;

// Calls f(out_index, offset_0, ..., offset_{N-1}) over out_dims with
// broadcast strides per operand.
template <std::size_t N, typename F>
void for_each_broadcast(const Dims& out_dims, const std::array<Dims, N>& strides, F f) {
  const std::int64_t n = numel_of(out_dims);
  const int rank = static_cast<int>(out_dims.size());
  std::vector<std::int64_t> idx(rank, 0);
  std::array<std::int64_t, N> off{};
  for (std::int64_t i = 0; i < n; ++i) {
    f(i, off);
    for (int d = rank - 1; d >= 0; --d) {
      for (std::size_t k = 0; k < N; ++k) off[k] += strides[k][d];
      if (++idx[d] < out_dims[d]) break;
      for (std::size_t k = 0; k < N; ++k) off[k] -= strides[k][d] * out_dims[d];
      idx[d] = 0;
    }
  }
}

double floor_div(double a, double b) {  // torch's div_floor for floating types
  if (b == 0) return a / b;
  const double mod = std::fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0 && (b < 0) != (mod < 0)) div -= 1;
  if (div == 0) return std::copysign(0.0, a / b);
  double fl = std::floor(div);
  if (div - fl > 0.5) fl += 1;
  return fl;
}

double float_op(ElementwiseOp op, double a, double b) {
  switch (op) {
    case ElementwiseOp::Add: return a + b;
    case ElementwiseOp::Sub: return a - b;
    case ElementwiseOp::Mul: return a * b;
    case ElementwiseOp::Div: return a / b;
    case ElementwiseOp::Pow: return std::pow(a, b);
    case ElementwiseOp::Min: return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b);
    case ElementwiseOp::Max: return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
    case ElementwiseOp::FloorDiv: return floor_div(a, b);
    case ElementwiseOp::TruncDiv: return std::trunc(a / b);
    case ElementwiseOp::Remainder: {
      double m = std::fmod(a, b);
      if (m != 0 && (b < 0) != (m < 0)) m += b;
      return m;
    }
    case ElementwiseOp::Fmod: return std::fmod(a, b);
    case ElementwiseOp::Equal: return a == b;
    case ElementwiseOp::NotEqual: return a != b;
    case ElementwiseOp::Less: return a < b;
    case ElementwiseOp::LessEqual: return a <= b;
    case ElementwiseOp::Greater: return a > b;
    case ElementwiseOp::GreaterEqual: return a >= b;
    case ElementwiseOp::And: return (a != 0) && (b != 0);
    case ElementwiseOp::Or: return (a != 0) || (b != 0);
    case ElementwiseOp::Xor: return (a != 0) != (b != 0);
  }
  return 0;
}

// Integer ops that need no division (division by zero is the reference's call).
std::optional<std::int64_t> int_op(ElementwiseOp op, std::int64_t a, std::int64_t b) {
  auto wrap = [](auto f) { return static_cast<std::int64_t>(f); };
  switch (op) {
    case ElementwiseOp::Add: return wrap(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
    case ElementwiseOp::Sub: return wrap(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
    case ElementwiseOp::Mul: return wrap(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
    case ElementwiseOp::Min: return std::min(a, b);
    case ElementwiseOp::Max: return std::max(a, b);
    case ElementwiseOp::Equal: return a == b;
    case ElementwiseOp::NotEqual: return a != b;
    case ElementwiseOp::Less: return a < b;
    case ElementwiseOp::LessEqual: return a <= b;
    case ElementwiseOp::Greater: return a > b;
    case ElementwiseOp::GreaterEqual: return a >= b;
    case ElementwiseOp::And: return (a != 0) && (b != 0);
    case ElementwiseOp::Or: return (a != 0) || (b != 0);
    case ElementwiseOp::Xor: return (a != 0) != (b != 0);
    default: return std::nullopt;
  }
}

std::unique_ptr<Kernel> elementwise(const KernelRequest& r) {
  const auto op = std::get<network::ElementwiseParams>(r.step->params).op;
  const DType in = r.inputs[0].tensor->dtype, out = r.outputs[0]->dtype;
  if (!numeric(in) || !numeric(out)) return nullptr;
  const bool floating = is_floating(in);
  if (!floating && !int_op(op, 1, 1)) return nullptr;  // integer division, pow: reference
  const Dims out_dims = r.outputs[0]->dims;
  const std::array<Dims, 2> strides{broadcast_strides(r.inputs[0].tensor->dims, out_dims),
                                    broadcast_strides(r.inputs[1].tensor->dims, out_dims)};
  return fn_kernel([=](const KernelArgs& a) {
    const void* x = a.inputs[0];
    const void* y = a.inputs[1];
    void* z = a.outputs[0];
    if (floating) {
      for_each_broadcast<2>(out_dims, strides, [&](std::int64_t i, const std::array<std::int64_t, 2>& o) {
        store_f(out, z, i, float_op(op, load_f(in, x, o[0]), load_f(in, y, o[1])));
      });
    } else {
      for_each_broadcast<2>(out_dims, strides, [&](std::int64_t i, const std::array<std::int64_t, 2>& o) {
        store_i(out, z, i, *int_op(op, load_i(in, x, o[0]), load_i(in, y, o[1])));
      });
    }
  });
}

std::optional<double> unary_float(UnaryOp op, double x) {
  switch (op) {
    case UnaryOp::Exp: return std::exp(x);
    case UnaryOp::Log: return std::log(x);
    case UnaryOp::Log2: return std::log2(x);
    case UnaryOp::Log10: return std::log10(x);
    case UnaryOp::Log1p: return std::log1p(x);
    case UnaryOp::Expm1: return std::expm1(x);
    case UnaryOp::Sqrt: return std::sqrt(x);
    case UnaryOp::Rsqrt: return 1.0 / std::sqrt(x);
    case UnaryOp::Abs: return std::fabs(x);
    case UnaryOp::Neg: return -x;
    case UnaryOp::Reciprocal: return 1.0 / x;
    case UnaryOp::Sin: return std::sin(x);
    case UnaryOp::Cos: return std::cos(x);
    case UnaryOp::Tan: return std::tan(x);
    case UnaryOp::Asin: return std::asin(x);
    case UnaryOp::Acos: return std::acos(x);
    case UnaryOp::Atan: return std::atan(x);
    case UnaryOp::Sinh: return std::sinh(x);
    case UnaryOp::Cosh: return std::cosh(x);
    case UnaryOp::Asinh: return std::asinh(x);
    case UnaryOp::Acosh: return std::acosh(x);
    case UnaryOp::Atanh: return std::atanh(x);
    case UnaryOp::Erf: return std::erf(x);
    case UnaryOp::Floor: return std::floor(x);
    case UnaryOp::Ceil: return std::ceil(x);
    case UnaryOp::Round: return std::nearbyint(x);  // default rounding: half to even
    case UnaryOp::Trunc: return std::trunc(x);
    case UnaryOp::Sign: return std::isnan(x) ? x : (x > 0) - (x < 0);
    case UnaryOp::Not: return x == 0;
    case UnaryOp::IsNan: return std::isnan(x);
    case UnaryOp::IsInf: return std::isinf(x);
  }
  return std::nullopt;
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
      for (std::int64_t i = 0; i < n; ++i) {
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
      }
    });
  }
  if (in == DType::Float32 && out == DType::Float32) {
    return fn_kernel([=](const KernelArgs& a) {
      const auto* x = static_cast<const float*>(a.inputs[0]);
      auto* y = static_cast<float*>(a.outputs[0]);
      for (std::int64_t i = 0; i < n; ++i) y[i] = static_cast<float>(*unary_float(op, x[i]));
    });
  }
  return fn_kernel([=](const KernelArgs& a) {
    for (std::int64_t i = 0; i < n; ++i) {
      store_f(out, a.outputs[0], i, *unary_float(op, load_f(in, a.inputs[0], i)));
    }
  });
}

// Activations in double (used where oneDNN has no algorithm, e.g. softplus).
double activation_value(const network::ActivationParams& p, double x) {
  using A = network::ActivationOp;
  auto sigmoid = [](double v) { return 1.0 / (1.0 + std::exp(-v)); };
  auto softplus = [](double v, double beta, double threshold) {
    return v * beta > threshold ? v : std::log1p(std::exp(v * beta)) / beta;
  };
  switch (p.op) {
    case A::Relu: return x > 0 ? x : (std::isnan(x) ? x : 0.0);
    case A::Sigmoid: return sigmoid(x);
    case A::Tanh: return std::tanh(x);
    case A::LeakyRelu: return x > 0 ? x : x * p.alpha;
    case A::Elu: return x > 0 ? x : p.alpha * std::expm1(x);
    case A::Selu: return 1.0507009873554805 * (x > 0 ? x : 1.6732632423543772 * std::expm1(x));
    case A::Softplus: return softplus(x, p.alpha, p.beta);
    case A::Clip: return std::isnan(x) ? x : std::min(std::max(x, p.alpha), p.beta);
    case A::GeluErf: return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
    case A::GeluTanh: {
      const double k = std::sqrt(2.0 / M_PI);
      return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
    }
    case A::HardSigmoid: return std::max(0.0, std::min(1.0, p.alpha * x + p.beta));
    case A::HardSwish: return x * std::min(std::max(x + 3.0, 0.0), 6.0) / 6.0;
    case A::Silu: return x * sigmoid(x);
    case A::Mish: return x * std::tanh(softplus(x, 1.0, 20.0));
  }
  return x;
}

std::unique_ptr<Kernel> activation(const KernelRequest& r) {
  const auto p = std::get<network::ActivationParams>(r.step->params);
  if (r.inputs[0].tensor->dtype != DType::Float32 || !r.inputs[0].layout.is_plain()) return nullptr;
  const std::int64_t n = numel_of(r.outputs[0]->dims);
  return fn_kernel([=](const KernelArgs& a) {
    const auto* x = static_cast<const float*>(a.inputs[0]);
    auto* y = static_cast<float*>(a.outputs[0]);
    for (std::int64_t i = 0; i < n; ++i) y[i] = static_cast<float>(activation_value(p, x[i]));
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

}  // namespace

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
