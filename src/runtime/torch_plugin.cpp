#include "runtime/torch_plugin.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <vector>

namespace atenrt::runtime {
namespace {

constexpr const char* kPluginFile = "libatenrt_torch.so";

struct Loaded {
  const torch_abi::Api* api = nullptr;
  std::string why;
};

// Where to look: next to the binary that holds this code (the CLI, a test, or
// the Python module), one folder up (the Python module lives in
// <build>/python, the plugin in <build>), and in _native/lib beside it (the
// pip package keeps one copy, with the command line's library).
std::vector<std::string> candidates() {
  std::vector<std::string> out;
  if (const char* forced = std::getenv("ATENRT_TORCH_PLUGIN"); forced && *forced) {
    out.emplace_back(forced);
    return out;
  }
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&torch_fallback_built), &info) && info.dli_fname) {
    std::error_code ec;
    auto self = std::filesystem::canonical(info.dli_fname, ec);
    if (!ec) {
      out.push_back((self.parent_path() / kPluginFile).string());
      out.push_back((self.parent_path().parent_path() / kPluginFile).string());
      out.push_back((self.parent_path() / "_native" / "lib" / kPluginFile).string());
    }
  }
  return out;
}

constexpr const char* kNotBuilt = "this build of atenrt has no libtorch fallback (built without ATENRT_WITH_TORCH)";

// The first candidate that exists, or "" with what was tried in `why`.
std::string find_plugin(std::string* why) {
  std::string tried;
  for (const auto& path : candidates()) {
    if (std::filesystem::exists(path)) return path;
    tried += (tried.empty() ? "" : ", ") + path;
  }
  if (why)
    *why = "the libtorch fallback (" + std::string(kPluginFile) + ") was not found (looked at " + tried +
           "; ATENRT_TORCH_PLUGIN names it)";
  return {};
}

Loaded load() {
  Loaded result;
  if (!torch_fallback_built()) {
    result.why = kNotBuilt;
    return result;
  }
  if (const std::string path = find_plugin(&result.why); !path.empty()) {
    // RTLD_LOCAL: libtorch's symbols stay out of the process's namespace.
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char* err = dlerror();
      result.why = "cannot load the libtorch fallback " + path + ": " + (err ? err : "unknown error");
      return result;
    }
    auto entry = reinterpret_cast<atenrt_torch_plugin_api_fn>(dlsym(handle, torch_abi::kEntryPoint));
    const torch_abi::Api* api = entry ? entry() : nullptr;
    if (!api || api->abi_version != torch_abi::kAbiVersion || !api->prepare) {
      result.why = "the libtorch fallback " + path + " is from another build of atenrt (interface version " +
                   std::to_string(api ? api->abi_version : 0) + ", this atenrt needs " +
                   std::to_string(torch_abi::kAbiVersion) + ")";
      return result;  // never unloaded: a half-initialized libtorch must stay mapped
    }
    result.api = api;
  }
  return result;
}

}  // namespace

bool torch_fallback_built() {
#ifdef ATENRT_WITH_TORCH
  return true;
#else
  return false;
#endif
}

std::string torch_plugin_file(std::string* why) {
  if (!torch_fallback_built()) {
    if (why) *why = kNotBuilt;
    return {};
  }
  return find_plugin(why);
}

const torch_abi::Api* torch_plugin(std::string* why) {
  static const Loaded loaded = load();
  if (!loaded.api && why) *why = loaded.why;
  return loaded.api;
}

}  // namespace atenrt::runtime
