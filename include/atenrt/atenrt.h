// atenrt's C++ API: compile a torch.export .pt2 archive into an Engine and run
// it. See README.md for the command-line face of the same calls.
//
//   atenrt::CompileSettings settings;
//   settings.precision = atenrt::Precision::BF16;
//   atenrt::Engine engine = atenrt::compile("resnet50.pt2", settings);
//   atenrt::ExecutionContext ctx = engine.create_context();   // one per thread
//   const std::vector<atenrt::Tensor>& out = ctx.run({input});
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "atenrt/dtype.h"
#include "atenrt/errors.h"
#include "atenrt/export.h"
#include "atenrt/report.h"
#include "atenrt/settings.h"
#include "atenrt/tensor.h"

namespace atenrt {

namespace runtime {
class Engine;
class ExecutionContext;
class HybridEngine;
class HybridContext;
}  // namespace runtime
namespace builder {
class DynamicEngine;
class DynamicContext;
}  // namespace builder

// Version and build of this library (`atenrt --version`). The version is the
// CMake project version, set in one place (CMakeLists.txt).
struct BuildInfo {
  std::string version;         // "0.1.0"
  std::string onednn_version;  // "2.6.3"
  std::string build_type;      // "Release"
  std::string compiler;        // "GNU 12.2.0"
  std::vector<std::string> options;  // "sanitizers off", "python bindings on", ...
  std::string cpu_isa;                  // what oneDNN uses here: "avx2", "avx512_core_amx", ...
  // The precisions this CPU has fast kernels for ("fp32", "bf16", "int8"):
  // a compile asking for another one keeps those layers in fp32.
  std::vector<std::string> precisions;
};
ATENRT_API const BuildInfo& build_info();

// An engine input or output. A dynamic input has -1 for its dynamic dims
// and its range in min_dims/opt_dims/max_dims (empty for static tensors).
struct ATENRT_API TensorSpec {
  std::string name;
  DType dtype = DType::Float32;
  std::vector<std::int64_t> dims;
  std::vector<std::int64_t> min_dims, opt_dims, max_dims;
  bool is_dynamic() const { return !opt_dims.empty(); }
  // Whether `shape` fits: same rank, static dims equal, dynamic dims within
  // the range.
  bool accepts(const std::vector<std::int64_t>& shape) const;
  // "x: float32[1, 3, 224, 224]"; dynamic: "x: float32[-1, 3] (1x3 to 8x3, opt 4x3)"
  std::string to_string() const;
};

// What compile() did, for reports and the CLI.
struct CompileReport {
  DryRunReport dry_run;    // the partition, as data
  std::string partition;   // the dry-run report as text (dry_run.to_text())
  std::string lowering;    // decompositions and passes that ran
  std::vector<std::string> fusions;
  // What the build did not do as asked, and why: a bf16/int8 precision this
  // CPU has no fast kernels for leaves the layers in fp32 (the precision
  // setting says which precisions the builder may use, as TensorRT's). Also
  // logged as a warning.
  std::vector<std::string> warnings;
  std::int64_t total_ops = 0;
  std::int64_t supported_ops = 0;
  double compile_ms = 0.0;
};

// One step of an engine: the layer it runs, the kernel that runs it, the
// layers fused into it, its compute precision and its output layout.
struct StepSpec {
  std::string name;
  std::string kind;            // "convolution", "matmul", ...
  std::string implementation;  // "onednn:<impl>", "own", "reference"
  std::string precision;       // "fp32", "bf16" or "int8"
  std::string layout;          // "plain" or "blocked(...)"
  std::vector<std::string> fused;
  double flops = 0.0;          // per run: 2 x multiply-adds of a convolution or matmul; 0 for others
  std::string in_place_of;     // the input whose buffer the output reuses (it dies there); "" for none
  // A fused relu or clip runs as oneDNN's max/min form, which turns NaN into
  // a number, whenever the step's inputs hold no NaN or ±inf (checked each
  // run), and as the NaN-keeping form otherwise.
  bool finite_input_form = false;
};

// Where a context's time goes (ExecutionContext::set_profiling): every step
// in run order with its time summed over `runs` runs, and where it started
// and how long it took in the last run (milliseconds from that run's start).
struct StepTime {
  StepSpec step;
  double total_ms = 0.0;
  double last_start_ms = 0.0;
  double last_ms = 0.0;
};
struct Profile {
  std::int64_t runs = 0;
  std::vector<StepTime> steps;
};

class ExecutionContext;

// What an engine holds in memory, in bytes (`inspect`, `bench --memory`).
// Weights are held once per engine (and, when mapped from an engine file,
// once per machine: processes share the file's pages); the rest is per
// ExecutionContext. A dynamic engine reports its opt shape's plan.
struct MemoryBreakdown {
  std::size_t weights_plain = 0;   // read by kernels as stored
  std::size_t weights_packed = 0;  // pre-packed into the kernels' layouts (blocked layouts may pad)
  std::size_t weights_mapped = 0;  // of the two above: pages of a mapped engine file
  std::size_t weights_torch = 0;   // hybrid engines: weights the torch segments read
  std::size_t activations = 0;     // the memory plan's peak (per context)
  std::size_t activations_without_reuse = 0;
  std::size_t scratch = 0;         // the largest kernel scratch (per context)
  std::size_t outputs = 0;         // context-owned outputs (per context)
  std::size_t weights() const { return weights_plain + weights_packed + weights_torch; }
  std::size_t per_context() const { return activations + scratch + outputs; }
};

// An immutable compiled engine; cheap to copy, safe to share across threads.
class ATENRT_API Engine {
 public:
  const std::vector<TensorSpec>& inputs() const;
  const std::vector<TensorSpec>& outputs() const;
  ExecutionContext create_context() const;

  // Steps with their kernels and fusions, and the memory plan, as text.
  std::string describe() const;
  std::size_t activation_bytes() const;  // the memory plan's peak
  std::size_t weight_bytes() const;      // every weight as held (memory().weights())
  MemoryBreakdown memory() const;

  std::vector<StepSpec> steps() const;
  // "bf16" or "int8" when any step computes in it, else "fp32" (the real precision:
  // only convolution and matmul steps take bf16).
  std::string precision() const;
  // Threads per run as set (0: the runtime's default), and as it will be.
  int num_threads() const { return num_threads_; }
  int effective_threads() const;
  // What an engine file fixed when it was built, for messages:
  // "precision bf16 (20 of 61 steps), blocked layouts, pre-packed weights".
  std::string built_settings() const;

  // Text stored with the engine in its file (at most 1 MiB; "" for none):
  // the Python package keeps the module's input and output structure there.
  const std::string& metadata() const { return metadata_; }
  Engine with_metadata(std::string text) const;

  void save(const std::string& path) const;
  // Loads an engine file and applies the load-time settings of `settings`
  // (num_threads). A compile-time setting that differs from its default is a
  // SettingsError naming the engine's own settings: a built engine cannot
  // change them.
  static Engine load(const std::string& path, const CompileSettings& settings = {});
  // This engine with other load-time settings. It shares the compiled state,
  // unless num_threads differs from the count its kernels were made for:
  // oneDNN fixes a kernel's thread team when it is made, so they are made
  // again then (about the cost of loading the engine's file).
  Engine with_load_settings(const CompileSettings& settings) const;
  // The thread count the kernels were made for (num_threads, or the
  // runtime's default when they were made); runs use no more.
  int kernel_threads() const;

  // Hybrid: engine segments and torch segments that the libtorch fallback
  // runs (operators no converter takes, or torch_executed_ops).
  bool hybrid() const { return hybrid_ != nullptr; }
  // The ATen ops its torch segments run ("aten.eye.default"); empty when not hybrid.
  std::vector<std::string> fallback_ops() const;
  // "2 engine segments, 1 torch segment (3 ops)"; "" when not hybrid.
  std::string segments_summary() const;
  // Dynamic shapes (docs/dynamic-shapes.md): an engine compiled from an
  // archive with dynamic dims takes every input shape in its range; the
  // opt shape's kernels are built at compile time, others on first use.
  bool is_dynamic() const { return dynamic_ != nullptr; }
  // How many shapes have been specialized, held, evicted; last build time.
  std::string shape_cache_summary() const;

  explicit Engine(std::shared_ptr<const runtime::Engine> engine);
  explicit Engine(std::shared_ptr<const runtime::HybridEngine> hybrid);
  explicit Engine(std::shared_ptr<const builder::DynamicEngine> dynamic);
  // The single engine (not hybrid; the opt shape's when dynamic) or the
  // engine segments (hybrid).
  const runtime::Engine& internal() const;
  std::vector<const runtime::Engine*> internal_engines() const;
  const std::shared_ptr<const runtime::HybridEngine>& internal_hybrid() const { return hybrid_; }
  const builder::DynamicEngine* dynamic() const { return dynamic_.get(); }
  const std::shared_ptr<const builder::DynamicEngine>& internal_dynamic() const { return dynamic_; }

 private:
  Engine with_kernel_threads(int num_threads) const;

  std::shared_ptr<const runtime::Engine> engine_;
  std::shared_ptr<const runtime::HybridEngine> hybrid_;
  std::shared_ptr<const builder::DynamicEngine> dynamic_;
  std::vector<TensorSpec> inputs_;
  std::vector<TensorSpec> outputs_;
  int num_threads_ = 0;
  std::string metadata_;
};

// Runs an Engine; use one per thread. Outputs are owned by the context and
// overwritten by the next run.
class ATENRT_API ExecutionContext {
 public:
  explicit ExecutionContext(const Engine& engine);
  ~ExecutionContext();
  ExecutionContext(ExecutionContext&&) noexcept;
  ExecutionContext& operator=(ExecutionContext&&) noexcept;

  // Inputs in the engine's order; wrong count, dtype or shape is an
  // InputError naming the input and what it expects.
  const std::vector<Tensor>& run(const std::vector<Tensor>& inputs);

  // Per-step timing: off by default (it reads the clock around every step);
  // turning it on clears what was recorded.
  void set_profiling(bool on = true);
  // The steps of what the last run used (a dynamic engine: that shape's
  // specialization) and their times since profiling was turned on.
  Profile profile() const;

 private:
  std::unique_ptr<runtime::ExecutionContext> context_;
  std::unique_ptr<runtime::HybridContext> hybrid_;
  // Dynamic engines: a context per recently used shape, or staged runs
  // (builder/dynamic_segment.h).
  std::unique_ptr<builder::DynamicContext> dynamic_;
  Engine engine_;
  bool profiling_ = false;
};

// Imports, lowers, partitions, converts and builds. Throws SettingsError for
// bad settings (validate()), FormatError for a bad archive, UnsupportedError
// (with the partition report) for graphs it cannot compile.
ATENRT_API Engine compile(const std::string& pt2_path, const CompileSettings& settings = {},
               CompileReport* report = nullptr);

// Imports, lowers and partitions only; never throws for unsupported nodes.
ATENRT_API CompileReport dry_run(const std::string& pt2_path, const CompileSettings& settings = {});

}  // namespace atenrt
