// Data-dependent output shapes (docs/dynamic-shapes.md, "Data-dependent
// output shapes"): a network that holds DataDependent layers is run, at each
// concrete input shape, in stages. A stage's specialization is cut in three:
// the prefix (layers with static dims whose inputs are known: an ordinary
// engine), the layers it feeds whose output sizes it decides (data-dependent
// layers, and layers sized by a value it computed, as item() -> new_zeros(n):
// run on the host, each output allocated at the size found), and the rest, a network of its own whose
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
#include "builder/plain_weights.h"

namespace atenrt::builder {

using network::Dims;

bool has_data_dependent_layers(const network::Network& net);
// Whether a network specialized at concrete input dims must run in stages:
// it holds a data-dependent layer, or a layer whose output size is a value
// computed at run time (item() feeding a size: new_zeros(n), x[:n], view(n, -1)).
bool needs_stages(const network::Network& specialized);

struct SpecializationStats {
  std::size_t specializations = 0;  // engines made since compile (the opt shape included)
  std::size_t cached = 0;           // held now
  std::size_t evicted = 0;
  double last_build_ms = 0.0;
};

// What every specialization of one dynamic engine shares: the settings, the
// weight packs, the plain weights (given back while no one reads them:
// plain_weights.h), and the lock under which specializations are made (they
// add to the packs one at a time), caches are read and plain weights restored.
struct SpecializationShared {
  BuilderConfig config;
  std::shared_ptr<runtime::SharedWeightPacks> packs;
  PlainWeights plain;
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

// Where the last profiled run's time went (StagedContext::set_profiling):
// the engines and host steps it went through in run order, one time entry
// per engine step or host step, starts measured from the run's start. An
// engine's totals are summed over every run of it; a host step's over the
// runs that took it.
struct StagedProfile {
  struct Part {
    std::shared_ptr<const runtime::Engine> engine;  // its steps; null: one host step
    std::string host_name, host_kind;
  };
  std::vector<Part> parts;
  runtime::StepTimes times;
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
  void set_profiling(bool on);
  const StagedProfile& profile() const { return profile_; }

 private:
  // `path`: the input dims of this stage and of each stage before it in the
  // run, which name the stage's plan (the host steps' totals are kept by it).
  std::vector<Tensor> run_stage(const StagePlan& plan, const std::vector<Tensor>& inputs, double run_start_ms,
                                std::vector<std::vector<Dims>>& path);
  runtime::ExecutionContext& context_for(const std::shared_ptr<const runtime::Engine>& engine);
  double now_ms() const;

  static constexpr std::size_t kContexts = 8;
  int num_threads_ = 0;
  struct Held {
    std::shared_ptr<const runtime::Engine> engine;
    std::unique_ptr<runtime::ExecutionContext> context;
  };
  std::vector<Held> held_;  // most recently used first
  std::vector<Tensor> outputs_;
  bool profiling_ = false;
  StagedProfile profile_;
  // Per host step, by its stage's path and index: not by the plan's address,
  // which a plan made after another was evicted may take again.
  std::map<std::pair<std::vector<std::vector<Dims>>, std::size_t>, double> host_total_ms_;
};

}  // namespace atenrt::builder
