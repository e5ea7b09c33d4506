// A plugin kernel registered in this process, as a loaded plugin's would be:
// unit::affine v1, y = a*x + b (float32, any dims) and the flat index of x's
// largest element (int64 scalar). It computes a*x into its scratch first, so
// that the scratch an engine hands out is used. For the plugin-layer tests
// and the engine-file fuzzer (whose seed tests/fuzz/engine_corpus/plugin_layer.atrt
// holds one such layer).
#pragma once

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "network/plugin_kernels.h"

namespace atenrt::testing {

inline void register_affine_kernel() {
  if (network::find_plugin_kernel("unit::affine", 1)) return;
  KernelSpec spec;
  spec.name = "unit::affine";
  spec.infer = [](const std::vector<TensorInfo>& in, const PluginAttributes& attrs) {
    if (in.size() != 1) throw std::invalid_argument("takes one input");
    attrs.get_float("a");
    attrs.get_float("b");
    return std::vector<TensorInfo>{{DType::Float32, in[0].dims}, {DType::Int64, {}}};
  };
  spec.scratch_bytes = [](const std::vector<TensorInfo>& in, const std::vector<TensorInfo>&, const PluginAttributes&) {
    std::size_t n = 1;
    for (auto d : in[0].dims) n *= static_cast<std::size_t>(d);
    return n * sizeof(float);
  };
  spec.execute = [](const KernelLaunch& l) {
    const float a = static_cast<float>(l.attributes.get_float("a"));
    const float b = static_cast<float>(l.attributes.get_float("b"));
    const float* x = l.inputs[0].data_as<float>();
    const std::int64_t n = l.inputs[0].numel();
    if (l.scratch_bytes < static_cast<std::size_t>(n) * sizeof(float)) throw std::runtime_error("no scratch");
    auto* ax = static_cast<float*>(l.scratch);
    for (std::int64_t i = 0; i < n; ++i) ax[i] = a * x[i];
    float* y = l.outputs[0].data_as<float>();
    for (std::int64_t i = 0; i < n; ++i) y[i] = ax[i] + b;
    *l.outputs[1].data_as<std::int64_t>() = n ? std::max_element(x, x + n) - x : 0;
  };
  spec.dtypes = {DType::Float32};
  if (auto problem = network::plugin_kernel_problem(spec); !problem.empty()) throw std::logic_error(problem);
  network::add_plugin_kernel({spec, "unit", "affine_plugin_kernel.h"});
}

}  // namespace atenrt::testing
