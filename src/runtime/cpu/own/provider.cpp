// Our own kernels as one provider: the family makers, tried in turn.
#include "runtime/cpu/own/util.h"

namespace atenrt::runtime::cpu {

std::unique_ptr<Kernel> make_own_kernel(const KernelRequest& r) {
  for (const auto& in : r.inputs) {
    if (!in.layout.is_plain()) return nullptr;
  }
  if (!r.step->post_ops.empty()) return nullptr;
  if (r.step->kind() == network::LayerKind::Reduce) return own::make_reduce_kernel(r);
  if (auto k = own::make_layer_kernel(r)) return k;
  if (auto k = own::make_math_kernel(r)) return k;
  return own::make_data_kernel(r);
}

}  // namespace atenrt::runtime::cpu
