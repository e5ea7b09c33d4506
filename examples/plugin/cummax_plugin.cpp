// An atenrt plugin with a kernel of its own: torch.cummax and torch.cummin
// (aten.cummax.default, aten.cummin.default) in one pass. atenrt converts
// them too, as a log-step scan of its own layers; this plugin registers a
// kernel for a new layer kind, "example::cumulative_extreme", and High
// priority converters that add layers of it in place of the built-in ones
// (docs/plugins.md, "Plugin layers").
//
// Engine files compiled with it hold the layer's kernel name, version and
// attributes; loading one needs this plugin loaded too (--plugin,
// ATENRT_PLUGINS, atenrt.load_plugin).
#include <atenrt/extension.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using atenrt::Capability;
using atenrt::DType;
using atenrt::NetTensor;
using atenrt::PluginAttributes;
using atenrt::TensorInfo;

constexpr const char* kKernel = "example::cumulative_extreme";
constexpr std::int64_t kVersion = 1;

// The attributes as the kernel reads them: an engine file is untrusted, so
// every value is checked here, in infer, before execute ever runs.
struct Attributes {
  std::int64_t dim = 0;  // normalized to [0, rank)
  bool largest = true;   // cummax; false: cummin
};

Attributes read_attributes(const PluginAttributes& a, std::int64_t rank) {
  Attributes out;
  out.dim = a.get_int("dim");
  if (out.dim < -std::max<std::int64_t>(rank, 1) || out.dim >= std::max<std::int64_t>(rank, 1)) {
    throw std::invalid_argument("dim " + std::to_string(out.dim) + " is out of range for rank " + std::to_string(rank));
  }
  if (out.dim < 0) out.dim += std::max<std::int64_t>(rank, 1);
  const std::int64_t largest = a.get_int("largest");
  if (largest != 0 && largest != 1) throw std::invalid_argument("largest must be 0 or 1");
  out.largest = largest == 1;
  return out;
}

// values: x's dtype and dims; indices: int64, the same dims.
std::vector<TensorInfo> infer(const std::vector<TensorInfo>& inputs, const PluginAttributes& attributes) {
  if (inputs.size() != 1) throw std::invalid_argument("takes one input, got " + std::to_string(inputs.size()));
  read_attributes(attributes, inputs[0].rank());
  return {{inputs[0].dtype, inputs[0].dims}, {DType::Int64, inputs[0].dims}};
}

// As ATen's cummax/cummin: along `dim`, the running extreme and the index
// where it was last reached (ties take the later index); a NaN becomes the
// extreme and stays it (later NaNs move the index).
void execute(const atenrt::KernelLaunch& launch) {
  const auto& x = launch.inputs[0];
  const Attributes a = read_attributes(launch.attributes, static_cast<std::int64_t>(x.dims.size()));
  std::int64_t outer = 1, len = 1, inner = 1;
  for (std::size_t d = 0; d < x.dims.size(); ++d) {
    const auto i = static_cast<std::int64_t>(d);
    if (i < a.dim) outer *= x.dims[d];
    if (i == a.dim) len = x.dims[d];
    if (i > a.dim) inner *= x.dims[d];
  }
  const float* in = x.data_as<float>();
  float* values = launch.outputs[0].data_as<float>();
  std::int64_t* indices = launch.outputs[1].data_as<std::int64_t>();
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::int64_t k = 0; k < inner; ++k) {
      const std::int64_t base = o * len * inner + k;
      float best = len > 0 ? in[base] : 0.0f;
      std::int64_t at = 0;
      for (std::int64_t i = 0; i < len; ++i) {
        const float v = in[base + i * inner];
        const bool better = a.largest ? v >= best : v <= best;
        if (std::isnan(v) || (!std::isnan(best) && better)) {
          best = v;
          at = i;
        }
        values[base + i * inner] = best;
        indices[base + i * inner] = at;
      }
    }
  }
}

// Limits in the validator: a refused node goes to the fallback, or the
// dry-run report says why.
Capability float32_input(const atenrt::NodeInfo& node) {
  const auto self = node.arg_info("self");
  if (!self || self->dtype != DType::Float32) return Capability::no("only float32 input is converted");
  if (!node.literal_int("dim")) return Capability::no("dim must be a number written in the graph");
  return Capability::yes();
}

std::vector<NetTensor*> convert(atenrt::ConverterContext& ctx, bool largest) {
  const PluginAttributes attributes{{"dim", ctx.int_arg("dim")}, {"largest", std::int64_t{largest ? 1 : 0}}};
  // Two outputs, (values, indices), as the node has.
  return ctx.plugin_layer(kKernel, kVersion, {ctx.tensor("self")}, attributes);
}

void register_plugin(atenrt::PluginRegistry& registry) {
  registry.add_kernel({.name = kKernel, .version = kVersion, .infer = infer, .execute = execute,
                       .dtypes = {DType::Float32}});
  registry.add_converter({.keys = {"aten.cummax.default"},
                          .convert = [](atenrt::ConverterContext& ctx) { return convert(ctx, true); },
                          .validator = float32_input,
                          .priority = atenrt::ConverterPriority::High});
  registry.add_converter({.keys = {"aten.cummin.default"},
                          .convert = [](atenrt::ConverterContext& ctx) { return convert(ctx, false); },
                          .validator = float32_input,
                          .priority = atenrt::ConverterPriority::High});
}

}  // namespace

ATENRT_PLUGIN("cummax_example", register_plugin)
