// The `atenrt` command-line program. Each subcommand lives in its own
// tools/cli_<name>.cpp and registers itself with the app here.
//
// The contract of every command: exit 0 on success, 1 on a runtime or model
// error, 2 on a usage error (bad flag, bad setting); every error is one line
// (or a report) on stderr starting with "atenrt: error:".
#include <CLI/CLI.hpp>

#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <new>

#include "atenrt/atenrt.h"
#include "atenrt/extension.h"
#include "atenrt/text.h"
#include "cli_commands.h"
#include "cli_settings.h"

namespace {

constexpr int kRuntimeError = 1;
constexpr int kUsageError = 2;

std::string version_text() {
  const auto& b = atenrt::build_info();
  std::string text = "atenrt " + b.version + "\noneDNN " + b.onednn_version + "\nbuild: " + b.build_type + ", " +
                     b.compiler;
  for (const auto& o : b.options) text += ", " + o;
  text += "\ncpu: " + b.cpu_isa + " (fast kernels for";
  for (const auto& p : b.precisions) text += " " + p;
  return text + ")";
}

// How idle OpenMP threads wait between steps. libgomp's default spins a few
// milliseconds: whenever another process holds a core, every step then waits
// for a thread that spins where it should sleep (MobileNetV2 at 2 threads beside
// a build: 45-100 ms median, 12-14 ms sleeping). Sleeping at once
// (OMP_WAIT_POLICY=passive) costs every step a wake-up instead: 20-30 us per
// parallel region on this KVM guest, 80 us after a millisecond idle, 15-25 % of
// MobileNetV2's and the encoder's time on an idle machine. A short spin keeps
// the next step's hand-off at 2-5 us and still sleeps within about 0.3 ms:
// GOMP_SPINCOUNT=10000 measured better than passive idle (MobileNetV2 9.2 vs
// 10.8 ms, encoder 9.7 vs 13.0) and no worse beside two compilers (40 vs 40 ms;
// default 57). libgomp reads it once, when it loads (before main), so the CLI
// sets it and starts itself again; a policy the user chose stays. The Python
// module asks for the same (python/atenrt/runtime.py).
//
// Not when the user asked OpenMP to bind threads (OMP_PROC_BIND, OMP_PLACES,
// GOMP_CPU_AFFINITY): libgomp has then already pinned this thread to its
// first place, a new program inherits that one-CPU mask, and its libgomp
// found one CPU: every run single-threaded (MobileNetV2 7.2 ms instead of
// 4.6 on 2 cores). Binding is tuning for a machine of one's own, where
// libgomp's long spin costs nothing.
constexpr const char* kOpenmpSpinCount = "10000";

void prefer_short_openmp_spins(char** argv) {
  if (std::getenv("OMP_WAIT_POLICY") || std::getenv("GOMP_SPINCOUNT")) return;
  const char* bind = std::getenv("OMP_PROC_BIND");
  if ((bind && std::string(bind) != "false" && std::string(bind) != "FALSE") || std::getenv("OMP_PLACES") ||
      std::getenv("GOMP_CPU_AFFINITY")) {
    return;
  }
  if (setenv("GOMP_SPINCOUNT", kOpenmpSpinCount, 1) != 0) return;
  execv("/proc/self/exe", argv);  // returns only when it fails: then run with the default
}

int error(const std::string& message, int code) {
  // Messages may echo archive content (entry and node names): escaped.
  std::cerr << "atenrt: error: " << atenrt::escape_text(message) << "\n";
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  prefer_short_openmp_spins(argv);
  CLI::App app{"atenrt: compile torch.export .pt2 programs into fast CPU inference engines"};
  app.require_subcommand(1);
  app.set_version_flag("--version", version_text(), "print the version, the oneDNN version and the build");
  app.footer("Exit status: 0 success, 1 runtime or model error, 2 usage error.\n"
             "Plugins: --plugin FILE (repeatable) or ATENRT_PLUGINS=a.so:b.so add converters and kernels; an engine\n"
             "with plugin layers needs its plugins loaded to run (docs/plugins.md).\n"
             "Progress: a compile that runs over a second shows a progress line on stderr when it is a terminal\n"
             "(ATENRT_PROGRESS=1 forces it, =0 turns it off).");
  std::vector<std::string> plugins;
  // One file per --plugin: a greedy vector option would swallow the model path after it
  // (`atenrt run --plugin x.so m.atrt`).
  app.add_option("--plugin", plugins, "load a plugin (converters and kernels, docs/plugins.md) first; repeatable")
      ->type_name("FILE")
      ->allow_extra_args(false);
  // --plugin may also follow the subcommand (`atenrt compile m.pt2 --plugin x.so`).
  app.fallthrough();
  auto commands = atenrt::cli::all_commands();
  for (auto& command : commands) command->setup(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::string where;
    for (const auto* sub : app.get_subcommands()) where = std::string(" ") + sub->get_name();
    return error(std::string(e.what()) + " (see atenrt" + where + " --help)", kUsageError);
  }
  try {
    for (const auto& plugin : plugins) {
      try {
        atenrt::load_plugin(plugin);
      } catch (const atenrt::SettingsError&) {
        throw;  // ATENRT_PLUGINS, which loads first, says so itself
      } catch (const atenrt::Error& e) {
        throw atenrt::cli::UsageError(std::string("--plugin: ") + e.what());
      }
    }
    for (auto& command : commands) {
      if (command->sub && command->sub->parsed()) return command->run();
    }
  } catch (const atenrt::cli::UsageError& e) {
    return error(e.what(), kUsageError);
  } catch (const atenrt::SettingsError& e) {
    return error(e.what(), kUsageError);
  } catch (const atenrt::Error& e) {
    return error(e.what(), kRuntimeError);
  } catch (const std::bad_alloc&) {
    // Sizes are checked against --max-memory before anything large is
    // allocated; this is the machine running out below that limit.
    return error("out of memory (a lower --max-memory has a plan refused up front, with its sizes)", kRuntimeError);
  } catch (const std::exception& e) {
    return error(std::string("internal error: ") + e.what(), kRuntimeError);
  }
  return error("no command given (see atenrt --help)", kUsageError);
}
