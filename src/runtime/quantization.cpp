#include "runtime/quantization.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "atenrt/errors.h"

namespace atenrt::runtime {

namespace {

// Splits a contiguous tensor of `dims` around `channel_dim`: `outer` blocks
// of `channels` channels of `inner` contiguous values each.
struct ChannelSplit {
  std::int64_t outer = 1, channels = 1, inner = 1;
};
ChannelSplit split(const std::vector<std::int64_t>& dims, int channel_dim) {
  if (channel_dim < 0 || channel_dim >= static_cast<int>(dims.size())) {
    throw Error("quantization: channel dim " + std::to_string(channel_dim) + " out of range");
  }
  ChannelSplit s;
  for (int i = 0; i < static_cast<int>(dims.size()); ++i) {
    if (i < channel_dim) s.outer *= dims[i];
    if (i > channel_dim) s.inner *= dims[i];
  }
  s.channels = dims[channel_dim];
  return s;
}

}  // namespace

float quantize_value(float x, float inv_scale, float lo, float hi) {
  const float v = std::nearbyint(x * inv_scale);  // the default rounding mode: half to even
  if (std::isnan(v)) return 0.0f;
  return std::clamp(v, lo, hi);
}

Tensor fake_quantize_input(const Tensor& x, const Quantization& q) {
  const Tensor c = x.contiguous();
  Tensor out(DType::Float32, c.sizes());
  const float inv = 1.0f / q.input_scale;
  const float lo = q.input_unsigned ? 0.0f : -128.0f, hi = q.input_unsigned ? 255.0f : 127.0f;
  const float* in = c.data<float>();
  float* o = out.mutable_data<float>();
  for (std::int64_t i = 0; i < c.numel(); ++i) o[i] = quantize_value(in[i], inv, lo, hi) * q.input_scale;
  return out;
}

Tensor dequantize_weight(const Tensor& w, const std::vector<float>& scales, int channel_dim) {
  const Tensor c = w.contiguous();
  const auto s = split(c.sizes(), channel_dim);
  if (static_cast<std::int64_t>(scales.size()) != s.channels) throw Error("quantization: scale count mismatch");
  Tensor out(DType::Float32, c.sizes());
  const std::int8_t* in = c.data<std::int8_t>();
  float* o = out.mutable_data<float>();
  for (std::int64_t a = 0; a < s.outer; ++a) {
    for (std::int64_t ch = 0; ch < s.channels; ++ch) {
      const std::int64_t base = (a * s.channels + ch) * s.inner;
      for (std::int64_t i = 0; i < s.inner; ++i) o[base + i] = static_cast<float>(in[base + i]) * scales[ch];
    }
  }
  return out;
}

int weight_channel_dim(const Step& step) {
  if (step.kind() == network::LayerKind::MatMul) {
    return std::get<network::MatMulParams>(step.params).transpose_b ? 0 : 1;
  }
  return 0;
}

QuantizedWeight quantize_weight(const Tensor& w, int channel_dim, int limit) {
  if (limit < 1 || limit > 127) throw Error("quantization: weight limit " + std::to_string(limit) + " outside [1, 127]");
  const auto levels = static_cast<float>(limit);
  const Tensor c = w.contiguous();
  const auto s = split(c.sizes(), channel_dim);
  const float* in = c.data<float>();
  QuantizedWeight q;
  q.scales.assign(static_cast<std::size_t>(s.channels), 0.0f);
  for (std::int64_t a = 0; a < s.outer; ++a) {
    for (std::int64_t ch = 0; ch < s.channels; ++ch) {
      const std::int64_t base = (a * s.channels + ch) * s.inner;
      for (std::int64_t i = 0; i < s.inner; ++i) q.scales[ch] = std::max(q.scales[ch], std::fabs(in[base + i]));
    }
  }
  for (auto& v : q.scales) v = v > 0.0f && std::isfinite(v) ? v / levels : 1.0f;
  q.values = Tensor(DType::Int8, c.sizes());
  std::int8_t* o = q.values.mutable_data<std::int8_t>();
  for (std::int64_t a = 0; a < s.outer; ++a) {
    for (std::int64_t ch = 0; ch < s.channels; ++ch) {
      const std::int64_t base = (a * s.channels + ch) * s.inner;
      const float inv = 1.0f / q.scales[ch];
      for (std::int64_t i = 0; i < s.inner; ++i) {
        o[base + i] = static_cast<std::int8_t>(quantize_value(in[base + i], inv, -levels, levels));
      }
    }
  }
  return q;
}

bool Int8Exactness::admits_weight(const Tensor& w) const {
  if (weight_limit >= 127) return true;  // every int8 weight: dot-product instructions accumulate in 32 bits
  const Tensor c = w.contiguous();
  const auto* v = c.data<std::int8_t>();
  for (std::int64_t i = 0; i < c.numel(); ++i) {
    if (std::abs(static_cast<int>(v[i])) > weight_limit) return false;
  }
  return true;
}

}  // namespace atenrt::runtime
