// The CPU backend's answers to the builder: what oneDNN's post-ops (and our
// own pass after them) apply with PyTorch's results.
#include "runtime/backend.h"

#include "runtime/cpu/isa.h"
#include "runtime/cpu/onednn/post_ops.h"

namespace atenrt::runtime::cpu {
namespace {

// An activation oneDNN gets wrong on NaN runs as our own pass after the
// primitive (onednn/post_ops.h): nothing oneDNN applies may follow it.
bool has_own_tail(const Step& s) {
  for (const auto& op : s.post_ops) {
    if (op.kind == PostOpKind::Activation && !onednn::activation_matches_torch(op.activation)) return true;
  }
  return false;
}

class CpuBackend final : public Backend {
 public:
  std::string_view name() const override { return "cpu"; }

  bool takes_post_ops(const Program& program, const Step& step) const override {
    const auto k = step.kind();
    const bool primitive = k == network::LayerKind::Convolution || k == network::LayerKind::Deconvolution ||
                           k == network::LayerKind::MatMul || step.is_batch_norm();
    return primitive && step.outputs.size() == 1 && program.tensors[step.outputs[0]].dtype == DType::Float32;
  }

  bool can_append_post_op(const Program& program, const Step& step, const PostOp& op,
                          int operand_tensor) const override {
    if (!takes_post_ops(program, step)) return false;
    if (op.kind == PostOpKind::Activation) return true;  // oneDNN's form, or our pass after it
    if (step.is_batch_norm()) return false;  // own::make_batch_norm applies activations only
    if (has_own_tail(step)) return false;
    if (program.tensors[operand_tensor].dtype != DType::Float32) return false;
    // MatMul post-ops need oneDNN's dst dims: rank >= 2 operands.
    if (step.kind() == network::LayerKind::MatMul) {
      for (int in : {step.inputs[0], step.inputs[1]}) {
        if (program.tensors[in].dims.size() < 2) return false;
      }
    }
    return true;
  }

  std::string precision_unavailable(Precision precision) const override {
    return cpu::precision_unavailable(precision);
  }

  Int8Exactness int8_exactness() const override { return cpu::int8_exactness(); }
};

}  // namespace
}  // namespace atenrt::runtime::cpu

namespace atenrt::runtime {

const Backend& cpu_backend() {
  static const cpu::CpuBackend backend;
  return backend;
}

}  // namespace atenrt::runtime
