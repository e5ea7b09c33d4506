// Post-op mapping: a step's fused activations and adds as oneDNN post-ops,
// and activations as eltwise chains.
//
// NaN: PyTorch semantics win. oneDNN 2.6's relu (alpha 0) and clip are max/min
// instructions that drop NaN, so relu runs as an exact NaN-keeping chain
// (relu_chain) and clip, hardsigmoid and softplus (no 2.6 form) run as our own
// pass after the primitive (the "tail"); nothing oneDNN applies may follow a
// tail activation (CpuBackend tells the builder so).
#pragma once

#include <optional>
#include <vector>

#include "runtime/cpu/onednn/primitive_kernel.h"

namespace atenrt::runtime::cpu::onednn {

struct Elt {
  dnnl::algorithm alg;
  float alpha = 0.f;
  float beta = 0.f;
};

// Whether oneDNN's eltwise form of this activation matches PyTorch, NaN and
// ±inf included (relu with slope 0, clip and hardsigmoid do not; softplus has
// no form), and is the one to use: false also where our own pass is faster
// (gelu-tanh).
bool activation_matches_torch(const network::ActivationParams& p);

// The eltwise chain of an activation; null for activations oneDNN has not,
// or gets wrong on NaN.
std::optional<std::vector<Elt>> eltwise_chain(const network::ActivationParams& p);

// Post-ops of a conv/deconv/matmul step.
struct PostOps {
  dnnl::post_ops ops;
  std::vector<network::ActivationParams> tail;  // ours, after the primitive
  int sum_input = -1;                           // step input copied into dst first
  std::vector<std::pair<int, int>> binary;      // (post-op index, step input)
  std::vector<md_t> binary_md;
  bool drops_nan = false;  // a for_finite_inputs form: holds a max/min relu or clip
};
// `dst_dims`: the primitive's dst dims. Null when the list has no oneDNN form.
// `for_finite_inputs`: relu and clip as oneDNN's own relu and clip_v2, which
// are max/min instructions that turn NaN into a number but are exact for
// every other value (±inf included), cheaper than the NaN-keeping relu chain
// and fused where clip is otherwise our own pass: for a primitive that runs
// only when its inputs hold no NaN or ±inf (PrimitiveKernel's when_finite).
// `sum_scale`: what the residual in dst is multiplied by (a quantized
// residual's scale; 1 for float32); `sum_type`: the type the sum reads it
// as, where it differs from dst's (an int8 residual of a uint8 result).
// `residual_as_binary`: no sum, a full-size Add is a binary post-op reading
// the operand in its own layout and type (a float32 residual of a quantized
// result).
std::optional<PostOps> make_post_ops(const KernelRequest& r, const Dims& dst_dims, bool for_finite_inputs = false,
                                     float sum_scale = 1.0f, bool residual_as_binary = false,
                                     dt sum_type = dt::undef);

// Whether act(0) == 0 for the whole tail: only then may it run over a blocked
// buffer, whose padding must stay zero.
bool tail_keeps_zero(const PostOps& post);
// The tail activations, in place over every element of `slot` (a final).
void add_tail(PrimitiveKernel& k, const PostOps& post, int slot);
// Binary post-op operands and the residual copy into dst (before the call).
// Returns the step input whose buffer the output may take (KernelChoice::
// in_place_input): the residual when `dst_slot` is the step's output in the
// residual's layout; -1 otherwise.
int bind_post_ops(PrimitiveKernel& k, const KernelRequest& r, const PostOps& post, int dst_slot, Args& args);

}  // namespace atenrt::runtime::cpu::onednn
