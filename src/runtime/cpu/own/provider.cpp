// Our own kernels as a provider: the refusals every family shares.
#include "runtime/cpu/own/util.h"
#include "runtime/cpu/providers.h"

namespace atenrt::runtime::cpu::own {

KernelChoice call(MakeKernel make, const KernelRequest& r) {
  for (const auto& in : r.inputs) {
    if (!in.layout.is_plain()) return {};
  }
  if (!r.step->post_ops.empty()) return {};
  return make(r);
}

}  // namespace atenrt::runtime::cpu::own
