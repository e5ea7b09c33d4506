// Where `run` and `bench` take a model's inputs from, and where `run` writes
// its outputs: .npz files, torch.save .pt files (every dtype, bf16 included),
// or the sample inputs a .pt2 carries.
#pragma once

#include <string>
#include <vector>

#include "atenrt/atenrt.h"

namespace atenrt::cli {

bool is_torch_file(const std::string& path);  // .pt or .pth

struct ModelInputs {
  std::vector<Tensor> tensors;
  std::string source;  // "x.npz", or "model.pt2: data/sample_inputs/model.pt"
};

// From `path` (.npz: arr_0, arr_1, ... or names; .pt/.pth: a tensor, a
// tuple/list of them, or a dict by input name) or, when `path` is empty, the
// sample inputs of the .pt2 `model`. Each is checked against `expected`
// (count, dtype, shape; an .npz array before its payload is read) unless
// `expected` is null; errors name the file (and entry) and the input.
ModelInputs read_model_inputs(const std::string& model, const std::string& path,
                              const std::vector<TensorSpec>* expected);

// .npz, or .pt/.pth (torch.save: a tuple, or a dict by name when `names` are
// given, which torch.load reads).
void write_outputs(const std::string& path, const std::vector<Tensor>& outputs, const std::vector<std::string>& names);

}  // namespace atenrt::cli
