// Linear-algebra layers on LAPACK: the reference computation
// (reference/linalg.h), sized when the kernel is made, with its column-major
// copies and LAPACK workspace in the context's scratch, so a run allocates
// nothing.
#include "reference/linalg.h"
#include "runtime/cpu/own/util.h"

namespace atenrt::runtime::cpu::own {

std::unique_ptr<Kernel> make_linalg_kernel(const KernelRequest& r) {
  const auto& p = std::get<network::LinalgParams>(r.step->params);
  std::vector<network::TensorDesc> ins, outs;
  for (const auto& in : r.inputs) ins.push_back({in.tensor->dtype, in.tensor->dims});
  for (const auto* out : r.outputs) outs.push_back({out->dtype, out->dims});
  const std::string name = r.step->name;
  const std::size_t bytes = reference::linalg::scratch_bytes(name, p, ins, outs);
  return fn_kernel(
      [=](const KernelArgs& a) {
        reference::linalg::run(name, p, ins, outs, a.inputs.first(ins.size()), a.outputs, a.scratch, bytes);
      },
      bytes);
}

}  // namespace atenrt::runtime::cpu::own
