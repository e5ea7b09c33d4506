// Compile-settings flags shared by `compile`, `run` and `bench`.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

#include "atenrt/atenrt.h"

namespace atenrt::cli {

struct SettingsFlags {
  CompileSettings settings;
  std::string precision = "fp32";
  bool dryrun = false;

  void add_to(CLI::App* sub);
  // Applies the string flags; throws CLI-independent atenrt::Error on bad values.
  CompileSettings resolve() const;
};

// Loads an engine file (.atrt) or compiles a .pt2, printing the dry-run
// report instead when --dryrun is set (then returns nothing).
std::optional<Engine> load_or_compile(const std::string& path, const SettingsFlags& flags,
                                     CompileReport* report = nullptr);

}  // namespace atenrt::cli
