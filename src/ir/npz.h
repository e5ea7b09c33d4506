// Reading and writing numpy .npy / .npz files, the CLI's tensor exchange
// format: `numpy.savez(path, *arrays)` names them arr_0, arr_1, ... in order.
#pragma once

#include <string>
#include <vector>

#include "atenrt/tensor.h"

namespace atenrt::io {

// Reads arrays in positional order (arr_0, arr_1, ...). Other names are
// accepted in the archive's order when no arr_N names are present.
// Throws FormatError naming the file and the entry.
std::vector<Tensor> read_npz(const std::string& path);
void write_npz(const std::string& path, const std::vector<Tensor>& tensors);

// One .npy payload (bytes of a whole .npy file).
Tensor parse_npy(const std::string& bytes, const std::string& where);
std::string serialize_npy(const Tensor& tensor);

}  // namespace atenrt::io
