// View and shape ops: reshape, permute, squeeze/unsqueeze, flatten, expand,
// repeat, pixel (un)shuffle.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::shape {

// Limits the validators check with the node's numbers and the impl functions
// with the resolved ones (nullopt: fine; a rank < 0: not known).
std::optional<std::string> reshape_size_problem(const std::vector<std::int64_t>& size);  // at most one -1
// One distinct dim per dim of self.
std::optional<std::string> permute_problem(const std::vector<std::int64_t>& dims, std::int64_t rank);
// Both dims in range, start not after end (a 0-d self takes anything).
std::optional<std::string> flatten_problem(std::int64_t start_dim, std::int64_t end_dim, std::int64_t rank);
// `dims` static, [..., C, H, W]; factor >= 1 and dividing C (shuffle) or H and W (unshuffle).
std::optional<std::string> pixel_shuffle_problem(const std::vector<std::int64_t>& dims, std::int64_t factor,
                                                 bool inverse);

// torch.reshape / view: one -1 may be inferred.
NetworkTensor* reshape(const Scope& s, NetworkTensor* x, std::vector<std::int64_t> size);
// The same with sizes known only at run time (dynamic shapes): each element
// an int or a 0-d integer network tensor (a sym_size result); the shape is
// built as a tensor, so the dims are static once the engine is specialized.
NetworkTensor* reshape_dynamic(const Scope& s, NetworkTensor* x, const std::vector<Value>& size);
NetworkTensor* permute(const Scope& s, NetworkTensor* x, std::vector<std::int64_t> dims);
NetworkTensor* transpose(const Scope& s, NetworkTensor* x, std::int64_t dim0, std::int64_t dim1);
NetworkTensor* unsqueeze(const Scope& s, NetworkTensor* x, std::int64_t dim);
// Removes the listed dims that have size 1 (all size-1 dims when empty and `all`).
NetworkTensor* squeeze(const Scope& s, NetworkTensor* x, std::vector<std::int64_t> dims, bool all);
NetworkTensor* flatten(const Scope& s, NetworkTensor* x, std::int64_t start_dim, std::int64_t end_dim);
NetworkTensor* unflatten(const Scope& s, NetworkTensor* x, std::int64_t dim, std::vector<std::int64_t> sizes);
NetworkTensor* expand(const Scope& s, NetworkTensor* x, std::vector<std::int64_t> size);
// expand to sizes known only at run time (ints, -1 for x's dim, 0-d integer network tensors).
NetworkTensor* expand_dynamic(const Scope& s, NetworkTensor* x, const std::vector<Value>& size);
NetworkTensor* repeat(const Scope& s, NetworkTensor* x, std::vector<std::int64_t> repeats);
NetworkTensor* tile(const Scope& s, NetworkTensor* x, std::vector<std::int64_t> dims);
NetworkTensor* pixel_shuffle(const Scope& s, NetworkTensor* x, std::int64_t factor, bool inverse);
// prims.broadcast_in_dim: x's dims go to `broadcast_dimensions` of `shape`.
NetworkTensor* broadcast_in_dim(const Scope& s, NetworkTensor* x,
                                std::vector<std::int64_t> shape, std::vector<std::int64_t> broadcast_dimensions);
// resize_: the first numel(size) elements (zeros past the end), as `size`.
NetworkTensor* resize(const Scope& s, NetworkTensor* x, std::vector<std::int64_t> size);

}  // namespace atenrt::conversion::impl::shape
