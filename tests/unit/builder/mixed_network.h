// A small network touching oneDNN, own and reference kernels (engine files,
// input checks).
#pragma once

#include "support/engine_check.h"

namespace atenrt::testing {

// A network touching oneDNN, own and reference kernels, for engine files.
inline network::Network mixed() {
  using namespace network;
  Network n;
  auto* x = n.add_input("x", DType::Float32, {1, 8, 6, 6});
  auto* idx = n.add_input("idx", DType::Int64, {3});
  auto* c = n.add_activation("relu", n.add_convolution("conv", x, n.add_constant("w", random_tensor(DType::Float32, {8, 8, 3, 3}, 3)),
                                                        nullptr, ConvolutionParams{{1, 1}, {1, 1}, {1, 1}, {1, 1}, 1}),
                             ActivationOp::Relu);
  auto* flat = n.add_reshape("flat", c, {8, 36});
  auto* g = n.add_gather("g", flat, n.add_unary("absidx", idx, UnaryOp::Abs), GatherMode::Axis, 0);
  auto* cs = n.add_cumulative("cs", g, CumulativeOp::Sum, 1);
  auto* tk = n.add_topk("tk", cs, 4, -1, true);
  n.mark_output(tk->output(0));
  n.mark_output(tk->output(1));
  n.mark_output(n.add_softmax("sm", n.add_slice("sl", cs, {1}, {0}, {36}, {5}), -1));
  return n;
}

inline reference::TensorMap mixed_inputs() {
  reference::TensorMap in;
  in["x"] = random_tensor(DType::Float32, {1, 8, 6, 6}, 1);
  Tensor idx(DType::Int64, {3});
  idx.mutable_data<std::int64_t>()[0] = 7;
  idx.mutable_data<std::int64_t>()[1] = -2;
  idx.mutable_data<std::int64_t>()[2] = 0;
  in["idx"] = idx;
  return in;
}
}  // namespace atenrt::testing
