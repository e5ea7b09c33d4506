// Writing tensors as torch.save does (the zip format torch >= 1.6 writes), so
// `torch.load` reads atenrt's outputs in every dtype, bf16 included, which
// .npz cannot carry. A file holds one object: a tensor list (a tuple) or a
// dict by name; each tensor gets its own storage record.
#pragma once

#include <string>
#include <vector>

#include "atenrt/tensor.h"

namespace atenrt::io {

// The file's bytes: <stem>/data.pkl (pickle protocol 2 calling
// torch._utils._rebuild_tensor_v2 on persistent-id storages),
// <stem>/data/<k> (each storage's little-endian bytes), <stem>/version ("3").
// A tuple of the tensors, or a dict name -> tensor when `names` are given
// (one per tensor).
std::string torch_save_bytes(const std::vector<Tensor>& tensors, const std::vector<std::string>& names = {},
                             const std::string& stem = "archive");
// The same written to `path` (Error naming it when it cannot be written).
void write_torch_save(const std::string& path, const std::vector<Tensor>& tensors,
                      const std::vector<std::string>& names = {});

}  // namespace atenrt::io
