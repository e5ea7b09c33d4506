// Shape / view converters.
#include <algorithm>

#include "conversion/aten_ops/common.h"
#include "conversion/impl/shape.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace sh = impl::shape;
constexpr Family kFamily{.name = "shape"};

// Sizes only known at run time (sym_size results of a dynamic archive) make
// a shape tensor; static sizes stay a plain reshape.
Outputs reshape_to(const Scope& s, const NodeArgs& args, const char* size_arg) {
  const Value size = args.value(size_arg);
  if (size.is_list()) {
    for (const auto& e : size.list()) {
      if (e.is_network_tensor()) return one(sh::reshape_dynamic(s, args.tensor("self"), size.list()));
    }
  }
  return one(sh::reshape(s, args.tensor("self"), args.ints(size_arg)));
}
Validator reshape_size_ok(const char* size_arg) {
  return [size_arg](const NodeView& node, const ConversionSettings&) {
    if (auto size = node.literal_ints(size_arg)) return refuse_if(sh::reshape_size_problem(*size));
    return Capability::yes();
  };
}
Capability permute_ok(const NodeView& node, const ConversionSettings&) {
  if (auto dims = node.literal_ints("dims")) return refuse_if(sh::permute_problem(*dims, rank_of(node, "self")));
  return Capability::yes();
}
Capability flatten_ok(const NodeView& node, const ConversionSettings&) {
  auto start = node.literal_int("start_dim"), end = node.literal_int("end_dim");
  if (start && end) return refuse_if(sh::flatten_problem(*start, *end, rank_of(node, "self")));
  return Capability::yes();
}
Validator pixel_shuffle_ok(const char* factor_arg, bool inverse) {
  return [=](const NodeView& node, const ConversionSettings& st) {
    if (Capability c = requires_static({"self"})(node, st); !c) return c;
    const ir::TensorMeta* m = node.meta("self");
    auto factor = node.literal_int(factor_arg);
    if (!m || !factor) return Capability::yes();
    std::vector<std::int64_t> dims;
    for (const auto& d : m->sizes) dims.push_back(d.value.value_or(-1));
    return refuse_if(sh::pixel_shuffle_problem(dims, *factor, inverse));
  };
}

ATENRT_CONVERTER(kFamily, "aten.view.default", .validator = reshape_size_ok("size"), .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) { return reshape_to(s, args, "size"); }
ATENRT_CONVERTER(kFamily, "aten.reshape.default", .validator = reshape_size_ok("shape"), .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) { return reshape_to(s, args, "shape"); }
ATENRT_CONVERTER(kFamily, keys("aten._reshape_alias.default", "aten._unsafe_view.default", "aten._reshape_copy.default", "aten.view_copy.default"), .validator = reshape_size_ok("size"), .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) { return reshape_to(s, args, "size"); }
// The graph's sizes of self and the result are the same expressions: the identity (1.13's
// matmul over dynamic dims expands each side to its own sizes).
bool expands_to_itself(const NodeArgs& args) {
  const ir::TensorMeta* in = args.meta("self");
  const auto& outs = args.node().outputs;
  const auto* out = outs.size() == 1 ? outs[0].get_if<ir::TensorRef>() : nullptr;
  const ir::TensorMeta* result = out ? args.graph().meta(out->name) : nullptr;
  return in && result && !in->sizes.empty() && in->sizes == result->sizes;
}
ATENRT_CONVERTER(kFamily, keys("aten.expand.default", "aten.expand_copy.default"), .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) {
  auto* x = args.tensor("self");
  const Value size = args.value("size");
  const bool run_time = size.is_list() && std::any_of(size.list().begin(), size.list().end(),
                                                      [](const Value& e) { return e.is_network_tensor(); });
  if (!run_time && x->is_static()) return one(sh::expand(s, x, args.ints("size")));
  if (expands_to_itself(args)) return one(x);
  impl::check(size.is_list(), "expand size is " + size.describe() + ", not a list");
  return one(sh::expand_dynamic(s, x, size.list()));
}
ATENRT_CONVERTER(kFamily, "aten.permute.default", .validator = permute_ok, .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) {
  return one(sh::permute(s, args.tensor("self"), args.ints("dims")));
}
ATENRT_CONVERTER(kFamily, "aten.transpose.int", .validator = all_of({dim_in_range("dim0"), dim_in_range("dim1")}), .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) {
  return one(sh::transpose(s, args.tensor("self"), args.i("dim0"), args.i("dim1")));
}
ATENRT_CONVERTER(kFamily, "aten.unsqueeze.default", .validator = dim_in_range("dim", "self", 1), .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) {
  return one(sh::unsqueeze(s, args.tensor("self"), args.i("dim")));
}
ATENRT_CONVERTER(kFamily, "aten.squeeze.default", .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) {
  return one(sh::squeeze(s, args.tensor("self"), {}, true));
}
ATENRT_CONVERTER(kFamily, "aten.squeeze.dim", .validator = dim_in_range(), .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) {
  return one(sh::squeeze(s, args.tensor("self"), {args.i("dim")}, false));
}
ATENRT_CONVERTER(kFamily, "aten.squeeze.dims", .validator = all_of({dim_in_range(), distinct_dims("dim")}), .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) {
  return one(sh::squeeze(s, args.tensor("self"), args.ints("dim"), false));
}
ATENRT_CONVERTER(kFamily, "aten.flatten.using_ints", .validator = flatten_ok, .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) {
  return one(sh::flatten(s, args.tensor("self"), args.i("start_dim"), args.i("end_dim")));
}
ATENRT_CONVERTER(kFamily, "aten.unflatten.int", .validator = dim_in_range())(const Scope& s, const NodeArgs& args) {
  return one(sh::unflatten(s, args.tensor("self"), args.i("dim"), args.ints("sizes")));
}
ATENRT_CONVERTER(kFamily, "aten.pixel_shuffle.default", .validator = pixel_shuffle_ok("upscale_factor", false))(const Scope& s, const NodeArgs& args) {
  return one(sh::pixel_shuffle(s, args.tensor("self"), args.i("upscale_factor"), false));
}
ATENRT_CONVERTER(kFamily, "aten.pixel_unshuffle.default", .validator = pixel_shuffle_ok("downscale_factor", true))(const Scope& s, const NodeArgs& args) {
  return one(sh::pixel_shuffle(s, args.tensor("self"), args.i("downscale_factor"), true));
}
Capability repeats_fit(const NodeView& node, const ConversionSettings& s) {
  auto c = requires_static({"self"})(node, s);
  if (!c) return c;
  const ir::TensorMeta* m = node.meta("self");
  auto r = node.literal_ints("repeats");
  if (m && r && r->size() < m->sizes.size()) return Capability::no("fewer repeats than input dims");
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, "aten.repeat.default", .validator = repeats_fit)(const Scope& s, const NodeArgs& args) {
  return one(sh::repeat(s, args.tensor("self"), args.ints("repeats")));
}
ATENRT_CONVERTER(kFamily, "aten.tile.default", .validator = requires_static({"self"}))(const Scope& s, const NodeArgs& args) {
  return one(sh::tile(s, args.tensor("self"), args.ints("dims")));
}
ATENRT_CONVERTER(kFamily, "prims.broadcast_in_dim.default")(const Scope& s, const NodeArgs& args) {
  return one(sh::broadcast_in_dim(s, args.tensor("a"), args.ints("shape"),
                                  args.ints("broadcast_dimensions")));
}
ATENRT_CONVERTER(kFamily, "aten.resize_.default", .validator = requires_static({"self"}))(const Scope& s, const NodeArgs& args) {
  return one(sh::resize(s, args.tensor("self"), args.ints("size")));
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
