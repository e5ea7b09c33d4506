#include "cli_settings.h"

#include <fstream>
#include <iostream>

namespace atenrt::cli {

void SettingsFlags::add_to(CLI::App* sub) {
  sub->add_option("--precision", precision, "fp32 or bf16 (bf16 for convolution and matmul)")
      ->check(CLI::IsMember({"fp32", "bf16"}));
  sub->add_option("--min-block-size", settings.min_block_size, "smallest block worth an engine");
  sub->add_option("--torch-executed-ops", settings.torch_executed_ops,
                  "op overloads (aten.relu.default) or packets (aten.relu) kept out of the engine")
      ->delimiter(',');
  sub->add_flag("--require-full-compilation", settings.require_full_compilation,
                "fail unless every operator converts");
  sub->add_flag("--global-partitioner", [this](std::int64_t) { settings.use_fast_partitioner = false; },
                "use the global (non-adjacent) partitioner");
  sub->add_flag("--dryrun", dryrun, "partition and print the report; build nothing");
  sub->add_option("--threads", settings.num_threads, "threads per run (0: runtime default)");
  sub->add_option("--optimization-level", settings.optimization_level, "0-3 (default 3)")
      ->check(CLI::Range(0, 3));
  sub->add_flag("--no-lowering", [this](std::int64_t) { settings.lowering = false; },
                "skip decompositions and graph passes");
  sub->add_option("--disable-passes", settings.disabled_passes, "lowering passes to switch off")
      ->delimiter(',');
  sub->add_option("--disable-decompositions", settings.disabled_decompositions,
                  "decompositions to switch off, by op overload")
      ->delimiter(',');
  sub->add_option("--disable-decomposition-groups", settings.disabled_decomposition_groups,
                  "decomposition groups to switch off")
      ->delimiter(',');
}

CompileSettings SettingsFlags::resolve() const {
  CompileSettings s = settings;
  s.precision = precision == "bf16" ? Precision::BF16 : Precision::FP32;
  return s;
}

namespace {

bool is_engine_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open " + path);
  char magic[2] = {0, 0};
  in.read(magic, 2);
  // A .pt2 is a zip ("PK"); anything else is taken as an engine file and
  // validated by Engine::load.
  return !(magic[0] == 'P' && magic[1] == 'K');
}

}  // namespace

std::optional<Engine> load_or_compile(const std::string& path, const SettingsFlags& flags,
                                     CompileReport* report) {
  if (is_engine_file(path)) {
    return Engine::load(path);
  }
  const CompileSettings settings = flags.resolve();
  if (flags.dryrun) {
    std::cout << dry_run(path, settings).partition;
    return std::nullopt;
  }
  return compile(path, settings, report);
}

}  // namespace atenrt::cli
