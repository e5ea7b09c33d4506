// Convolution and transposed convolution (1-3 spatial dims).
//
// A convolution node's arguments decode once into ConvArgs; `problem` is the
// one place its limits live: the validator asks it with the numbers written in
// the node, the converter with the resolved ones, so the dry run never accepts
// what conversion refuses.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::conv {

// torch.convolution's arguments: list arguments may have one entry (applied
// to every spatial dim) or one per spatial dim.
struct ConvArgs {
  std::vector<std::int64_t> stride, padding, dilation;
  bool transposed = false;
  std::vector<std::int64_t> output_padding;  // transposed only; empty means 0
  std::int64_t groups = 1;

  // Why these arguments cannot convolve with a weight of `weight_rank` dims
  // (nullopt when they can; weight_rank < 0 when unknown).
  std::optional<std::string> problem(std::int64_t weight_rank) const;
};

// bias may be null; throws UnsupportedError with ConvArgs::problem's reason.
NetworkTensor* convolution(const Scope& s, NetworkTensor* x, NetworkTensor* weight, NetworkTensor* bias,
                           const ConvArgs& a);

}  // namespace atenrt::conversion::impl::conv
