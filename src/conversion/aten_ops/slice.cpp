// Slice-family converters: slice, split, cat/stack, padding, flip, roll,
// strided views.
#include "conversion/aten_ops/common.h"
#include "conversion/impl/slice.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace sl = impl::slice;
using network::PaddingMode;
constexpr Family kFamily{.name = "slice", .supports_dynamic_shapes = true};

Value list_of(const std::vector<NetworkTensor*>& ts) {
  Value::List out;
  for (auto* t : ts) out.emplace_back(t);
  return out;
}
std::optional<std::int64_t> opt_int(const NodeArgs& args, const char* name) {
  return args.has(name) ? args.opt_i(name) : std::nullopt;
}
// Splitting needs a dim in range with a static size.
Capability static_dim(const NodeView& node, const ConversionSettings& st) {
  if (Capability c = dim_in_range()(node, st); !c) return c;
  const ir::TensorMeta* m = node.meta("self");
  auto dim = node.literal_int("dim").value_or(0);
  if (m && !m->sizes.empty()) {
    const auto r = static_cast<std::int64_t>(m->sizes.size());
    const auto d = dim < 0 ? dim + r : dim;
    if (d >= 0 && d < r && !m->sizes[static_cast<std::size_t>(d)].is_static()) {
      return Capability::no("the size of dim " + std::to_string(dim) + " must be static");
    }
  }
  return Capability::yes();
}

// The size of dim `dim` of argument `arg` when static, else -1.
std::int64_t static_size(const NodeView& node, const char* arg, std::int64_t dim) {
  const ir::TensorMeta* m = node.meta(arg);
  if (!m) return -1;
  const auto r = static_cast<std::int64_t>(m->sizes.size());
  const auto d = dim < 0 ? dim + r : dim;
  if (d < 0 || d >= r) return -1;
  return m->sizes[static_cast<std::size_t>(d)].value.value_or(-1);
}
// Literal arguments checked by the same rules the impl functions apply.
Capability step_ok(const NodeView& node, const ConversionSettings&) {
  if (auto step = node.literal_int("step")) return refuse_if(sl::step_problem(*step));
  return Capability::yes();
}
Capability split_size_ok(const NodeView& node, const ConversionSettings& st) {
  if (Capability c = static_dim(node, st); !c) return c;
  if (auto size = node.literal_int("split_size")) {
    return refuse_if(sl::split_size_problem(*size, static_size(node, "self", node.literal_int("dim").value_or(0))));
  }
  return Capability::yes();
}
Validator split_sizes_ok(const char* arg) {
  return [arg](const NodeView& node, const ConversionSettings& st) {
    if (Capability c = static_dim(node, st); !c) return c;
    if (auto sizes = node.literal_ints(arg)) {
      return refuse_if(sl::split_sizes_problem(*sizes, static_size(node, "self", node.literal_int("dim").value_or(0))));
    }
    return Capability::yes();
  };
}
Capability chunks_ok(const NodeView& node, const ConversionSettings& st) {
  if (Capability c = static_dim(node, st); !c) return c;
  if (auto chunks = node.literal_int("chunks")) return refuse_if(sl::chunks_problem(*chunks));
  return Capability::yes();
}
Validator pad_ok(const char* arg) {
  return [arg](const NodeView& node, const ConversionSettings&) {
    if (auto pad = node.literal_ints(arg)) return refuse_if(sl::pad_problem(*pad, rank_of(node, "self")));
    return Capability::yes();
  };
}
// Negative padding crops; only constant mode does that here (reflect and
// replicate would reflect or repeat across the cropped border).
Validator pad_not_negative(const char* arg) {
  return [arg](const NodeView& node, const ConversionSettings&) {
    const auto pad = node.literal_ints(arg);
    const std::string& t = node.target();
    const std::string mode = node.literal_string("mode").value_or(
        t.find("reflection_pad") != std::string::npos   ? "reflect"
        : t.find("replication_pad") != std::string::npos ? "replicate"
                                                          : "constant");
    if (!pad || mode == "constant") return Capability::yes();
    for (auto v : *pad) {
      if (v < 0) return Capability::no("negative padding (cropping) is supported in constant mode only, not " + mode);
    }
    return Capability::yes();
  };
}
Capability roll_ok(const NodeView& node, const ConversionSettings&) {
  auto shifts = node.literal_ints("shifts");
  auto dims = node.literal_ints("dims");
  if (shifts && dims) return refuse_if(sl::roll_problem(*shifts, *dims));
  return Capability::yes();
}

ATENRT_CONVERTER(kFamily, "aten.slice.Tensor", .validator = all_of({dim_in_range(), step_ok}))(const Scope& s, const NodeArgs& args) {
  // A bound known only at run time (item() -> a size: x[:n]).
  const Value start = args.has("start") ? args.value("start") : Value{}, end = args.has("end") ? args.value("end") : Value{};
  if (start.is_network_tensor() || end.is_network_tensor()) {
    return one(sl::slice_dynamic(s, args.tensor("self"), args.i("dim"), start, end, args.i("step")));
  }
  return one(sl::slice(s, args.tensor("self"), args.i("dim"), opt_int(args, "start"),
                       opt_int(args, "end"), args.i("step")));
}
ATENRT_CONVERTER(kFamily, "aten.narrow.default", .validator = dim_in_range())(const Scope& s, const NodeArgs& args) {
  auto* x = args.tensor("self");
  const auto dim = impl::normalize_dim(args.i("dim"), x->rank());
  auto start = args.i("start");
  if (start < 0) start += x->dims[static_cast<std::size_t>(dim)];
  return one(sl::slice(s, x, dim, start, start + args.i("length"), 1));
}
ATENRT_CONVERTER(kFamily, keys("aten.split.Tensor", "aten.unsafe_split.Tensor"), .validator = split_size_ok)(const Scope& s, const NodeArgs& args) {
  return one(list_of(sl::split(s, args.tensor("self"), args.i("split_size"), args.i("dim"))));
}
ATENRT_CONVERTER(kFamily, "aten.split.sizes", .validator = split_sizes_ok("split_size"))(const Scope& s, const NodeArgs& args) {
  return one(list_of(sl::split_with_sizes(s, args.tensor("self"), args.ints("split_size"), args.i("dim"))));
}
ATENRT_CONVERTER(kFamily, keys("aten.split_with_sizes.default", "aten.split.default"), .validator = split_sizes_ok("split_sizes"))(const Scope& s, const NodeArgs& args) {
  return one(list_of(sl::split_with_sizes(s, args.tensor("self"), args.ints("split_sizes"), args.i("dim"))));
}
ATENRT_CONVERTER(kFamily, "aten.chunk.default", .validator = chunks_ok)(const Scope& s, const NodeArgs& args) {
  return one(list_of(sl::chunk(s, args.tensor("self"), args.i("chunks"), args.i("dim"))));
}
ATENRT_CONVERTER(kFamily, "aten.unbind.int", .validator = static_dim)(const Scope& s, const NodeArgs& args) {
  return one(list_of(sl::unbind(s, args.tensor("self"), args.i("dim"))));
}
Capability cat_inputs(const NodeView& node, const ConversionSettings&) {
  const ir::Argument& a = node.arg("tensors");
  const auto* l = a.get_if<ir::TensorList>();
  if (!l || l->empty()) return Capability::no("tensors must be a non-empty list of tensors");
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, keys("aten.cat.default", "aten.concat.default"), .validator = cat_inputs)(const Scope& s, const NodeArgs& args) {
  return one(sl::cat(s, args.tensors("tensors"), args.i("dim")));
}
ATENRT_CONVERTER(kFamily, "aten.stack.default", .validator = cat_inputs)(const Scope& s, const NodeArgs& args) {
  return one(sl::stack(s, args.tensors("tensors"), args.i("dim")));
}

ATENRT_CONVERTER(kFamily, "aten.constant_pad_nd.default", .validator = pad_ok("pad"))(const Scope& s, const NodeArgs& args) {
  return one(sl::pad(s, args.tensor("self"), args.ints("pad"), PaddingMode::Constant, args.f("value")));
}
Capability pad_mode(const NodeView& node, const ConversionSettings&) {
  const auto m = node.literal_string("mode").value_or("constant");
  if (m != "constant" && m != "reflect" && m != "replicate" && m != "circular") {
    return Capability::no("padding mode '" + m + "' is not supported");
  }
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, "aten.pad.default", .validator = all_of({pad_mode, pad_ok("pad"), pad_not_negative("pad")}))(const Scope& s, const NodeArgs& args) {
  const auto m = args.opt_str("mode").value_or("constant");
  const PaddingMode mode = m == "reflect" ? PaddingMode::Reflect
                           : m == "replicate" ? PaddingMode::Replicate
                           : m == "circular" ? PaddingMode::Circular
                                             : PaddingMode::Constant;
  return one(sl::pad(s, args.tensor("self"), args.ints("pad"), mode, args.opt_f("value").value_or(0.0)));
}
Outputs padding(const Scope& s, const NodeArgs& args, PaddingMode mode, const char* pad_arg) {
  return one(sl::pad(s, args.tensor("self"), args.ints(pad_arg), mode));
}
ATENRT_CONVERTER(kFamily, keys("aten.reflection_pad1d.default", "aten.reflection_pad2d.default", "aten.reflection_pad3d.default"), .validator = all_of({pad_ok("padding"), pad_not_negative("padding")}))(const Scope& s, const NodeArgs& args) { return padding(s, args, PaddingMode::Reflect, "padding"); }
ATENRT_CONVERTER(kFamily, keys("aten.replication_pad1d.default", "aten.replication_pad2d.default", "aten.replication_pad3d.default"), .validator = all_of({pad_ok("padding"), pad_not_negative("padding")}))(const Scope& s, const NodeArgs& args) { return padding(s, args, PaddingMode::Replicate, "padding"); }
ATENRT_CONVERTER(kFamily, "aten._pad_circular.default", .validator = pad_ok("pad"))(const Scope& s, const NodeArgs& args) { return padding(s, args, PaddingMode::Circular, "pad"); }

ATENRT_CONVERTER(kFamily, "aten.flip.default", .validator = distinct_dims())(const Scope& s, const NodeArgs& args) {
  return one(sl::flip(s, args.tensor("self"), args.ints("dims")));
}
ATENRT_CONVERTER(kFamily, "aten.roll.default", .validator = all_of({dim_in_range("dims"), roll_ok}))(const Scope& s, const NodeArgs& args) {
  return one(sl::roll(s, args.tensor("self"), args.ints("shifts"), args.ints("dims")));
}
ATENRT_CONVERTER(kFamily, "aten.slice_scatter.default", .validator = all_of({requires_static({"self", "src"}), dim_in_range(), step_ok}))(const Scope& s, const NodeArgs& args) {
  return one(sl::slice_scatter(s, args.tensor("self"), args.tensor("src"), args.i("dim"),
                               opt_int(args, "start"), opt_int(args, "end"), args.i("step")));
}
ATENRT_CONVERTER(kFamily, "aten.select_scatter.default", .validator = all_of({requires_static({"self", "src"}), dim_in_range()}), .supports_dynamic_shapes = false)(const Scope& s, const NodeArgs& args) {
  auto* x = args.tensor("self");
  const auto dim = impl::normalize_dim(args.i("dim"), x->rank());
  auto index = args.i("index");
  if (index < 0) index += x->dims[static_cast<std::size_t>(dim)];
  auto* src = impl::unsqueeze(s, args.tensor("src"), dim);
  return one(sl::slice_scatter(s, x, src, dim, index, index + 1, 1));
}
ATENRT_CONVERTER(kFamily, "aten.diagonal.default", .validator = requires_static({"self"}), .supports_dynamic_shapes = false)(const Scope& s, const NodeArgs& args) {
  return one(sl::diagonal(s, args.tensor("self"), args.i("offset"), args.i("dim1"), args.i("dim2")));
}
ATENRT_CONVERTER(kFamily, "aten.as_strided.default", .validator = requires_static({"self"}), .supports_dynamic_shapes = false)(const Scope& s, const NodeArgs& args) {
  return one(sl::as_strided(s, args.tensor("self"), args.ints("size"), args.ints("stride"),
                            opt_int(args, "storage_offset").value_or(0)));
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
