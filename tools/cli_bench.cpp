// `atenrt bench MODEL.pt2|ENGINE.atrt [--iterations N] [--warmup N] [--threads N] [--json] [--verbose]`
//
// Latency of one ExecutionContext::run on random inputs: median and p90 over
// the timed iterations, plus compile time and memory. Numbers from one run on
// a shared machine: compare them as ratios with peers measured in the same run.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>

#include "cli_commands.h"
#include "cli_settings.h"

namespace atenrt::cli {
namespace {

Tensor random_input(const TensorSpec& spec, std::mt19937& rng) {
  Tensor t(spec.dtype, spec.is_dynamic() ? spec.opt_dims : spec.dims);  // dynamic: the opt shape
  const std::int64_t n = t.numel();
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  switch (spec.dtype) {
    case DType::Float32:
      for (std::int64_t i = 0; i < n; ++i) t.mutable_data<float>()[i] = uniform(rng);
      break;
    case DType::Float64:
      for (std::int64_t i = 0; i < n; ++i) t.mutable_data<double>()[i] = uniform(rng);
      break;
    default:
      // Integer inputs are usually indices (token ids): zeros are always valid.
      std::memset(t.raw_mutable_data(), 0, t.nbytes());
  }
  return t;
}

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  const double pos = p * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(pos);
  const auto hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

class BenchCommand : public Command {
 public:
  void setup(CLI::App& app) override {
    sub = app.add_subcommand("bench", "Measure a model's latency (median, p90), compile time and memory");
    sub->add_option("model", model_, "a .pt2 archive or an engine file")->required();
    sub->add_option("--iterations", iterations_, "timed runs")->check(CLI::Range(1, 1000000));
    sub->add_option("--warmup", warmup_, "untimed runs first")->check(CLI::Range(0, 1000000));
    sub->add_flag("--json", json_, "print one JSON object");
    sub->add_flag("--verbose", verbose_, "also print the engine's steps, kernels and memory plan");
    flags_.add_to(sub);
  }

  int run() override {
    CompileReport report;
    const Engine engine = load_or_compile(model_, flags_, &report);
    std::mt19937 rng(0);
    std::vector<Tensor> inputs;
    for (const auto& spec : engine.inputs()) inputs.push_back(random_input(spec, rng));
    auto context = engine.create_context();
    for (int i = 0; i < warmup_; ++i) context.run(inputs);
    std::vector<double> ms;
    ms.reserve(static_cast<std::size_t>(iterations_));
    for (int i = 0; i < iterations_; ++i) {
      const auto start = std::chrono::steady_clock::now();
      context.run(inputs);
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const double peak_rss_mb = static_cast<double>(usage.ru_maxrss) / 1024.0;
    const double median = percentile(ms, 0.5);
    const double p90 = percentile(ms, 0.9);
    // What the engine really does, whatever the flags asked for.
    std::map<std::string, int> step_precisions;
    for (const auto& step : engine.steps()) step_precisions[step.precision]++;
    nlohmann::json shapes = nlohmann::json::array();
    for (const auto& spec : engine.inputs()) shapes.push_back(spec.to_string());
    if (json_) {
      nlohmann::json j = {
          {"model", model_},
          {"precision", engine.precision()},
          {"step_precisions", step_precisions},
          {"threads", engine.effective_threads()},
          {"inputs", shapes},
          {"iterations", iterations_},
          {"warmup", warmup_},
          {"median_ms", median},
          {"p90_ms", p90},
          {"min_ms", *std::min_element(ms.begin(), ms.end())},
          {"compile_ms", report.compile_ms},
          {"activation_bytes", engine.activation_bytes()},
          {"weight_bytes", engine.weight_bytes()},
          {"peak_rss_mb", peak_rss_mb},
      };
      if (verbose_) j["describe"] = engine.describe();
      std::cout << j.dump() << "\n";
    } else {
      if (verbose_) std::cout << engine.describe() << "\n";
      std::string precisions;
      for (const auto& [p, n] : step_precisions) precisions += (precisions.empty() ? "" : ", ") + std::to_string(n) + " " + p;
      std::cout << model_ << " (" << engine.precision() << ": steps " << precisions << "; "
                << engine.effective_threads() << " threads; " << iterations_ << " runs after " << warmup_
                << " warm-up)\n"
                << "  median " << median << " ms, p90 " << p90 << " ms\n"
                << "  compile " << report.compile_ms << " ms\n"
                << "  inputs " << shapes.dump() << "\n"
                << "  activations " << engine.activation_bytes() / 1024 << " KiB planned, weights "
                << engine.weight_bytes() / 1024 << " KiB, peak RSS " << peak_rss_mb << " MiB\n";
    }
    return 0;
  }

 private:
  std::string model_;
  int iterations_ = 50;
  int warmup_ = 5;
  bool json_ = false;
  bool verbose_ = false;
  SettingsFlags flags_;
};

}  // namespace

std::unique_ptr<Command> make_bench_command() { return std::make_unique<BenchCommand>(); }

}  // namespace atenrt::cli
