#include "runtime/cpu/onednn/finite_form.h"

#include <cmath>

#include "runtime/cpu/own/finite.h"

namespace atenrt::runtime::cpu::onednn {
namespace {

// Whether a float32 or bf16 slot the kernel holds at build time (a
// pre-packed constant, or a step input that is a program constant) is all
// finite; nullopt when its values come only at run time.
std::optional<bool> finite_at_build(const PrimitiveKernel& k, const KernelRequest& r, int slot) {
  const Slot& s = k.slots[slot];
  const bool bf16 = s.md.data_type() == dt::bf16;
  if (s.md.data_type() != dt::f32 && !bf16) return false;  // float32 and bf16 forms only
  if (s.source == Slot::Source::Constant) return all_finite(s.md, s.constant.get_data_handle());
  // A float32 constant read as bf16 may round past bf16's range to inf: checked each run.
  if (s.source == Slot::Source::Input && !bf16) {
    const Tensor& v = r.inputs[s.index].tensor->value;
    if (v.defined()) return own::all_finite(v.data<float>(), v.numel());
  }
  return std::nullopt;
}

}  // namespace

std::optional<PostOps> finite_form_post_ops(const KernelRequest& r, const Dims& dst_dims, const PostOps& exact) {
  if (r.step->precision == Precision::Int8) return std::nullopt;
  auto form = make_post_ops(r, dst_dims, /*for_finite_inputs=*/true);
  if (!form || !form->drops_nan || !form->tail.empty() || form->binary != exact.binary ||
      form->sum_input != exact.sum_input) {
    return std::nullopt;
  }
  return form;
}

std::uint8_t vouched_flags(const PostOps& form) {
  const int n = form.ops.len();
  if (n == 0 || form.ops.kind(n - 1) != dnnl::primitive::kind::eltwise) return 0;
  const auto e = compat::eltwise_params(form.ops, n - 1);
  const bool clip = e.alg == dnnl::algorithm::eltwise_clip || e.alg == dnnl::algorithm::eltwise_clip_v2;
  if (clip && std::isfinite(e.alpha) && std::isfinite(e.beta)) return kFinite | kNoNanNoMinusInf;
  const bool relu = e.alg == dnnl::algorithm::eltwise_relu && e.alpha == 0.f;
  return (relu || (clip && std::isfinite(e.alpha))) ? kNoNanNoMinusInf : 0;
}

bool finite_form_usable(const compat::Primitive& exact, const compat::Primitive& form) {
  return form.ok && form.src == exact.src && form.weights == exact.weights && form.dst == exact.dst &&
         form.impl.find("ref") == std::string::npos;
}

std::optional<std::vector<int>> finite_form_checks(const PrimitiveKernel& k, const KernelRequest& r,
                                                   const Args& args, const PostOps& exact, int dst_slot) {
  std::vector<int> checks;
  for (const auto& [arg, slot] : args) {
    if (arg == DNNL_ARG_DST) continue;
    const auto known = finite_at_build(k, r, slot);
    if (known == false) return std::nullopt;
    if (!known) checks.push_back(slot);
  }
  if (exact.sum_input >= 0) checks.push_back(dst_slot);
  return checks;
}

}  // namespace atenrt::runtime::cpu::onednn
