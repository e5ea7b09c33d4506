// Reading and writing numpy .npy / .npz files, the CLI's tensor exchange
// format: `numpy.savez(path, *arrays)` names them arr_0, arr_1, ... in order.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "atenrt/tensor.h"

namespace atenrt::io {

// Called with each array's header (position, "file:entry", dtype, shape)
// before its payload is read or inflated; throws to refuse the array.
using NpyHeaderCheck = std::function<void(std::size_t index, const std::string& where, DType dtype,
                                          const std::vector<std::int64_t>& shape)>;

// Reads arrays in positional order (arr_0, arr_1, ...). Other names are
// accepted in the archive's order when no arr_N names are present. Each
// member is read header first: `check` sees the dtype and shape, then the
// declared sizes must match what the header needs exactly (and, for deflated
// members, a plausible compression ratio) before the payload is inflated,
// with a hard stop at that size. All arrays together may hold at most
// `max_bytes`. Throws FormatError naming the file and the entry.
std::vector<Tensor> read_npz(const std::string& path, const NpyHeaderCheck& check = {},
                             std::uint64_t max_bytes = std::uint64_t{1} << 36);
// The same with each array's name (without ".npy").
std::vector<std::pair<std::string, Tensor>> read_npz_named(const std::string& path, const NpyHeaderCheck& check = {},
                                                           std::uint64_t max_bytes = std::uint64_t{1} << 36);
// Names the arrays arr_0, arr_1, ... unless `names` (one per tensor) are given.
void write_npz(const std::string& path, const std::vector<Tensor>& tensors,
               const std::vector<std::string>& names = {});

// One .npy payload (bytes of a whole .npy file).
Tensor parse_npy(const std::string& bytes, const std::string& where);
std::string serialize_npy(const Tensor& tensor);

}  // namespace atenrt::io
