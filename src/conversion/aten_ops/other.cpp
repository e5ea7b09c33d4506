// Converters without a family of their own: creation (arange/full/...,
// folded to constants), casts and copies, dropout (inference), sort/top-k,
// upsampling, cross/cdist/pdist, grid sampling, seeded random constants.
#include <cmath>
#include <random>

#include "atenrt/errors.h"
#include "conversion/aten_ops/common.h"
#include "conversion/host_tensor.h"
#include "conversion/impl/other.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace ot = impl::other;
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
// Folded constants up to this many elements; bigger fills become a Fill layer.
constexpr std::int64_t kMaxFolded = 4096;

Value filled(const Scope& s, const std::vector<std::int64_t>& size, const Scalar& v, DType dtype) {
  for (auto d : size) impl::check(d >= 0, "size " + shape_to_string(size) + " has a negative dim");
  if (impl::numel(size) <= kMaxFolded) {
    Tensor t(dtype, size);
    for (std::int64_t i = 0; i < t.numel(); ++i) {
      if (is_floating(dtype) || dtype == DType::Bool) set_element(t, i, v.f);
      else set_element_int(t, i, v.is_float() ? static_cast<std::int64_t>(v.f) : v.i);
    }
    return t;
  }
  return impl::fill(s, size, v.f, dtype);
}
DType default_for(const Scalar& s) { return impl::scalar_dtype(s); }

// ---------------------------------------------------------------- creation
ATENRT_CONVERTER(kFamily, "aten.full.default")(const Scope& s, const NodeArgs& args) {
  const Scalar v = args.scalar("fill_value");
  return one(filled(s, args.ints("size"), v, dtype_arg(args).value_or(default_for(v))));
}
ATENRT_CONVERTER(kFamily, "aten.zeros.default")(const Scope& s, const NodeArgs& args) {
  return one(filled(s, args.ints("size"), Scalar::of_int(0), dtype_arg(args).value_or(DType::Float32)));
}
ATENRT_CONVERTER(kFamily, "aten.ones.default")(const Scope& s, const NodeArgs& args) {
  return one(filled(s, args.ints("size"), Scalar::of_int(1), dtype_arg(args).value_or(DType::Float32)));
}
// A dead `empty` from tracing; if read, zeros (its contents are undefined).
ATENRT_CONVERTER(kFamily, "aten.empty.memory_format", .validator = [](const NodeView& n, const ConversionSettings&) {
  return n.literal_ints("size") ? Capability::yes() : Capability::no("size must be known at conversion time");
})(const Scope& s, const NodeArgs& args) {
  return one(filled(s, args.ints("size"), Scalar::of_int(0), dtype_arg(args).value_or(DType::Float32)));
}
Outputs like(const Scope& s, const NodeArgs& args, const Scalar& v) {
  auto* x = args.tensor("self");
  const DType dt = dtype_arg(args).value_or(x->dtype);
  if (x->is_static()) return one(filled(s, x->dims, v, dt));
  network::FillParams p;
  p.dtype = dt;
  p.value = v.f;
  auto* shape = s.add_shape("shape", x);
  return one(s.add_fill("", p, shape));
}
ATENRT_CONVERTER(kFamily, "aten.zeros_like.default", .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) { return like(s, args, Scalar::of_int(0)); }
ATENRT_CONVERTER(kFamily, "aten.ones_like.default", .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) { return like(s, args, Scalar::of_int(1)); }
ATENRT_CONVERTER(kFamily, "aten.empty_like.default", .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) { return like(s, args, Scalar::of_int(0)); }
ATENRT_CONVERTER(kFamily, "aten.full_like.default", .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) { return like(s, args, args.scalar("fill_value")); }
ATENRT_CONVERTER(kFamily, "aten.fill.Scalar", .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) { return like(s, args, args.scalar("value")); }
Outputs new_filled(const Scope& s, const NodeArgs& args, const Scalar& v) {
  auto* x = args.tensor("self");
  return one(filled(s, args.ints("size"), v, dtype_arg(args).value_or(x->dtype)));
}
ATENRT_CONVERTER(kFamily, "aten.new_zeros.default")(const Scope& s, const NodeArgs& args) { return new_filled(s, args, Scalar::of_int(0)); }
ATENRT_CONVERTER(kFamily, "aten.new_ones.default")(const Scope& s, const NodeArgs& args) { return new_filled(s, args, Scalar::of_int(1)); }
ATENRT_CONVERTER(kFamily, "aten.new_empty.default")(const Scope& s, const NodeArgs& args) { return new_filled(s, args, Scalar::of_int(0)); }
ATENRT_CONVERTER(kFamily, "aten.new_full.default")(const Scope& s, const NodeArgs& args) { return new_filled(s, args, args.scalar("fill_value")); }
ATENRT_CONVERTER(kFamily, "aten.scalar_tensor.default")(const Scope& s, const NodeArgs& args) {
  const Scalar v = args.scalar("s");
  return one(filled(s, {}, v, dtype_arg(args).value_or(DType::Float32)));
}
Outputs arange(const NodeArgs& args, const Scalar& start, const Scalar& end, const Scalar& step) {
  impl::check(step.f != 0.0, "arange step must not be 0");
  const bool floating = start.is_float() || end.is_float() || step.is_float();
  const DType dt = dtype_arg(args).value_or(floating ? DType::Float32 : DType::Int64);
  double count = std::ceil((end.f - start.f) / step.f);
  if (!floating) {
    // Exact integer count.
    const auto span = end.i - start.i;
    count = static_cast<double>((span + step.i + (step.i > 0 ? -1 : 1)) / step.i);
  }
  impl::check(count >= 0 && count < 1e9, "arange would have " + std::to_string(count) + " elements");
  const auto n = static_cast<std::int64_t>(count);
  Tensor t(dt, {n});
  for (std::int64_t i = 0; i < n; ++i) {
    if (is_floating(dt)) set_element(t, i, start.f + static_cast<double>(i) * step.f);
    else set_element_int(t, i, floating ? static_cast<std::int64_t>(start.f + static_cast<double>(i) * step.f)
                                        : start.i + i * step.i);
  }
  return one(t);
}
ATENRT_CONVERTER(kFamily, "aten.arange.default")(const Scope&, const NodeArgs& args) {
  return arange(args, Scalar::of_int(0), args.scalar("end"), Scalar::of_int(1));
}
ATENRT_CONVERTER(kFamily, "aten.arange.start")(const Scope&, const NodeArgs& args) {
  return arange(args, args.scalar("start"), args.scalar("end"), Scalar::of_int(1));
}
ATENRT_CONVERTER(kFamily, "aten.arange.start_step")(const Scope&, const NodeArgs& args) {
  return arange(args, args.scalar("start"), args.scalar("end"), args.scalar("step"));
}

// Random values are drawn once, at conversion time, from a fixed seed (as
// Torch-TensorRT's evaluators do): every run of the engine sees the same
// values, which PyTorch does not.
std::uint64_t seed_of(const std::string& name) { return std::hash<std::string>{}(name); }
ATENRT_CONVERTER(kFamily, "aten.rand.default")(const Scope&, const NodeArgs& args) {
  const DType dt = dtype_arg(args).value_or(DType::Float32);
  Tensor t(dt, args.ints("size"));
  std::mt19937_64 gen(seed_of(args.name()));
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (std::int64_t i = 0; i < t.numel(); ++i) set_element(t, i, u(gen));
  return one(t);
}
ATENRT_CONVERTER(kFamily, "aten.randn.default")(const Scope&, const NodeArgs& args) {
  const DType dt = dtype_arg(args).value_or(DType::Float32);
  Tensor t(dt, args.ints("size"));
  std::mt19937_64 gen(seed_of(args.name()));
  std::normal_distribution<double> u(0.0, 1.0);
  for (std::int64_t i = 0; i < t.numel(); ++i) set_element(t, i, u(gen));
  return one(t);
}
ATENRT_CONVERTER(kFamily, "aten.randperm.default")(const Scope&, const NodeArgs& args) {
  const auto n = args.i("n");
  impl::check(n >= 0, "randperm n must be non-negative");
  std::vector<std::int64_t> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = i;
  std::mt19937_64 gen(seed_of(args.name()));
  std::shuffle(v.begin(), v.end(), gen);
  Tensor t(dtype_arg(args).value_or(DType::Int64), {n});
  for (std::int64_t i = 0; i < n; ++i) set_element_int(t, i, v[static_cast<std::size_t>(i)]);
  return one(t);
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
  auto [v, i] = ot::topk(s, args.tensor("self"), args.i("k"), args.i("dim"), args.b("largest"));
  return {v, i};
}
Outputs sort(const Scope& s, const NodeArgs& args) {
  auto* x = args.tensor("self");
  const auto dim = args.i("dim");
  const auto k = x->rank() == 0 ? 1 : x->dims[static_cast<std::size_t>(impl::normalize_dim(dim, x->rank()))];
  auto [v, i] = ot::topk(s, x, k, dim, args.b("descending"));
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
Outputs up_vec(const Scope& s, const NodeArgs& args, ResizeMode mode, std::size_t spatial, bool corners) {
  return one(ot::upsample(s, args.tensor("input"), mode, spatial,
                          opt_size(args, "output_size"), opt_scales(args, "scale_factors"),
                          corners && args.b("align_corners")));
}
ATENRT_CONVERTER(kFamily, "aten.upsample_nearest1d.vec")(const Scope& s, const NodeArgs& args) { return up_vec(s, args, ResizeMode::Nearest, 1, false); }
ATENRT_CONVERTER(kFamily, "aten.upsample_nearest2d.vec")(const Scope& s, const NodeArgs& args) { return up_vec(s, args, ResizeMode::Nearest, 2, false); }
ATENRT_CONVERTER(kFamily, "aten.upsample_nearest3d.vec")(const Scope& s, const NodeArgs& args) { return up_vec(s, args, ResizeMode::Nearest, 3, false); }
ATENRT_CONVERTER(kFamily, "aten._upsample_nearest_exact2d.vec")(const Scope& s, const NodeArgs& args) { return up_vec(s, args, ResizeMode::NearestExact, 2, false); }
ATENRT_CONVERTER(kFamily, "aten.upsample_linear1d.vec")(const Scope& s, const NodeArgs& args) { return up_vec(s, args, ResizeMode::Linear, 1, true); }
ATENRT_CONVERTER(kFamily, "aten.upsample_bilinear2d.vec")(const Scope& s, const NodeArgs& args) { return up_vec(s, args, ResizeMode::Linear, 2, true); }
ATENRT_CONVERTER(kFamily, "aten.upsample_trilinear3d.vec")(const Scope& s, const NodeArgs& args) { return up_vec(s, args, ResizeMode::Linear, 3, true); }
ATENRT_CONVERTER(kFamily, "aten.upsample_bicubic2d.vec")(const Scope& s, const NodeArgs& args) { return up_vec(s, args, ResizeMode::Cubic, 2, true); }
Outputs up(const Scope& s, const NodeArgs& args, ResizeMode mode, std::size_t spatial, bool corners,
           std::initializer_list<const char*> scale_names) {
  return one(ot::upsample(s, args.tensor("self"), mode, spatial,
                          args.ints("output_size"), named_scales(args, scale_names),
                          corners && args.b("align_corners")));
}
ATENRT_CONVERTER(kFamily, "aten.upsample_nearest1d.default")(const Scope& s, const NodeArgs& args) { return up(s, args, ResizeMode::Nearest, 1, false, {"scales"}); }
ATENRT_CONVERTER(kFamily, "aten.upsample_nearest2d.default")(const Scope& s, const NodeArgs& args) { return up(s, args, ResizeMode::Nearest, 2, false, {"scales_h", "scales_w"}); }
ATENRT_CONVERTER(kFamily, "aten.upsample_nearest3d.default")(const Scope& s, const NodeArgs& args) { return up(s, args, ResizeMode::Nearest, 3, false, {"scales_d", "scales_h", "scales_w"}); }
ATENRT_CONVERTER(kFamily, "aten.upsample_linear1d.default")(const Scope& s, const NodeArgs& args) { return up(s, args, ResizeMode::Linear, 1, true, {"scales"}); }
ATENRT_CONVERTER(kFamily, "aten.upsample_bilinear2d.default")(const Scope& s, const NodeArgs& args) { return up(s, args, ResizeMode::Linear, 2, true, {"scales_h", "scales_w"}); }
ATENRT_CONVERTER(kFamily, "aten.upsample_trilinear3d.default")(const Scope& s, const NodeArgs& args) { return up(s, args, ResizeMode::Linear, 3, true, {"scales_d", "scales_h", "scales_w"}); }
ATENRT_CONVERTER(kFamily, "aten.upsample_bicubic2d.default")(const Scope& s, const NodeArgs& args) { return up(s, args, ResizeMode::Cubic, 2, true, {"scales_h", "scales_w"}); }

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
ATENRT_CONVERTER(kFamily, "aten._cdist_forward.default")(const Scope& s, const NodeArgs& args) {
  return one(ot::cdist(s, args.tensor("x1"), args.tensor("x2"), args.f("p")));
}
ATENRT_CONVERTER(kFamily, "aten._pdist_forward.default", .validator = [](const NodeView& n, const ConversionSettings&) {
  const ir::TensorMeta* m = n.meta("self");
  if (m && (m->sizes.size() != 2 || !m->sizes[0].is_static() || m->sizes[0].value.value_or(0) < 2)) {
    return Capability::no("self must be 2-d with a static row count of at least 2");
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
