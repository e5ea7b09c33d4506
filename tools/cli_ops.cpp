// `atenrt ops [--json] [--family F]`: every converter registration — key,
// family, priority, whether it has a capability validator, dynamic-shape
// support — as the partitioner and the converter see them.
#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "cli_commands.h"
#include "conversion/registry.h"

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
    const auto all = conversion::ConverterRegistry::global().all();
    std::vector<const conversion::ConverterRegistration*> shown;
    for (const auto* r : all) {
      if (family_.empty() || r->family == family_) shown.push_back(r);
    }
    if (json_) {
      nlohmann::json out = nlohmann::json::array();
      for (const auto* r : shown) {
        out.push_back({{"key", r->key},
                       {"family", r->family},
                       {"priority", conversion::priority_name(r->options.priority)},
                       {"validator", static_cast<bool>(r->options.validator)},
                       {"dynamic_shapes", r->options.supports_dynamic_shapes},
                       {"enabled", r->options.enabled}});
      }
      std::cout << out.dump(2) << "\n";
      return 0;
    }
    std::printf("%-58s %-14s %-9s %-9s %s\n", "key", "family", "priority", "validator", "dynamic");
    std::map<std::string, int> per_family;
    for (const auto* r : shown) {
      std::printf("%-58s %-14s %-9s %-9s %s%s\n", r->key.c_str(), r->family.c_str(),
                  conversion::priority_name(r->options.priority), r->options.validator ? "yes" : "no",
                  r->options.supports_dynamic_shapes ? "yes" : "no", r->options.enabled ? "" : " (disabled)");
      per_family[r->family]++;
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
