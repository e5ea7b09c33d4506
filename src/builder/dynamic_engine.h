// Dynamic shapes: one engine for a range of input shapes.
//
// The design (docs/dynamic-shapes.md): conversion builds one network whose
// dynamic dims are -1 and whose size computations are Shape/Gather/
// elementwise layers. The shape-independent builder passes (constant and
// batch-norm folding, dead layers) run on it once. A concrete input shape is
// served by a specialization: the network copied with those input dims
// (shape inference re-run, every size computation folded to a constant), then
// the rest of the builder (to_program, post-op fusion, precision) and a
// runtime::Engine (kernels, layouts, memory plan) for exactly that shape.
// Specializations are made on first use and cached (bounded, shared by every
// context, thread safe); the opt shape's is made at compile time. All of them
// share one store of weight packs (runtime::SharedWeightPacks): a weight is
// packed once, by the first specialization that needs it, and read by the
// rest in place. The plain weights are then given back until a new
// specialization or a save reads them (plain_weights.h): the engine holds
// each weight once.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "builder/builder.h"
#include "builder/stages.h"
#include "runtime/shape_range.h"

namespace atenrt::builder {

using network::Dims;

// Input ranges (runtime/shape_range.h): hybrid programs hold them too.
using runtime::DimRange;
using runtime::InputRange;

// Copy of `net` with static input dims `input_dims`, re-inferred, with the
// layers whose inputs became known (Shape of static tensors and everything
// computed only from constants) folded into constants. Tensor names are kept.
// A folded constant larger than `max_memory_bytes` (0: the machine's limit)
// is an UnsupportedError.
network::Network specialize(const network::Network& net, const std::vector<Dims>& input_dims,
                            std::uint64_t max_memory_bytes = 0);

class DynamicEngine {
 public:
  // `net` has dynamic inputs; `ranges` lists them in the network's input
  // order. Builds the opt shape's specialization (throws what the builder
  // throws), and checks that min and max shapes infer.
  DynamicEngine(network::Network net, BuilderConfig config, std::vector<InputRange> ranges,
                std::size_t capacity = kDefaultCapacity);

  static constexpr std::size_t kDefaultCapacity = 16;

  const std::vector<InputRange>& ranges() const { return ranges_; }
  const runtime::Engine& opt_engine() const { return *opt_; }
  std::shared_ptr<const runtime::Engine> opt_engine_shared() const { return opt_; }
  // Whether the network holds data-dependent layers (nonzero, ...): then it
  // runs in stages (stages.h): plan_for, not engine_for, and opt_engine() is
  // the opt shape's first stage.
  bool data_dependent() const { return staged_ != nullptr; }
  // The network's outputs (dims -1 where dynamic or data-dependent).
  std::vector<runtime::TensorInfo> network_outputs() const;
  // Output dims at the range's min and max shapes (a dim that differs from
  // the opt engine's is dynamic).
  const std::vector<Dims>& min_output_dims() const { return corner_outputs_[0]; }
  const std::vector<Dims>& max_output_dims() const { return corner_outputs_[1]; }

  // The engine for these input dims (engine input order): checks them
  // against the ranges (InputError naming the input, dim and range, or two
  // dims that share a symbol and differ), and makes the specialization on
  // first use. Thread safe.
  std::shared_ptr<const runtime::Engine> engine_for(const std::vector<Dims>& dims) const;
  // The same for a data-dependent network: the first stage's plan.
  std::shared_ptr<const StagePlan> plan_for(const std::vector<Dims>& dims) const;

  // Engine files (format 2.2, docs/engine-format.md): the network after the
  // shape-independent passes with its weights plain (packed for this machine
  // by the first specialization), the ranges and the builder settings.
  // Loading builds the opt shape's specialization, as compiling does; a
  // file that does not hold together is a FormatError.
  std::vector<std::byte> serialize() const;
  void save(const std::string& path, const std::string& metadata = {}) const;
  static bool is_dynamic_file(std::span<const std::byte> bytes);
  // `owner` keeps `bytes` alive (the constants view them).
  // Load-time settings: the memory limit and, when > 0, the thread count
  // every specialization's kernels are made for (runtime::EngineOptions).
  static std::shared_ptr<const DynamicEngine> deserialize(std::span<const std::byte> bytes,
                                                          std::shared_ptr<const void> owner,
                                                          std::uint64_t max_memory_bytes = 0, int num_threads = 0);
  static std::shared_ptr<const DynamicEngine> load(const std::string& path, std::uint64_t max_memory_bytes = 0,
                                                   int num_threads = 0);
  // The thread count its kernels are made for (runtime::Engine::kernel_threads).
  int kernel_threads() const { return opt_->kernel_threads(); }
  // A copy whose specializations are made for `num_threads` (> 0), through
  // the serialized form: costs about a load; specializations start anew.
  std::shared_ptr<const DynamicEngine> with_kernel_threads(int num_threads) const;

  using Stats = SpecializationStats;
  Stats stats() const;
  // The opt engine's memory, with the weights this engine holds now: every
  // pack its specializations made, and the plain weights not given back
  // (plain_weights.h).
  runtime::MemoryStats memory() const;

 private:
  void check(const std::vector<Dims>& dims) const { (void)runtime::check_input_dims(ranges_, dims); }
  std::shared_ptr<const runtime::Engine> build_for(const std::vector<Dims>& dims) const;

  network::Network net_;
  BuilderConfig config_;
  std::vector<InputRange> ranges_;
  std::size_t capacity_;
  std::shared_ptr<SpecializationShared> shared_;  // packs, the lock, the stats
  std::shared_ptr<const StagedNetwork> staged_;   // data-dependent networks only
  std::shared_ptr<const runtime::Engine> opt_;
  std::vector<Dims> corner_outputs_[2];

  struct Entry {
    std::shared_ptr<const runtime::Engine> engine;
    std::uint64_t last_use = 0;
  };
  mutable std::map<std::vector<Dims>, Entry> cache_;  // guarded by shared_->mutex
};

}  // namespace atenrt::builder
