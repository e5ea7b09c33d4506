// Shape / view converters.
#include "conversion/aten_ops/common.h"
#include "conversion/impl/shape.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace sh = impl::shape;
constexpr const char* kFamily = "shape";

Outputs reshape_to(ConversionContext& ctx, const NodeArgs& args, const char* size_arg) {
  return one(sh::reshape(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.ints(size_arg)));
}
ATENRT_CONVERTER("aten.view.default") { return reshape_to(ctx, args, "size"); }
ATENRT_CONVERTER("aten.reshape.default") { return reshape_to(ctx, args, "shape"); }
ATENRT_CONVERTER("aten._reshape_alias.default") { return reshape_to(ctx, args, "size"); }
ATENRT_CONVERTER("aten._unsafe_view.default") { return reshape_to(ctx, args, "size"); }
ATENRT_CONVERTER("aten._reshape_copy.default") { return reshape_to(ctx, args, "size"); }
ATENRT_CONVERTER("aten.view_copy.default") { return reshape_to(ctx, args, "size"); }
ATENRT_CONVERTER("aten.expand.default") {
  return one(sh::expand(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.ints("size")));
}
ATENRT_CONVERTER("aten.expand_copy.default") {
  return one(sh::expand(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.ints("size")));
}
ATENRT_CONVERTER("aten.permute.default", .supports_dynamic_shapes = true) {
  return one(sh::permute(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.ints("dims")));
}
ATENRT_CONVERTER("aten.transpose.int", .supports_dynamic_shapes = true) {
  return one(sh::transpose(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.i("dim0"), args.i("dim1")));
}
ATENRT_CONVERTER("aten.unsqueeze.default", .supports_dynamic_shapes = true) {
  return one(sh::unsqueeze(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.i("dim")));
}
ATENRT_CONVERTER("aten.squeeze.default", .supports_dynamic_shapes = true) {
  return one(sh::squeeze(ctx, SourceIR::ATen, args.name(), args.tensor("self"), {}, true));
}
ATENRT_CONVERTER("aten.squeeze.dim", .supports_dynamic_shapes = true) {
  return one(sh::squeeze(ctx, SourceIR::ATen, args.name(), args.tensor("self"), {args.i("dim")}, false));
}
ATENRT_CONVERTER("aten.squeeze.dims", .supports_dynamic_shapes = true) {
  return one(sh::squeeze(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.ints("dim"), false));
}
ATENRT_CONVERTER("aten.flatten.using_ints", .supports_dynamic_shapes = true) {
  return one(sh::flatten(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.i("start_dim"), args.i("end_dim")));
}
ATENRT_CONVERTER("aten.unflatten.int") {
  return one(sh::unflatten(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.i("dim"), args.ints("sizes")));
}
ATENRT_CONVERTER("aten.pixel_shuffle.default", .validator = requires_static({"self"})) {
  return one(sh::pixel_shuffle(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.i("upscale_factor"), false));
}
ATENRT_CONVERTER("aten.pixel_unshuffle.default", .validator = requires_static({"self"})) {
  return one(sh::pixel_shuffle(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.i("downscale_factor"), true));
}
Capability repeats_fit(const NodeView& node, const ConversionSettings& s) {
  auto c = requires_static({"self"})(node, s);
  if (!c) return c;
  const ir::TensorMeta* m = node.meta("self");
  auto r = node.literal_ints("repeats");
  if (m && r && r->size() < m->sizes.size()) return Capability::no("fewer repeats than input dims");
  return Capability::yes();
}
ATENRT_CONVERTER("aten.repeat.default", .validator = repeats_fit) {
  return one(sh::repeat(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.ints("repeats")));
}
ATENRT_CONVERTER("aten.tile.default", .validator = requires_static({"self"})) {
  return one(sh::tile(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.ints("dims")));
}
ATENRT_CONVERTER("prims.broadcast_in_dim.default") {
  return one(sh::broadcast_in_dim(ctx, SourceIR::Prims, args.name(), args.tensor("a"), args.ints("shape"),
                                  args.ints("broadcast_dimensions")));
}
ATENRT_CONVERTER("aten.resize_.default", .validator = requires_static({"self"})) {
  return one(sh::resize(ctx, SourceIR::ATen, args.name(), args.tensor("self"), args.ints("size")));
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
