// `atenrt run MODEL.pt2|ENGINE.atrt --inputs IN.npz --outputs OUT.npz [settings]`
#include <iostream>

#include "cli_commands.h"
#include "cli_settings.h"
#include "ir/npz.h"

namespace atenrt::cli {
namespace {

class RunCommand : public Command {
 public:
  void setup(CLI::App& app) override {
    sub = app.add_subcommand("run", "Run a model on inputs from an .npz file; write the outputs to an .npz");
    sub->add_option("model", model_, "a .pt2 archive or an engine file")->required();
    sub->add_option("--inputs", inputs_, "numpy.savez(path, *arrays) file: arr_0, arr_1, ...")->required();
    sub->add_option("--outputs", outputs_, ".npz file to write (user outputs, flattened, in order)")->required();
    flags_.add_to(sub);
  }

  int run() override {
    auto engine = load_or_compile(model_, flags_);
    if (!engine) return 0;
    const auto& expected = engine->inputs();
    auto count_error = [&](std::size_t given) {
      std::string want;
      for (const auto& e : expected) want += "\n  " + e.to_string();
      return InputError(inputs_ + ": " + std::to_string(given) + " arrays given, the model takes " +
                        std::to_string(expected.size()) + ":" + want);
    };
    // Each array's header is checked before its payload is read or inflated.
    auto check = [&](std::size_t i, const std::string&, DType dtype, const std::vector<std::int64_t>& shape) {
      if (i >= expected.size()) throw count_error(i + 1);
      if (dtype != expected[i].dtype || shape != expected[i].dims) {
        throw InputError(inputs_ + ": arr_" + std::to_string(i) + " is " + std::string(dtype_name(dtype)) +
                         shape_to_string(shape) + ", but input " + std::to_string(i) + " is " +
                         expected[i].to_string());
      }
    };
    std::vector<Tensor> inputs = io::read_npz(inputs_, check);
    if (inputs.size() != expected.size()) throw count_error(inputs.size());
    auto context = engine->create_context();
    const auto& outputs = context.run(inputs);
    io::write_npz(outputs_, outputs);
    return 0;
  }

 private:
  std::string model_;
  std::string inputs_;
  std::string outputs_;
  SettingsFlags flags_;
};

}  // namespace

std::unique_ptr<Command> make_run_command() { return std::make_unique<RunCommand>(); }

}  // namespace atenrt::cli
