// Scaled dot-product attention and PyTorch's fused multi-head attention.
#pragma once

#include <optional>
#include <string_view>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::attention {

// softmax(q kᵀ * scale + mask) v over the last two dims. A bool mask keeps
// positions where true; a float mask is added. is_causal masks j > i.
// scale defaults to 1/sqrt(E). `probs` receives the attention weights.
NetworkTensor* scaled_dot_product_attention(const Scope& s,
                                            NetworkTensor* q, NetworkTensor* k, NetworkTensor* v,
                                            NetworkTensor* mask, bool is_causal, std::optional<double> scale,
                                            NetworkTensor** probs = nullptr);

struct MhaResult {
  NetworkTensor* out = nullptr;
  NetworkTensor* weights = nullptr;  // when need_weights
};
// torch._native_multi_head_attention for batch-first [B, L, E] inputs. A bool
// mask marks positions to ignore and must broadcast against [B, H, L, S].
MhaResult native_multi_head_attention(const Scope& s, NetworkTensor* query,
                                      NetworkTensor* key, NetworkTensor* value, std::int64_t embed_dim,
                                      std::int64_t num_heads, NetworkTensor* qkv_weight, NetworkTensor* qkv_bias,
                                      NetworkTensor* proj_weight, NetworkTensor* proj_bias, NetworkTensor* mask,
                                      bool need_weights, bool average_weights);

}  // namespace atenrt::conversion::impl::attention
