// Slice-family converters: slice, split, cat/stack, padding, flip, roll,
// strided views.
#include "conversion/aten_ops/common.h"
#include "conversion/impl/slice.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace sl = impl::slice;
using network::PaddingMode;
constexpr const char* kFamily = "slice";

Value list_of(const std::vector<NetworkTensor*>& ts) {
  Value::List out;
  for (auto* t : ts) out.emplace_back(t);
  return out;
}
std::optional<std::int64_t> opt_int(const NodeArgs& args, const char* name) {
  return args.has(name) ? args.opt_i(name) : std::nullopt;
}
// Splitting needs a static size along the split dim.
Capability static_dim(const NodeView& node, const ConversionSettings&) {
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

ATENRT_CONVERTER("aten.slice.Tensor", .supports_dynamic_shapes = true) {
  return one(sl::slice(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.i("dim"), opt_int(args, "start"),
                       opt_int(args, "end"), args.i("step")));
}
ATENRT_CONVERTER("aten.narrow.default", .supports_dynamic_shapes = true) {
  auto* x = args.tensor("self");
  const auto dim = impl::normalize_dim(args.i("dim"), x->rank());
  auto start = args.i("start");
  if (start < 0) start += x->dims[static_cast<std::size_t>(dim)];
  return one(sl::slice(ctx, SourceIR::ATen, args.name(), x, dim, start, start + args.i("length"), 1));
}
ATENRT_CONVERTER("aten.split.Tensor", .validator = static_dim, .supports_dynamic_shapes = true) {
  return one(list_of(sl::split(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.i("split_size"), args.i("dim"))));
}
ATENRT_CONVERTER("aten.unsafe_split.Tensor", .validator = static_dim, .supports_dynamic_shapes = true) {
  return one(list_of(sl::split(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.i("split_size"), args.i("dim"))));
}
ATENRT_CONVERTER("aten.split.sizes", .validator = static_dim, .supports_dynamic_shapes = true) {
  return one(list_of(sl::split_with_sizes(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.ints("split_size"),
                                          args.i("dim"))));
}
ATENRT_CONVERTER("aten.split_with_sizes.default", .validator = static_dim, .supports_dynamic_shapes = true) {
  return one(list_of(sl::split_with_sizes(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.ints("split_sizes"),
                                          args.i("dim"))));
}
ATENRT_CONVERTER("aten.split.default", .validator = static_dim, .supports_dynamic_shapes = true) {
  return one(list_of(sl::split_with_sizes(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.ints("split_sizes"),
                                          args.i("dim"))));
}
ATENRT_CONVERTER("aten.chunk.default", .validator = static_dim, .supports_dynamic_shapes = true) {
  return one(list_of(sl::chunk(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.i("chunks"), args.i("dim"))));
}
ATENRT_CONVERTER("aten.unbind.int", .validator = static_dim, .supports_dynamic_shapes = true) {
  return one(list_of(sl::unbind(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.i("dim"))));
}
Capability cat_inputs(const NodeView& node, const ConversionSettings&) {
  const ir::Argument& a = node.arg("tensors");
  const auto* l = a.get_if<ir::TensorList>();
  if (!l || l->empty()) return Capability::no("tensors must be a non-empty list of tensors");
  return Capability::yes();
}
ATENRT_CONVERTER("aten.cat.default", .validator = cat_inputs, .supports_dynamic_shapes = true) {
  return one(sl::cat(ctx, SourceIR::ATen, args.name(), args.tensors("tensors"), args.i("dim")));
}
ATENRT_CONVERTER("aten.concat.default", .validator = cat_inputs, .supports_dynamic_shapes = true) {
  return one(sl::cat(ctx, SourceIR::ATen, args.name(), args.tensors("tensors"), args.i("dim")));
}
ATENRT_CONVERTER("aten.stack.default", .validator = cat_inputs, .supports_dynamic_shapes = true) {
  return one(sl::stack(ctx, SourceIR::ATen, args.name(), args.tensors("tensors"), args.i("dim")));
}

ATENRT_CONVERTER("aten.constant_pad_nd.default", .supports_dynamic_shapes = true) {
  return one(sl::pad(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.ints("pad"), PaddingMode::Constant,
                     args.f("value")));
}
Capability pad_mode(const NodeView& node, const ConversionSettings&) {
  const auto m = node.literal_string("mode").value_or("constant");
  if (m != "constant" && m != "reflect" && m != "replicate" && m != "circular") {
    return Capability::no("padding mode '" + m + "' is not supported");
  }
  return Capability::yes();
}
ATENRT_CONVERTER("aten.pad.default", .validator = pad_mode, .supports_dynamic_shapes = true) {
  const auto m = args.opt_str("mode").value_or("constant");
  const PaddingMode mode = m == "reflect" ? PaddingMode::Reflect
                           : m == "replicate" ? PaddingMode::Replicate
                           : m == "circular" ? PaddingMode::Circular
                                             : PaddingMode::Constant;
  return one(sl::pad(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.ints("pad"), mode,
                     args.opt_f("value").value_or(0.0)));
}
Outputs padding(ConversionContext& ctx, const NodeArgs& args, PaddingMode mode, const char* pad_arg) {
  return one(sl::pad(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.ints(pad_arg), mode));
}
ATENRT_CONVERTER("aten.reflection_pad1d.default", .supports_dynamic_shapes = true) { return padding(ctx, args, PaddingMode::Reflect, "padding"); }
ATENRT_CONVERTER("aten.reflection_pad2d.default", .supports_dynamic_shapes = true) { return padding(ctx, args, PaddingMode::Reflect, "padding"); }
ATENRT_CONVERTER("aten.reflection_pad3d.default", .supports_dynamic_shapes = true) { return padding(ctx, args, PaddingMode::Reflect, "padding"); }
ATENRT_CONVERTER("aten.replication_pad1d.default", .supports_dynamic_shapes = true) { return padding(ctx, args, PaddingMode::Replicate, "padding"); }
ATENRT_CONVERTER("aten.replication_pad2d.default", .supports_dynamic_shapes = true) { return padding(ctx, args, PaddingMode::Replicate, "padding"); }
ATENRT_CONVERTER("aten.replication_pad3d.default", .supports_dynamic_shapes = true) { return padding(ctx, args, PaddingMode::Replicate, "padding"); }
ATENRT_CONVERTER("aten._pad_circular.default", .supports_dynamic_shapes = true) { return padding(ctx, args, PaddingMode::Circular, "pad"); }

ATENRT_CONVERTER("aten.flip.default", .supports_dynamic_shapes = true) {
  return one(sl::flip(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.ints("dims")));
}
ATENRT_CONVERTER("aten.roll.default", .supports_dynamic_shapes = true) {
  return one(sl::roll(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.ints("shifts"), args.ints("dims")));
}
ATENRT_CONVERTER("aten.slice_scatter.default", .validator = requires_static({"self", "src"}), .supports_dynamic_shapes = true) {
  return one(sl::slice_scatter(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.tensor("src"), args.i("dim"),
                               opt_int(args, "start"), opt_int(args, "end"), args.i("step")));
}
ATENRT_CONVERTER("aten.select_scatter.default", .validator = requires_static({"self", "src"})) {
  auto* x = args.tensor("self");
  const auto dim = impl::normalize_dim(args.i("dim"), x->rank());
  auto index = args.i("index");
  if (index < 0) index += x->dims[static_cast<std::size_t>(dim)];
  auto* src = impl::unsqueeze(ctx, args.name(), args.tensor("src"), dim);
  return one(sl::slice_scatter(ctx, SourceIR::ATen, args.name(), x, src, dim, index, index + 1, 1));
}
ATENRT_CONVERTER("aten.diagonal.default", .validator = requires_static({"self"})) {
  return one(sl::diagonal(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.i("offset"), args.i("dim1"),
                          args.i("dim2")));
}
ATENRT_CONVERTER("aten.as_strided.default", .validator = requires_static({"self"})) {
  return one(sl::as_strided(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.ints("size"), args.ints("stride"),
                            opt_int(args, "storage_offset").value_or(0)));
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
