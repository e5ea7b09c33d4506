// `atenrt compile MODEL.pt2 -o ENGINE.atrt [settings]`
#include <iostream>

#include "cli_commands.h"
#include "cli_settings.h"

namespace atenrt::cli {
namespace {

class CompileCommand : public Command {
 public:
  void setup(CLI::App& app) override {
    sub = app.add_subcommand("compile", "Compile a .pt2 archive into an engine file");
    sub->add_option("model", model_, "the .pt2 archive")->required();
    sub->add_option("-o,--output", output_, "engine file to write (.atrt)");
    sub->add_flag("--verbose", verbose_, "print the lowering report and the engine's steps");
    flags_.add_to(sub);
  }

  int run() override {
    if (output_.empty() && !flags_.dryrun) throw Error("compile: -o ENGINE.atrt is required (or --dryrun)");
    CompileReport report;
    auto engine = load_or_compile(model_, flags_, &report);
    if (!engine) return 0;
    engine->save(output_);
    if (verbose_) std::cout << report.lowering << "\n" << engine->describe();
    std::cout << "compiled " << model_ << " -> " << output_ << " in " << static_cast<long>(report.compile_ms)
              << " ms (" << report.supported_ops << " operators, " << report.fusions.size() << " fusions)\n";
    return 0;
  }

 private:
  std::string model_;
  std::string output_;
  bool verbose_ = false;
  SettingsFlags flags_;
};

}  // namespace

std::unique_ptr<Command> make_compile_command() { return std::make_unique<CompileCommand>(); }

}  // namespace atenrt::cli
