// The plugin-kernels section (format 2.3): which plugin kernels an engine
// file's Plugin steps need (docs/engine-format.md).
//
//   u64 kernel count; per kernel: string name ("ns::op"), i64 version,
//   string plugin (the registering plugin's name), string layer (the first
//   step that uses it)
#include <map>
#include <utility>

#include "atenrt/errors.h"
#include "network/plugin_kernels.h"
#include "runtime/serialize.h"
#include "runtime/serialize_fields.h"

namespace atenrt::runtime::file {

namespace {

struct Needed {
  std::string plugin;
  std::string layer;
};

std::string needs_message(const std::string& layer, const network::PluginParams& p) {
  return "engine file: layer '" + layer + "' " + network::missing_kernel_message(p);
}

}  // namespace

std::optional<SectionSource> plugin_kernels_section(const Program& program) {
  std::map<std::pair<std::string, std::int64_t>, Needed> kernels;  // sorted: the same program, the same bytes
  for (const auto& s : program.steps) {
    if (const auto* p = std::get_if<network::PluginParams>(&s.params)) {
      kernels.try_emplace({p->kernel, p->version}, Needed{p->plugin, s.name});
    }
  }
  if (kernels.empty()) return std::nullopt;
  Writer w;
  w.raw<std::uint64_t>(kernels.size());
  for (const auto& [key, needed] : kernels) {
    w(key.first);
    w(key.second);
    w(needed.plugin);
    w(needed.layer);
  }
  auto payload = std::make_shared<std::vector<std::byte>>(std::move(w.out));
  SectionSource section;
  section.entry.kind = static_cast<std::uint32_t>(SectionKind::PluginKernels);
  section.entry.flags = kSectionRequired;  // a reader without plugin layers must refuse the file
  section.entry.alignment = 8;
  section.size = payload->size();
  section.write = [payload](Sink& s) { s.write(payload->data(), payload->size()); };
  return section;
}

void check_plugin_kernels(std::span<const std::byte> payload) {
  Reader r(payload.data(), payload.size(), "plugin kernels");
  const std::size_t n = r.count(32);  // four lengths or numbers of 8 bytes
  for (std::size_t i = 0; i < n; ++i) {
    network::PluginParams p;
    std::string layer;
    r(p.kernel);
    r(p.version);
    r(p.plugin);
    r(layer);
    if (auto problem = network::plugin_params_problem(p); !problem.empty()) r.corrupt("entry " + std::to_string(i) + ": " + problem);
    if (!network::find_plugin_kernel(p.kernel, p.version)) throw UnsupportedError(needs_message(layer, p));
  }
  if (!r.done()) r.corrupt(std::to_string(r.left()) + " trailing bytes");
}

void check_plugin_steps(const Program& program, bool has_section) {
  for (const auto& s : program.steps) {
    const auto* p = std::get_if<network::PluginParams>(&s.params);
    if (!p) continue;
    if (!has_section) corrupt_section("program", "step '" + s.name + "' is a plugin layer but the file has no plugin-kernels section");
    if (auto problem = network::plugin_params_problem(*p); !problem.empty()) {
      corrupt_section("program", "step '" + s.name + "': " + problem);
    }
    if (!network::find_plugin_kernel(p->kernel, p->version)) throw UnsupportedError(needs_message(s.name, *p));
  }
}

}  // namespace atenrt::runtime::file
