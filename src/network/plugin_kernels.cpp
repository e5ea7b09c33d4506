// The plugin kernel table and the Plugin layer's shape inference.
#include "network/plugin_kernels.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <mutex>

#include "network/infer.h"

namespace atenrt::network {

namespace {

struct KernelTable {
  std::mutex mutex;
  std::deque<PluginKernel> kernels;  // a deque: found pointers stay valid as it grows
};

KernelTable& table() {
  static KernelTable t;
  return t;
}

bool word(std::string_view s, std::size_t max) {
  if (s.empty() || s.size() > max) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

}  // namespace

bool valid_kernel_name(std::string_view name) {
  const auto sep = name.find("::");
  if (sep == std::string_view::npos || name.size() > 128) return false;
  return word(name.substr(0, sep), 128) && word(name.substr(sep + 2), 128);
}

bool valid_attribute_name(std::string_view name) { return word(name, 64); }

std::string kernel_label(std::string_view name, std::int64_t version) {
  return "kernel '" + std::string(name) + "' version " + std::to_string(version);
}

std::string plugin_kernel_problem(const KernelSpec& spec) {
  if (!valid_kernel_name(spec.name)) {
    return "kernel name '" + spec.name + "' is not namespace::name (letters, digits and '_', at most 128 characters)";
  }
  const std::string label = kernel_label(spec.name, spec.version);
  if (spec.version < 0) return label + ": the version must not be negative";
  if (!spec.infer) return label + " has no infer function";
  if (!spec.execute) return label + " has no execute function";
  for (auto d : spec.dtypes) {
    if (static_cast<int>(d) >= kDTypeCount) return label + ": dtype " + std::to_string(static_cast<int>(d)) + " is not an atenrt::DType";
  }
  if (const auto* k = find_plugin_kernel(spec.name, spec.version)) {
    return label + " is registered already (by plugin '" + k->plugin + "', " + k->source + ")";
  }
  return {};
}

void add_plugin_kernel(PluginKernel kernel) {
  auto& t = table();
  std::lock_guard lock(t.mutex);
  t.kernels.push_back(std::move(kernel));
}

const PluginKernel* find_plugin_kernel(std::string_view name, std::int64_t version) {
  auto& t = table();
  std::lock_guard lock(t.mutex);
  for (const auto& k : t.kernels) {
    if (k.spec.name == name && k.spec.version == version) return &k;
  }
  return nullptr;
}

std::string missing_kernel_message(const PluginParams& p) {
  return "needs plugin '" + p.plugin + "' (" + kernel_label(p.kernel, p.version) +
         "), which no loaded plugin registers: load the plugin that provides it (atenrt --plugin libX.so, "
         "ATENRT_PLUGINS=libX.so, atenrt::load_plugin or atenrt.load_plugin) before loading or compiling";
}

std::string plugin_params_problem(const PluginParams& p) {
  if (!valid_kernel_name(p.kernel)) return "plugin kernel name '" + p.kernel + "' is not namespace::name";
  if (p.version < 0) return "plugin kernel version " + std::to_string(p.version) + " is negative";
  // A plugin's name: 1 to 64 printable characters without spaces (as conversion/plugins.cpp checks).
  const bool printable = std::all_of(p.plugin.begin(), p.plugin.end(), [](char c) { return c > ' ' && c <= '~'; });
  if (p.plugin.empty() || p.plugin.size() > 64 || !printable) return "the layer's plugin name is not a plugin name";
  for (const auto& [name, value] : p.attributes.items()) {
    if (!valid_attribute_name(name)) return "attribute name '" + name + "' is not 1 to 64 letters, digits and '_'";
  }
  return {};
}

std::vector<TensorInfo> tensor_infos(std::span<const TensorDesc> descs) {
  std::vector<TensorInfo> out;
  for (const auto& d : descs) out.push_back({d.dtype, d.dims});
  return out;
}

namespace detail {

Descs infer(const InferContext& ctx, const PluginParams& p) {
  if (auto problem = plugin_params_problem(p); !problem.empty()) ctx.fail(problem);
  const PluginKernel* k = find_plugin_kernel(p.kernel, p.version);
  if (!k) ctx.fail(missing_kernel_message(p));
  const std::string label = kernel_label(p.kernel, p.version) + " (plugin '" + k->plugin + "')";
  bool static_inputs = true;
  for (std::size_t i = 0; i < ctx.inputs.size(); ++i) {
    const auto& in = ctx.in(i);
    const auto& ok = k->spec.dtypes;
    if (!ok.empty() && std::find(ok.begin(), ok.end(), in.dtype) == ok.end()) {
      ctx.fail(label + " does not take " + std::string(dtype_name(in.dtype)) + " (input " + std::to_string(i) + ")");
    }
    for (auto d : in.dims) static_inputs = static_inputs && d >= 0;
  }
  std::vector<TensorInfo> outs;
  try {
    outs = k->spec.infer(tensor_infos(ctx.inputs), p.attributes);
  } catch (const std::exception& e) {
    ctx.fail(label + " refused the layer: " + e.what());
  } catch (...) {
    ctx.fail(label + " refused the layer with something that is not a std::exception");
  }
  if (outs.empty()) ctx.fail(label + " inferred no outputs");
  Descs descs;
  for (std::size_t i = 0; i < outs.size(); ++i) {
    const auto& o = outs[i];
    const std::string what = label + " output " + std::to_string(i);
    if (static_cast<int>(o.dtype) >= kDTypeCount) ctx.fail(what + " has a dtype that is not an atenrt::DType");
    for (auto d : o.dims) {
      if (d < kDynamicDim) ctx.fail(what + " has invalid dims " + dims_to_string(o.dims));
      if (d == kDynamicDim && static_inputs) {
        ctx.fail(what + " has a dim left unknown (" + dims_to_string(o.dims) + ") though every input dim is known");
      }
    }
    descs.push_back({o.dtype, o.dims});
  }
  return descs;
}

}  // namespace detail
}  // namespace atenrt::network
