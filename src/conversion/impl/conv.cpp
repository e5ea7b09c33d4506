#include "conversion/impl/conv.h"

namespace atenrt::conversion::impl::conv {

Dims per_spatial(std::vector<std::int64_t> v, std::size_t n, std::string_view what) {
  if (v.size() == 1 && n > 1) v.assign(n, v[0]);
  check(v.size() == n, std::string(what) + " " + shape_to_string(v) + " needs " + std::to_string(n) + " entries");
  return v;
}

NetworkTensor* convolution(const Scope& s, NetworkTensor* x,
                           NetworkTensor* weight, NetworkTensor* bias, std::vector<std::int64_t> stride,
                           std::vector<std::int64_t> padding, std::vector<std::int64_t> dilation, bool transposed,
                           std::vector<std::int64_t> output_padding, std::int64_t groups) {
  check(weight->rank() >= 3 && weight->rank() <= 5,
        "convolution weight must have 3 to 5 dims, got " + network::desc_to_string(weight->desc()));
  const auto n = static_cast<std::size_t>(weight->rank() - 2);
  // An unbatched input [C, *spatial] gets a batch dim of 1 for the layer.
  const bool unbatched = x->rank() == weight->rank() - 1;
  if (unbatched) x = unsqueeze(s, x, 0);
  if (!is_floating(x->dtype)) x = cast(s, x, DType::Float32);
  weight = cast(s, weight, x->dtype);
  if (bias) bias = cast(s, bias, x->dtype);
  const Dims pad = per_spatial(padding, n, "padding");
  NetworkTensor* y;
  if (!transposed) {
    network::ConvolutionParams p;
    p.stride = per_spatial(stride, n, "stride");
    p.padding_pre = pad;
    p.padding_post = pad;
    p.dilation = per_spatial(dilation, n, "dilation");
    p.groups = groups;
    y = s.add_convolution(unbatched ? "batched" : "", x, weight, bias, p);
  } else {
    network::DeconvolutionParams p;
    p.stride = per_spatial(stride, n, "stride");
    p.padding_pre = pad;
    p.padding_post = pad;
    p.dilation = per_spatial(dilation, n, "dilation");
    p.output_padding = per_spatial(output_padding.empty() ? std::vector<std::int64_t>{0} : output_padding, n,
                                   "output_padding");
    p.groups = groups;
    y = s.add_deconvolution(unbatched ? "batched" : "", x, weight, bias, p);
  }
  if (unbatched) {
    Dims d(y->dims.begin() + 1, y->dims.end());
    y = s.add_reshape("", y, d);
  }
  return y;
}

}  // namespace atenrt::conversion::impl::conv
