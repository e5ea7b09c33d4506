// `atenrt run MODEL.pt2|ENGINE.atrt [--inputs IN.npz|IN.pt] [--outputs OUT.npz|OUT.pt]
//            [--named-outputs] [--compare REF.npz|REF.pt --rtol R --atol A] [settings]`
//   or `atenrt run MODEL.pt2 [--inputs IN.npz|IN.pt] --compare-layers [--rtol R --atol A]`
// Without --inputs a .pt2 runs on the sample inputs it carries.
//
// Prints one line per output (name, dtype and shape, min/max/mean) unless
// --quiet; --json prints the same as one JSON object. --compare prints a
// per-output error table and exits 1 beyond tolerance (as Polygraphy does).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <nlohmann/json.hpp>

#include "atenrt/inspect.h"
#include "atenrt/text.h"
#include "cli_commands.h"
#include "cli_inputs.h"
#include "cli_settings.h"
#include "cli_tensors.h"

namespace atenrt::cli {
namespace {

class RunCommand : public Command {
 public:
  void setup(CLI::App& app) override {
    sub = app.add_subcommand("run", "Run a model on inputs from a file or the archive's own sample inputs; print, save or "
                                    "compare the outputs");
    sub->add_option("model", model_, "a .pt2 archive or an engine file")->required();
    sub->add_option("--inputs", inputs_,
                    "numpy.savez(path, *arrays) file (arr_0, arr_1, ...; C or Fortran order), or a torch.save "
                    ".pt/.pth (a tensor, a tuple/list of them in input order, or a dict by input name; every dtype, "
                    "bf16 included; read without torch, no code runs). Default: the sample inputs a .pt2 carries "
                    "(data/sample_inputs/<model>.pt, or serialized_example_inputs.pt; `atenrt inspect` lists them)");
    sub->add_option("--outputs", outputs_,
                    "file to write the outputs to, in order: .npz (arr_0, arr_1, ...) or .pt/.pth (torch.save of a "
                    "tuple; every dtype, bf16 included; torch.load reads it)");
    sub->add_flag("--named-outputs", named_outputs_,
                  "key the --outputs file by the graph's output names (an .npz's array names, a .pt's dict keys); an output that updates a buffer or parameter is "
                  "named after its fqn, one that updates an input '<input>.mutated' (see `atenrt inspect`)");
    sub->add_option("--compare", compare_,
                    "reference outputs: .npz (arr_0, ... or output names), or .pt/.pth from torch.save (a tensor, "
                    "a tuple/list of them, or a dict by output name; read without torch, no code runs): exit 1 "
                    "beyond tolerance");
    sub->add_flag("--compare-layers", compare_layers_,
                  "a .pt2 only: compile it marking every node value as an output and compare each with atenrt's "
                  "reference executor (plain double-precision kernels) on the same lowered, converted network; "
                  "prints the first value beyond tolerance (|engine - reference| <= atol + rtol * max|reference| "
                  "per value) and exits 1. Finds where kernels, fusions or precision "
                  "depart from the network, not converter or decomposition errors against PyTorch (both sides "
                  "share those: use atenrt.debug.compare_layers in Python for PyTorch)");
    sub->add_option("--rtol", rtol_, "relative tolerance of --compare")->capture_default_str()->check(CLI::NonNegativeNumber);
    sub->add_option("--atol", atol_, "absolute tolerance of --compare")->capture_default_str()->check(CLI::NonNegativeNumber);
    sub->add_flag("--quiet", quiet_, "print nothing on success");
    sub->add_flag("--json", json_, "print the output summary (and comparison) as one JSON object");
    sub->add_flag("--verbose", verbose_, "also print the engine's steps, kernels and memory plan");
    flags_.add_to(sub);
  }

  int run() override {
    if (named_outputs_ && outputs_.empty()) throw UsageError("run: --named-outputs needs --outputs FILE.npz|FILE.pt");
    if (compare_layers_) return run_compare_layers();
    const Engine engine = load_or_compile(model_, flags_);
    const std::vector<Tensor> inputs = read_model_inputs(model_, inputs_, &engine.inputs()).tensors;
    auto context = engine.create_context();
    const auto& outputs = context.run(inputs);
    std::vector<std::string> names;
    for (const auto& spec : engine.outputs()) names.push_back(spec.name);
    if (!outputs_.empty()) write_outputs(outputs_, outputs, named_outputs_ ? names : std::vector<std::string>{});
    std::vector<Comparison> table;
    if (!compare_.empty()) table = compare(outputs, names);
    print(engine, outputs, names, table);
    std::int64_t failed = 0;
    for (const auto& row : table) failed += !row.ok();
    if (failed) {
      std::cerr << "atenrt: error: " << failed << " of " << table.size() << " outputs differ from " << compare_
                << " beyond rtol " << rtol_ << ", atol " << atol_ << "\n";
      return 1;
    }
    return 0;
  }

 private:
  int run_compare_layers() const {
    if (!compare_.empty() || !outputs_.empty()) {
      throw UsageError("run: --compare-layers compares every layer itself; give it without --compare and --outputs");
    }
    if (is_engine_file(model_)) {
      throw UsageError("run: --compare-layers needs the .pt2 (an engine file has no graph to evaluate by reference)");
    }
    const std::vector<Tensor> inputs = read_model_inputs(model_, inputs_, nullptr).tensors;
    const auto values = reference_layer_values(model_, inputs, flags_.resolve());
    std::vector<Comparison> table;
    std::optional<std::size_t> first;
    for (const auto& v : values) {
      // Per value, relative to its largest magnitude (the project's accuracy bar): an element near
      // zero would otherwise fail on fp32 summation noise alone.
      const auto stats = tensor_stats(v.reference);
      const double scale = stats ? std::max(std::abs(stats->min), std::abs(stats->max)) : 0.0;
      table.push_back(compare_tensors(v.name, v.engine, v.reference, 0.0, atol_ + rtol_ * (std::isfinite(scale) ? scale : 0.0)));
      if (!first && !table.back().ok()) first = table.size() - 1;
    }
    if (json_) {
      nlohmann::json rows = nlohmann::json::array();
      for (const auto& c : table) {
        rows.push_back({{"name", c.name}, {"ok", c.ok()}, {"max_abs_error", c.max_abs}, {"max_rel_error", c.max_rel},
                        {"mismatched", c.mismatched}, {"total", c.total}, {"problem", c.problem}});
      }
      nlohmann::json j = {{"model", model_}, {"reference", "atenrt reference executor"}, {"rtol", rtol_},
                          {"atol", atol_}, {"layers", rows},
                          {"first_divergence", first ? nlohmann::json(table[*first].name) : nlohmann::json()}};
      std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else if (!quiet_) {
      std::printf("compared %zu values with the reference executor (rtol %g, atol %g)\n", table.size(), rtol_, atol_);
      std::printf("  %-32s %-6s %12s %12s %s\n", "value", "result", "max abs err", "max rel err", "mismatched");
      for (std::size_t i = 0; i < table.size(); ++i) {
        // Up to the first divergence, or every row with --verbose.
        if (first && i > *first && !verbose_) break;
        if (!first && !verbose_ && i + 1 < table.size()) continue;
        const auto& c = table[i];
        if (!c.problem.empty()) {
          std::printf("  %-32s %-6s %s\n", escape_text(c.name).c_str(), "FAIL", escape_text(c.problem).c_str());
        } else {
          std::printf("  %-32s %-6s %12.3g %12.3g %lld of %lld\n", escape_text(c.name).c_str(), c.ok() ? "ok" : "FAIL",
                      c.max_abs, c.max_rel, static_cast<long long>(c.mismatched), static_cast<long long>(c.total));
        }
      }
    }
    if (first) {
      std::cerr << "atenrt: error: value '" << escape_text(table[*first].name) << "' (" << *first + 1 << " of "
                << table.size() << ") is the first that differs from the reference beyond rtol " << rtol_
                << ", atol " << atol_ << "\n";
      return 1;
    }
    return 0;
  }

  // References by output name when the file uses the names, else by position.
  std::vector<Comparison> compare(const std::vector<Tensor>& outputs, const std::vector<std::string>& names) const {
    const bool torch_file = is_torch_file(compare_);
    const auto refs = torch_file ? read_torch_save(compare_) : read_npz(compare_);
    std::map<std::string, const Tensor*> by_name;
    for (const auto& [name, t] : refs) by_name[name] = &t;
    const bool named = !refs.empty() && by_name.contains(names.front()) && !by_name.contains("arr_0");
    if (!named && refs.size() != outputs.size()) {
      throw InputError(compare_ + ": " + std::to_string(refs.size()) + (torch_file ? " tensors" : " arrays") +
                       ", the model has " +
                       std::to_string(outputs.size()) + " outputs");
    }
    std::vector<Comparison> table;
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      const Tensor* want = named ? (by_name.contains(names[i]) ? by_name[names[i]] : nullptr) : &refs[i].second;
      if (!want) {
        Comparison c;
        c.name = names[i];
        c.problem = "no reference named '" + names[i] + "'";
        table.push_back(c);
        continue;
      }
      table.push_back(compare_tensors(names[i], outputs[i], *want, rtol_, atol_));
    }
    return table;
  }

  void print(const Engine& engine, const std::vector<Tensor>& outputs, const std::vector<std::string>& names,
             const std::vector<Comparison>& table) const {
    if (json_) {
      nlohmann::json summary = nlohmann::json::array();
      for (std::size_t i = 0; i < outputs.size(); ++i) {
        nlohmann::json j = {{"name", names[i]}, {"dtype", dtype_name(outputs[i].dtype())}, {"shape", outputs[i].sizes()}};
        if (const auto s = tensor_stats(outputs[i])) j.update({{"min", s->min}, {"max", s->max}, {"mean", s->mean}, {"nan", s->nan}});
        summary.push_back(j);
      }
      nlohmann::json j = {{"model", model_}, {"outputs", summary}};
      if (!table.empty()) {
        nlohmann::json rows = nlohmann::json::array();
        for (const auto& c : table) {
          rows.push_back({{"name", c.name}, {"ok", c.ok()}, {"max_abs_error", c.max_abs}, {"max_rel_error", c.max_rel},
                          {"mismatched", c.mismatched}, {"total", c.total}, {"problem", c.problem}});
        }
        j["compare"] = {{"reference", compare_}, {"rtol", rtol_}, {"atol", atol_}, {"outputs", rows}};
      }
      if (verbose_) j["describe"] = engine.describe();
      std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
      return;
    }
    if (quiet_) return;
    if (verbose_) std::cout << engine.describe() << "\n";
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      std::cout << escape_text(names[i]) << ": " << describe_tensor(outputs[i]);
      if (const auto s = tensor_stats(outputs[i])) {
        std::cout << "  min " << s->min << "  max " << s->max << "  mean " << s->mean;
        if (s->nan) std::cout << "  nan " << s->nan;
      }
      std::cout << "\n";
    }
    if (table.empty()) return;
    std::printf("\ncompared with %s (rtol %g, atol %g):\n", escape_text(compare_).c_str(), rtol_, atol_);
    std::printf("  %-24s %-6s %12s %12s %s\n", "output", "result", "max abs err", "max rel err", "mismatched");
    for (const auto& c : table) {
      if (!c.problem.empty()) {
        std::printf("  %-24s %-6s %s\n", escape_text(c.name).c_str(), "FAIL", escape_text(c.problem).c_str());
        continue;
      }
      std::printf("  %-24s %-6s %12.3g %12.3g %lld of %lld\n", escape_text(c.name).c_str(), c.ok() ? "ok" : "FAIL",
                  c.max_abs, c.max_rel, static_cast<long long>(c.mismatched), static_cast<long long>(c.total));
    }
  }

  std::string model_;
  std::string inputs_;
  std::string outputs_;
  std::string compare_;
  double rtol_ = 1e-4;
  double atol_ = 1e-5;
  bool named_outputs_ = false;
  bool compare_layers_ = false;
  bool quiet_ = false;
  bool json_ = false;
  bool verbose_ = false;
  SettingsFlags flags_;
};

}  // namespace

std::unique_ptr<Command> make_run_command() { return std::make_unique<RunCommand>(); }

}  // namespace atenrt::cli
