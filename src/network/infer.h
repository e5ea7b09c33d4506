// Internal: the shape-inference context and one infer function per kind
// (defined in the family files). Overload resolution in shape_inference.cpp
// makes a missing kind a compile error.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "network/network.h"

namespace atenrt::network::detail {

struct InferContext {
  std::string_view layer_name;
  LayerKind kind;
  std::span<const TensorDesc> inputs;
  std::span<const Tensor* const> values;

  // Throws LayerError "layer '<name>' (<Kind>): <message>".
  [[noreturn]] void fail(const std::string& message) const;
  void expect_inputs(std::size_t min, std::size_t max) const;
  const TensorDesc& in(std::size_t i) const { return inputs[i]; }
  const Tensor* value(std::size_t i) const { return i < values.size() ? values[i] : nullptr; }
  // axis in [-rank, rank) → [0, rank); `what` names the parameter in messages.
  std::int64_t axis(std::int64_t axis, std::int64_t rank, const char* what) const;
  void expect_floating(std::size_t i, const char* why) const;
  // A size computed in 128 bits (parameters come from untrusted files, so
  // int64 products and sums may wrap) back to int64; fails naming `what`.
  std::int64_t fit(__int128 v, const char* what) const;
};

// "layer 'x' (Kind): " prefix, shared with the reference executor.
std::string layer_prefix(std::string_view layer_name, LayerKind kind);
std::string dims_to_string(const Dims& dims);

using Descs = std::vector<TensorDesc>;
Descs infer(const InferContext& ctx, const ActivationParams& p);
Descs infer(const InferContext& ctx, const ElementwiseParams& p);
Descs infer(const InferContext& ctx, const UnaryParams& p);
Descs infer(const InferContext& ctx, const MatMulParams& p);
Descs infer(const InferContext& ctx, const ConvolutionParams& p);
Descs infer(const InferContext& ctx, const DeconvolutionParams& p);
Descs infer(const InferContext& ctx, const PoolingParams& p);
Descs infer(const InferContext& ctx, const SoftmaxParams& p);
Descs infer(const InferContext& ctx, const NormalizationParams& p);
Descs infer(const InferContext& ctx, const ReduceParams& p);
Descs infer(const InferContext& ctx, const ShuffleParams& p);
Descs infer(const InferContext& ctx, const SliceParams& p);
Descs infer(const InferContext& ctx, const ConcatenationParams& p);
Descs infer(const InferContext& ctx, const GatherParams& p);
Descs infer(const InferContext& ctx, const ScatterParams& p);
Descs infer(const InferContext& ctx, const SelectParams& p);
Descs infer(const InferContext& ctx, const ConstantParams& p);
Descs infer(const InferContext& ctx, const CastParams& p);
Descs infer(const InferContext& ctx, const PaddingParams& p);
Descs infer(const InferContext& ctx, const ResizeParams& p);
Descs infer(const InferContext& ctx, const TopKParams& p);
Descs infer(const InferContext& ctx, const CumulativeParams& p);
Descs infer(const InferContext& ctx, const ShapeParams& p);
Descs infer(const InferContext& ctx, const FillParams& p);
Descs infer(const InferContext& ctx, const CheckParams& p);
Descs infer(const InferContext& ctx, const PluginParams& p);  // plugin_kernels.cpp
Descs infer(const InferContext& ctx, const LinalgParams& p);  // linalg.cpp
Descs infer(const InferContext& ctx, const DataDependentParams& p);  // data_dependent.cpp

// Helpers shared by families.
// Output size of a sliding window (conv/pool); -1 if in is -1.
std::int64_t window_output(const InferContext& ctx, std::int64_t in, std::int64_t kernel,
                           std::int64_t stride, std::int64_t pad_pre, std::int64_t pad_post,
                           std::int64_t dilation, bool ceil_mode);
// Dims of reshape target with one -1 resolved from `numel` (numel < 0: unknown).
Dims resolve_reshape(const InferContext& ctx, const Dims& target, std::int64_t numel);

}  // namespace atenrt::network::detail
