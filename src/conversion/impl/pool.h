// Max / average pooling, fixed windows and adaptive.
//
// A pooling node's arguments decode once into PoolArgs; `problem` is the
// one place its limits live: the validator asks it with the numbers written
// in the node, the converter with the resolved ones, so the dry run never
// accepts what conversion refuses.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::pool {

struct PoolArgs {
  network::PoolingOp op = network::PoolingOp::Max;
  std::size_t spatial = 2;  // pooled dims: the last `spatial` of the input
  // One entry per spatial dim, or one for all; an empty stride means
  // stride = kernel (torch's default), an empty dilation 1.
  std::vector<std::int64_t> kernel, stride, padding, dilation;
  bool ceil_mode = false;
  bool count_include_pad = true;  // average only
  std::optional<std::int64_t> divisor_override;
  // Adaptive pooling: the output size per spatial dim (-1 keeps the input's).
  bool adaptive = false;
  std::vector<std::int64_t> output_size;

  // Why these arguments cannot be pooled over an input of `rank` dims
  // (nullopt when they can; rank < 0 when unknown).
  std::optional<std::string> problem(std::int64_t rank) const;
  // The layer's parameters for input x; throws UnsupportedError with
  // problem()'s reason.
  network::PoolingParams params(const NetworkTensor* x) const;
};

NetworkTensor* pool(const Scope& s, NetworkTensor* x, const PoolArgs& a);

}  // namespace atenrt::conversion::impl::pool
