// Slicing, splitting, concatenation, padding, flip/roll and strided views.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::slice {

// Limits, as functions of decoded arguments: the validators call them with
// the numbers written in the node, the impl functions with resolved ones.
// Each returns why the arguments are refused, or nullopt.
std::optional<std::string> step_problem(std::int64_t step);
std::optional<std::string> pad_problem(const std::vector<std::int64_t>& pad, std::int64_t rank);
std::optional<std::string> roll_problem(const std::vector<std::int64_t>& shifts, const std::vector<std::int64_t>& dims);
// split_size / chunks (> 0; 0 only for an empty dim).
std::optional<std::string> split_size_problem(std::int64_t split_size, std::int64_t dim_size);
std::optional<std::string> chunks_problem(std::int64_t chunks);
std::optional<std::string> split_sizes_problem(const std::vector<std::int64_t>& sizes, std::int64_t dim_size);

// Python slice semantics on one dim (start/end None: whole range).
NetworkTensor* slice(const Scope& s, NetworkTensor* x, std::int64_t dim,
                     std::optional<std::int64_t> start, std::optional<std::int64_t> end, std::int64_t step);
// x[start:end:step] on `dim` where a bound is known only at run time (a 0-d
// integer network tensor: item() -> a size, a dynamic size; the other an int
// or None): Python's bounds (negative from the end, clamped to [0, size]),
// then the elements gathered by arange(start, end, step).
NetworkTensor* slice_dynamic(const Scope& s, NetworkTensor* x, std::int64_t dim, const Value& start, const Value& end,
                             std::int64_t step);
// Chunks of `sizes` along dim (sizes sum to the dim).
std::vector<NetworkTensor*> split_with_sizes(const Scope& s,
                                             NetworkTensor* x, std::vector<std::int64_t> sizes, std::int64_t dim);
// Chunks of `size` (the last may be smaller).
std::vector<NetworkTensor*> split(const Scope& s, NetworkTensor* x, std::int64_t size, std::int64_t dim);
std::vector<NetworkTensor*> chunk(const Scope& s, NetworkTensor* x, std::int64_t chunks, std::int64_t dim);
std::vector<NetworkTensor*> unbind(const Scope& s, NetworkTensor* x, std::int64_t dim);
// torch.cat with type promotion; legacy empty 1-d tensors are skipped.
NetworkTensor* cat(const Scope& s, std::vector<NetworkTensor*> xs, std::int64_t dim);
NetworkTensor* stack(const Scope& s, std::vector<NetworkTensor*> xs, std::int64_t dim);
// torch pad list: pairs from the last dim backwards.
NetworkTensor* pad(const Scope& s, NetworkTensor* x,
                   std::vector<std::int64_t> pad, network::PaddingMode mode, double value = 0.0);
NetworkTensor* flip(const Scope& s, NetworkTensor* x, std::vector<std::int64_t> dims);
NetworkTensor* roll(const Scope& s, NetworkTensor* x,
                    std::vector<std::int64_t> shifts, std::vector<std::int64_t> dims);
// x with the slice (dim, start:end:step) replaced by src.
NetworkTensor* slice_scatter(const Scope& s, NetworkTensor* x,
                             NetworkTensor* src, std::int64_t dim, std::optional<std::int64_t> start,
                             std::optional<std::int64_t> end, std::int64_t step);
NetworkTensor* diagonal(const Scope& s, NetworkTensor* x,
                        std::int64_t offset, std::int64_t dim1, std::int64_t dim2);
// as_strided over x's contiguous elements.
NetworkTensor* as_strided(const Scope& s, NetworkTensor* x,
                          std::vector<std::int64_t> size, std::vector<std::int64_t> stride, std::int64_t offset);

}  // namespace atenrt::conversion::impl::slice
