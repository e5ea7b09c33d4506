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
  if (r.mean) return {r.out, r.mean, r.invstd};
  // In inference PyTorch saves no statistics: its mean/invstd outputs are empty. Graphs that record
  // them so get empty constants; the others are refused when read (inference_stats_fit).
  Outputs out{r.out, Value(), Value()};
  for (std::size_t i = 1; i <= 2; ++i) {
    const ir::TensorMeta* m = args.output_meta(i);
    if (m && m->dtype && m->static_sizes() == std::vector<std::int64_t>{0}) {
      out[i] = s.add_constant(i == 1 ? "save_mean" : "save_invstd", Tensor(*m->dtype, {0}));
    }
  }
  return out;
}

Capability static_channels(const NodeView& node, const ConversionSettings&) {
  const ir::TensorMeta* m = node.meta("input");
  if (m && (m->sizes.size() < 2 || !m->sizes[1].is_static())) {
    return Capability::no("input must be [N, C, ...] with a static channel dim");
  }
  return Capability::yes();
}

// The normalization layer computes only the result and takes epsilon >= 0; a node whose mean/rstd
// outputs are read, or with a negative epsilon (PyTorch computes rsqrt(var + eps) as written), is
// built from reductions instead.
// PyTorch's eager native_batch_norm returns empty mean/invstd in inference, while torch 1.13's
// export records them as [C]: a graph that reads them so cannot be matched.
Capability inference_stats_fit(const NodeView& node, const ConversionSettings& settings) {
  if (auto c = static_channels(node, settings); !c) return c;
  if (node.literal_bool("training").value_or(true)) return Capability::yes();
  for (std::size_t i = 1; i <= 2; ++i) {
    const ir::TensorMeta* m = node.output_meta(i);
    if (node.output_used(i) && !(m && m->static_sizes() == std::vector<std::int64_t>{0})) {
      return Capability::no("its saved mean/invstd are read in inference, where PyTorch computes none (empty "
                            "tensors) but the graph records them as " + (m ? m->to_string() : std::string("unknown")));
    }
  }
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, "aten.native_batch_norm.default", .validator = inference_stats_fit)(const Scope& s, const NodeArgs& args) {
  return batch_norm(s, args, args.b("training"), true);
}
ATENRT_CONVERTER(kFamily, "aten._native_batch_norm_legit_no_training.default", .validator = static_channels)(const Scope& s, const NodeArgs& args) {
  return batch_norm(s, args, false, true);
}
ATENRT_CONVERTER(kFamily, "aten._native_batch_norm_legit.default", .validator = inference_stats_fit)(const Scope& s, const NodeArgs& args) {
  return batch_norm(s, args, args.b("training"), true);
}
// The functional form of training-mode batch norm (run_decompositions() of a module in train()):
// batch statistics normalize, and the updated running statistics are outputs 3 and 4, which the
// signature's buffer_mutation outputs name. In inference the running statistics pass through.
ATENRT_CONVERTER(kFamily, "aten._native_batch_norm_legit_functional.default", .validator = inference_stats_fit)(const Scope& s, const NodeArgs& args) {
  const bool training = args.b("training");
  auto* x = args.tensor("input");
  auto* mean = args.tensor("running_mean");
  auto* var = args.tensor("running_var");
  if (!training) {
    Outputs out = batch_norm(s, args, false, true);
    out.push_back(impl::identity(s, mean));
    out.push_back(impl::identity(s, var));
    return out;
  }
  auto r = norm::batch_norm(s, x, args.opt_tensor("weight"), args.opt_tensor("bias"), mean, var, true, args.f("eps"));
  auto running = norm::updated_running_stats(s, x, r, mean, var, args.f("momentum"));
  return {r.out, r.mean, r.invstd, running.mean, running.var};
}
ATENRT_CONVERTER(kFamily, "aten._native_batch_norm_legit.no_stats", .validator = static_channels)(const Scope& s, const NodeArgs& args) {
  auto r = norm::batch_norm(s, args.tensor("input"), args.opt_tensor("weight"),
                            args.opt_tensor("bias"), nullptr, nullptr, true, args.f("eps"));
  return {r.out, r.mean, r.invstd};
}
ATENRT_CONVERTER(kFamily, "aten.batch_norm.default", .validator = static_channels)(const Scope& s, const NodeArgs& args) {
  return batch_norm(s, args, args.b("training"), false);
}
// The normalization layer computes only the result, with epsilon >= 0. A node whose mean/rstd
// outputs are read, or with a negative epsilon (PyTorch computes rsqrt(var + eps) as written), takes
// the standard-priority converters below, built from reductions.
Capability layer_fits(const NodeView& node, const ConversionSettings&) {
  if (node.literal_number("eps").value_or(0.0) < 0) return Capability::no("a negative epsilon (the layer takes eps >= 0)");
  for (std::size_t i = 1; i < node.node().outputs.size(); ++i) {
    if (node.output_used(i)) return Capability::no("its mean/rstd outputs are used (the layer computes only the result)");
  }
  return Capability::yes();
}
// The input's sizes (-1 where not static), for the shape rules.
std::vector<std::int64_t> input_dims(const NodeView& node) {
  std::vector<std::int64_t> dims;
  if (const ir::TensorMeta* m = node.meta("input")) {
    for (const auto& d : m->sizes) dims.push_back(d.value.value_or(-1));
  }
  return dims;
}
Capability layer_norm_shape_ok(const NodeView& node, const ConversionSettings&) {
  auto shape = node.literal_ints("normalized_shape");
  if (!shape || !node.meta("input")) return Capability::yes();
  return refuse_if(norm::layer_norm_shape_problem(*shape, input_dims(node)));
}
// Static channels that `groups_arg` divides.
Validator group_norm_ok(const char* groups_arg) {
  return [groups_arg](const NodeView& node, const ConversionSettings& settings) {
    if (auto c = static_channels(node, settings); !c) return c;
    auto groups = node.literal_int(groups_arg);
    const auto dims = input_dims(node);
    if (!groups || dims.size() < 2) return Capability::yes();
    return refuse_if(norm::group_norm_problem(dims[1], *groups));
  };
}
ATENRT_CONVERTER(kFamily, "aten.native_layer_norm.default", .validator = all_of({layer_norm_shape_ok, layer_fits}), .priority = Priority::High)(const Scope& s, const NodeArgs& args) {
  auto* out = norm::layer_norm(s, args.tensor("input"), args.ints("normalized_shape"),
                               args.opt_tensor("weight"), args.opt_tensor("bias"), args.f("eps"));
  return {out, Value(), Value()};  // mean / rstd: unused (layer_fits)
}
ATENRT_CONVERTER(kFamily, "aten.layer_norm.default", .validator = all_of({layer_norm_shape_ok, layer_fits}), .priority = Priority::High)(const Scope& s, const NodeArgs& args) {
  return one(norm::layer_norm(s, args.tensor("input"), args.ints("normalized_shape"),
                              args.opt_tensor("weight"), args.opt_tensor("bias"), args.f("eps")));
}
ATENRT_CONVERTER(kFamily, "aten.native_group_norm.default", .validator = all_of({group_norm_ok("group"), layer_fits}), .priority = Priority::High)(const Scope& s, const NodeArgs& args) {
  auto* out = norm::group_norm(s, args.tensor("input"), args.i("group"),
                               args.opt_tensor("weight"), args.opt_tensor("bias"), args.f("eps"));
  return {out, Value(), Value()};
}
ATENRT_CONVERTER(kFamily, "aten.group_norm.default", .validator = all_of({group_norm_ok("num_groups"), layer_fits}), .priority = Priority::High)(const Scope& s, const NodeArgs& args) {
  return one(norm::group_norm(s, args.tensor("input"), args.i("num_groups"),
                              args.opt_tensor("weight"), args.opt_tensor("bias"), args.f("eps")));
}
norm::NormWithStats layer_norm_stats(const Scope& s, const NodeArgs& args) {
  return norm::layer_norm_with_stats(s, args.tensor("input"), args.ints("normalized_shape"),
                                     args.opt_tensor("weight"), args.opt_tensor("bias"), args.f("eps"));
}
norm::NormWithStats group_norm_stats(const Scope& s, const NodeArgs& args, const char* groups) {
  return norm::group_norm_with_stats(s, args.tensor("input"), args.i(groups), args.opt_tensor("weight"),
                                     args.opt_tensor("bias"), args.f("eps"));
}
ATENRT_CONVERTER(kFamily, "aten.native_layer_norm.default", .validator = layer_norm_shape_ok)(const Scope& s, const NodeArgs& args) {
  auto r = layer_norm_stats(s, args);
  return {r.out, r.mean, r.rstd};
}
ATENRT_CONVERTER(kFamily, "aten.layer_norm.default", .validator = layer_norm_shape_ok)(const Scope& s, const NodeArgs& args) {
  return one(layer_norm_stats(s, args).out);
}
ATENRT_CONVERTER(kFamily, "aten.native_group_norm.default", .validator = group_norm_ok("group"))(const Scope& s, const NodeArgs& args) {
  auto r = group_norm_stats(s, args, "group");
  return {r.out, r.mean, r.rstd};
}
ATENRT_CONVERTER(kFamily, "aten.group_norm.default", .validator = group_norm_ok("num_groups"))(const Scope& s, const NodeArgs& args) {
  return one(group_norm_stats(s, args, "num_groups").out);
}
// Weight-only preprocessing (wav2vec2's positional convolution): the builder folds it when v and g
// are weights.
ATENRT_CONVERTER(kFamily, "aten._weight_norm_interface.default")(const Scope& s, const NodeArgs& args) {
  auto r = norm::weight_norm(s, args.tensor("v"), args.tensor("g"), args.i("dim"));
  return {r.weight, r.norm};
}
ATENRT_CONVERTER(kFamily, "aten._weight_norm.default")(const Scope& s, const NodeArgs& args) {
  return one(norm::weight_norm(s, args.tensor("v"), args.tensor("g"), args.i("dim")).weight);
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
