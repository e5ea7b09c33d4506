// The reference executor behind the kernel interface: the last resort for a
// step no optimized kernel takes (it allocates its results on every run).
#include <cstring>

#include "runtime/cpu/providers.h"
#include "reference/reference.h"
#include "runtime/quantization.h"

namespace atenrt::runtime::cpu {

namespace {

// Runs the layer through reference::run_kernel (which allocates its results)
// and then the step's post-ops; inputs are staged in tensors made per context.
class ReferenceKernel final : public Kernel {
 public:
  explicit ReferenceKernel(const KernelRequest& r) : step_(*r.step) {
    for (const auto& in : r.inputs) inputs_.push_back({in.tensor->dtype, in.tensor->dims});
    for (const auto* out : r.outputs) output_bytes_.push_back(tensor_bytes(*out));
  }

  struct State final : KernelState {
    std::vector<Tensor> inputs;
  };

  std::unique_ptr<KernelState> make_state() const override {
    auto s = std::make_unique<State>();
    for (const auto& [dtype, dims] : inputs_) s->inputs.emplace_back(dtype, dims);
    return s;
  }

  void run(KernelState* state, const KernelArgs& a) const override {
    auto* s = static_cast<State*>(state);
    for (std::size_t i = 0; i < s->inputs.size(); ++i) {
      if (s->inputs[i].nbytes()) std::memcpy(s->inputs[i].raw_mutable_data(), a.inputs[i], s->inputs[i].nbytes());
    }
    const std::size_t n = step_.layer_input_count();
    std::vector<Tensor> layer_inputs(s->inputs.begin(), s->inputs.begin() + static_cast<std::ptrdiff_t>(n));
    if (step_.precision == Precision::Int8) {  // the int8 step's math in float32 (quantization.h)
      layer_inputs[0] = fake_quantize_input(layer_inputs[0], step_.quant);
      layer_inputs[1] = dequantize_weight(layer_inputs[1], step_.quant.weight_scales, weight_channel_dim(step_));
    }
    auto outs = reference::run_kernel(step_.name, step_.params, layer_inputs);
    for (const auto& op : step_.post_ops) {
      if (op.kind == PostOpKind::Activation) {
        outs[0] = reference::run_kernel(step_.name, op.activation, {outs[0]})[0];
      } else {
        outs[0] = reference::run_kernel(step_.name, network::ElementwiseParams{network::ElementwiseOp::Add},
                                        {outs[0], s->inputs[op.operand]})[0];
      }
    }
    for (std::size_t i = 0; i < outs.size(); ++i) {
      const Tensor c = outs[i].contiguous();
      if (output_bytes_[i]) std::memcpy(a.outputs[i], c.raw_data(), output_bytes_[i]);
    }
  }

  std::string implementation() const override { return "reference"; }

 private:
  Step step_;
  std::vector<std::pair<DType, Dims>> inputs_;
  std::vector<std::size_t> output_bytes_;
};

}  // namespace

KernelChoice make_reference_kernel(const KernelRequest& r) {
  KernelChoice c;
  c.kernel = std::make_unique<ReferenceKernel>(r);
  c.output_layouts.resize(r.outputs.size());
  return c;
}

}  // namespace atenrt::runtime::cpu
