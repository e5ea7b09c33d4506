// Converters without a family of their own: creation (arange/full/...,
// impl/creation), seeded random constants (impl/random), casts and copies,
// dropout (inference), sort/top-k, upsampling, cross/cdist/pdist, grid
// sampling (impl/other).
#include <optional>
#include <string>

#include "atenrt/errors.h"
#include "conversion/aten_ops/common.h"
#include "conversion/impl/converter_utils.h"
#include "conversion/impl/creation.h"
#include "conversion/impl/other.h"
#include "conversion/impl/random.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace ot = impl::other;
namespace creation = impl::creation;
using network::ResizeMode;
constexpr Family kFamily{.name = "other"};

// The dtype= argument, else the dtype the graph records for the output
// (ATen's default differs across torch versions: 1.13's full(size, 7) is
// float32), else nullopt.
std::optional<DType> dtype_arg(const NodeArgs& args) {
  if (args.has("dtype") && !args.is_none("dtype")) return args.opt_dtype("dtype");
  if (const ir::TensorMeta* m = args.output_meta(0)) return m->dtype;
  return std::nullopt;
}
DType default_for(const Scalar& s) { return impl::scalar_dtype(s); }

// A number written in the node (not resolved through other nodes).
std::optional<Scalar> literal_scalar(const NodeView& node, const char* name) {
  const ir::Argument* a = node.find(name);
  if (!a) return std::nullopt;
  if (const auto* b = a->get_if<bool>()) return Scalar::of_bool(*b);
  if (const auto* d = a->get_if<double>()) return Scalar::of_float(*d);
  if (auto i = node.literal_int(name)) return Scalar::of_int(*i);
  return std::nullopt;
}

// The size argument, when written in the node, is a valid size.
Validator valid_size(const char* arg) {
  return [arg](const NodeView& node, const ConversionSettings&) {
    if (auto size = node.literal_ints(arg)) {
      if (auto why = creation::size_problem(*size)) return Capability::no(*why);
    }
    return Capability::yes();
  };
}

// ---------------------------------------------------------------- creation
// Sizes may be known only at run time (item() -> a size, a dynamic size):
// a Fill layer over them (creation::full_sized).
ATENRT_CONVERTER(kFamily, "aten.full.default", .validator = valid_size("size"), .supports_dynamic_shapes = true)
(const Scope& s, const NodeArgs& args) {
  const Scalar v = args.scalar("fill_value");
  return one(creation::full_sized(s, args.value("size"), v, dtype_arg(args).value_or(default_for(v))));
}
ATENRT_CONVERTER(kFamily, keys("aten.zeros.default", "aten.ones.default"), .validator = valid_size("size"),
                 .supports_dynamic_shapes = true)
(const Scope& s, const NodeArgs& args) {
  const Scalar v = Scalar::of_int(s.target() == "aten.ones.default" ? 1 : 0);
  return one(creation::full_sized(s, args.value("size"), v, dtype_arg(args).value_or(DType::Float32)));
}
// A dead `empty` from tracing; if read, zeros (its contents are undefined).
Capability empty_size(const NodeView& node, const ConversionSettings& settings) {
  if (!node.literal_ints("size")) return Capability::no("size must be known at conversion time");
  return valid_size("size")(node, settings);
}
ATENRT_CONVERTER(kFamily, "aten.empty.memory_format", .validator = empty_size)(const Scope& s, const NodeArgs& args) {
  return one(creation::full(s, args.ints("size"), Scalar::of_int(0), dtype_arg(args).value_or(DType::Float32)));
}
Outputs like(const Scope& s, const NodeArgs& args, const Scalar& v) {
  auto* x = args.tensor("self");
  return one(creation::full_like(s, x, v, dtype_arg(args).value_or(x->dtype)));
}
ATENRT_CONVERTER(kFamily, keys("aten.zeros_like.default", "aten.empty_like.default"), .supports_dynamic_shapes = true)
(const Scope& s, const NodeArgs& args) { return like(s, args, Scalar::of_int(0)); }
ATENRT_CONVERTER(kFamily, "aten.ones_like.default", .supports_dynamic_shapes = true)
(const Scope& s, const NodeArgs& args) { return like(s, args, Scalar::of_int(1)); }
ATENRT_CONVERTER(kFamily, "aten.full_like.default", .supports_dynamic_shapes = true)
(const Scope& s, const NodeArgs& args) { return like(s, args, args.scalar("fill_value")); }
ATENRT_CONVERTER(kFamily, "aten.fill.Scalar", .supports_dynamic_shapes = true)
(const Scope& s, const NodeArgs& args) { return like(s, args, args.scalar("value")); }
Outputs new_filled(const Scope& s, const NodeArgs& args, const Scalar& v) {
  auto* x = args.tensor("self");
  return one(creation::full_sized(s, args.value("size"), v, dtype_arg(args).value_or(x->dtype)));
}
ATENRT_CONVERTER(kFamily, keys("aten.new_zeros.default", "aten.new_empty.default"), .validator = valid_size("size"),
                 .supports_dynamic_shapes = true)
(const Scope& s, const NodeArgs& args) { return new_filled(s, args, Scalar::of_int(0)); }
ATENRT_CONVERTER(kFamily, "aten.new_ones.default", .validator = valid_size("size"), .supports_dynamic_shapes = true)
(const Scope& s, const NodeArgs& args) { return new_filled(s, args, Scalar::of_int(1)); }
ATENRT_CONVERTER(kFamily, "aten.new_full.default", .validator = valid_size("size"), .supports_dynamic_shapes = true)
(const Scope& s, const NodeArgs& args) { return new_filled(s, args, args.scalar("fill_value")); }
ATENRT_CONVERTER(kFamily, "aten.scalar_tensor.default")(const Scope& s, const NodeArgs& args) {
  const DType dtype = dtype_arg(args).value_or(DType::Float32);
  // A number computed in the graph that is known only at run time (a
  // comparison of dynamic sizes) is a 0-d network tensor: cast it.
  if (const Value v = args.value("s"); v.is_network_tensor()) {
    NetworkTensor* t = v.network_tensor();
    if (t->rank() != 0) throw UnsupportedError("argument 's': expected a number, got " + v.describe());
    return one(impl::cast(s, t, dtype));
  }
  return one(creation::full(s, {}, args.scalar("s"), dtype));
}

// arange's three overloads, decoded one way for the validator (numbers
// written in the node) and the converter (numbers resolved).
template <typename NumberOf>
std::optional<creation::ArangeArgs> arange_args(const std::string& target, NumberOf number) {
  creation::ArangeArgs a;
  auto end = number("end");
  if (!end) return std::nullopt;
  a.end = *end;
  if (target != "aten.arange.default") {
    auto start = number("start");
    if (!start) return std::nullopt;
    a.start = *start;
  }
  if (target == "aten.arange.start_step") {
    auto step = number("step");
    if (!step) return std::nullopt;
    a.step = *step;
  }
  return a;
}
Capability arange_ok(const NodeView& node, const ConversionSettings&) {
  const auto a = arange_args(node.target(), [&](const char* n) { return literal_scalar(node, n); });
  std::string why;
  if (a && !a->count(&why)) return Capability::no(why);
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, keys("aten.arange.default", "aten.arange.start", "aten.arange.start_step"),
                 .validator = arange_ok, .supports_dynamic_shapes = true)
(const Scope& s, const NodeArgs& args) {
  if (const Value end = args.value("end"); end.is_network_tensor()) {
    // A dynamic size (positions over a dynamic sequence length): the count is computed at run time.
    const auto bound = [&](const char* n) -> std::int64_t {
      impl::check(!args.value(n).is_network_tensor(), std::string("arange with a run-time end takes a constant '") + n + "'");
      const Scalar v = args.scalar(n);
      impl::check(!v.is_float(), std::string("arange with a run-time end takes an integer '") + n + "'");
      return v.i;
    };
    const std::int64_t start = s.target() == "aten.arange.default" ? 0 : bound("start");
    const std::int64_t step = s.target() == "aten.arange.start_step" ? bound("step") : 1;
    return one(creation::arange_to(s, start, end.network_tensor(), step, dtype_arg(args).value_or(DType::Int64)));
  }
  const auto a = arange_args(s.target(), [&](const char* n) { return std::optional<Scalar>(args.scalar(n)); });
  return one(creation::arange(*a, dtype_arg(args).value_or(a->default_dtype())));
}

// ---------------------------------------------------------------- random (drawn at conversion time)
ATENRT_CONVERTER(kFamily, "aten.rand.default", .validator = valid_size("size"))(const Scope& s, const NodeArgs& args) {
  return one(impl::random::uniform(s, args.ints("size"), dtype_arg(args).value_or(DType::Float32)));
}
ATENRT_CONVERTER(kFamily, "aten.randn.default", .validator = valid_size("size"))(const Scope& s, const NodeArgs& args) {
  return one(impl::random::normal(s, args.ints("size"), dtype_arg(args).value_or(DType::Float32)));
}
Capability randperm_ok(const NodeView& node, const ConversionSettings&) {
  if (node.literal_int("n").value_or(0) < 0) return Capability::no("randperm n must be non-negative");
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, "aten.randperm.default", .validator = randperm_ok)(const Scope& s, const NodeArgs& args) {
  return one(impl::random::permutation(s, args.i("n"), dtype_arg(args).value_or(DType::Int64)));
}

// ---------------------------------------------------------------- casts and copies
Capability cpu_strided(const NodeView& node, const ConversionSettings&) {
  const ir::Argument* layout = node.find("layout");
  if (layout) {
    if (const auto* l = layout->get_if<ir::LayoutArg>(); l && l->code != 7 && l->code != 0) {
      return Capability::no("only strided layout is supported (got layout code " + std::to_string(l->code) + ")");
    }
  }
  return Capability::yes();
}
Value cast_value(const Scope& s, const NodeArgs& args, const char* arg, std::optional<DType> to) {
  const Value v = args.value(arg);
  if (!to) return v;
  auto* t = s.tensor(v, arg);
  if (t->dtype == *to) return v;
  return s.add_cast("", t, *to);
}
ATENRT_CONVERTER(kFamily, "aten._to_copy.default", .validator = cpu_strided, .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) {
  return one(cast_value(s, args, "self", dtype_arg(args)));
}
ATENRT_CONVERTER(kFamily, "aten.to.dtype", .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) { return one(cast_value(s, args, "self", args.opt_dtype("dtype"))); }
ATENRT_CONVERTER(kFamily, "aten.to.dtype_layout", .validator = cpu_strided, .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) {
  return one(cast_value(s, args, "self", dtype_arg(args)));
}
ATENRT_CONVERTER(kFamily, "prims.convert_element_type.default", .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) {
  return one(cast_value(s, args, "a", args.opt_dtype("dtype")));
}
// Memory format is a layout hint; values are the same.
ATENRT_CONVERTER(kFamily, keys("aten.clone.default", "aten.contiguous.default"), .supports_dynamic_shapes = true)(const Scope&, const NodeArgs& args) { return one(args.value("self")); }
ATENRT_CONVERTER(kFamily, "aten.copy.default", .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) {
  auto* self = args.tensor("self");
  auto* src = impl::cast(s, args.tensor("src"), self->dtype);
  auto* y = impl::expand(s, src, self->dims);
  return one(y == args.tensor("src") ? impl::identity(s, y) : y);
}
ATENRT_CONVERTER(kFamily, "aten.fill.Tensor", .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) {
  auto* self = args.tensor("self");
  auto* v = impl::cast(s, args.tensor("value"), self->dtype);
  return one(impl::expand(s, impl::reshape(s, v, {}), self->dims));
}

// ---------------------------------------------------------------- dropout (inference: identity)
Capability no_train(const NodeView& node, const ConversionSettings&) {
  const bool train = node.literal_bool("train").value_or(false);
  const double p = node.literal_number("p").value_or(0.0);
  if (train && p != 0.0) return Capability::no("dropout in training mode is random (train=True, p > 0)");
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, "aten.native_dropout.default", .validator = no_train, .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) {
  auto* x = args.tensor("input");
  auto* keep = x->is_static() ? impl::fill(s.child("mask"), x->dims, 1.0, DType::Bool)
                              : impl::cast(s.child("mask"),
                                           impl::ew(s, x, x, network::ElementwiseOp::Equal), DType::Bool);
  return {args.value("input"), keep};
}
ATENRT_CONVERTER(kFamily, "aten.dropout.default", .validator = no_train, .supports_dynamic_shapes = true)(const Scope&, const NodeArgs& args) {
  return one(args.value("input"));
}

// ---------------------------------------------------------------- sort / top-k
Capability static_sort_dim(const NodeView& node, const ConversionSettings&) {
  const ir::TensorMeta* m = node.meta("self");
  const auto dim = node.literal_int("dim").value_or(-1);
  if (m && !m->sizes.empty()) {
    const auto r = static_cast<std::int64_t>(m->sizes.size());
    const auto d = dim < 0 ? dim + r : dim;
    if (d >= 0 && d < r && !m->sizes[static_cast<std::size_t>(d)].is_static()) {
      return Capability::no("the sorted dim must have a static size");
    }
  }
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, "aten.topk.default", .validator = static_sort_dim, .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) {
  // Equal values come out in torch's CPU order (network::TopKTies), sorted or not.
  const auto ties = args.b("sorted") ? network::TopKTies::TorchTopK : network::TopKTies::TorchTopKUnsorted;
  auto [v, i] = ot::topk(s, args.tensor("self"), args.i("k"), args.i("dim"), args.b("largest"), ties);
  return {v, i};
}
Outputs sort(const Scope& s, const NodeArgs& args) {
  auto* x = args.tensor("self");
  const auto dim = args.i("dim");
  const auto k = x->rank() == 0 ? 1 : x->dims[static_cast<std::size_t>(impl::normalize_dim(dim, x->rank()))];
  // sort.stable(stable=True) keeps equal values in index order; sort.default and stable=False
  // (None) take torch's std::sort order (network::TopKTies).
  const bool stable = args.has("stable") && args.opt_b("stable").value_or(false);
  auto [v, i] = ot::topk(s, x, k, dim, args.b("descending"),
                         stable ? network::TopKTies::IndexOrder : network::TopKTies::TorchSort);
  return {v, i};
}
ATENRT_CONVERTER(kFamily, keys("aten.sort.default", "aten.sort.stable"), .validator = static_sort_dim, .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) { return sort(s, args); }

// ---------------------------------------------------------------- upsampling
std::optional<std::vector<std::int64_t>> opt_size(const NodeArgs& args, const char* name) {
  return args.has(name) ? args.opt_ints(name) : std::nullopt;
}
std::optional<std::vector<double>> opt_scales(const NodeArgs& args, const char* name) {
  if (!args.has(name) || args.is_none(name)) return std::nullopt;
  const Value v = args.value(name);
  std::vector<double> out;
  for (const auto& e : v.list()) out.push_back(NodeArgs::as_scalar(e).value_or(Scalar::of_float(0)).f);
  return out;
}
// The non-vec overloads give scales one by one (scales_h, scales_w ...).
std::optional<std::vector<double>> named_scales(const NodeArgs& args, std::initializer_list<const char*> names) {
  std::vector<double> out;
  for (const char* n : names) {
    if (!args.has(n) || args.is_none(n)) return std::nullopt;
    out.push_back(args.f(n));
  }
  return out;
}
// The input's rank and the output_size written in the node, against impl::other::upsample_problem.
// Without an output_size, the sizes come from scales over the input's spatial dims: static ones.
Validator upsample_ok(std::size_t spatial, const char* input) {
  return [=](const NodeView& node, const ConversionSettings&) {
    const auto size = node.literal_ints("output_size").value_or(std::vector<std::int64_t>{});
    if (auto why = ot::upsample_problem(rank_of(node, input), spatial, size)) return Capability::no(*why);
    const ir::TensorMeta* m = node.meta(input);
    const bool sized = node.has("output_size") && !node.is_none("output_size");
    if (!sized && m) {
      for (std::size_t d = 2; d < m->sizes.size(); ++d) {
        if (!m->sizes[d].is_static()) return Capability::no("upsampling by scale needs static spatial dims");
      }
    }
    return Capability::yes();
  };
}
// output_size with sizes known only at run time (F.interpolate(size=x.shape[-2:]) over dynamic dims).
const Value* run_time_size(const NodeArgs& args, const char* name, Value& keep) {
  if (!args.has(name) || args.is_none(name)) return nullptr;
  keep = args.value(name);
  if (!keep.is_list()) return nullptr;
  for (const auto& e : keep.list()) {
    if (e.is_network_tensor()) return &keep;
  }
  return nullptr;
}
Outputs up_vec(const Scope& s, const NodeArgs& args, ResizeMode mode, std::size_t spatial, bool corners) {
  Value keep;
  if (const Value* size = run_time_size(args, "output_size", keep)) {
    return one(ot::upsample_to(s, args.tensor("input"), mode, size->list(), opt_scales(args, "scale_factors"),
                               corners && args.b("align_corners")));
  }
  return one(ot::upsample(s, args.tensor("input"), mode, spatial,
                          opt_size(args, "output_size"), opt_scales(args, "scale_factors"),
                          corners && args.b("align_corners")));
}
ATENRT_CONVERTER(kFamily, "aten.upsample_nearest1d.vec", .validator = upsample_ok(1, "input"), .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) { return up_vec(s, args, ResizeMode::Nearest, 1, false); }
ATENRT_CONVERTER(kFamily, "aten.upsample_nearest2d.vec", .validator = upsample_ok(2, "input"), .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) { return up_vec(s, args, ResizeMode::Nearest, 2, false); }
ATENRT_CONVERTER(kFamily, "aten.upsample_nearest3d.vec", .validator = upsample_ok(3, "input"), .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) { return up_vec(s, args, ResizeMode::Nearest, 3, false); }
ATENRT_CONVERTER(kFamily, "aten._upsample_nearest_exact2d.vec", .validator = upsample_ok(2, "input"), .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) { return up_vec(s, args, ResizeMode::NearestExact, 2, false); }
ATENRT_CONVERTER(kFamily, "aten.upsample_linear1d.vec", .validator = upsample_ok(1, "input"), .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) { return up_vec(s, args, ResizeMode::Linear, 1, true); }
ATENRT_CONVERTER(kFamily, "aten.upsample_bilinear2d.vec", .validator = upsample_ok(2, "input"), .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) { return up_vec(s, args, ResizeMode::Linear, 2, true); }
ATENRT_CONVERTER(kFamily, "aten.upsample_trilinear3d.vec", .validator = upsample_ok(3, "input"), .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) { return up_vec(s, args, ResizeMode::Linear, 3, true); }
ATENRT_CONVERTER(kFamily, "aten.upsample_bicubic2d.vec", .validator = upsample_ok(2, "input"), .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) { return up_vec(s, args, ResizeMode::Cubic, 2, true); }
Outputs up(const Scope& s, const NodeArgs& args, ResizeMode mode, std::size_t spatial, bool corners,
           std::initializer_list<const char*> scale_names) {
  Value keep;
  if (const Value* size = run_time_size(args, "output_size", keep)) {
    return one(ot::upsample_to(s, args.tensor("self"), mode, size->list(), named_scales(args, scale_names),
                               corners && args.b("align_corners")));
  }
  return one(ot::upsample(s, args.tensor("self"), mode, spatial,
                          args.ints("output_size"), named_scales(args, scale_names),
                          corners && args.b("align_corners")));
}
ATENRT_CONVERTER(kFamily, "aten.upsample_nearest1d.default", .validator = upsample_ok(1, "self"), .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) { return up(s, args, ResizeMode::Nearest, 1, false, {"scales"}); }
ATENRT_CONVERTER(kFamily, "aten.upsample_nearest2d.default", .validator = upsample_ok(2, "self"), .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) { return up(s, args, ResizeMode::Nearest, 2, false, {"scales_h", "scales_w"}); }
ATENRT_CONVERTER(kFamily, "aten.upsample_nearest3d.default", .validator = upsample_ok(3, "self"), .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) { return up(s, args, ResizeMode::Nearest, 3, false, {"scales_d", "scales_h", "scales_w"}); }
ATENRT_CONVERTER(kFamily, "aten.upsample_linear1d.default", .validator = upsample_ok(1, "self"), .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) { return up(s, args, ResizeMode::Linear, 1, true, {"scales"}); }
ATENRT_CONVERTER(kFamily, "aten.upsample_bilinear2d.default", .validator = upsample_ok(2, "self"), .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) { return up(s, args, ResizeMode::Linear, 2, true, {"scales_h", "scales_w"}); }
ATENRT_CONVERTER(kFamily, "aten.upsample_trilinear3d.default", .validator = upsample_ok(3, "self"), .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) { return up(s, args, ResizeMode::Linear, 3, true, {"scales_d", "scales_h", "scales_w"}); }
ATENRT_CONVERTER(kFamily, "aten.upsample_bicubic2d.default", .validator = upsample_ok(2, "self"), .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) { return up(s, args, ResizeMode::Cubic, 2, true, {"scales_h", "scales_w"}); }

// ---------------------------------------------------------------- geometry
ATENRT_CONVERTER(kFamily, "aten.linalg_cross.default", .validator = [](const NodeView& n, const ConversionSettings&) {
  const ir::TensorMeta* m = n.meta("self");
  const auto dim = n.literal_int("dim").value_or(-1);
  if (m && !m->sizes.empty()) {
    const auto r = static_cast<std::int64_t>(m->sizes.size());
    const auto d = dim < 0 ? dim + r : dim;
    if (d >= 0 && d < r && m->sizes[static_cast<std::size_t>(d)].value != 3) return Capability::no("dim must have size 3");
  }
  return Capability::yes();
}, .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) {
  return one(ot::cross(s, args.tensor("self"), args.tensor("other"), args.i("dim")));
}
ATENRT_CONVERTER(kFamily, "aten._cdist_forward.default", .validator = [](const NodeView& n, const ConversionSettings&) {
  return refuse_if(ot::cdist_problem(rank_of(n, "x1"), rank_of(n, "x2")));
})(const Scope& s, const NodeArgs& args) {
  return one(ot::cdist(s, args.tensor("x1"), args.tensor("x2"), args.f("p")));
}
ATENRT_CONVERTER(kFamily, "aten._pdist_forward.default", .validator = [](const NodeView& n, const ConversionSettings&) {
  const ir::TensorMeta* m = n.meta("self");
  if (m && (m->sizes.size() != 2 || !m->sizes[0].is_static())) {
    return Capability::no("self must be 2-d with a static row count");
  }
  return Capability::yes();
}, .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) {
  return one(ot::pdist(s, args.tensor("self"), args.f("p")));
}
Capability grid_ok(const NodeView& node, const ConversionSettings& s) {
  const auto mode = node.literal_int("interpolation_mode").value_or(-1);
  const auto pad = node.literal_int("padding_mode").value_or(-1);
  if (mode != 0 && mode != 1) return Capability::no("interpolation_mode " + std::to_string(mode) + " (only bilinear=0, nearest=1)");
  if (pad != 0 && pad != 1) return Capability::no("padding_mode " + std::to_string(pad) + " (only zeros=0, border=1)");
  const ir::TensorMeta* m = node.meta("input");
  if (m && m->sizes.size() != 4) return Capability::no("only 2-d sampling ([N, C, H, W]) is supported");
  return requires_static({"input", "grid"})(node, s);
}
Outputs grid(const Scope& s, const NodeArgs& args) {
  return one(ot::grid_sample_2d(s, args.tensor("input"), args.tensor("grid"),
                                args.i("interpolation_mode"), args.i("padding_mode"), args.b("align_corners")));
}
ATENRT_REGISTER(kFamily, keys("aten.grid_sampler.default", "aten.grid_sampler_2d.default"), grid, .validator = grid_ok, .supports_dynamic_shapes = true);

}  // namespace
}  // namespace atenrt::conversion::aten_ops
