// The finite-input form of a convolution or matmul (Call::when_finite): the
// same primitive with its fused relu or clip as oneDNN's own max/min post-op,
// run whenever the values it reads hold no NaN or ±inf. oneDNN's relu and
// clip turn NaN into a number, so the exact form (the NaN-keeping relu chain,
// which computes an exp per element, or clip as our own pass over the
// output) runs otherwise; on finite values both give the same results.
#pragma once

#include <optional>
#include <vector>

#include "runtime/cpu/onednn/post_ops.h"

namespace atenrt::runtime::cpu::onednn {

// The form's post-ops, when the step has a relu or clip it makes cheaper and
// they use the same call arguments as `exact` (binary operands at the same
// post-op positions, no activation of ours after the primitive).
std::optional<PostOps> finite_form_post_ops(const KernelRequest& r, const Dims& dst_dims, const PostOps& exact);

// What the form's output holds whatever the primitive computed (ValueFlags,
// KernelArgs::outputs_finite), from its last post-op: a clip to finite
// bounds, kFinite (and so kNoNanNoMinusInf); a relu or a clip with a finite
// lower bound, kNoNanNoMinusInf (oneDNN's max(x, lo) turns NaN into lo; an
// overflow to +inf may remain); otherwise nothing.
std::uint8_t vouched_flags(const PostOps& form);

// Whether `form` (made from the exact primitive's layouts) may stand in for
// `exact`: made, the same layouts, not oneDNN's reference kernel.
bool finite_form_usable(const compat::Primitive& exact, const compat::Primitive& form);

// The slots the form reads whose values come at run time, to be checked each
// run: every argument of `args` but the destination, and the destination too
// when the exact post-ops sum into it (the residual is copied there first).
// Null when a value known now (a constant weight, bias or operand) is not
// finite: the exact form would run every time.
std::optional<std::vector<int>> finite_form_checks(const PrimitiveKernel& k, const KernelRequest& r,
                                                   const Args& args, const PostOps& exact, int dst_slot);

}  // namespace atenrt::runtime::cpu::onednn
