// Diagonals and blocks of matrices: rot90, diag_embed, diagonal_scatter, block_diag, built from
// flips, permutes, padding and a select against a constant diagonal mask.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::diagonal_ops {

// rot90's dims: two distinct dims of x (rank < 0: not known).
std::optional<std::string> rot90_problem(const std::vector<std::int64_t>& dims, std::int64_t rank);
NetworkTensor* rot90(const Scope& s, NetworkTensor* x, std::int64_t k, const std::vector<std::int64_t>& dims);
// diag_embed / diagonal_scatter: dim1 and dim2 distinct dims of the (output / self) rank.
std::optional<std::string> diagonal_dims_problem(std::int64_t dim1, std::int64_t dim2, std::int64_t rank);
NetworkTensor* diag_embed(const Scope& s, NetworkTensor* x, std::int64_t offset, std::int64_t dim1, std::int64_t dim2);
NetworkTensor* diagonal_scatter(const Scope& s, NetworkTensor* x, NetworkTensor* src, std::int64_t offset,
                                std::int64_t dim1, std::int64_t dim2);
// torch.block_diag: 0-d, 1-d (a row) and 2-d blocks on the diagonal of zeros, in the promoted dtype.
NetworkTensor* block_diag(const Scope& s, const std::vector<NetworkTensor*>& blocks);

}  // namespace atenrt::conversion::impl::diagonal_ops
