// Plugin layers run their plugin's kernel: it is the only definition of what
// such a layer means, so the reference executor calls it too.
#include <cstdlib>
#include <memory>

#include "network/plugin_kernels.h"
#include "reference/kernels.h"

namespace atenrt::reference::detail {

Outs kernel(const KernelContext& ctx, const PluginParams& p) {
  const network::PluginKernel* k = network::find_plugin_kernel(p.kernel, p.version);
  if (!k) ctx.fail(network::missing_kernel_message(p));  // shape inference said so first
  std::vector<Tensor> inputs;
  std::vector<ConstTensorView> in_views;
  for (const auto& t : ctx.inputs) inputs.push_back(t.contiguous());
  for (const auto& t : inputs) in_views.push_back({t.dtype(), t.sizes(), t.raw_data()});
  Outs outs;
  std::vector<MutableTensorView> out_views;
  for (const auto& d : ctx.outputs) outs.emplace_back(d.dtype, d.dims);
  for (auto& t : outs) out_views.push_back({t.dtype(), t.sizes(), t.raw_mutable_data()});
  const std::string label = network::kernel_label(p.kernel, p.version) + " (plugin '" + k->plugin + "')";
  try {
    std::size_t scratch_bytes = 0;
    if (k->spec.scratch_bytes) {
      std::vector<TensorInfo> out_infos;
      for (const auto& d : ctx.outputs) out_infos.push_back({d.dtype, d.dims});
      std::vector<TensorInfo> in_infos;
      for (const auto& t : inputs) in_infos.push_back({t.dtype(), t.sizes()});
      scratch_bytes = k->spec.scratch_bytes(in_infos, out_infos, p.attributes);
    }
    // 64-byte aligned, as the runtime's scratch.
    std::unique_ptr<void, decltype(&std::free)> scratch(
        scratch_bytes ? std::aligned_alloc(64, (scratch_bytes + 63) / 64 * 64) : nullptr, &std::free);
    if (scratch_bytes && !scratch) ctx.fail(label + ": cannot allocate " + std::to_string(scratch_bytes) + " scratch bytes");
    k->spec.execute(KernelLaunch{in_views, out_views, p.attributes, scratch.get(), scratch_bytes});
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    ctx.fail(label + " failed: " + e.what());
  }
  return outs;
}

}  // namespace atenrt::reference::detail
