// The reference kernel of LinearAlgebra layers: the LAPACK computation of
// reference/linalg.h over contiguous copies, with scratch allocated per run.
#include <cstdlib>
#include <memory>

#include "reference/kernels.h"
#include "reference/linalg.h"

namespace atenrt::reference::detail {

Outs kernel(const KernelContext& ctx, const LinalgParams& p) {
  std::vector<Tensor> inputs;
  std::vector<TensorDesc> in_descs;
  std::vector<const void*> in_ptrs;
  for (const auto& t : ctx.inputs) inputs.push_back(t.contiguous());
  for (const auto& t : inputs) {
    in_descs.push_back({t.dtype(), t.sizes()});
    in_ptrs.push_back(t.raw_data());
  }
  Outs outs;
  std::vector<void*> out_ptrs;
  for (const auto& d : ctx.outputs) outs.emplace_back(d.dtype, d.dims);
  for (auto& t : outs) out_ptrs.push_back(t.raw_mutable_data());
  const std::size_t bytes = linalg::scratch_bytes(ctx.layer_name, p, in_descs, ctx.outputs);
  std::unique_ptr<void, decltype(&std::free)> scratch(bytes ? std::aligned_alloc(64, (bytes + 63) / 64 * 64) : nullptr,
                                                      &std::free);
  if (bytes && !scratch) ctx.fail("cannot allocate " + std::to_string(bytes) + " scratch bytes");
  linalg::run(ctx.layer_name, p, in_descs, ctx.outputs, in_ptrs, out_ptrs, scratch.get(), bytes);
  return outs;
}

}  // namespace atenrt::reference::detail
