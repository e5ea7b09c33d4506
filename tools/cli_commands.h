// Subcommands of the `atenrt` program. Each lives in tools/cli_<name>.cpp.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <vector>

namespace atenrt::cli {

class Command {
 public:
  virtual ~Command() = default;
  // Adds the subcommand and its options to `app`, storing it in `sub`.
  virtual void setup(CLI::App& app) = 0;
  // Runs after parsing; returns the exit code. Errors are thrown as atenrt::Error.
  virtual int run() = 0;
  CLI::App* sub = nullptr;
};

std::unique_ptr<Command> make_inspect_command();
std::unique_ptr<Command> make_ops_command();
std::unique_ptr<Command> make_compile_command();
std::unique_ptr<Command> make_run_command();
std::unique_ptr<Command> make_bench_command();

// Every subcommand, in the order `atenrt --help` lists them.
std::vector<std::unique_ptr<Command>> all_commands();

}  // namespace atenrt::cli
