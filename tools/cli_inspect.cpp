// `atenrt inspect MODEL.pt2 [--json] [--lowered] [--disable-passes a,b]`
#include <iostream>

#include "cli_commands.h"
#include "frontend/inspect.h"
#include "frontend/pt2_reader.h"
#include "lowering/lower.h"

namespace atenrt::cli {
namespace {

class InspectCommand : public Command {
 public:
  void setup(CLI::App& app) override {
    sub = app.add_subcommand("inspect", "Print what a .pt2 archive holds: producer, layout, I/O, weights, ops");
    sub->add_option("model", path_, "the .pt2 archive")->required();
    sub->add_flag("--json", json_, "print one JSON object");
    sub->add_flag("--lowered", lowered_, "show the graph after lowering (decompositions and passes)");
    sub->add_option("--disable-passes", disabled_passes_, "lowering passes to switch off (with --lowered)")
        ->delimiter(',');
    sub->add_option("--disable-decompositions", disabled_decompositions_,
                    "decompositions to switch off by op overload (with --lowered)")
        ->delimiter(',');
  }

  int run() override {
    ir::ExportedProgram program = frontend::load_pt2(path_);
    lowering::LoweringReport report;
    if (lowered_) {
      lowering::LoweringSettings settings;
      settings.disabled_passes.insert(disabled_passes_.begin(), disabled_passes_.end());
      settings.disabled_decompositions.insert(disabled_decompositions_.begin(),
                                              disabled_decompositions_.end());
      report = lowering::lower(program.graph, settings);
    }
    if (json_) {
      auto j = frontend::inspect_json(program);
      if (lowered_) {
        j["lowering"] = {{"nodes_before", report.nodes_before},
                         {"nodes_after", report.nodes_after},
                         {"decompositions", report.decompositions}};
      }
      std::cout << j.dump(2) << "\n";
    } else {
      std::cout << frontend::inspect_text(program);
      if (lowered_) std::cout << "\nLowering:\n" << report.to_string();
    }
    return 0;
  }

 private:
  std::string path_;
  bool json_ = false;
  bool lowered_ = false;
  std::vector<std::string> disabled_passes_;
  std::vector<std::string> disabled_decompositions_;
};

}  // namespace

std::unique_ptr<Command> make_inspect_command() { return std::make_unique<InspectCommand>(); }

}  // namespace atenrt::cli
