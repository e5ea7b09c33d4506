// `atenrt bench MODEL.pt2|ENGINE.atrt [--iterations N] [--warmup N] [--threads N] [--json] [--verbose]
//               [--memory] [--profile] [--profile-out FILE] [--trace FILE] [--streams N] [--batch B]
//               [--inputs IN.npz|IN.pt]`
//
// Latency of one ExecutionContext::run on the given inputs (--inputs), else
// the sample inputs a .pt2 carries, else random ones: min, mean, median,
// p90, p99, stddev and throughput over the timed iterations, plus compile time
// and memory. --profile times every step over as many further runs (kept
// apart, so the latency figures carry no profiling cost) and prints where the
// time goes, like trtexec --dumpProfile; --trace writes the last profiled run
// as a Chrome trace (chrome://tracing, Perfetto). --streams N runs N contexts
// on N threads at once (throughput mode, as trtexec --streams); --batch sets
// a dynamic engine's batch dim. Numbers from one run on a
// shared machine: compare them as ratios with peers measured in the same run.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <latch>
#include <random>
#include <thread>

#include "atenrt/inspect.h"
#include "cli_commands.h"
#include "cli_inputs.h"
#include "cli_settings.h"

namespace atenrt::cli {
namespace {

// This process's peak resident set, in MiB: VmHWM, which starts afresh at
// exec. (getrusage's ru_maxrss keeps the peak of the process that exec'd us:
// a bench started from a Python process holding torch reported its 200 MiB.)
double peak_rss_mib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::strtod(line.c_str() + 6, nullptr) / 1024.0;  // kB
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

// The shape bench feeds an input: the engine's (a dynamic one's opt shape),
// with the leading dim set to `batch` when one is given. A batch the input
// cannot take is a UsageError naming the input and its range.
std::vector<std::int64_t> bench_shape(const TensorSpec& spec, std::int64_t batch) {
  std::vector<std::int64_t> shape = spec.is_dynamic() ? spec.opt_dims : spec.dims;
  if (batch <= 0) return shape;
  if (shape.empty()) throw UsageError("--batch " + std::to_string(batch) + ": input " + spec.to_string() + " is a scalar");
  shape[0] = batch;
  if (!spec.accepts(shape)) {
    throw UsageError("--batch " + std::to_string(batch) + ": input " + spec.to_string() +
                     (spec.is_dynamic() ? " does not take that batch" : " is static: compile with a dynamic batch dim"));
  }
  return shape;
}

Tensor random_input(const TensorSpec& spec, const std::vector<std::int64_t>& shape, std::mt19937& rng) {
  Tensor t(spec.dtype, shape);
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

struct Stats {
  double min = 0, mean = 0, median = 0, p90 = 0, p99 = 0, stddev = 0;
};

Stats stats_of(const std::vector<double>& ms) {
  Stats s;
  s.min = *std::min_element(ms.begin(), ms.end());
  for (double v : ms) s.mean += v;
  s.mean /= static_cast<double>(ms.size());
  for (double v : ms) s.stddev += (v - s.mean) * (v - s.mean);
  s.stddev = std::sqrt(s.stddev / static_cast<double>(ms.size()));
  s.median = percentile(ms, 0.5);
  s.p90 = percentile(ms, 0.9);
  s.p99 = percentile(ms, 0.99);
  return s;
}

// Timed runs of `streams` contexts, each on its own thread, started together:
// every run's latency, and the wall time from the common start to the last
// run's end (throughput). One stream runs on the calling thread.
struct StreamRuns {
  std::vector<double> ms;  // all streams' runs
  double wall_ms = 0;
};

StreamRuns run_streams(const Engine& engine, const std::vector<Tensor>& inputs, int streams, int warmup,
                       int iterations) {
  std::vector<std::vector<double>> per_stream(static_cast<std::size_t>(streams));
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(streams));
  std::latch warmed(streams);
  std::chrono::steady_clock::time_point start;
  auto stream = [&](int index) {
    bool arrived = false;
    try {
      auto context = engine.create_context();
      for (int i = 0; i < warmup; ++i) context.run(inputs);
      arrived = true;
      warmed.arrive_and_wait();
      if (index == 0) start = std::chrono::steady_clock::now();
      auto& ms = per_stream[static_cast<std::size_t>(index)];
      ms.reserve(static_cast<std::size_t>(iterations));
      for (int i = 0; i < iterations; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        context.run(inputs);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      }
    } catch (...) {
      errors[static_cast<std::size_t>(index)] = std::current_exception();
      if (!arrived) warmed.count_down();  // a stream that failed before the latch must not hold the others
    }
  };
  // The first stream's start is read after every thread passed the latch, so
  // it is the common start within a few microseconds.
  std::vector<std::thread> threads;
  for (int i = 1; i < streams; ++i) threads.emplace_back(stream, i);
  stream(0);
  for (auto& t : threads) t.join();
  const auto end = std::chrono::steady_clock::now();
  for (const auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  StreamRuns out;
  for (const auto& ms : per_stream) out.ms.insert(out.ms.end(), ms.begin(), ms.end());
  out.wall_ms = std::chrono::duration<double, std::milli>(end - start).count();
  return out;
}

// How idle OpenMP threads wait, as libgomp read it at start: the CLI asks for a
// short spin, then sleep (GOMP_SPINCOUNT), unless the user set a policy (atenrt_main.cpp).
std::string omp_wait_policy() {
  if (const char* p = std::getenv("OMP_WAIT_POLICY")) return p;
  if (const char* spins = std::getenv("GOMP_SPINCOUNT")) return std::string("spin then sleep (GOMP_SPINCOUNT=") + spins + ")";
  return "default";
}

// A spread this wide says another process shared the cores: the figures are
// still reported, with a warning, since ratios from one run stay usable.
bool noisy(const Stats& s) { return s.median > 0 && (s.p90 > 1.25 * s.median || s.stddev > 0.2 * s.mean); }

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// The per-step table: run order, each step's mean time, share and GFLOP/s.
void print_profile(const Profile& p, double median_ms) {
  double sum = 0;
  for (const auto& t : p.steps) sum += t.total_ms;
  const double runs = static_cast<double>(std::max<std::int64_t>(p.runs, 1));
  std::printf("\nprofile: %zu steps over %lld runs (means per run)\n", p.steps.size(), static_cast<long long>(p.runs));
  std::printf("  %-44s %-14s %-26s %9s %6s %8s\n", "step", "kind", "implementation", "ms", "%", "GFLOP/s");
  for (const auto& t : p.steps) {
    const double ms = t.total_ms / runs;
    const std::string gflops = t.step.flops > 0 && ms > 0 ? fixed(t.step.flops / (ms * 1e6), 1) : "";
    std::printf("  %-44s %-14s %-26s %9.4f %6.1f %8s\n", t.step.name.substr(0, 44).c_str(),
                t.step.kind.substr(0, 14).c_str(), t.step.implementation.substr(0, 26).c_str(), ms,
                sum > 0 ? 100.0 * t.total_ms / sum : 0.0, gflops.c_str());
  }
  std::printf("  steps sum to %.3f ms per run; the median run took %.3f ms (the rest: binding inputs, "
              "copying outputs, profiling's own clock reads)\n", sum / runs, median_ms);
}

nlohmann::json profile_json(const Profile& p) {
  nlohmann::json steps = nlohmann::json::array();
  const double runs = static_cast<double>(std::max<std::int64_t>(p.runs, 1));
  for (const auto& t : p.steps) {
    const double ms = t.total_ms / runs;
    steps.push_back({{"name", t.step.name}, {"kind", t.step.kind}, {"implementation", t.step.implementation},
                     {"precision", t.step.precision}, {"mean_ms", ms}, {"flops", t.step.flops},
                     {"gflops_per_s", t.step.flops > 0 && ms > 0 ? t.step.flops / (ms * 1e6) : 0.0}});
  }
  return {{"runs", p.runs}, {"steps", steps}};
}

// Chrome's trace-event format: one complete event ("X") per step of the
// last profiled run, times in microseconds.
void write_trace(const Profile& p, const std::string& path) {
  nlohmann::json events = nlohmann::json::array();
  for (const auto& t : p.steps) {
    events.push_back({{"name", t.step.name}, {"cat", t.step.kind}, {"ph", "X"}, {"pid", 1}, {"tid", 1},
                      {"ts", t.last_start_ms * 1000.0}, {"dur", t.last_ms * 1000.0},
                      {"args", {{"implementation", t.step.implementation}, {"precision", t.step.precision}}}});
  }
  std::ofstream out(path);
  out << nlohmann::json{{"traceEvents", events}, {"displayTimeUnit", "ms"}}.dump() << "\n";
  if (!out) throw Error("cannot write the trace to '" + path + "'");
}

class BenchCommand : public Command {
 public:
  void setup(CLI::App& app) override {
    sub = app.add_subcommand("bench", "Measure a model's latency (median, p90), compile time and memory");
    sub->add_option("model", model_, "a .pt2 archive or an engine file")->required();
    sub->add_option("--inputs", inputs_,
                    "time these inputs (.npz or torch.save .pt, as `atenrt run --inputs`); default: the sample "
                    "inputs a .pt2 carries, else random ones (floats uniform in [-1, 1], integers 0; dynamic "
                    "dimensions at their opt size, or --batch)");
    sub->add_option("--iterations", iterations_, "timed runs")->check(CLI::Range(1, 1000000));
    sub->add_option("--warmup", warmup_, "untimed runs first")->check(CLI::Range(0, 1000000));
    sub->add_flag("--json", json_, "print one JSON object");
    sub->add_flag("--verbose", verbose_, "also print the engine's steps, kernels and memory plan");
    sub->add_flag("--profile", profile_, "time every step over as many further runs and print where the time goes");
    sub->add_option("--trace", trace_, "write the last profiled run as a Chrome trace (JSON; implies --profile)");
    sub->add_flag("--memory", memory_, "print the memory breakdown: weights, activations, scratch, outputs, runtime overhead");
    sub->add_option("--profile-out", profile_out_, "write the per-step profile as JSON to this file (implies --profile)");
    sub->add_option("--streams", streams_,
                    "run N contexts on N threads at once and report their combined throughput (each run gets "
                    "cores/N threads unless --threads is given)")
        ->check(CLI::Range(1, 256));
    sub->add_option("--batch", batch_, "the batch (leading) dim of every input, for engines with a dynamic batch")
        ->check(CLI::Range(1, 1 << 20));
    flags_.add_to(sub);
  }

  int run() override {
    CompileReport report;
    // N streams share the cores: each run gets its share unless --threads
    // says otherwise, and the kernels are made for that share.
    const int stream_share =
        streams_ > 1 ? std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / streams_) : 0;
    const Engine engine = load_or_compile(model_, flags_, &report, stream_share);
    std::string source;
    const std::vector<Tensor> inputs = chosen_inputs(engine, source);
    const StreamRuns timed = run_streams(engine, inputs, streams_, warmup_, iterations_);
    const std::vector<double>& ms = timed.ms;
    const std::int64_t batch = batch_ > 0 ? batch_ : 1;
    const double runs_per_s = timed.wall_ms > 0 ? 1000.0 * static_cast<double>(ms.size()) / timed.wall_ms : 0.0;
    Profile profile;
    if (!profile_out_.empty()) profile_ = true;
    if (profile_ || !trace_.empty()) {
      auto context = engine.create_context();
      for (int i = 0; i < warmup_; ++i) context.run(inputs);
      context.set_profiling(true);
      for (int i = 0; i < iterations_; ++i) context.run(inputs);
      profile = context.profile();
      context.set_profiling(false);
      if (!trace_.empty()) write_trace(profile, trace_);
      if (!profile_out_.empty()) {
        std::ofstream out(profile_out_);
        out << profile_json(profile).dump(1) << "\n";
        if (!out) throw Error("cannot write the profile to '" + profile_out_ + "'");
      }
    }
    const double peak_rss_mb = peak_rss_mib();
    const Stats st = stats_of(ms);
    const double median = st.median, p90 = st.p90;
    const MemoryBreakdown mem = engine.memory();
    // What the peak holds beyond the engine: the process, its libraries, oneDNN's own buffers,
    // the inputs (and, from a .pt2, what compiling needed at its peak).
    const double engine_mb = static_cast<double>(mem.weights() + mem.per_context()) / (1024.0 * 1024.0);
    const double overhead_mb = std::max(0.0, peak_rss_mb - engine_mb);
    // What the engine really does, whatever the flags asked for.
    std::map<std::string, int> step_precisions;
    for (const auto& step : engine.steps()) step_precisions[step.precision]++;
    nlohmann::json shapes = nlohmann::json::array(), input_shapes = nlohmann::json::array();
    for (const auto& spec : engine.inputs()) shapes.push_back(spec.to_string());
    for (const auto& t : inputs) input_shapes.push_back(t.sizes());
    if (json_) {
      nlohmann::json j = {
          {"model", model_},
          {"precision", engine.precision()},
          {"step_precisions", step_precisions},
          {"threads", engine.effective_threads()},
          {"omp_wait_policy", omp_wait_policy()},
          {"inputs", shapes},
          {"input_source", source},
          {"input_shapes", input_shapes},  // what was run (a dynamic engine's opt shape, or --batch)
          {"iterations", iterations_},
          {"warmup", warmup_},
          {"median_ms", median},
          {"p90_ms", p90},
          {"p99_ms", st.p99},
          {"min_ms", st.min},
          {"mean_ms", st.mean},
          {"stddev_ms", st.stddev},
          {"streams", streams_},
          {"batch", batch},
          {"runs", ms.size()},  // timed runs, all streams together
          {"wall_ms", timed.wall_ms},
          {"throughput_per_s", runs_per_s},  // runs per second, all streams together
          {"inferences_per_s", runs_per_s * static_cast<double>(batch)},
          {"noisy", noisy(st)},
          {"compile_ms", report.compile_ms},
          {"warnings", report.warnings},
          {"activation_bytes", engine.activation_bytes()},
          {"weight_bytes", engine.weight_bytes()},
          {"peak_rss_mb", peak_rss_mb},
          {"memory", {{"weights_plain", mem.weights_plain}, {"weights_packed", mem.weights_packed},
                      {"weights_mapped", mem.weights_mapped}, {"weights_torch", mem.weights_torch},
                      {"activations", mem.activations}, {"scratch", mem.scratch}, {"outputs", mem.outputs},
                      {"overhead_mb", overhead_mb}}},
      };
      if (verbose_) j["describe"] = engine.describe();
      if (profile_ || !trace_.empty()) j["profile"] = profile_json(profile);
      std::cout << j.dump() << "\n";
    } else {
      if (verbose_) std::cout << engine.describe() << "\n";
      std::string precisions;
      for (const auto& [p, n] : step_precisions) precisions += (precisions.empty() ? "" : ", ") + std::to_string(n) + " " + p;
      std::cout << model_ << " (" << engine.precision() << ": steps " << precisions << "; "
                << engine.effective_threads() << " threads" << (streams_ > 1 ? " per stream" : "") << "; " << iterations_
                << " runs after " << warmup_ << " warm-up" << (streams_ > 1 ? " on each stream" : "") << ")\n"
                << "  median " << fixed(median, 3) << " ms, p90 " << fixed(p90, 3) << " ms, p99 " << fixed(st.p99, 3)
                << " ms (min " << fixed(st.min, 3) << ", mean " << fixed(st.mean, 3) << ", stddev " << fixed(st.stddev, 3)
                << "); " << fixed(runs_per_s, 1) << " runs/s"
                << (streams_ > 1 ? " on " + std::to_string(streams_) + " streams" : std::string(" on one context"))
                << (batch > 1 ? ", " + fixed(runs_per_s * static_cast<double>(batch), 1) + " inferences/s at batch " +
                                    std::to_string(batch)
                              : std::string())
                << "\n"
                << "  compile " << report.compile_ms << " ms\n"
                << "  inputs " << shapes.dump() << (engine.is_dynamic() || batch_ > 0 ? ", run at " + input_shapes.dump() : "")
                << " from " << source
                << "\n"
                << "  activations " << engine.activation_bytes() / 1024 << " KiB planned, weights "
                << engine.weight_bytes() / 1024 << " KiB, peak RSS " << peak_rss_mb << " MiB\n";
      if (memory_) {
        auto mib = [](std::size_t b) { return fixed(static_cast<double>(b) / (1024.0 * 1024.0), 2); };
        std::cout << "  memory (MiB): weights " << mib(mem.weights()) << " (plain " << mib(mem.weights_plain)
                  << ", pre-packed " << mib(mem.weights_packed) << ", torch " << mib(mem.weights_torch) << "; "
                  << mib(mem.weights_mapped) << " mapped from the engine file, shared by processes)\n"
                  << "                per context: activations " << mib(mem.activations) << ", scratch "
                  << mib(mem.scratch) << ", outputs " << mib(mem.outputs) << "\n"
                  << "                peak RSS " << fixed(peak_rss_mb, 2) << " = engine " << fixed(engine_mb, 2)
                  << " + " << fixed(overhead_mb, 2) << " process, libraries, oneDNN and inputs"
                  << (model_.size() > 4 && model_.compare(model_.size() - 4, 4, ".pt2") == 0 ? " (and compiling)" : "")
                  << "\n";
      }
      if (noisy(st)) {
        std::cout << "  warning: the spread is wide (p90 " << fixed(p90 / median, 2)
                  << "x the median): the machine was busy; compare ratios from one run, or run again\n";
      }
      std::cout.flush();
      if (profile_ || !trace_.empty()) print_profile(profile, median);
      if (!trace_.empty()) std::printf("trace of the last profiled run: %s\n", trace_.c_str());
    }
    return 0;
  }

 private:
  // --inputs, else the archive's sample inputs when they fit the engine, else random.
  std::vector<Tensor> chosen_inputs(const Engine& engine, std::string& source) const {
    if (batch_ > 0 && !inputs_.empty()) {
      throw UsageError("bench: --batch sets the shape of random inputs; the --inputs file has its own shapes");
    }
    if (!inputs_.empty() || (batch_ == 0 && !is_engine_file(model_))) {
      try {
        ModelInputs in = read_model_inputs(model_, inputs_, &engine.inputs());
        source = in.source;
        return std::move(in.tensors);
      } catch (const InputError& e) {
        if (!inputs_.empty()) throw;
        source = std::string("random (no usable sample inputs: ") + e.what() + ")";
      }
    } else {
      source = batch_ > 0 ? "random (--batch " + std::to_string(batch_) + ")"
                          : "random (an engine file carries no sample inputs)";
    }
    std::mt19937 rng(0);
    std::vector<Tensor> inputs;
    for (const auto& spec : engine.inputs()) inputs.push_back(random_input(spec, bench_shape(spec, batch_), rng));
    return inputs;
  }

  std::string model_;
  std::string inputs_;
  int iterations_ = 50;
  int warmup_ = 5;
  bool json_ = false;
  bool verbose_ = false;
  bool profile_ = false;
  bool memory_ = false;
  std::string trace_;
  std::string profile_out_;
  int streams_ = 1;
  std::int64_t batch_ = 0;  // 0: the engine's own (opt) shape
  SettingsFlags flags_;
};

}  // namespace

std::unique_ptr<Command> make_bench_command() { return std::make_unique<BenchCommand>(); }

}  // namespace atenrt::cli
