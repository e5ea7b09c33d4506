// View and shape ops: reshape, permute, squeeze/unsqueeze, flatten, expand,
// repeat, pixel (un)shuffle.
#pragma once

#include <string_view>
#include <vector>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::shape {

// torch.reshape / view: one -1 may be inferred.
NetworkTensor* reshape(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x,
                       std::vector<std::int64_t> size);
NetworkTensor* permute(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x,
                       std::vector<std::int64_t> dims);
NetworkTensor* transpose(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x,
                         std::int64_t dim0, std::int64_t dim1);
NetworkTensor* unsqueeze(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x,
                         std::int64_t dim);
// Removes the listed dims that have size 1 (all size-1 dims when empty and `all`).
NetworkTensor* squeeze(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x,
                       std::vector<std::int64_t> dims, bool all);
NetworkTensor* flatten(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x,
                       std::int64_t start_dim, std::int64_t end_dim);
NetworkTensor* unflatten(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x,
                         std::int64_t dim, std::vector<std::int64_t> sizes);
NetworkTensor* expand(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x,
                      std::vector<std::int64_t> size);
NetworkTensor* repeat(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x,
                      std::vector<std::int64_t> repeats);
NetworkTensor* tile(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x,
                    std::vector<std::int64_t> dims);
NetworkTensor* pixel_shuffle(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x,
                             std::int64_t factor, bool inverse);
// prims.broadcast_in_dim: x's dims go to `broadcast_dimensions` of `shape`.
NetworkTensor* broadcast_in_dim(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x,
                                std::vector<std::int64_t> shape, std::vector<std::int64_t> broadcast_dimensions);
// resize_: the first numel(size) elements (zeros past the end), as `size`.
NetworkTensor* resize(ConversionContext& ctx, SourceIR src, std::string_view name, NetworkTensor* x,
                      std::vector<std::int64_t> size);

}  // namespace atenrt::conversion::impl::shape
