// Ops without a family of their own: resize (upsample), top-k / sort,
// cross product, pairwise distances, grid sampling.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::other {

// output_size, or floor(in * scale) per spatial dim (then `scales` map coordinates).
// upsample's limits, the validators' rule too: an [N, C] + `spatial` dims
// input (rank < 0: not known), an output_size (when given) with one entry per
// spatial dim.
std::optional<std::string> upsample_problem(std::int64_t rank, std::size_t spatial,
                                            const std::vector<std::int64_t>& output_size);
// cdist's inputs have at least 2 dims (rank < 0: not known).
std::optional<std::string> cdist_problem(std::int64_t rank1, std::int64_t rank2);
NetworkTensor* upsample(const Scope& s, NetworkTensor* x, network::ResizeMode mode, std::size_t spatial,
                        std::optional<std::vector<std::int64_t>> output_size,
                        std::optional<std::vector<double>> scales, bool align_corners);
// The same with an output_size known only at run time (F.interpolate(size=x.shape[-2:]) over
// dynamic dims): each entry an int or a 0-d integer network tensor.
NetworkTensor* upsample_to(const Scope& s, NetworkTensor* x, network::ResizeMode mode, const std::vector<Value>& output_size,
                           std::optional<std::vector<double>> scales, bool align_corners);
// (values, int64 indices).
std::pair<NetworkTensor*, NetworkTensor*> topk(const Scope& s,
                                               NetworkTensor* x, std::int64_t k, std::int64_t dim, bool largest,
                                               network::TopKTies ties);
NetworkTensor* cross(const Scope& s, NetworkTensor* a, NetworkTensor* b, std::int64_t dim);
// ||x1[..., i, :] - x2[..., j, :]||_p
NetworkTensor* cdist(const Scope& s, NetworkTensor* x1, NetworkTensor* x2, double p);
// Distances between rows i < j of a 2-d x, in row-major pair order.
NetworkTensor* pdist(const Scope& s, NetworkTensor* x, double p);
// torch.grid_sampler_2d: mode 0 bilinear / 1 nearest; padding 0 zeros / 1 border.
NetworkTensor* grid_sample_2d(const Scope& s, NetworkTensor* x,
                              NetworkTensor* grid, std::int64_t mode, std::int64_t padding, bool align_corners);

}  // namespace atenrt::conversion::impl::other
