// A dynamic engine as a hybrid program's engine segment
// (runtime::ShapedSegment): the segments between torch segments of a
// dynamic-shape program, and segments whose sizes depend on the data.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "builder/dynamic_engine.h"
#include "runtime/hybrid.h"

namespace atenrt::builder {

// Runs a DynamicEngine for one caller at a time: a runtime context per
// recently used shape (each holds its specialization alive), or the staged
// runs of a data-dependent network.
class DynamicContext final : public runtime::ShapedSegmentContext {
 public:
  explicit DynamicContext(std::shared_ptr<const DynamicEngine> engine);
  ~DynamicContext() override;
  const std::vector<Tensor>& run(const std::vector<Tensor>& inputs) override;
  void set_num_threads(int num_threads) override;
  void set_profiling(bool on) override;
  runtime::StepTimes profile() const override;
  const runtime::Engine* last_engine() const override { return last_engine_.get(); }
  // A data-dependent network's last profiled run, stage by stage (null
  // for other networks, or before a run).
  const StagedProfile* staged_profile() const { return staged_ ? &staged_->profile() : nullptr; }

 private:
  struct Shaped {
    std::shared_ptr<const runtime::Engine> engine;
    std::unique_ptr<runtime::ExecutionContext> context;
  };
  static constexpr std::size_t kShapedContexts = 4;
  std::shared_ptr<const DynamicEngine> engine_;
  int num_threads_ = 0;
  bool profiling_ = false;
  std::vector<Shaped> shaped_;  // most recently used first
  std::unique_ptr<StagedContext> staged_;
  std::shared_ptr<const runtime::Engine> last_engine_;
};

class DynamicSegment final : public runtime::ShapedSegment {
 public:
  explicit DynamicSegment(std::shared_ptr<const DynamicEngine> engine) : engine_(std::move(engine)) {}
  const std::vector<runtime::InputRange>& ranges() const override { return engine_->ranges(); }
  std::vector<runtime::TensorInfo> outputs() const override;
  const runtime::Engine& opt_engine() const override { return engine_->opt_engine(); }
  runtime::MemoryStats memory() const override { return engine_->memory(); }
  std::unique_ptr<runtime::ShapedSegmentContext> make_context() const override {
    return std::make_unique<DynamicContext>(engine_);
  }
  std::vector<std::byte> serialize() const override { return engine_->serialize(); }
  const DynamicEngine& engine() const { return *engine_; }

  // The loader hybrid engine files take (runtime::ShapedSegmentLoader); it
  // copies the bytes, which the segment's constants then view.
  static std::shared_ptr<const runtime::ShapedSegment> load(std::span<const std::byte> bytes,
                                                            std::uint64_t max_memory_bytes = 0, int num_threads = 0);

 private:
  std::shared_ptr<const DynamicEngine> engine_;
};

}  // namespace atenrt::builder
