// Activation converters: pick the arguments, call impl::activation.
#include <string>

#include "conversion/aten_ops/common.h"
#include "conversion/impl/activation.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace act = impl::activation;
constexpr Family kFamily{.name = "activation", .supports_dynamic_shapes = true};

Capability no_half_to_float(const NodeView& node, const ConversionSettings&) {
  if (node.literal_bool("half_to_float").value_or(false)) {
    return Capability::no("half_to_float=True (a CUDA-only half → float softmax) is not supported");
  }
  return Capability::yes();
}

Capability gelu_mode(const NodeView& node, const ConversionSettings&) {
  const auto mode = node.literal_string("approximate").value_or("none");
  if (mode != "none" && mode != "tanh") return Capability::no("approximate='" + mode + "' is not 'none' or 'tanh'");
  return Capability::yes();
}

ATENRT_CONVERTER(kFamily, "aten.relu.default")(const Scope& s, const NodeArgs& args) {
  return one(act::relu(s, args.tensor("self")));
}
ATENRT_CONVERTER(kFamily, "aten.relu6.default")(const Scope& s, const NodeArgs& args) {
  return one(act::relu6(s, args.tensor("self")));
}
ATENRT_CONVERTER(kFamily, "aten.sigmoid.default")(const Scope& s, const NodeArgs& args) {
  return one(act::sigmoid(s, args.tensor("self")));
}
ATENRT_CONVERTER(kFamily, "aten.tanh.default")(const Scope& s, const NodeArgs& args) {
  return one(act::tanh(s, args.tensor("self")));
}
ATENRT_CONVERTER(kFamily, "aten.leaky_relu.default")(const Scope& s, const NodeArgs& args) {
  return one(act::leaky_relu(s, args.tensor("self"), args.f("negative_slope")));
}
ATENRT_CONVERTER(kFamily, "aten.elu.default")(const Scope& s, const NodeArgs& args) {
  return one(act::elu(s, args.tensor("self"), args.f("alpha"), args.f("scale"), args.f("input_scale")));
}
ATENRT_CONVERTER(kFamily, "aten.selu.default")(const Scope& s, const NodeArgs& args) {
  return one(act::selu(s, args.tensor("self")));
}
ATENRT_CONVERTER(kFamily, "aten.gelu.default", .validator = gelu_mode)(const Scope& s, const NodeArgs& args) {
  return one(act::gelu(s, args.tensor("self"), args.opt_str("approximate").value_or("none")));
}
ATENRT_CONVERTER(kFamily, "aten.hardsigmoid.default")(const Scope& s, const NodeArgs& args) {
  return one(act::hardsigmoid(s, args.tensor("self")));
}
ATENRT_CONVERTER(kFamily, "aten.hardswish.default")(const Scope& s, const NodeArgs& args) {
  return one(act::hardswish(s, args.tensor("self")));
}
ATENRT_CONVERTER(kFamily, "aten.hardtanh.default")(const Scope& s, const NodeArgs& args) {
  return one(act::hardtanh(s, args.tensor("self"), args.f("min_val"), args.f("max_val")));
}
Capability nonzero_beta(const NodeView& node, const ConversionSettings&) {
  if (node.literal_number("beta") == 0.0) return Capability::no("softplus beta must not be 0");
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, "aten.softplus.default", .validator = nonzero_beta)(const Scope& s, const NodeArgs& args) {
  return one(act::softplus(s, args.tensor("self"), args.f("beta"), args.f("threshold")));
}
ATENRT_CONVERTER(kFamily, "aten.silu.default")(const Scope& s, const NodeArgs& args) {
  return one(act::silu(s, args.tensor("self")));
}
ATENRT_CONVERTER(kFamily, "aten.mish.default")(const Scope& s, const NodeArgs& args) {
  return one(act::mish(s, args.tensor("self")));
}
ATENRT_CONVERTER(kFamily, "aten.prelu.default")(const Scope& s, const NodeArgs& args) {
  return one(act::prelu(s, args.tensor("self"), args.tensor("weight"), true));
}
// The decomposed form: weight is already broadcastable against self.
ATENRT_CONVERTER(kFamily, "aten._prelu_kernel.default")(const Scope& s, const NodeArgs& args) {
  return one(act::prelu(s, args.tensor("self"), args.tensor("weight"), false));
}
// The softmax spellings: _softmax / _log_softmax (core ATen, half_to_float)
// and softmax.int / log_softmax.int (dtype= casts first).
ATENRT_CONVERTER(kFamily,
                 keys("aten._softmax.default", "aten._log_softmax.default", "aten.softmax.int",
                      "aten.log_softmax.int"),
                 .validator = no_half_to_float)
(const Scope& s, const NodeArgs& args) {
  auto* x = args.tensor("self");
  if (args.has("dtype")) {
    if (auto dt = args.opt_dtype("dtype")) x = impl::cast(s, x, *dt);
  }
  const bool log = s.target().find("log_softmax") != std::string::npos;
  return one(act::softmax(s, x, args.i("dim"), log));
}
ATENRT_CONVERTER(kFamily, "aten._safe_softmax.default")(const Scope& s, const NodeArgs& args) {
  auto* x = args.tensor("self");
  if (auto dt = args.opt_dtype("dtype")) x = impl::cast(s, x, *dt);
  return one(act::safe_softmax(s, x, args.i("dim")));
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
