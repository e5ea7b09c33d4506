// Attention converters.
#include "conversion/aten_ops/common.h"
#include "conversion/impl/activation.h"
#include "conversion/impl/attention.h"
#include "conversion/impl/matmul.h"
#include "conversion/impl/normalization.h"

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

// torch's mask kinds: 0 an attention mask [L, S], 1 a key padding mask [B, S], 2 a mask of every
// head [B, H, L, S]; 0 and 2 broadcast against the scores as they are.
Capability mask_type_ok(const NodeView& node) {
  if (node.is_none("mask")) return Capability::yes();
  const auto mt = node.literal_int("mask_type");
  if (!mt || *mt < 0 || *mt > 2) {
    return Capability::no("mask_type must be 0 (attention mask), 1 (key padding) or 2 (a mask per head)");
  }
  return Capability::yes();
}
Capability mha_ok(const NodeView& node, const ConversionSettings& s) {
  for (const char* a : {"query", "key", "value"}) {
    const ir::TensorMeta* m = node.meta(a);
    if (m && m->sizes.size() != 3) return Capability::no(std::string(a) + " must be [batch, seq, embed]");
  }
  if (auto c = mask_type_ok(node); !c) return c;
  return requires_static({"query", "key", "value"})(node, s);
}
// The mask as the attention takes it: a key padding mask [B, S] applies to every head and query.
NetworkTensor* attention_mask(const Scope& s, const NodeArgs& args) {
  auto* mask = args.opt_tensor("mask");
  if (mask && args.opt_i("mask_type").value_or(0) == 1 && mask->rank() == 2) {
    mask = impl::reshape(s, mask, {mask->dims[0], 1, 1, mask->dims[1]});
  }
  return mask;
}
ATENRT_CONVERTER(kFamily, "aten._native_multi_head_attention.default", .validator = mha_ok)(const Scope& s, const NodeArgs& args) {
  auto r = att::native_multi_head_attention(
      s, args.tensor("query"), args.tensor("key"), args.tensor("value"),
      args.i("embed_dim"), args.i("num_head"), args.tensor("qkv_weight"), args.tensor("qkv_bias"),
      args.tensor("proj_weight"), args.tensor("proj_bias"), attention_mask(s, args), args.b("need_weights"),
      args.b("average_attn_weights"));
  return {r.out, r.weights ? Value(r.weights) : Value()};
}

// nn.TransformerEncoderLayer's fast path (eval, no grad), as torch's transformer_encoder_layer_forward
// computes it: self-attention, residual add and layer norm (before the attention and the feed-forward
// block when norm_first), then linear, relu or exact gelu, linear and the second residual.
Capability encoder_layer_ok(const NodeView& node, const ConversionSettings& s) {
  const ir::TensorMeta* m = node.meta("src");
  if (m && m->sizes.size() != 3) return Capability::no("src must be [batch, seq, embed] (a nested tensor is not supported)");
  if (node.literal_number("eps").value_or(0.0) < 0) return Capability::no("a negative epsilon (the layer norm takes eps >= 0)");
  if (auto c = mask_type_ok(node); !c) return c;
  return requires_static({"src"})(node, s);
}
ATENRT_CONVERTER(kFamily, "aten._transformer_encoder_layer_fwd.default", .validator = encoder_layer_ok)(const Scope& s, const NodeArgs& args) {
  auto* src = args.tensor("src");
  const std::int64_t embed = args.i("embed_dim");
  const bool norm_first = args.b("norm_first");
  auto norm = [&](NetworkTensor* x, int which) {
    const std::string k = std::to_string(which);
    return impl::normalization::layer_norm(s, x, {embed}, args.tensor("norm_weight_" + k),
                                           args.tensor("norm_bias_" + k), args.f("eps"));
  };
  auto* x = norm_first ? norm(src, 1) : src;
  x = att::native_multi_head_attention(s, x, x, x, embed, args.i("num_heads"), args.tensor("qkv_weight"),
                                       args.tensor("qkv_bias"), args.tensor("proj_weight"), args.tensor("proj_bias"),
                                       attention_mask(s, args), false, true).out;
  x = s.add_elementwise("attention_residual", x, src, network::ElementwiseOp::Add);
  if (!norm_first) x = norm(x, 1);
  auto* residual = x;
  if (norm_first) x = norm(x, 2);
  x = impl::matmul::linear(s, x, args.tensor("ffn_weight_1"), args.tensor("ffn_bias_1"));
  x = args.b("use_gelu") ? impl::activation::gelu(s, x, "none") : impl::activation::relu(s, x);
  x = impl::matmul::linear(s, x, args.tensor("ffn_weight_2"), args.tensor("ffn_bias_2"));
  x = s.add_elementwise("ffn_residual", x, residual, network::ElementwiseOp::Add);
  return one(norm_first ? x : norm(x, 2));
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
