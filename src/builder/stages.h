// Data-dependent output shapes (docs/dynamic-shapes.md, "Data-dependent
// output shapes"): a network that holds DataDependent layers is run, at each
// concrete input shape, in stages. A stage's specialization is cut in three:
// the prefix (layers with static dims whose inputs are known: an ordinary
// engine), the data-dependent layers it feeds (run on the host, each output
// allocated at the size it counted), and the rest, a network of its own whose
// inputs are the values it reads from the first two. The rest is specialized
// at the sizes found, per stage and cached, and may hold further stages.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "builder/builder.h"

namespace atenrt::builder {

using network::Dims;

bool has_data_dependent_layers(const network::Network& net);

struct SpecializationStats {
  std::size_t specializations = 0;  // engines made since compile (the opt shape included)
  std::size_t cached = 0;           // held now
  std::size_t evicted = 0;
  double last_build_ms = 0.0;
};

// What every specialization of one dynamic engine shares: the settings, the
// weight packs, and the lock under which specializations are made (they add
// to the packs one at a time) and caches are read.
struct SpecializationShared {
  BuilderConfig config;
  std::shared_ptr<runtime::SharedWeightPacks> packs;
  std::size_t capacity = 16;  // per cache
  std::mutex mutex;
  std::uint64_t clock = 0;
  SpecializationStats stats;
};

// The builder's shape-dependent passes and a runtime engine for a network
// whose dims are all known. Call with shared.mutex held.
std::shared_ptr<const runtime::Engine> build_specialized(network::Network net, SpecializationShared& shared);

class StagedNetwork;

// One stage at concrete input dims. Slots: the prefix engine's outputs, then
// each host step's outputs in order.
struct StagePlan {
  std::shared_ptr<const runtime::Engine> prefix;  // takes the stage's inputs
  struct HostStep {
    std::string name;
    network::LayerParams params;
    std::vector<int> inputs;  // slots
  };
  std::vector<HostStep> host;
  std::shared_ptr<const StagedNetwork> rest;  // null: the stage is the last
  std::vector<int> rest_inputs;               // slots, in the rest's input order
  std::vector<int> outputs;                   // >= 0: a slot; < 0: the rest's output -1 - k
  std::uint64_t memory_limit = 0;             // host outputs are checked against it
};

// A network and its stage plans per concrete input dims (cached, bounded).
class StagedNetwork {
 public:
  StagedNetwork(network::Network net, std::shared_ptr<SpecializationShared> shared);
  const network::Network& network() const { return net_; }
  // Makes the plan on first use (thread safe). Dims that the network cannot
  // take are an InputError naming the sizes.
  std::shared_ptr<const StagePlan> plan_for(const std::vector<Dims>& dims) const;

 private:
  std::shared_ptr<const StagePlan> make_plan(const std::vector<Dims>& dims) const;

  network::Network net_;
  std::shared_ptr<SpecializationShared> shared_;
  struct Entry {
    std::shared_ptr<const StagePlan> plan;
    std::uint64_t last_use = 0;
  };
  mutable std::map<std::vector<Dims>, Entry> cache_;  // guarded by shared_->mutex
};

// Runs stage plans for one caller at a time (one per ExecutionContext): a
// runtime context per recently used engine, reused across runs.
class StagedContext {
 public:
  explicit StagedContext(int num_threads) : num_threads_(num_threads) {}
  ~StagedContext();
  StagedContext(const StagedContext&) = delete;
  StagedContext& operator=(const StagedContext&) = delete;
  // Outputs stay valid until the next run.
  const std::vector<Tensor>& run(const StagePlan& plan, const std::vector<Tensor>& inputs);

 private:
  std::vector<Tensor> run_stage(const StagePlan& plan, const std::vector<Tensor>& inputs);
  runtime::ExecutionContext& context_for(const std::shared_ptr<const runtime::Engine>& engine);

  static constexpr std::size_t kContexts = 8;
  int num_threads_ = 0;
  struct Held {
    std::shared_ptr<const runtime::Engine> engine;
    std::unique_ptr<runtime::ExecutionContext> context;
  };
  std::vector<Held> held_;  // most recently used first
  std::vector<Tensor> outputs_;
};

}  // namespace atenrt::builder
