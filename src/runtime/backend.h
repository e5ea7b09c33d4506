// What the builder may ask of the backend that will run a Program, so that
// its rewrites stay within what that backend's kernels do exactly (PyTorch
// semantics, NaN included). The builder sees only this interface; the CPU
// backend (cpu/backend.cpp) answers from its kernel providers, and another
// backend (CUDA) plugs in by implementing it.
#pragma once

#include <string>
#include <string_view>

#include "runtime/program.h"
#include "runtime/quantization.h"

namespace atenrt::runtime {

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;
  // Whether `step` (its layer and the post-ops it already has) can take
  // fused post-ops at all: the kinds and output dtypes whose kernels apply them.
  virtual bool takes_post_ops(const Program& program, const Step& step) const = 0;
  // Whether `op` may be appended to `step`'s post-ops. For an Add,
  // `operand_tensor` is the tensor added to the step's output (same or
  // broadcastable dims, checked by the builder); -1 otherwise.
  virtual bool can_append_post_op(const Program& program, const Step& step, const PostOp& op,
                                  int operand_tensor) const = 0;
  // Why this machine has no fast kernels for `precision` (empty when it has):
  // precisions in the settings are the ones the builder may use, so it keeps
  // such layers in fp32 (as TensorRT's enabled precisions) and says why.
  virtual std::string precision_unavailable(Precision precision) const = 0;
  // Which int8 steps this backend computes exactly (quantization.h); the
  // builder quantizes within it.
  virtual Int8Exactness int8_exactness() const { return {}; }
};

// The CPU backend (oneDNN, our own kernels, the reference executor).
const Backend& cpu_backend();

}  // namespace atenrt::runtime
