// Normalization converters.
#include "conversion/aten_ops/common.h"
#include "conversion/impl/normalization.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace norm = impl::normalization;
constexpr Family kFamily{.name = "normalization", .supports_dynamic_shapes = true};

// Batch norm takes running statistics unless training (or they are absent).
Outputs batch_norm(const Scope& s, const NodeArgs& args, bool training, bool three_outputs) {
  auto* mean = args.opt_tensor("running_mean");
  auto* var = args.opt_tensor("running_var");
  const bool batch_stats = training || !mean || !var;
  auto r = norm::batch_norm(s, args.tensor("input"), args.opt_tensor("weight"),
                            args.opt_tensor("bias"), mean, var, batch_stats, args.f("eps"));
  if (!three_outputs) return one(r.out);
  // In inference the saved statistics are not computed (PyTorch returns empty tensors).
  return {r.out, r.mean ? Value(r.mean) : Value(), r.invstd ? Value(r.invstd) : Value()};
}

Capability static_channels(const NodeView& node, const ConversionSettings&) {
  const ir::TensorMeta* m = node.meta("input");
  if (m && (m->sizes.size() < 2 || !m->sizes[1].is_static())) {
    return Capability::no("input must be [N, C, ...] with a static channel dim");
  }
  return Capability::yes();
}

// native_layer_norm / native_group_norm also return the mean and rstd they
// used; the layer computes only the result, so a node whose statistics are
// read is left to the decomposition (which computes all three).
Capability statistics_unused(const NodeView& node, const ConversionSettings&) {
  if (node.output_used(1) || node.output_used(2)) {
    return Capability::no("its mean/rstd outputs are used; this converter computes only the normalized result");
  }
  return Capability::yes();
}

Capability group_norm_supported(const NodeView& node, const ConversionSettings& settings) {
  if (auto c = static_channels(node, settings); !c) return c;
  return statistics_unused(node, settings);
}

ATENRT_CONVERTER(kFamily, "aten.native_batch_norm.default", .validator = static_channels)(const Scope& s, const NodeArgs& args) {
  return batch_norm(s, args, args.b("training"), true);
}
ATENRT_CONVERTER(kFamily, "aten._native_batch_norm_legit_no_training.default", .validator = static_channels)(const Scope& s, const NodeArgs& args) {
  return batch_norm(s, args, false, true);
}
ATENRT_CONVERTER(kFamily, "aten._native_batch_norm_legit.default", .validator = static_channels)(const Scope& s, const NodeArgs& args) {
  return batch_norm(s, args, args.b("training"), true);
}
ATENRT_CONVERTER(kFamily, "aten._native_batch_norm_legit.no_stats", .validator = static_channels)(const Scope& s, const NodeArgs& args) {
  auto r = norm::batch_norm(s, args.tensor("input"), args.opt_tensor("weight"),
                            args.opt_tensor("bias"), nullptr, nullptr, true, args.f("eps"));
  return {r.out, r.mean, r.invstd};
}
ATENRT_CONVERTER(kFamily, "aten.batch_norm.default", .validator = static_channels)(const Scope& s, const NodeArgs& args) {
  return batch_norm(s, args, args.b("training"), false);
}
ATENRT_CONVERTER(kFamily, "aten.native_layer_norm.default", .validator = statistics_unused)(const Scope& s, const NodeArgs& args) {
  auto* out = norm::layer_norm(s, args.tensor("input"), args.ints("normalized_shape"),
                               args.opt_tensor("weight"), args.opt_tensor("bias"), args.f("eps"));
  return {out, Value(), Value()};  // mean / rstd: unused (statistics_unused)
}
ATENRT_CONVERTER(kFamily, "aten.layer_norm.default")(const Scope& s, const NodeArgs& args) {
  return one(norm::layer_norm(s, args.tensor("input"), args.ints("normalized_shape"),
                              args.opt_tensor("weight"), args.opt_tensor("bias"), args.f("eps")));
}
ATENRT_CONVERTER(kFamily, "aten.native_group_norm.default", .validator = group_norm_supported)(const Scope& s, const NodeArgs& args) {
  auto* out = norm::group_norm(s, args.tensor("input"), args.i("group"),
                               args.opt_tensor("weight"), args.opt_tensor("bias"), args.f("eps"));
  return {out, Value(), Value()};
}
ATENRT_CONVERTER(kFamily, "aten.group_norm.default", .validator = static_channels)(const Scope& s, const NodeArgs& args) {
  return one(norm::group_norm(s, args.tensor("input"), args.i("num_groups"),
                              args.opt_tensor("weight"), args.opt_tensor("bias"), args.f("eps")));
}
Capability instance_stats(const NodeView& node, const ConversionSettings& s) {
  if (!node.literal_bool("use_input_stats").value_or(true)) {
    return Capability::no("use_input_stats=False (running statistics) is not supported");
  }
  return static_channels(node, s);
}
ATENRT_CONVERTER(kFamily, "aten.instance_norm.default", .validator = instance_stats)(const Scope& s, const NodeArgs& args) {
  return one(norm::instance_norm(s, args.tensor("input"), args.opt_tensor("weight"),
                                 args.opt_tensor("bias"), args.f("eps")));
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
