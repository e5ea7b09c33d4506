// Activations and softmax family → sigmoid/tanh/exp/log/clamp/where and arithmetic.
#include <cmath>

#include "lowering/decompositions/common.h"

namespace atenrt::lowering::decomp {
namespace {

// x * clamp(x + 3, 0, 6) / 6
std::string hardsigmoid_of(GraphBuilder& b, const std::string& x) {
  return b.div(tv(b.clamp(b.add(tv(x), num(3)), 0.0, 6.0)), num(6));
}

// where(beta*x > threshold, x, log1p(exp(beta*x)) / beta)
std::string softplus_of(GraphBuilder& b, const std::string& x, double beta, double threshold) {
  const auto bx = scaled(b, x, beta);
  const auto soft = b.unary("log1p", b.unary("exp", bx));
  const auto soft_scaled = beta == 1.0 ? soft : b.div(tv(soft), num(beta));
  return b.where(b.compare("gt", bx, num(threshold)), x, soft_scaled);
}

// x > 0 ? scale * x : scale * alpha * expm1(x * input_scale)
std::string elu_of(GraphBuilder& b, const std::string& x, double alpha, double scale, double input_scale) {
  const auto pos = scaled(b, x, scale);
  const auto neg = scaled(b, b.unary("expm1", scaled(b, x, input_scale)), scale * alpha);
  return b.where(b.compare("gt", x, num(0)), pos, neg);
}

// Softmax along `dim` with the max subtracted; log=true gives log_softmax.
std::string softmax_of(GraphBuilder& b, std::string x, std::int64_t dim, std::optional<DType> dtype, bool log,
                       const ir::Node& n) {
  if (dtype) x = b.cast(x, *dtype);
  const auto d = normalize_dim(dim, b.rank(x), n.describe());
  const auto shifted = b.sub(tv(x), tv(b.amax(x, {d}, true)));
  const auto e = b.unary("exp", shifted);
  const auto total = b.sum(e, {d}, true);
  if (log) return b.sub(tv(shifted), tv(b.unary("log", total)));
  return b.div(tv(e), tv(total));
}

// Softmax computes in a floating dtype (after its optional cast) along a dim.
Capability softmax_fits(const ir::NodeView& n) {
  if (auto dt = dtype_after_cast(n, "self"); dt && !is_floating(*dt)) {
    return Capability::no("softmax is decomposed for floating tensors only");
  }
  if (const ir::TensorMeta* m = n.meta("self"); m && m->sizes.empty()) return Capability::no("0-d input");
  return Capability::yes();
}

Capability celu_fits(const ir::NodeView& n) {
  if (n.literal_number("alpha") == 0.0) return Capability::no("alpha is 0");
  return floating_tensors(n, {"self"});
}

const DecompositionOptions kFloatingSelf{.validator = floating({"self"})};
const DecompositionOptions kSoftmax{.validator = softmax_fits};

const DecompositionGroup registered{"activations", {
  {"aten.hardswish.default", [](GraphBuilder& b, const ir::Node& n) {
    const auto x = tensor_arg(n, "self");
    return Values{b.mul(tv(x), tv(hardsigmoid_of(b, x)))};
  }, kFloatingSelf},
  {"aten.hardsigmoid.default", [](GraphBuilder& b, const ir::Node& n) {
    return Values{hardsigmoid_of(b, tensor_arg(n, "self"))};
  }, kFloatingSelf},
  {"aten.silu.default", [](GraphBuilder& b, const ir::Node& n) {
    const auto x = tensor_arg(n, "self");
    return Values{b.mul(tv(x), tv(b.unary("sigmoid", x)))};
  }, kFloatingSelf},
  {"aten.mish.default", [](GraphBuilder& b, const ir::Node& n) {
    const auto x = tensor_arg(n, "self");
    return Values{b.mul(tv(x), tv(b.unary("tanh", softplus_of(b, x, 1.0, 20.0))))};
  }, kFloatingSelf},
  {"aten.softplus.default", [](GraphBuilder& b, const ir::Node& n) {
    return Values{softplus_of(b, tensor_arg(n, "self"), scalar_arg(n, "beta"), scalar_arg(n, "threshold"))};
  }, kFloatingSelf},
  {"aten.elu.default", [](GraphBuilder& b, const ir::Node& n) {
    return Values{elu_of(b, tensor_arg(n, "self"), scalar_arg(n, "alpha"), scalar_arg(n, "scale"),
                         scalar_arg(n, "input_scale"))};
  }, kFloatingSelf},
  {"aten.selu.default", [](GraphBuilder& b, const ir::Node& n) {
    return Values{elu_of(b, tensor_arg(n, "self"), 1.6732632423543772848170429916717, 1.0507009873554804934193349852946, 1.0)};
  }, kFloatingSelf},
  {"aten.celu.default", [](GraphBuilder& b, const ir::Node& n) {
    const double alpha = scalar_arg(n, "alpha");
    return Values{elu_of(b, tensor_arg(n, "self"), alpha, 1.0, 1.0 / alpha)};
  }, {.validator = celu_fits}},
  {"aten.leaky_relu.default", [](GraphBuilder& b, const ir::Node& n) {
    const auto x = tensor_arg(n, "self");
    const auto neg = b.mul(tv(x), num(scalar_arg(n, "negative_slope")));
    return Values{b.where(b.compare("gt", x, num(0)), x, neg)};
  }, kFloatingSelf},
  {"aten.hardtanh.default", [](GraphBuilder& b, const ir::Node& n) {
    return Values{b.clamp(tensor_arg(n, "self"), scalar_arg(n, "min_val"), scalar_arg(n, "max_val"))};
  }, kFloatingSelf},
  {"aten.relu6.default", [](GraphBuilder& b, const ir::Node& n) {
    return Values{b.clamp(tensor_arg(n, "self"), 0.0, 6.0)};
  }, kFloatingSelf},
  {"aten.gelu.default", [](GraphBuilder& b, const ir::Node& n) {
    const auto x = tensor_arg(n, "self");
    const auto approximate = opt_string_arg(n, "approximate").value_or("none");
    std::string inner;
    if (approximate == "none") {
      inner = b.unary("erf", b.mul(tv(x), num(M_SQRT1_2)));
    } else if (approximate == "tanh") {
      // tanh(sqrt(2/pi) * (x + 0.044715 x^3))
      const auto cube = b.mul(tv(b.mul(tv(x), tv(x))), tv(x));
      const auto poly = b.add(tv(x), tv(b.mul(tv(cube), num(0.044715))));
      inner = b.unary("tanh", b.mul(tv(poly), num(M_2_SQRTPI * M_SQRT1_2)));
    } else {
      throw FormatError(n.describe() + ", argument 'approximate': unknown value '" + approximate + "'");
    }
    return Values{b.mul(tv(b.mul(tv(x), num(0.5))), tv(b.add(tv(inner), num(1))))};
  }, kFloatingSelf},
  {"aten.glu.default", [](GraphBuilder& b, const ir::Node& n) {
    const auto x = tensor_arg(n, "self");
    const auto d = normalize_dim(int_arg(n, "dim"), b.rank(x), n.describe());
    const auto size = b.static_dim(x, static_cast<int>(d), "glu");
    if (size % 2 != 0) throw FormatError(n.describe() + ": glu halves dim " + std::to_string(d) + " of odd size " + std::to_string(size));
    const auto first = b.slice(x, d, 0, size / 2);
    const auto second = b.slice(x, d, size / 2, size);
    return Values{b.mul(tv(first), tv(b.unary("sigmoid", second)))};
  }, kFloatingSelf},
  {"aten._softmax.default", [](GraphBuilder& b, const ir::Node& n) {
    return Values{softmax_of(b, tensor_arg(n, "self"), int_arg(n, "dim"), std::nullopt, false, n)};
  }, kSoftmax},
  {"aten.softmax.int", [](GraphBuilder& b, const ir::Node& n) {
    return Values{softmax_of(b, tensor_arg(n, "self"), int_arg(n, "dim"), opt_dtype_arg(n, "dtype"), false, n)};
  }, kSoftmax},
  {"aten._log_softmax.default", [](GraphBuilder& b, const ir::Node& n) {
    return Values{softmax_of(b, tensor_arg(n, "self"), int_arg(n, "dim"), std::nullopt, true, n)};
  }, kSoftmax},
  {"aten.log_softmax.int", [](GraphBuilder& b, const ir::Node& n) {
    return Values{softmax_of(b, tensor_arg(n, "self"), int_arg(n, "dim"), opt_dtype_arg(n, "dtype"), true, n)};
  }, kSoftmax},
}};

}  // namespace
}  // namespace atenrt::lowering::decomp
