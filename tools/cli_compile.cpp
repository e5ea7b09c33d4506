// `atenrt compile MODEL.pt2 -o ENGINE.atrt [settings]`, or `--dryrun` for the
// partition report alone.
#include <iostream>
#include <nlohmann/json.hpp>

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
    sub->add_flag("--dryrun", dryrun_,
                  "partition and print the report; build nothing (exit 1 with --require-full-compilation "
                  "when not fully supported)");
    sub->add_flag("--verbose", verbose_, "also print the lowering report and the engine's steps");
    sub->add_flag("--json", json_, "print one JSON object");
    flags_.add_to(sub);
  }

  int run() override {
    if (is_engine_file(model_)) {
      throw UsageError(model_ + " is an engine file, not a .pt2 archive: there is nothing to compile (run or "
                       "bench it directly)");
    }
    if (dryrun_) return dry();
    if (output_.empty()) throw UsageError("compile: -o ENGINE.atrt is required (or --dryrun)");
    CompileReport report;
    const Engine engine = load_or_compile(model_, flags_, &report);
    engine.save(output_);
    if (json_) {
      nlohmann::json j = {{"model", model_},
                          {"output", output_},
                          {"compile_ms", report.compile_ms},
                          {"total_ops", report.total_ops},
                          {"supported_ops", report.supported_ops},
                          {"fusions", report.fusions},
                          {"warnings", report.warnings},
                          {"precision", engine.precision()},
                          {"steps", engine.steps().size()},
                          {"activation_bytes", engine.activation_bytes()},
                          {"weight_bytes", engine.weight_bytes()}};
      if (verbose_) {
        j["lowering"] = report.lowering;
        j["describe"] = engine.describe();
      }
      std::cout << j.dump(2) << "\n";
      return 0;
    }
    if (verbose_) std::cout << report.lowering << "\n" << engine.describe();
    std::cout << "compiled " << model_ << " -> " << output_ << " in " << static_cast<long>(report.compile_ms)
              << " ms (" << report.supported_ops << " operators, " << report.fusions.size() << " fusions)\n";
    return 0;
  }

 private:
  int dry() {
    const CompileSettings settings = flags_.resolve();
    const CompileReport report = dry_run(model_, settings);
    const bool full = report.supported_ops == report.total_ops;
    if (json_) {
      nlohmann::json j = {{"model", model_},
                          {"total_ops", report.total_ops},
                          {"supported_ops", report.supported_ops},
                          {"fully_supported", full},
                          {"report", report.partition}};
      if (verbose_) j["lowering"] = report.lowering;
      std::cout << j.dump(2) << "\n";
    } else {
      if (verbose_) std::cout << report.lowering << "\n";
      std::cout << report.partition;
    }
    if (settings.require_full_compilation && !full) {
      std::cerr << "atenrt: error: " << model_ << ": " << report.total_ops - report.supported_ops << " of "
                << report.total_ops << " operators are not supported and require_full_compilation is set\n";
      return 1;
    }
    return 0;
  }

  std::string model_;
  std::string output_;
  bool dryrun_ = false;
  bool verbose_ = false;
  bool json_ = false;
  SettingsFlags flags_;
};

}  // namespace

std::unique_ptr<Command> make_compile_command() { return std::make_unique<CompileCommand>(); }

}  // namespace atenrt::cli
