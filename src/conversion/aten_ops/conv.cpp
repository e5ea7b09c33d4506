// Convolution converters (core ATen and the training dialect's conv*d).
#include "conversion/aten_ops/common.h"
#include "conversion/impl/conv.h"

namespace atenrt::conversion::aten_ops {
namespace {
constexpr Family kFamily{.name = "conv", .supports_dynamic_shapes = true};

Capability static_weight(const NodeView& node, const ConversionSettings&) {
  const ir::TensorMeta* w = node.meta("weight");
  if (w && !w->is_static()) return Capability::no("weight must have a static shape");
  if (w && (w->sizes.size() < 3 || w->sizes.size() > 5)) {
    return Capability::no("weight has " + std::to_string(w->sizes.size()) + " dims; only 1-3 spatial dims are supported");
  }
  const ir::TensorMeta* x = node.meta("input");
  if (x && w && x->sizes.size() >= 2 && !x->sizes[x->sizes.size() == w->sizes.size() ? 1 : 0].is_static()) {
    return Capability::no("input channel dim must be static");
  }
  return Capability::yes();
}

ATENRT_CONVERTER(kFamily, "aten.convolution.default", .validator = static_weight)(const Scope& s, const NodeArgs& args) {
  return one(impl::conv::convolution(s, args.tensor("input"), args.tensor("weight"),
                                     args.opt_tensor("bias"), args.ints("stride"), args.ints("padding"),
                                     args.ints("dilation"), args.b("transposed"), args.ints("output_padding"),
                                     args.i("groups")));
}
Outputs conv_nd(const Scope& s, const NodeArgs& args) {
  return one(impl::conv::convolution(s, args.tensor("input"), args.tensor("weight"),
                                     args.opt_tensor("bias"), args.ints("stride"), args.ints("padding"),
                                     args.ints("dilation"), false, {0}, args.i("groups")));
}
Outputs conv_transpose_nd(const Scope& s, const NodeArgs& args) {
  return one(impl::conv::convolution(s, args.tensor("input"), args.tensor("weight"),
                                     args.opt_tensor("bias"), args.ints("stride"), args.ints("padding"),
                                     args.ints("dilation"), true, args.ints("output_padding"), args.i("groups")));
}
ATENRT_REGISTER(kFamily, keys("aten.conv1d.default", "aten.conv2d.default", "aten.conv3d.default"), conv_nd, .validator = static_weight);
ATENRT_REGISTER(kFamily, keys("aten.conv_transpose1d.default", "aten.conv_transpose2d.input", "aten.conv_transpose3d.input"), conv_transpose_nd, .validator = static_weight);

}  // namespace
}  // namespace atenrt::conversion::aten_ops
