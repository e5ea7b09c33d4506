// `atenrt run MODEL.pt2|ENGINE.atrt --inputs IN.npz --outputs OUT.npz [settings]`
#include <iostream>

#include "cli_commands.h"
#include "cli_settings.h"
#include "ir/npz.h"

namespace atenrt::cli {
namespace {

std::string describe_tensor(const Tensor& t) {
  return std::string(dtype_name(t.dtype())) + shape_to_string(t.sizes());
}

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
    std::vector<Tensor> inputs = io::read_npz(inputs_);
    const auto& expected = engine->inputs();
    if (inputs.size() != expected.size()) {
      std::string want;
      for (const auto& e : expected) want += "\n  " + e.to_string();
      throw InputError(inputs_ + ": " + std::to_string(inputs.size()) + " arrays given, the model takes " +
                       std::to_string(expected.size()) + ":" + want);
    }
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      if (inputs[i].dtype() != expected[i].dtype || inputs[i].sizes() != expected[i].dims) {
        throw InputError(inputs_ + ": arr_" + std::to_string(i) + " is " + describe_tensor(inputs[i]) +
                         ", but input " + std::to_string(i) + " is " + expected[i].to_string());
      }
    }
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
