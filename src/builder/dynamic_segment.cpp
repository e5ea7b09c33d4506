#include "builder/dynamic_segment.h"

#include <algorithm>

#include "atenrt/errors.h"

namespace atenrt::builder {

DynamicContext::DynamicContext(std::shared_ptr<const DynamicEngine> engine)
    : engine_(std::move(engine)), last_engine_(engine_->opt_engine_shared()) {
  // The opt shape's context now, as a static engine's: its first run (often
  // a profiled one) then does not pay for making it.
  if (!engine_->data_dependent()) {
    shaped_.push_back({last_engine_, std::make_unique<runtime::ExecutionContext>(*last_engine_)});
  }
}

DynamicContext::~DynamicContext() = default;

void DynamicContext::set_num_threads(int num_threads) {
  num_threads_ = num_threads;
  for (auto& s : shaped_) s.context->set_num_threads(num_threads);
  staged_.reset();  // made again with the new count
}

void DynamicContext::set_profiling(bool on) {
  profiling_ = on;
  for (auto& s : shaped_) s.context->set_profiling(on);
  if (staged_) staged_->set_profiling(on);
}

runtime::StepTimes DynamicContext::profile() const {
  // A staged run's steps are its stages' (staged_profile()); as a hybrid
  // segment, listed as the opt engine's steps, it reports none.
  if (!profiling_ || engine_->data_dependent() || shaped_.empty()) return {};
  return shaped_.front().context->profile();
}

const std::vector<Tensor>& DynamicContext::run(const std::vector<Tensor>& inputs) {
  std::vector<Dims> dims;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].defined()) throw InputError("input " + std::to_string(i) + " is an undefined tensor");
    dims.push_back(inputs[i].sizes());
  }
  const auto& ranges = engine_->ranges();
  for (std::size_t i = 0; i < inputs.size() && i < ranges.size(); ++i) {
    if (inputs[i].dtype() != ranges[i].dtype) {
      throw InputError("input '" + ranges[i].name + "': expected " + std::string(dtype_name(ranges[i].dtype)) +
                       ", got " + std::string(dtype_name(inputs[i].dtype())));
    }
  }
  if (engine_->data_dependent()) {
    const auto plan = engine_->plan_for(dims);  // checks the ranges
    if (!staged_) {
      staged_ = std::make_unique<StagedContext>(num_threads_);
      staged_->set_profiling(profiling_);
    }
    last_engine_ = plan->prefix;
    return staged_->run(*plan, inputs);
  }
  auto engine = engine_->engine_for(dims);  // checks the ranges
  last_engine_ = engine;
  auto it = std::find_if(shaped_.begin(), shaped_.end(), [&](const Shaped& s) { return s.engine == engine; });
  if (it != shaped_.end()) {
    std::rotate(shaped_.begin(), it, it + 1);
  } else {
    if (shaped_.size() >= kShapedContexts) shaped_.pop_back();
    Shaped s{engine, std::make_unique<runtime::ExecutionContext>(*engine)};
    s.context->set_num_threads(num_threads_);
    if (profiling_) s.context->set_profiling(true);
    shaped_.insert(shaped_.begin(), std::move(s));
  }
  return shaped_.front().context->run(inputs);
}

std::vector<runtime::TensorInfo> DynamicSegment::outputs() const {
  // The network's dims (-1 where dynamic or data-dependent); a dim the
  // network states but that differs between the range's corners varies too.
  auto out = engine_->network_outputs();
  for (const auto* corner : {&engine_->min_output_dims(), &engine_->max_output_dims()}) {
    for (std::size_t o = 0; o < out.size() && o < corner->size(); ++o) {
      for (std::size_t d = 0; d < out[o].dims.size() && d < (*corner)[o].size(); ++d) {
        if ((*corner)[o][d] != out[o].dims[d]) out[o].dims[d] = -1;
      }
    }
  }
  return out;
}

std::shared_ptr<const runtime::ShapedSegment> DynamicSegment::load(std::span<const std::byte> bytes,
                                                                   std::uint64_t max_memory_bytes, int num_threads) {
  auto owned = std::make_shared<const std::vector<std::byte>>(bytes.begin(), bytes.end());
  auto engine = DynamicEngine::deserialize(*owned, owned, max_memory_bytes, num_threads);
  return std::make_shared<const DynamicSegment>(std::move(engine));
}

}  // namespace atenrt::builder
