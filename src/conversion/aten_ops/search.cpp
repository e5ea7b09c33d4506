// Membership and sorted search (impl/search): isin, bucketize, searchsorted.
#include "conversion/aten_ops/common.h"
#include "conversion/impl/search.h"
#include "conversion/impl/select.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace sr = impl::search;
constexpr Family kFamily{.name = "search"};

ATENRT_CONVERTER(kFamily, "aten.isin.Tensor_Tensor")(const Scope& s, const NodeArgs& args) {
  return one(sr::isin(s, args.operand("elements"), args.operand("test_elements"), args.b("invert")));
}
ATENRT_CONVERTER(kFamily, "aten.isin.Tensor_Scalar")(const Scope& s, const NodeArgs& args) {
  return one(sr::isin(s, args.operand("elements"), args.operand("test_element"), args.b("invert")));
}
ATENRT_CONVERTER(kFamily, "aten.isin.Scalar_Tensor")(const Scope& s, const NodeArgs& args) {
  return one(sr::isin(s, args.operand("element"), args.operand("test_elements"), args.b("invert")));
}

// torch takes only 1-D boundaries.
Capability one_d_boundaries(const NodeView& node, const ConversionSettings&) {
  const ir::TensorMeta* m = node.meta("boundaries");
  if (m && m->sizes.size() != 1) return Capability::no("boundaries must be 1-D");
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, keys("aten.bucketize.Tensor", "aten.bucketize.Scalar"), .validator = one_d_boundaries)
(const Scope& s, const NodeArgs& args) {
  return one(sr::searchsorted(s, args.tensor("boundaries"), args.operand("self"), args.b("right"), args.b("out_int32")));
}

Capability known_side(const NodeView& node, const ConversionSettings&) {
  const auto side = node.literal_string("side");
  if (side && *side != "left" && *side != "right") return Capability::no("side must be 'left' or 'right'");
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, keys("aten.searchsorted.Tensor", "aten.searchsorted.Scalar"), .validator = known_side)
(const Scope& s, const NodeArgs& args) {
  // side ('left'/'right') overrides right when given.
  const auto side = args.opt_str("side");
  const bool right = side ? *side == "right" : args.b("right");
  NetworkTensor* sorted = args.tensor("sorted_sequence");
  // sorter: the indices that sort each row (argsort); the sorted rows are those entries in that order.
  if (NetworkTensor* sorter = args.opt_tensor("sorter")) sorted = impl::select::gather(s, sorted, sorted->rank() - 1, sorter);
  return one(sr::searchsorted(s, sorted, args.operand("self"), right, args.b("out_int32")));
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
