// atenrt::build_info(): the version (CMake's project version, passed in as
// ATENRT_VERSION), the oneDNN this build runs on, and how it was built.
#include <oneapi/dnnl/dnnl.h>

#include <string>

#include "atenrt/atenrt.h"
#include "runtime/cpu/isa.h"
#include "runtime/torch_plugin.h"

#ifndef ATENRT_VERSION
#error "ATENRT_VERSION comes from CMakeLists.txt (project VERSION)"
#endif

namespace atenrt {
namespace {

// Whether hybrid programs can run here: the plugin is looked for (not loaded,
// which would load libtorch) where the runtime will look for it.
std::string fallback_executor() {
  if (!runtime::torch_fallback_built()) return "fallback executor off (built without libtorch)";
  const std::string file = runtime::torch_plugin_file();
  if (file.empty()) return "fallback executor off (libatenrt_torch.so not found; ATENRT_TORCH_PLUGIN names it)";
  return "fallback executor on (" + file + ", loaded on first need)";
}

}  // namespace

const BuildInfo& build_info() {
  static const BuildInfo info = [] {
    BuildInfo b;
    b.version = ATENRT_VERSION;
    const dnnl_version_t* v = dnnl_version();
    b.onednn_version = std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch);
    if (v->cpu_runtime == DNNL_RUNTIME_OMP) b.onednn_version += " (OpenMP)";
    b.build_type = ATENRT_BUILD_TYPE;
    b.compiler = ATENRT_COMPILER;
    b.options = {std::string("sanitizers ") + (ATENRT_SANITIZE ? "on" : "off"),
                 std::string("assertions ") +
#ifdef NDEBUG
                     "off",
#else
                     "on",
#endif
                 fallback_executor()};
    b.cpu_isa = runtime::cpu::cpu_isa_name();
    b.precisions = {"fp32"};
    if (runtime::cpu::precision_unavailable(runtime::Precision::BFloat16).empty()) b.precisions.push_back("bf16");
    if (runtime::cpu::precision_unavailable(runtime::Precision::Int8).empty()) b.precisions.push_back("int8");
    return b;
  }();
  return info;
}

}  // namespace atenrt
