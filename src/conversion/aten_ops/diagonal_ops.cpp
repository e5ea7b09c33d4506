// Diagonals, blocks and quarter turns (impl/diagonal_ops): rot90, diag_embed, diagonal_scatter,
// block_diag.
#include "conversion/aten_ops/common.h"
#include "conversion/impl/diagonal_ops.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace dg = impl::diagonal_ops;
constexpr Family kFamily{.name = "shape", .supports_dynamic_shapes = false};

Capability rot90_ok(const NodeView& node, const ConversionSettings&) {
  if (const auto dims = node.literal_ints("dims")) return refuse_if(dg::rot90_problem(*dims, rank_of(node, "self")));
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, "aten.rot90.default", .validator = rot90_ok)(const Scope& s, const NodeArgs& args) {
  return one(dg::rot90(s, args.tensor("self"), args.i("k"), args.ints("dims")));
}

// dim1/dim2 of the output (diag_embed adds a dim) or of self (diagonal_scatter).
Validator diagonal_dims_ok(std::int64_t extra) {
  return [extra](const NodeView& node, const ConversionSettings&) {
    const auto d1 = node.literal_int("dim1"), d2 = node.literal_int("dim2");
    const auto rank = rank_of(node, "self");
    if (d1 && d2 && rank >= 0) return refuse_if(dg::diagonal_dims_problem(*d1, *d2, rank + extra));
    return Capability::yes();
  };
}
ATENRT_CONVERTER(kFamily, "aten.diag_embed.default", .validator = diagonal_dims_ok(1))(const Scope& s, const NodeArgs& args) {
  return one(dg::diag_embed(s, args.tensor("self"), args.i("offset"), args.i("dim1"), args.i("dim2")));
}
ATENRT_CONVERTER(kFamily, "aten.diagonal_scatter.default", .validator = diagonal_dims_ok(0))(const Scope& s, const NodeArgs& args) {
  return one(dg::diagonal_scatter(s, args.tensor("self"), args.tensor("src"), args.i("offset"), args.i("dim1"),
                                  args.i("dim2")));
}
ATENRT_CONVERTER(kFamily, "aten.block_diag.default")(const Scope& s, const NodeArgs& args) {
  return one(dg::block_diag(s, args.tensors("tensors")));
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
