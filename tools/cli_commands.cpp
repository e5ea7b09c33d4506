#include "cli_commands.h"

namespace atenrt::cli {

std::vector<std::unique_ptr<Command>> all_commands() {
  std::vector<std::unique_ptr<Command>> commands;
  commands.push_back(make_compile_command());
  commands.push_back(make_run_command());
  commands.push_back(make_bench_command());
  commands.push_back(make_inspect_command());
  commands.push_back(make_ops_command());
  return commands;
}

}  // namespace atenrt::cli
