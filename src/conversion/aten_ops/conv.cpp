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

// What a key's node says: torch.convolution spells every argument; conv*d
// and conv_transpose*d fix `transposed` and leave out what they do not take.
// `ints`, `flag`, `integer` read an argument (nullopt when not known).
template <typename Ints, typename Flag, typename Int>
std::optional<impl::conv::ConvArgs> decode(std::string_view target, Ints ints, Flag flag, Int integer) {
  impl::conv::ConvArgs a;
  const bool full = target.starts_with("aten.convolution");
  const bool transposed_nd = target.starts_with("aten.conv_transpose");
  auto stride = ints("stride"), padding = ints("padding"), dilation = ints("dilation");
  auto groups = integer("groups");
  if (!stride || !padding || !dilation || !groups) return std::nullopt;
  a.stride = *stride;
  a.padding = *padding;
  a.dilation = *dilation;
  a.groups = *groups;
  if (full) {
    auto transposed = flag("transposed");
    if (!transposed) return std::nullopt;
    a.transposed = *transposed;
  } else {
    a.transposed = transposed_nd;
  }
  if (a.transposed && (full || transposed_nd)) {
    auto output_padding = ints("output_padding");
    if (!output_padding) return std::nullopt;
    a.output_padding = *output_padding;
  }
  return a;
}

Capability conv_ok(const NodeView& node, const ConversionSettings& settings) {
  if (Capability c = static_weight(node, settings); !c) return c;
  auto a = decode(
      node.target(), [&](const char* n) { return node.literal_ints(n); },
      [&](const char* n) { return node.literal_bool(n); }, [&](const char* n) { return node.literal_int(n); });
  const ir::TensorMeta* w = node.meta("weight");
  if (a && w) {
    if (auto why = a->problem(static_cast<std::int64_t>(w->sizes.size()))) return Capability::no(*why);
  }
  return Capability::yes();
}

Outputs convolve(const Scope& s, const NodeArgs& args) {
  const auto a = decode(
      s.target(), [&](const char* n) { return std::optional(args.ints(n)); },
      [&](const char* n) { return std::optional(args.b(n)); }, [&](const char* n) { return std::optional(args.i(n)); });
  return one(impl::conv::convolution(s, args.tensor("input"), args.tensor("weight"), args.opt_tensor("bias"), *a));
}

ATENRT_REGISTER(kFamily, "aten.convolution.default", convolve, .validator = conv_ok);
ATENRT_REGISTER(kFamily, keys("aten.conv1d.default", "aten.conv2d.default", "aten.conv3d.default",
                              "aten.conv_transpose1d.default", "aten.conv_transpose2d.input",
                              "aten.conv_transpose3d.input"),
                convolve, .validator = conv_ok);

}  // namespace
}  // namespace atenrt::conversion::aten_ops
