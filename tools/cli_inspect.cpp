// `atenrt inspect MODEL.pt2|ENGINE.atrt [--json] [--lowered [settings]] [--verbose]`
#include <iostream>

#include "atenrt/inspect.h"
#include "cli_commands.h"
#include "cli_settings.h"

namespace atenrt::cli {
namespace {

class InspectCommand : public Command {
 public:
  void setup(CLI::App& app) override {
    sub = app.add_subcommand(
        "inspect",
        "Print what a .pt2 archive holds (producer, layout, I/O, sample inputs, weights, ops) or an engine file "
        "(settings, I/O, steps, kernels, memory plan, weights). Outputs that update a buffer, parameter or input "
        "(training IR) are named after it: the fqn ('bn.running_mean'), '<input>.mutated' for an input, "
        "'.mutated' appended to a name an input or value already has");
    sub->add_option("model", path_, "a .pt2 archive or an engine file")->required();
    sub->add_flag("--json", json_, "print one JSON object");
    sub->add_flag("--verbose", verbose_, "list every weight of an engine file");
    sub->add_flag("--lowered", lowered_,
                  "show what compile's lowering does with the same settings (decompositions and passes)");
    flags_.add_to(sub);
  }

  int run() override {
    const CompileSettings settings = flags_.resolve();
    if (is_engine_file(path_)) {
      if (lowered_) throw UsageError(path_ + " is an engine file, already lowered and built: --lowered needs the .pt2");
      for (const Setting* s : flags_.given()) {
        if (s->phase == SettingPhase::Compile) {
          throw UsageError(s->cli_flag + " is a compile-time setting; " + path_ +
                           " is an engine file, already built (inspect shows what it was built with)");
        }
      }
    } else if (!lowered_ && !flags_.given().empty()) {
      throw UsageError("settings flags shape what --lowered shows; without --lowered they do nothing");
    }
    const InspectReport report = inspect(path_, settings, lowered_, verbose_);
    std::cout << (json_ ? report.json + "\n" : report.text);
    return 0;
  }

 private:
  std::string path_;
  bool json_ = false;
  bool lowered_ = false;
  bool verbose_ = false;
  SettingsFlags flags_;
};

}  // namespace

std::unique_ptr<Command> make_inspect_command() { return std::make_unique<InspectCommand>(); }

}  // namespace atenrt::cli
