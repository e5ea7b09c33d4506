// The CPU Engine and its ExecutionContext.
//
// An Engine is made from a Program (by the builder, or loaded from a file):
// it picks one kernel per step (oneDNN primitive, our own kernel, or the
// reference executor as a last resort), chooses layouts, pre-packs weights and
// plans activation memory. It is immutable after construction and can be
// shared by any number of threads; copies share the same compiled state.
//
// An ExecutionContext belongs to one thread at a time. It allocates every
// buffer the plan needs when it is made (arena, scratch, outputs, per-kernel
// state), so run() allocates nothing of ours (oneDNN may still allocate a
// small argument map per primitive call, and reference kernels allocate).
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "atenrt/tensor.h"
#include "runtime/program.h"

namespace atenrt::runtime {

struct EngineOptions {
  // Threads oneDNN and our kernels may use per run (0: OpenMP's default). Set
  // per calling thread through omp_set_num_threads before each run, and while
  // the kernels are made: oneDNN's primitives keep the team size they were
  // made with, so a context's set_num_threads does not change theirs.
  int num_threads = 0;
  // Keep tensors between conv/pool/activation steps in oneDNN blocked formats
  // (format_tag::any); reorders happen only at the edges of such runs.
  bool blocked_layout = true;
  // Reorder constant weights once, at build time, into the primitive's format.
  bool prepack_weights = true;
  // Liveness-based memory plan; false gives each activation its own buffer.
  bool reuse_memory = true;
  // Allow steps to fall back to the reference executor; false makes such a
  // step an UnsupportedError at build.
  bool allow_reference_kernels = true;
  // The most memory the engine may plan for; 0: the smaller of physical
  // memory and the cgroup limit. A load-time setting: engine files do not
  // store it.
  std::uint64_t max_memory_bytes = 0;
};

struct TensorInfo {
  std::string name;
  DType dtype = DType::Float32;
  Dims dims;
};

struct StepInfo {
  std::string name;
  std::string kind;
  std::string implementation;          // "onednn:<impl>", "own", "reference"
  std::vector<std::string> fused;      // layers folded in as post-ops
  std::string output_layout;           // "plain", "blocked(8)", "channels_last", ... (+ " bf16")
  Precision precision = Precision::Float32;
  double flops = 0.0;                  // per run: 2 x multiply-adds (convolution, matmul); 0 for others
  std::string in_place_of;             // the input tensor whose buffer the output takes over ("": its own)
  bool finite_input_form = false;      // fused relu/clip as oneDNN's max/min form while the inputs are finite
};

// Per-step times of a context's runs (set_profiling), in the order of
// Engine::steps(): milliseconds summed over `runs` runs, and where each step
// started and how long it took in the last run (ms from the run's start).
struct StepTimes {
  std::int64_t runs = 0;
  std::vector<double> total_ms, last_start_ms, last_ms;
  void reset(std::size_t steps);
  void append(const StepTimes& other, double offset_ms);  // a nested segment's steps
};

struct MemoryStats {
  std::size_t arena_bytes = 0;    // activations, as planned (peak)
  std::size_t naive_bytes = 0;    // activations, one buffer each
  std::size_t scratch_bytes = 0;  // largest kernel scratch
  std::size_t output_bytes = 0;   // context-owned outputs
  std::size_t constant_bytes = 0; // weights kernels read plain
  std::size_t packed_bytes = 0;   // weights pre-packed into the kernels' layouts
  std::size_t mapped_bytes = 0;   // of the two above: pages of the mapped engine file (shared by processes)
  std::size_t derived_bytes = 0;  // of packed_bytes: what kernels derive from weights (Winograd's transforms), never in a file
  std::size_t repacked_weights = 0;  // stored packs this CPU wanted in another layout (repacked at load)
};

// What a loaded engine keeps of its file (engine_impl.h).
struct LoadedFile;
// Weight packs that engines made from one network share (the shape
// specializations of a dynamic engine): a weight one of them packed is not
// packed again. Opaque outside the runtime: the backend decides what a pack is.
struct SharedWeightPacks;
std::shared_ptr<SharedWeightPacks> make_shared_weight_packs();

class ExecutionContext;

class Engine {
 public:
  Engine(Program program, EngineOptions options = {});
  // A loaded engine: weights stored pre-packed, and the file behind them.
  Engine(Program program, EngineOptions options, std::shared_ptr<const LoadedFile> file);
  // An engine whose weight packs live in `packs`, shared with other engines
  // made from the same network (the shape specializations of a dynamic
  // engine): a weight one of them packed is not packed again. Engines that
  // share packs must be made one at a time.
  Engine(Program program, EngineOptions options, std::shared_ptr<SharedWeightPacks> packs);

  const std::vector<TensorInfo>& inputs() const;
  const std::vector<TensorInfo>& outputs() const;
  const Program& program() const;
  const EngineOptions& options() const;
  // One per planned step, in run order; made with the engine, so references
  // into it live as long as the engine. A temporary engine's are copied out
  // (`for (auto& s : build(...).steps())` must not outlive the engine).
  const std::vector<StepInfo>& steps() const&;
  std::vector<StepInfo> steps() const&&;
  MemoryStats memory() const;
  // Throws an Error with the sizes when a tensor, or the plan as a whole
  // (activations, scratch, outputs, weights), needs more than `limit` bytes.
  void check_memory_limit(std::uint64_t limit) const;
  // How loading went, when there is something to say ("repacked 53 weights
  // (102.3 MB): packed for oneDNN 2.6 avx512_core_amx, this CPU: ..."); empty otherwise.
  const std::string& load_note() const;

  ExecutionContext create_context() const;

  // Engine files (docs/engine-format.md): a versioned container of
  // checksummed sections (program, weights). Loading verifies the whole file
  // before use and re-creates the kernels; a corrupt, foreign or
  // other-version file is a FormatError. save() writes a temporary file and
  // renames it over `path`; non-empty `metadata` goes into a metadata section.
  void save(const std::string& path, const std::string& metadata = {}) const;
  // Load-time settings of the loaded engine: `max_memory_bytes`
  // (EngineOptions::max_memory_bytes) and, when > 0, `num_threads` in place
  // of the file's; the kernels are made under it (see EngineOptions).
  static Engine load(const std::string& path, std::uint64_t max_memory_bytes = 0, int num_threads = 0);
  std::vector<std::byte> serialize() const;
  // The same load-time settings as load().
  static Engine deserialize(const std::vector<std::byte>& bytes, std::uint64_t max_memory_bytes = 0,
                            int num_threads = 0);

  // The thread count the kernels were made for: options().num_threads, or
  // OpenMP's default when they were made. Runs use no more (see EngineOptions).
  int kernel_threads() const;
  // This engine with its kernels made again for `num_threads` (> 0), through
  // its serialized form (costs about a load, and holds the weights twice
  // meanwhile); itself when they already are.
  Engine with_kernel_threads(int num_threads) const;

  struct Impl;

 private:
  std::shared_ptr<const Impl> impl_;
  friend class ExecutionContext;
};

class ExecutionContext {
 public:
  explicit ExecutionContext(const Engine& engine);
  ~ExecutionContext();
  ExecutionContext(ExecutionContext&&) noexcept;
  ExecutionContext& operator=(ExecutionContext&&) noexcept;

  // Runs on inputs in the engine's input order. Each must have the expected
  // dtype and dims (any strides); otherwise InputError names the input. The
  // returned outputs are owned by the context and overwritten by the next run.
  const std::vector<Tensor>& run(const std::vector<Tensor>& inputs);
  // Same, by input name; returns outputs by name (copies of the handles).
  std::map<std::string, Tensor> run(const std::map<std::string, Tensor>& inputs);
  const std::vector<Tensor>& outputs() const;
  // Threads for this context's runs; 0 keeps the engine's own setting.
  void set_num_threads(int num_threads);

  // Per-step timing (off by default: it reads the clock around every step).
  // Turning it on (again) clears what was recorded.
  void set_profiling(bool on);
  const StepTimes& profile() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace atenrt::runtime
