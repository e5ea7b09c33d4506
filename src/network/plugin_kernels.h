// The process-wide table of plugin kernels (atenrt/plugin_layer.h): what
// Plugin layers run. Plugins add to it when they are loaded
// (conversion/plugins.cpp); shape inference, the reference executor and the
// runtime look kernels up by name and version. Kernels are never removed
// (plugins are never unloaded), so a found kernel stays valid.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "atenrt/plugin_layer.h"
#include "network/network.h"

namespace atenrt::network {

struct PluginKernel {
  KernelSpec spec;
  std::string plugin;  // the registering plugin's name
  std::string source;  // its file
};

// "myops::cummax": two non-empty parts of letters, digits and '_', 1 to 128
// characters in all.
bool valid_kernel_name(std::string_view name);
// 1 to 64 letters, digits and '_'.
bool valid_attribute_name(std::string_view name);
// "kernel 'myops::cummax' version 1"
std::string kernel_label(std::string_view name, std::int64_t version);

// Why `spec` cannot be registered (bad name or version, no infer or execute,
// a dtype out of range, the name and version taken), or empty.
std::string plugin_kernel_problem(const KernelSpec& spec);
// Adds a kernel plugin_kernel_problem accepted.
void add_plugin_kernel(PluginKernel kernel);
// Null when no loaded plugin registered that name at that version.
const PluginKernel* find_plugin_kernel(std::string_view name, std::int64_t version);

// The message for a Plugin layer whose kernel is not loaded: names the
// kernel, the plugin and how to load one (--plugin, ATENRT_PLUGINS,
// atenrt.load_plugin).
std::string missing_kernel_message(const PluginParams& params);

// Why a Plugin layer's parameters are malformed (a bad kernel name or
// attribute name), or empty; engine files are checked with it.
std::string plugin_params_problem(const PluginParams& params);

// The infos a kernel's functions take.
std::vector<TensorInfo> tensor_infos(std::span<const TensorDesc> descs);

}  // namespace atenrt::network
