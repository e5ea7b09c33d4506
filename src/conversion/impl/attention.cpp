#include "conversion/impl/attention.h"

#include <cmath>
#include <limits>

#include "conversion/host_tensor.h"
#include "conversion/impl/matmul.h"

namespace atenrt::conversion::impl::attention {

using network::ElementwiseOp;

NetworkTensor* scaled_dot_product_attention(const Scope& s,
                                            NetworkTensor* q, NetworkTensor* k, NetworkTensor* v,
                                            NetworkTensor* mask, bool is_causal, std::optional<double> scale,
                                            NetworkTensor** probs) {
  check(q->rank() >= 2 && k->rank() >= 2 && v->rank() >= 2, "attention inputs need at least 2 dims");
  if (!is_floating(q->dtype)) q = cast(s, q, DType::Float32);
  k = cast(s, k, q->dtype);
  v = cast(s, v, q->dtype);
  const auto e = q->dims.back();
  check(e > 0 || scale.has_value(), "attention needs a static embedding dim (or an explicit scale)");
  const double factor = scale.value_or(1.0 / std::sqrt(static_cast<double>(e)));
  auto* scores = matmul::matmul(s.child("qk"), q, k, false, true);
  scores = ew_scalar(s, scores, factor, ElementwiseOp::Mul);
  const double neg_inf = -std::numeric_limits<double>::infinity();
  if (is_causal) {
    const auto l = q->dims[q->dims.size() - 2], sl = k->dims[k->dims.size() - 2];
    check(l >= 0 && sl >= 0, "is_causal needs static sequence lengths");
    Tensor tri(DType::Bool, {l, sl});
    for (std::int64_t i = 0; i < l; ++i) {
      for (std::int64_t j = 0; j < sl; ++j) set_element_int(tri, i * sl + j, j <= i ? 1 : 0);
    }
    auto* keep = s.add_constant("causal", tri);
    scores = s.add_select("causal_mask", keep, scores, scalar_constant(s, neg_inf, scores->dtype));
  }
  if (mask) {
    if (mask->dtype == DType::Bool) {
      scores = s.add_select("mask", mask, scores, scalar_constant(s, neg_inf, scores->dtype));
    } else {
      scores = ew(s, scores, cast(s, mask, scores->dtype), ElementwiseOp::Add);
    }
  }
  auto* p = s.add_softmax("softmax", scores, -1);
  if (probs) *probs = p;
  return matmul::matmul(s, p, v);
}

MhaResult native_multi_head_attention(const Scope& s, NetworkTensor* query,
                                      NetworkTensor* key, NetworkTensor* value, std::int64_t embed_dim,
                                      std::int64_t num_heads, NetworkTensor* qkv_weight, NetworkTensor* qkv_bias,
                                      NetworkTensor* proj_weight, NetworkTensor* proj_bias, NetworkTensor* mask,
                                      bool need_weights, bool average_weights) {
  check(query->rank() == 3 && key->rank() == 3 && value->rank() == 3,
        "multi-head attention inputs must be [batch, seq, embed]");
  check(num_heads > 0 && embed_dim % num_heads == 0, "embed_dim must be divisible by num_heads");
  const auto e = embed_dim, hd = embed_dim / num_heads;
  auto project = [&](NetworkTensor* x, std::int64_t part, const char* tag) {
    const Scope n = s.child(tag);
    auto* w = slice_axis(n, qkv_weight, 0, part * e, (part + 1) * e);
    auto* b = slice_axis(n, qkv_bias, 0, part * e, (part + 1) * e);
    auto* y = matmul::linear(n, x, w, b);
    // [B, L, E] → [B, L, H, D] → [B, H, L, D]
    const auto bsz = y->dims[0], len = y->dims[1];
    auto* r = reshape(n, y, {bsz, len, num_heads, hd});
    return permute(n, r, {0, 2, 1, 3});
  };
  auto* q = project(query, 0, "q");
  auto* k = project(key, 1, "k");
  auto* v = project(value, 2, "v");
  NetworkTensor* probs = nullptr;
  NetworkTensor* m = mask;
  if (m && m->dtype == DType::Bool) {
    // torch's mask marks positions to ignore (key_padding / attn masks): keep = !mask.
    m = s.add_unary("keep", m, network::UnaryOp::Not);
  }
  auto* attn = scaled_dot_product_attention(s.child("sdpa"), q, k, v, m, false, std::nullopt, &probs);
  const auto bsz = attn->dims[0], len = attn->dims[2];
  auto* merged = reshape(s, permute(s, attn, {0, 2, 1, 3}), {bsz, len, e});
  MhaResult r;
  r.out = matmul::linear(s, merged, proj_weight, proj_bias);
  if (need_weights) {
    r.weights = average_weights
                    ? s.add_reduce("weights", probs, network::ReduceOp::Mean, {1}, false)
                    : probs;
  }
  return r;
}

}  // namespace atenrt::conversion::impl::attention
