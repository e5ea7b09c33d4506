#include "cli_settings.h"

#include "atenrt/text.h"
#include "cli_progress.h"

namespace atenrt::cli {

void SettingsFlags::add_to(CLI::App* sub) {
  for (const auto& s : settings_table()) {
    Storage& st = storage_[s.name];
    const std::string group = s.phase == SettingPhase::Load ? "Load-time settings (engine files too)"
                                                            : "Compile-time settings";
    std::string help = s.help;
    const std::string range = s.range_text();
    switch (s.type) {
      case SettingType::Bool:
        st.option = sub->add_flag(s.cli_flag, st.flag, help);
        break;
      case SettingType::Int:
        st.option = sub->add_option(s.cli_flag, st.number, help + (range.empty() ? "" : " (" + range + ")"));
        st.option->default_str(setting_text(s.default_value()));
        break;
      case SettingType::Choice:
        st.option = sub->add_option(s.cli_flag, st.text, help + " (" + range + ")");
        st.option->default_str(setting_text(s.default_value()));
        break;
      case SettingType::Bytes:
        st.option = sub->add_option(s.cli_flag, st.text, help)->type_name("SIZE");
        st.option->default_str(setting_text(s.default_value()));
        break;
      case SettingType::NameList:
        st.option = sub->add_option(s.cli_flag, st.names, help + " (comma-separated)")->delimiter(',');
        break;
      case SettingType::Shapes:
        st.option = sub->add_option(s.cli_flag, st.text, help);
        break;
      case SettingType::Path:
        st.option = sub->add_option(s.cli_flag, st.text, help)->type_name("FILE");
        break;
    }
    st.option->group(group);
  }
}

std::vector<const Setting*> SettingsFlags::given() const {
  std::vector<const Setting*> out;
  for (const auto& s : settings_table()) {
    auto it = storage_.find(s.name);
    if (it != storage_.end() && it->second.option && it->second.option->count() > 0) out.push_back(&s);
  }
  return out;
}

CompileSettings SettingsFlags::resolve() const {
  CompileSettings settings;
  for (const Setting* s : given()) {
    const Storage& st = storage_.at(s->name);
    switch (s->type) {
      case SettingType::Bool: set_setting(settings, s->name, s->cli_inverts ? !st.flag : st.flag); break;
      case SettingType::Int: set_setting(settings, s->name, st.number); break;
      case SettingType::Choice:
      case SettingType::Bytes: set_setting(settings, s->name, st.text); break;
      case SettingType::NameList: set_setting(settings, s->name, st.names); break;
      case SettingType::Shapes:
      case SettingType::Path: set_setting(settings, s->name, st.text); break;
    }
  }
  validate(settings);
  return settings;
}

Engine load_or_compile(const std::string& path, const SettingsFlags& flags, CompileReport* report,
                       int default_threads) {
  CompileSettings settings = flags.resolve();
  if (settings.num_threads == 0) settings.num_threads = default_threads;
  if (!is_engine_file(path)) {
    const Progress progress("compiling " + escape_text(path), "compiled " + escape_text(path));
    return compile(path, settings, report);
  }
  std::string compile_flags;
  for (const Setting* s : flags.given()) {
    if (s->phase == SettingPhase::Compile) compile_flags += (compile_flags.empty() ? "" : ", ") + s->cli_flag;
  }
  if (compile_flags.empty()) return Engine::load(path, settings);
  // Load first, so that the message can say what the engine was built with.
  const Engine engine = Engine::load(path);
  std::string load_flags;
  for (const auto& s : settings_table()) {
    if (s.phase == SettingPhase::Load) load_flags += (load_flags.empty() ? "" : ", ") + s.cli_flag;
  }
  throw UsageError(path + " is an engine file, built with " + engine.built_settings() + ": " + compile_flags +
                   " cannot change it (compile the .pt2 again); only load-time settings apply to an engine (" +
                   load_flags + ")");
}

}  // namespace atenrt::cli
