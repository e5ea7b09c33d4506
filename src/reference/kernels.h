// Internal: one reference kernel per layer kind (defined in the family
// files); overload resolution in reference.cpp makes a missing kind a
// compile error. Inputs are checked by shape inference before the call and
// ctx.outputs holds the inferred output descs.
#pragma once

#include <vector>

#include "reference/common.h"

namespace atenrt::reference::detail {

using namespace atenrt::network;  // NOLINT: params structs only, internal header
using Outs = std::vector<Tensor>;

Outs kernel(const KernelContext& ctx, const ActivationParams& p);
Outs kernel(const KernelContext& ctx, const ElementwiseParams& p);
Outs kernel(const KernelContext& ctx, const UnaryParams& p);
Outs kernel(const KernelContext& ctx, const MatMulParams& p);
Outs kernel(const KernelContext& ctx, const ConvolutionParams& p);
Outs kernel(const KernelContext& ctx, const DeconvolutionParams& p);
Outs kernel(const KernelContext& ctx, const PoolingParams& p);
Outs kernel(const KernelContext& ctx, const SoftmaxParams& p);
Outs kernel(const KernelContext& ctx, const NormalizationParams& p);
Outs kernel(const KernelContext& ctx, const ReduceParams& p);
Outs kernel(const KernelContext& ctx, const ShuffleParams& p);
Outs kernel(const KernelContext& ctx, const SliceParams& p);
Outs kernel(const KernelContext& ctx, const ConcatenationParams& p);
Outs kernel(const KernelContext& ctx, const GatherParams& p);
Outs kernel(const KernelContext& ctx, const ScatterParams& p);
Outs kernel(const KernelContext& ctx, const SelectParams& p);
Outs kernel(const KernelContext& ctx, const ConstantParams& p);
Outs kernel(const KernelContext& ctx, const CastParams& p);
Outs kernel(const KernelContext& ctx, const PaddingParams& p);
Outs kernel(const KernelContext& ctx, const ResizeParams& p);
Outs kernel(const KernelContext& ctx, const TopKParams& p);
Outs kernel(const KernelContext& ctx, const CumulativeParams& p);
Outs kernel(const KernelContext& ctx, const ShapeParams& p);
Outs kernel(const KernelContext& ctx, const FillParams& p);
Outs kernel(const KernelContext& ctx, const CheckParams& p);
Outs kernel(const KernelContext& ctx, const PluginParams& p);  // plugin.cpp: the plugin's own kernel
Outs kernel(const KernelContext& ctx, const LinalgParams& p);  // linalg_kernel.cpp: LAPACK
Outs kernel(const KernelContext& ctx, const DataDependentParams& p);  // data_dependent.cpp

// Element-by-element copy of a permuted view into a new contiguous tensor
// (any dtype). perm as torch.permute.
Tensor permute_copy(const Tensor& x, const Dims& perm);

}  // namespace atenrt::reference::detail
