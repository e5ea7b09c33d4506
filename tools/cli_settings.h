// The settings flags of `compile`, `run` and `bench`, made from the settings
// table (include/atenrt/settings.h), and the rules for engine files.
#pragma once

#include <CLI/CLI.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "atenrt/atenrt.h"
#include "atenrt/inspect.h"

namespace atenrt::cli {

// A usage error (exit 2): a flag that makes no sense here, a missing one.
class UsageError : public Error {
 public:
  using Error::Error;
};

class SettingsFlags {
 public:
  // Adds one flag per setting to `sub`, grouped as compile-time and
  // load-time in its help, with the default.
  void add_to(CLI::App* sub);
  // The settings the flags give (defaults for the rest); throws
  // SettingsError for a value out of range or an unknown name.
  CompileSettings resolve() const;
  // Flags the user gave, by setting.
  std::vector<const Setting*> given() const;

 private:
  struct Storage {
    bool flag = false;
    std::int64_t number = 0;
    std::string text;
    std::vector<std::string> names;
    CLI::Option* option = nullptr;
  };
  std::map<std::string, Storage> storage_;  // by setting name
};

// Builds the engine a command works on: loads an engine file with the
// load-time settings (a compile-time flag given with one is a UsageError
// naming the engine's own settings), or compiles a .pt2.
// `default_threads` (> 0) stands for --threads when it is not given: the
// kernels are made for the count they will run on.
Engine load_or_compile(const std::string& path, const SettingsFlags& flags, CompileReport* report = nullptr,
                       int default_threads = 0);

}  // namespace atenrt::cli
