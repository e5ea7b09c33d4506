// The `atenrt` command-line program. Each subcommand lives in its own
// tools/cli_<name>.cpp and registers itself with the app here.
#include <CLI/CLI.hpp>

#include <iostream>

#include "atenrt/errors.h"
#include "cli_commands.h"

int main(int argc, char** argv) {
  CLI::App app{"atenrt: compile torch.export .pt2 programs into fast CPU inference engines"};
  app.require_subcommand(1);
  auto commands = atenrt::cli::all_commands();
  for (auto& command : commands) command->setup(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    for (auto& command : commands) {
      if (command->sub && command->sub->parsed()) return command->run();
    }
  } catch (const atenrt::Error& e) {
    std::cerr << "atenrt: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "atenrt: internal error: " << e.what() << "\n";
    return 2;
  }
  return 1;
}
