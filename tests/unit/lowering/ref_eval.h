// Test-only reference evaluator for the ATen ops lowering emits: computes in
// double over plain row-major buffers, so decomposed graphs can be checked
// against PyTorch's results before the real pipeline exists.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "atenrt/tensor.h"
#include "ir/graph.h"

namespace atenrt::lowering::testing {

struct RefTensor {
  DType dtype = DType::Float32;
  std::vector<std::int64_t> sizes;
  std::vector<double> data;  // row-major
};

RefTensor ref_from_tensor(const Tensor& t);

// Evaluates the graph: `inputs` binds user inputs by value name; weights and
// constants come from graph.weights. Returns the graph outputs in order.
// Throws std::runtime_error naming the node for an op it does not know.
std::vector<RefTensor> ref_evaluate(const ir::Graph& graph, const std::map<std::string, RefTensor>& inputs);

}  // namespace atenrt::lowering::testing
