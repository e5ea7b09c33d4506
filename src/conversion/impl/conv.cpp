#include "conversion/impl/conv.h"

namespace atenrt::conversion::impl::conv {

std::optional<std::string> ConvArgs::problem(std::int64_t weight_rank) const {
  if (weight_rank < 0) return std::nullopt;
  if (weight_rank < 3 || weight_rank > 5) {
    return "convolution weight must have 3 to 5 dims (1-3 spatial dims), got " + std::to_string(weight_rank);
  }
  const auto n = static_cast<std::size_t>(weight_rank - 2);
  auto entries = [&](const std::vector<std::int64_t>& v, const char* what) -> std::optional<std::string> {
    if (per_spatial(v, n)) return std::nullopt;
    return std::string(what) + " " + shape_to_string(v) + " needs " + std::to_string(n) + " entries";
  };
  for (auto [v, what] : {std::pair{&stride, "stride"}, std::pair{&padding, "padding"}, std::pair{&dilation, "dilation"}}) {
    if (auto why = entries(*v, what)) return why;
  }
  if (transposed && !output_padding.empty()) return entries(output_padding, "output_padding");
  return std::nullopt;
}

NetworkTensor* convolution(const Scope& s, NetworkTensor* x, NetworkTensor* weight, NetworkTensor* bias,
                           const ConvArgs& a) {
  if (auto why = a.problem(weight->rank())) check(false, *why);
  const auto n = static_cast<std::size_t>(weight->rank() - 2);
  // An unbatched input [C, *spatial] gets a batch dim of 1 for the layer.
  const bool unbatched = x->rank() == weight->rank() - 1;
  if (unbatched) x = unsqueeze(s, x, 0);
  if (!is_floating(x->dtype)) x = cast(s, x, DType::Float32);
  weight = cast(s, weight, x->dtype);
  if (bias) bias = cast(s, bias, x->dtype);
  const Dims pad = *per_spatial(a.padding, n);
  NetworkTensor* y;
  if (!a.transposed) {
    network::ConvolutionParams p;
    p.stride = *per_spatial(a.stride, n);
    p.padding_pre = pad;
    p.padding_post = pad;
    p.dilation = *per_spatial(a.dilation, n);
    p.groups = a.groups;
    y = s.add_convolution(unbatched ? "batched" : "", x, weight, bias, p);
  } else {
    network::DeconvolutionParams p;
    p.stride = *per_spatial(a.stride, n);
    p.padding_pre = pad;
    p.padding_post = pad;
    p.dilation = *per_spatial(a.dilation, n);
    p.output_padding = *per_spatial(a.output_padding.empty() ? std::vector<std::int64_t>{0} : a.output_padding, n);
    p.groups = a.groups;
    y = s.add_deconvolution(unbatched ? "batched" : "", x, weight, bias, p);
  }
  if (unbatched) {
    Dims d(y->dims.begin() + 1, y->dims.end());
    y = s.add_reshape("", y, d);
  }
  return y;
}

}  // namespace atenrt::conversion::impl::conv
