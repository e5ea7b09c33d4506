// Plugin layers: the plugin's own kernel, called on the step's plain buffers
// (the provider reads and writes plain layouts only).
#include <string>

#include "atenrt/errors.h"
#include "network/plugin_kernels.h"
#include "runtime/cpu/providers.h"

namespace atenrt::runtime::cpu {

namespace {

class PluginStepKernel final : public Kernel {
 public:
  PluginStepKernel(const KernelRequest& r, const network::PluginKernel& kernel)
      : step_name_(r.step->name), params_(std::get<network::PluginParams>(r.step->params)), kernel_(kernel) {
    for (std::size_t i = 0; i < r.step->layer_input_count(); ++i) {
      const auto* t = r.inputs[i].tensor;
      inputs_.push_back({t->dtype, t->dims});
    }
    for (const auto* t : r.outputs) outputs_.push_back({t->dtype, t->dims});
    label_ = "step '" + step_name_ + "' (Plugin): " + network::kernel_label(params_.kernel, params_.version) +
             " (plugin '" + kernel_.plugin + "')";
    if (kernel_.spec.scratch_bytes) {
      try {
        scratch_ = kernel_.spec.scratch_bytes(inputs_, outputs_, params_.attributes);
      } catch (const std::exception& e) {
        throw UnsupportedError(label_ + ": scratch_bytes failed: " + e.what());
      }
    }
  }

  // The views handed to execute, made once per context: a run only sets their data pointers.
  struct State final : KernelState {
    std::vector<ConstTensorView> inputs;
    std::vector<MutableTensorView> outputs;
  };
  std::unique_ptr<KernelState> make_state() const override {
    auto s = std::make_unique<State>();
    for (const auto& t : inputs_) s->inputs.push_back({t.dtype, t.dims, nullptr});
    for (const auto& t : outputs_) s->outputs.push_back({t.dtype, t.dims, nullptr});
    return s;
  }

  void run(KernelState* state, const KernelArgs& a) const override {
    auto* s = static_cast<State*>(state);
    for (std::size_t i = 0; i < s->inputs.size(); ++i) s->inputs[i].data = a.inputs[i];
    for (std::size_t i = 0; i < s->outputs.size(); ++i) s->outputs[i].data = a.outputs[i];
    try {
      kernel_.spec.execute(KernelLaunch{s->inputs, s->outputs, params_.attributes, a.scratch, scratch_});
    } catch (const std::exception& e) {
      throw UnsupportedError(label_ + " failed: " + e.what());
    } catch (...) {
      throw UnsupportedError(label_ + " failed with something that is not a std::exception");
    }
  }
  std::size_t scratch_bytes() const override { return scratch_; }
  std::string implementation() const override { return "plugin:" + kernel_.plugin; }

 private:
  std::string step_name_;
  network::PluginParams params_;
  const network::PluginKernel& kernel_;
  std::vector<TensorInfo> inputs_;
  std::vector<TensorInfo> outputs_;
  std::string label_;
  std::size_t scratch_ = 0;
};

}  // namespace

KernelChoice make_plugin_kernel(const KernelRequest& r) {
  const auto& p = std::get<network::PluginParams>(r.step->params);
  const network::PluginKernel* kernel = network::find_plugin_kernel(p.kernel, p.version);
  if (!kernel) throw UnsupportedError("step '" + r.step->name + "' (Plugin): " + network::missing_kernel_message(p));
  KernelChoice c;
  if (!r.step->post_ops.empty()) return c;  // never fused; the reference kernel applies them if a file has some
  c.kernel = std::make_unique<PluginStepKernel>(r, *kernel);
  c.output_layouts.resize(r.outputs.size());
  return c;
}

}  // namespace atenrt::runtime::cpu
