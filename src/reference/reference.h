// Reference executor: plain, obviously-correct kernels for every layer kind,
// with PyTorch semantics. It is the oracle the optimized CPU kernels and the
// builder's rewrites are tested against; speed is not a goal.
//
// Dtypes: floating kinds compute in double and round once to the output
// dtype (float32, float16, bfloat16, float64); integer kinds compute in
// int64; data-movement kinds copy elements of any dtype.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "atenrt/tensor.h"
#include "network/network.h"

namespace atenrt::reference {

using TensorMap = std::map<std::string, Tensor>;

// Runs the network on `inputs` (by input tensor name; dtype and rank must
// match, static dims must match, dynamic dims take the given size) and returns
// every output by name, contiguous. Throws InputError on bad inputs or
// out-of-range indices, LayerError if a layer cannot run with these shapes.
TensorMap run(const network::Network& net, const TensorMap& inputs);

// Runs one layer's kernel on concrete input tensors (any strides).
std::vector<Tensor> run_layer(const network::Layer& layer, const std::vector<Tensor>& inputs);
// Same, from params only (layer_name is used in messages).
std::vector<Tensor> run_kernel(const std::string& layer_name, const network::LayerParams& params,
                               const std::vector<Tensor>& inputs);

}  // namespace atenrt::reference
