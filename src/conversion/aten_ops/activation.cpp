// Activation converters: pick the arguments, call impl::activation.
#include <cmath>

#include "conversion/aten_ops/common.h"
#include "conversion/host_tensor.h"
#include "conversion/impl/activation.h"
#include "conversion/impl/elementwise.h"
#include "conversion/impl/reduce.h"
#include "conversion/impl/select.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace act = impl::activation;
constexpr const char* kFamily = "activation";

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

ATENRT_CONVERTER("aten.relu.default", .supports_dynamic_shapes = true) {
  return one(act::relu(ctx, SourceIR::ATen, args.name(), args.tensor("self")));
}
ATENRT_CONVERTER("aten.relu6.default", .supports_dynamic_shapes = true) {
  return one(act::relu6(ctx, SourceIR::ATen, args.name(), args.tensor("self")));
}
ATENRT_CONVERTER("aten.sigmoid.default", .supports_dynamic_shapes = true) {
  return one(act::sigmoid(ctx, SourceIR::ATen, args.name(), args.tensor("self")));
}
ATENRT_CONVERTER("aten.tanh.default", .supports_dynamic_shapes = true) {
  return one(act::tanh(ctx, SourceIR::ATen, args.name(), args.tensor("self")));
}
ATENRT_CONVERTER("aten.leaky_relu.default", .supports_dynamic_shapes = true) {
  return one(act::leaky_relu(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.f("negative_slope")));
}
ATENRT_CONVERTER("aten.elu.default", .supports_dynamic_shapes = true) {
  return one(act::elu(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.f("alpha"), args.f("scale"),
                      args.f("input_scale")));
}
ATENRT_CONVERTER("aten.selu.default", .supports_dynamic_shapes = true) {
  return one(act::selu(ctx, SourceIR::ATen, args.name(), args.tensor("self")));
}
ATENRT_CONVERTER("aten.gelu.default", .validator = gelu_mode, .supports_dynamic_shapes = true) {
  return one(act::gelu(ctx, SourceIR::ATen, args.name(), args.tensor("self"),
                       args.opt_str("approximate").value_or("none")));
}
ATENRT_CONVERTER("aten.hardsigmoid.default", .supports_dynamic_shapes = true) {
  return one(act::hardsigmoid(ctx, SourceIR::ATen, args.name(), args.tensor("self")));
}
ATENRT_CONVERTER("aten.hardswish.default", .supports_dynamic_shapes = true) {
  return one(act::hardswish(ctx, SourceIR::ATen, args.name(), args.tensor("self")));
}
ATENRT_CONVERTER("aten.hardtanh.default", .supports_dynamic_shapes = true) {
  return one(act::hardtanh(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.f("min_val"),
                           args.f("max_val")));
}
ATENRT_CONVERTER("aten.softplus.default", .supports_dynamic_shapes = true) {
  return one(act::softplus(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.f("beta"),
                           args.f("threshold")));
}
ATENRT_CONVERTER("aten.silu.default", .supports_dynamic_shapes = true) {
  return one(act::silu(ctx, SourceIR::ATen, args.name(), args.tensor("self")));
}
ATENRT_CONVERTER("aten.mish.default", .supports_dynamic_shapes = true) {
  return one(act::mish(ctx, SourceIR::ATen, args.name(), args.tensor("self")));
}
ATENRT_CONVERTER("aten.prelu.default", .supports_dynamic_shapes = true) {
  return one(act::prelu(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.tensor("weight"), true));
}
// The decomposed form: weight is already broadcastable against self.
ATENRT_CONVERTER("aten._prelu_kernel.default", .supports_dynamic_shapes = true) {
  return one(act::prelu(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.tensor("weight"), false));
}
ATENRT_CONVERTER("aten._softmax.default", .validator = no_half_to_float, .supports_dynamic_shapes = true) {
  return one(act::softmax(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.i("dim"), false));
}
ATENRT_CONVERTER("aten._log_softmax.default", .validator = no_half_to_float, .supports_dynamic_shapes = true) {
  return one(act::softmax(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.i("dim"), true));
}
// softmax, except that a row masked entirely (every element -inf) gives 0s, not NaN.
ATENRT_CONVERTER("aten._safe_softmax.default", .supports_dynamic_shapes = true) {
  auto* x = args.tensor("self");
  if (auto dt = args.opt_dtype("dtype")) x = impl::cast(ctx, args.name(), x, *dt);
  const std::string name(args.name());
  auto* soft = act::softmax(ctx, SourceIR::ATen, name, x, args.i("dim"), false);
  auto* row_max = impl::reduce::reduce(ctx, SourceIR::ATen, name + ".row_max", x, network::ReduceOp::Max, {args.i("dim")}, true);
  Tensor minus_inf(row_max->dtype, {});  // a tensor: a Scalar holding inf would be cast to int
  set_element(minus_inf, 0, -INFINITY);
  auto* masked = impl::elementwise::compare(ctx, SourceIR::ATen, name + ".masked", Operand{row_max, {}},
                                            Operand{ctx.constant(minus_inf, name + ".minus_inf"), {}},
                                            network::ElementwiseOp::Equal);
  return one(impl::select::where(ctx, SourceIR::ATen, name + ".safe", masked, Operand{nullptr, Scalar::of_float(0.0)},
                                 Operand{soft, {}}));
}
ATENRT_CONVERTER("aten.softmax.int", .supports_dynamic_shapes = true) {
  auto* x = args.tensor("self");
  if (auto dt = args.opt_dtype("dtype")) x = impl::cast(ctx, args.name(), x, *dt);
  return one(act::softmax(ctx, SourceIR::ATen, args.name(), x, args.i("dim"), false));
}
ATENRT_CONVERTER("aten.log_softmax.int", .supports_dynamic_shapes = true) {
  auto* x = args.tensor("self");
  if (auto dt = args.opt_dtype("dtype")) x = impl::cast(ctx, args.name(), x, *dt);
  return one(act::softmax(ctx, SourceIR::ATen, args.name(), x, args.i("dim"), true));
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
