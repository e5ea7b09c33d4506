// Attention converters.
#include "conversion/aten_ops/common.h"
#include "conversion/impl/attention.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace att = impl::attention;
constexpr Family kFamily{.name = "attention"};

// Inference only: no dropout; only the attention output is computed.
Validator sdpa_ok(std::size_t outputs) {
  return [outputs](const NodeView& node, const ConversionSettings&) {
    if (node.literal_number("dropout_p").value_or(0.0) != 0.0) {
      return Capability::no("dropout_p > 0 is random (training only)");
    }
    if (node.literal_bool("enable_gqa").value_or(false)) {
      return Capability::no("enable_gqa=True (grouped-query attention) is not supported");
    }
    for (std::size_t k = 1; k < outputs; ++k) {
      if (node.output_used(k)) return Capability::no("only the attention output is computed, output " + std::to_string(k) + " is used");
    }
    for (const char* a : {"query", "key", "value"}) {
      const ir::TensorMeta* m = node.meta(a);
      if (m && m->sizes.size() < 2) return Capability::no(std::string(a) + " needs at least 2 dims");
    }
    return Capability::yes();
  };
}
std::optional<double> scale_of(const NodeArgs& args) {
  return args.has("scale") ? args.opt_f("scale") : std::nullopt;
}
Outputs sdpa(const Scope& s, const NodeArgs& args, const char* mask_arg, std::size_t outputs) {
  auto* out = att::scaled_dot_product_attention(
      s, args.tensor("query"), args.tensor("key"), args.tensor("value"),
      mask_arg && args.has(mask_arg) ? args.opt_tensor(mask_arg) : nullptr, args.b("is_causal"), scale_of(args));
  Outputs r{out};
  r.resize(outputs);
  return r;
}
ATENRT_CONVERTER(kFamily, "aten.scaled_dot_product_attention.default", .validator = sdpa_ok(1))(const Scope& s, const NodeArgs& args) { return sdpa(s, args, "attn_mask", 1); }
ATENRT_CONVERTER(kFamily, "aten._scaled_dot_product_flash_attention.default", .validator = sdpa_ok(9))(const Scope& s, const NodeArgs& args) { return sdpa(s, args, nullptr, 9); }
ATENRT_CONVERTER(kFamily, "aten._scaled_dot_product_flash_attention_for_cpu.default", .validator = sdpa_ok(2))(const Scope& s, const NodeArgs& args) { return sdpa(s, args, "attn_mask", 2); }
ATENRT_CONVERTER(kFamily, "aten._scaled_dot_product_efficient_attention.default", .validator = sdpa_ok(4))(const Scope& s, const NodeArgs& args) { return sdpa(s, args, "attn_bias", 4); }
ATENRT_CONVERTER(kFamily, "aten._scaled_dot_product_cudnn_attention.default", .validator = sdpa_ok(9))(const Scope& s, const NodeArgs& args) { return sdpa(s, args, "attn_bias", 9); }

Capability mha_ok(const NodeView& node, const ConversionSettings& s) {
  for (const char* a : {"query", "key", "value"}) {
    const ir::TensorMeta* m = node.meta(a);
    if (m && m->sizes.size() != 3) return Capability::no(std::string(a) + " must be [batch, seq, embed]");
  }
  if (!node.is_none("mask")) {
    const auto mt = node.literal_int("mask_type");
    if (!mt || (*mt != 0 && *mt != 1)) return Capability::no("mask_type must be 0 (attention mask) or 1 (key padding)");
  }
  return requires_static({"query", "key", "value"})(node, s);
}
ATENRT_CONVERTER(kFamily, "aten._native_multi_head_attention.default", .validator = mha_ok)(const Scope& s, const NodeArgs& args) {
  auto* mask = args.opt_tensor("mask");
  if (mask && args.opt_i("mask_type").value_or(0) == 1 && mask->rank() == 2) {
    // A key padding mask [B, S] applies to every head and query.
    mask = impl::reshape(s, mask, {mask->dims[0], 1, 1, mask->dims[1]});
  }
  auto r = att::native_multi_head_attention(
      s, args.tensor("query"), args.tensor("key"), args.tensor("value"),
      args.i("embed_dim"), args.i("num_head"), args.tensor("qkv_weight"), args.tensor("qkv_bias"),
      args.tensor("proj_weight"), args.tensor("proj_bias"), mask, args.b("need_weights"),
      args.b("average_attn_weights"));
  return {r.out, r.weights ? Value(r.weights) : Value()};
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
