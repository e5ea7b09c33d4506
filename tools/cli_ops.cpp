// `atenrt ops [--json] [--family F]`: every converter registration — key,
// family, priority, whether it has a capability validator, dynamic-shape
// support — as the partitioner and the converter see them.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "atenrt/inspect.h"
#include "cli_commands.h"
#include "cli_settings.h"

namespace atenrt::cli {
namespace {

class OpsCommand : public Command {
 public:
  void setup(CLI::App& app) override {
    sub = app.add_subcommand("ops", "List the converter registrations (op overloads atenrt converts)");
    sub->add_flag("--json", json_, "print one JSON array");
    sub->add_option("--family", family_, "only this family (activation, elementwise, ...)");
  }

  int run() override {
    if (!family_.empty()) {
      const auto families = converter_families();
      if (std::find(families.begin(), families.end(), family_) == families.end()) {
        std::string msg = "ops: unknown family '" + family_ + "'";
        if (auto near = nearest_name(family_, families); !near.empty()) msg += "; did you mean '" + near + "'?";
        msg += " (families:";
        for (const auto& f : families) msg += " " + f;
        throw UsageError(msg + ")");
      }
    }
    std::vector<ConverterInfo> shown;
    for (auto& c : list_converters()) {
      if (family_.empty() || c.family == family_) shown.push_back(std::move(c));
    }
    if (json_) {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& c : shown) {
        out.push_back({{"key", c.key},
                       {"family", c.family},
                       {"priority", c.priority},
                       {"validator", c.validator},
                       {"dynamic_shapes", c.dynamic_shapes},
                       {"enabled", c.enabled}});
      }
      std::cout << out.dump(2) << "\n";
      return 0;
    }
    std::printf("%-58s %-14s %-9s %-9s %s\n", "key", "family", "priority", "validator", "dynamic");
    std::map<std::string, int> per_family;
    for (const auto& c : shown) {
      std::printf("%-58s %-14s %-9s %-9s %s%s\n", c.key.c_str(), c.family.c_str(), c.priority.c_str(),
                  c.validator ? "yes" : "no", c.dynamic_shapes ? "yes" : "no", c.enabled ? "" : " (disabled)");
      per_family[c.family]++;
    }
    std::printf("\n%zu registrations:", shown.size());
    for (const auto& [f, n] : per_family) std::printf(" %s %d", f.c_str(), n);
    std::printf("\n");
    return 0;
  }

 private:
  bool json_ = false;
  std::string family_;
};

}  // namespace

std::unique_ptr<Command> make_ops_command() { return std::make_unique<OpsCommand>(); }

}  // namespace atenrt::cli
