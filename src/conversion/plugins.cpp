#include "conversion/plugins.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "atenrt/errors.h"
#include "atenrt/extension.h"
#include "conversion/extension_context.h"
#include "conversion/registry.h"
#include "ir/log.h"
#include "network/plugin_kernels.h"

namespace atenrt {
namespace conversion {
namespace {

constexpr const char* kEntryPoint = "atenrt_plugin_descriptor";
using EntryFn = const PluginDescriptor* (*)();

struct Loaded {
  std::string canonical;
  PluginInfo info;
};

struct PluginState {
  std::recursive_mutex mutex;
  std::vector<Loaded> loaded;
  bool env_done = false;
  std::optional<std::string> env_error;
};

PluginState& state() {
  static PluginState s;
  return s;
}

// Collects a plugin's registrations, checking each as it comes, so that a bad
// one leaves the registry as it was.
class CollectingRegistry final : public PluginRegistry {
 public:
  CollectingRegistry(std::string family, std::string source) : family_(std::move(family)), source_(std::move(source)) {}

  void add_converter(ConverterSpec spec) override {
    for (auto& r : registrations_of(spec, family_, source_)) {
      for (const auto* e : ConverterRegistry::global().all()) check_distinct(*e, r);
      for (const auto& e : pending_) check_distinct(e, r);
      pending_.push_back(std::move(r));
    }
  }
  void add_kernel(KernelSpec spec) override {
    std::string problem = network::plugin_kernel_problem(spec);
    for (const auto& k : kernels_) {
      if (problem.empty() && k.spec.name == spec.name && k.spec.version == spec.version) {
        problem = network::kernel_label(spec.name, spec.version) + " is registered twice";
      }
    }
    if (!problem.empty()) throw FormatError(source_ + ": " + problem);
    kernels_.push_back({std::move(spec), family_, source_});
  }
  std::vector<ConverterRegistration>& pending() { return pending_; }
  std::vector<network::PluginKernel>& kernels() { return kernels_; }

 private:
  void check_distinct(const ConverterRegistration& e, const ConverterRegistration& r) const {
    if (e.key == r.key && e.options.priority == r.options.priority && e.family == r.family) {
      throw FormatError(source_ + ": converter for " + r.key + " registered twice at " + priority_name(r.options.priority) +
                  " priority in family '" + r.family + "' (first from " + e.source + ")");
    }
  }
  std::string family_;
  std::string source_;
  std::vector<ConverterRegistration> pending_;
  std::vector<network::PluginKernel> kernels_;
};

// A plugin's name becomes its converters' family: short, printable, no spaces.
bool good_name(const char* name) {
  if (!name || !*name) return false;
  std::size_t n = 0;
  for (const char* c = name; *c; ++c, ++n) {
    if (n >= 64 || *c <= ' ' || *c > '~') return false;
  }
  return true;
}

// A plugin that cannot be used is a FormatError (a file of an unknown layout,
// as for archives and engine files), naming the file. Before any of the
// plugin's code is kept, it can be unloaded again.
[[noreturn]] void refuse_and_close(void* handle, const std::string& what, const std::string& why) {
  dlclose(handle);
  throw FormatError(what + ": " + why);
}

PluginInfo load_locked(PluginState& s, const std::string& path) {
  namespace fs = std::filesystem;
  const std::string what = "plugin " + path;
  std::error_code ec;
  if (path.empty()) throw FormatError("plugin: empty path");
  if (!fs::exists(path, ec)) throw FormatError(what + ": no such file");
  if (!fs::is_regular_file(path, ec)) throw FormatError(what + ": not a regular file");
  const std::string canonical = fs::canonical(path, ec).string();
  if (ec) throw FormatError(what + ": " + ec.message());
  for (const auto& l : s.loaded) {
    if (l.canonical == canonical) return l.info;  // loaded already (ATENRT_PLUGINS and --plugin, say)
  }
  // RTLD_LOCAL: a plugin's symbols stay its own; it reaches atenrt through the
  // PluginRegistry and ConverterContext it is handed.
  void* handle = dlopen(canonical.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* err = dlerror();
    throw FormatError(what + ": cannot load it: " + (err ? err : "unknown error"));
  }
  auto entry = reinterpret_cast<EntryFn>(dlsym(handle, kEntryPoint));
  if (!entry) {
    refuse_and_close(handle, what, std::string("not an atenrt plugin: it has no entry point ") + kEntryPoint +
           " (define one with ATENRT_PLUGIN from atenrt/extension.h)");
  }
  const PluginDescriptor* d = entry();
  if (!d) refuse_and_close(handle, what, std::string(kEntryPoint) + "() returned null");
  if (d->abi_version != ATENRT_EXTENSION_ABI_VERSION) {
    refuse_and_close(handle, what, "built for atenrt extension ABI version " + std::to_string(d->abi_version) +
           ", this atenrt takes version " + std::to_string(ATENRT_EXTENSION_ABI_VERSION) +
           ": rebuild the plugin against this atenrt's include/atenrt/extension.h");
  }
  if (!good_name(d->name)) refuse_and_close(handle, what, "its name must be 1 to 64 printable characters without spaces");
  if (!d->register_converters) refuse_and_close(handle, what, "it has no register function");
  const std::string name = d->name;

  // From here the plugin's code may be referenced (its converters, an
  // exception's type): it stays loaded, even when its registration fails.
  CollectingRegistry registry(name, path);
  try {
    d->register_converters(registry);
  } catch (const std::exception& e) {
    const std::string msg = e.what();
    throw FormatError(msg.rfind(path, 0) == 0 ? msg : what + ": registering its converters failed: " + msg);
  } catch (...) {
    throw FormatError(what + ": registering its converters threw something that is not a std::exception");
  }
  PluginInfo info{path, name, registry.pending().size(), registry.kernels().size()};
  for (auto& k : registry.kernels()) network::add_plugin_kernel(std::move(k));
  for (auto& r : registry.pending()) ConverterRegistry::global().add(std::move(r));
  s.loaded.push_back({canonical, info});
  log(LogLevel::Info, "loaded plugin " + path + " (" + name + "): " + std::to_string(info.converters) + " converters, " +
                        std::to_string(info.kernels) + " kernels");
  return info;
}

}  // namespace

namespace {

void load_env_plugins_locked(PluginState& s) {
  if (!s.env_done) {
    s.env_done = true;
    if (const char* env = std::getenv("ATENRT_PLUGINS"); env && *env) {
      const std::string list = env;
      std::size_t start = 0;
      while (start <= list.size()) {
        const std::size_t end = std::min(list.find(':', start), list.size());
        const std::string path = list.substr(start, end - start);
        start = end + 1;
        if (path.empty()) continue;
        try {
          load_locked(s, path);
        } catch (const Error& e) {
          s.env_error = std::string("ATENRT_PLUGINS: ") + e.what();
          break;
        }
      }
    }
  }
  if (s.env_error) throw SettingsError(*s.env_error);
}

}  // namespace

void load_env_plugins() {
  PluginState& s = state();
  std::lock_guard lock(s.mutex);
  load_env_plugins_locked(s);
}

}  // namespace conversion

PluginInfo load_plugin(const std::string& path) {
  conversion::PluginState& s = conversion::state();
  std::lock_guard lock(s.mutex);
  conversion::load_env_plugins_locked(s);  // ATENRT_PLUGINS first, whoever loads the next one
  return conversion::load_locked(s, path);
}

std::vector<PluginInfo> loaded_plugins() {
  conversion::PluginState& s = conversion::state();
  std::lock_guard lock(s.mutex);
  std::vector<PluginInfo> out;
  for (const auto& l : s.loaded) out.push_back(l.info);
  return out;
}

}  // namespace atenrt
