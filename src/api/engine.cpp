// atenrt::Engine and ExecutionContext: the public face of runtime::Engine,
// with the load-time settings (threads) an engine file still takes.

#include <algorithm>
#include <cstdio>
#include <optional>
#include <sstream>

#include "atenrt/atenrt.h"
#include "builder/dynamic_engine.h"
#include "builder/dynamic_segment.h"
#include "conversion/plugins.h"
#include "ir/log.h"
#include "runtime/engine.h"
#include "runtime/hybrid.h"
#include "runtime/openmp.h"
#include "runtime/serialize.h"

namespace atenrt {
namespace {

std::vector<TensorSpec> specs(const std::vector<runtime::TensorInfo>& infos) {
  std::vector<TensorSpec> out;
  for (const auto& i : infos) {
    TensorSpec spec;
    spec.name = i.name;
    spec.dtype = i.dtype;
    spec.dims = i.dims;
    out.push_back(std::move(spec));
  }
  return out;
}

const char* precision_name(runtime::Precision p) {
  return p == runtime::Precision::BFloat16 ? "bf16" : p == runtime::Precision::Int8 ? "int8" : "fp32";
}

}  // namespace

std::string TensorSpec::to_string() const {
  std::string out = name + ": " + std::string(dtype_name(dtype)) + shape_to_string(dims);
  if (!is_dynamic()) return out;
  auto text = [](const std::vector<std::int64_t>& d) {
    std::string t;
    for (std::size_t i = 0; i < d.size(); ++i) t += (i ? "x" : "") + std::to_string(d[i]);
    return t.empty() ? std::string("scalar") : t;
  };
  return out + " (" + text(min_dims) + " to " + text(max_dims) + ", opt " + text(opt_dims) + ")";
}

bool TensorSpec::accepts(const std::vector<std::int64_t>& shape) const {
  if (shape.size() != dims.size()) return false;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] >= 0 ? shape[d] != dims[d] : (shape[d] < min_dims.at(d) || shape[d] > max_dims.at(d))) return false;
  }
  return true;
}

Engine::Engine(std::shared_ptr<const builder::DynamicEngine> dynamic)
    : Engine(dynamic->opt_engine_shared()) {
  dynamic_ = std::move(dynamic);
  for (std::size_t i = 0; i < inputs_.size() && i < dynamic_->ranges().size(); ++i) {
    const auto& r = dynamic_->ranges()[i];
    auto& spec = inputs_[i];
    spec.min_dims = r.min();
    spec.opt_dims = r.opt();
    spec.max_dims = r.max();
    for (std::size_t d = 0; d < r.dims.size(); ++d) {
      if (!r.dims[d].is_static()) spec.dims[d] = -1;
    }
  }
  // A data-dependent network's outputs are what its network says (the opt
  // engine is its first stage); otherwise outputs whose dims differ between
  // the range's corners are dynamic too.
  if (dynamic_->data_dependent()) {
    outputs_ = specs(dynamic_->network_outputs());
    return;
  }
  for (const auto* corner : {&dynamic_->min_output_dims(), &dynamic_->max_output_dims()}) {
    for (std::size_t o = 0; o < outputs_.size() && o < corner->size(); ++o) {
      for (std::size_t d = 0; d < outputs_[o].dims.size() && d < (*corner)[o].size(); ++d) {
        if ((*corner)[o][d] != outputs_[o].dims[d]) outputs_[o].dims[d] = -1;
      }
    }
  }
}

std::string Engine::shape_cache_summary() const {
  if (!dynamic_) return "static engine";
  const auto s = dynamic_->stats();
  char ms[32];
  std::snprintf(ms, sizeof ms, "%.1f", s.last_build_ms);
  return std::to_string(s.specializations) + " shapes specialized, " + std::to_string(s.cached) + " held, " +
         std::to_string(s.evicted) + " evicted; last took " + ms + " ms";
}

Engine::Engine(std::shared_ptr<const runtime::Engine> engine)
    : engine_(std::move(engine)),
      inputs_(specs(engine_->inputs())),
      outputs_(specs(engine_->outputs())),
      num_threads_(engine_->options().num_threads) {}

Engine::Engine(std::shared_ptr<const runtime::HybridEngine> hybrid)
    : hybrid_(std::move(hybrid)), inputs_(specs(hybrid_->inputs())), outputs_(specs(hybrid_->outputs())) {
  const auto& ranges = hybrid_->program().input_ranges;
  for (std::size_t i = 0; i < inputs_.size() && i < ranges.size(); ++i) {
    inputs_[i].min_dims = ranges[i].min();
    inputs_[i].opt_dims = ranges[i].opt();
    inputs_[i].max_dims = ranges[i].max();
  }
  const auto engines = internal_engines();
  num_threads_ = engines.empty() ? 0 : engines.front()->options().num_threads;
}

const runtime::Engine& Engine::internal() const {
  if (!engine_) throw Error("a hybrid engine holds several engine segments (internal_engines())");
  return *engine_;
}

std::vector<const runtime::Engine*> Engine::internal_engines() const {
  if (!hybrid_) return {engine_.get()};
  std::vector<const runtime::Engine*> out;
  for (const auto& st : hybrid_->program().stages) {
    if (st.engine) out.push_back(st.engine.get());
    if (st.shaped) out.push_back(&st.shaped->opt_engine());
  }
  return out;
}

std::vector<std::string> Engine::fallback_ops() const { return hybrid_ ? hybrid_->program().torch_ops() : std::vector<std::string>{}; }

std::string Engine::segments_summary() const {
  if (!hybrid_) return "";
  std::size_t engines = 0, torch = 0, ops = 0;
  for (const auto& st : hybrid_->program().stages) {
    if (st.kind == runtime::HybridStage::Kind::Engine) {
      ++engines;
    } else {
      ++torch;
      ops += st.nodes.size();
    }
  }
  return std::to_string(engines) + " engine segment" + (engines == 1 ? "" : "s") + ", " + std::to_string(torch) +
         " torch segment" + (torch == 1 ? "" : "s") + " (" + std::to_string(ops) + " op" + (ops == 1 ? "" : "s") +
         " in libtorch " + hybrid_->plugin().torch_version + ")";
}

const std::vector<TensorSpec>& Engine::inputs() const { return inputs_; }
const std::vector<TensorSpec>& Engine::outputs() const { return outputs_; }
ExecutionContext Engine::create_context() const { return ExecutionContext(*this); }

namespace {

void append_steps(const runtime::Engine& engine, std::vector<StepSpec>& out) {
  for (const auto& s : engine.steps()) {
    out.push_back({s.name, s.kind, s.implementation, precision_name(s.precision),
                   s.output_layout.empty() ? "plain" : s.output_layout, s.fused, s.flops, s.in_place_of,
                   s.finite_input_form});
  }
}

}  // namespace

// A hybrid engine's steps in run order; a torch node is one step whose
// implementation is "libtorch <version>".
std::vector<StepSpec> Engine::steps() const {
  std::vector<StepSpec> out;
  if (!hybrid_) {
    append_steps(*engine_, out);
    return out;
  }
  const std::string torch = std::string("libtorch ") + hybrid_->plugin().torch_version;
  for (const auto& st : hybrid_->program().stages) {
    if (st.engine || st.shaped) {
      append_steps(st.engine ? *st.engine : st.shaped->opt_engine(), out);
      continue;
    }
    for (const auto& n : st.nodes) {
      std::string op = n.call.op.substr(n.call.op.find("::") + 2);
      // "node 'eye' (aten.eye.default)" -> "[torch]-[eye]", named like the layers.
      const auto& d = n.call.node;
      const auto a = d.find('\''), b = d.rfind("' (");
      const std::string name = a != std::string::npos && b != std::string::npos && b > a ? d.substr(a + 1, b - a - 1) : d;
      out.push_back({"[torch]-[" + name + "]", "aten." + op + "." + (n.call.overload.empty() ? "default" : n.call.overload),
                     torch, "fp32", "plain", {}, 0.0, ""});
    }
  }
  return out;
}

std::string Engine::precision() const {
  for (const auto* e : internal_engines()) {
    for (const auto& s : e->steps()) {
      if (s.precision != runtime::Precision::Float32) return precision_name(s.precision);
    }
  }
  return "fp32";
}

int Engine::effective_threads() const { return num_threads_ > 0 ? num_threads_ : runtime::openmp_max_threads(); }

std::string Engine::built_settings() const {
  std::size_t bf16 = 0, all = 0;  // steps not in fp32
  for (const auto* e : internal_engines()) {
    for (const auto& s : e->steps()) {
      bf16 += s.precision != runtime::Precision::Float32;  // bf16 or int8: an engine has one of them
      ++all;
    }
  }
  std::ostringstream out;
  out << "precision " << precision();
  if (bf16) out << " (" << bf16 << " of " << all << " steps)";
  const auto engines = internal_engines();
  if (!engines.empty()) {
    const auto& o = engines.front()->options();
    out << ", " << (o.blocked_layout ? "blocked" : "plain") << " layouts, "
        << (o.prepack_weights ? "pre-packed" : "plain") << " weights";
  }
  if (hybrid_) out << ", hybrid: " << segments_summary();
  if (dynamic_) out << ", dynamic shapes (kernels, memory and steps shown are the opt shape's)";
  return out.str();
}

std::string Engine::describe() const {
  std::ostringstream out;
  if (dynamic_) out << "dynamic shapes: steps and memory below are the opt shape's; " << shape_cache_summary() << "\n";
  out << "inputs:\n";
  for (const auto& i : inputs_) out << "  " << i.to_string() << "\n";
  out << "outputs:\n";
  for (const auto& o : outputs_) out << "  " << o.to_string() << "\n";
  out << "steps:\n";
  for (const auto& s : steps()) {
    out << "  " << s.name << "  " << s.kind << "  " << s.implementation;
    if (s.precision != "fp32") out << "  " << s.precision;
    if (s.layout != "plain") out << "  " << s.layout;
    for (const auto& f : s.fused) out << "  +" << f;
    if (!s.in_place_of.empty()) out << "  (in place of " << s.in_place_of << ")";
    if (s.finite_input_form) out << "  (max/min activation while inputs are finite)";
    out << "\n";
  }
  if (hybrid_) out << "segments: " << segments_summary() << "\n";
  const MemoryBreakdown mem = memory();
  out << "memory: activations " << mem.activations << " bytes planned (" << mem.activations_without_reuse
      << " without reuse), weights " << mem.weights_plain << " bytes, scratch " << mem.scratch << " bytes\n";
  return out.str();
}

std::size_t Engine::activation_bytes() const {
  std::size_t n = 0;
  for (const auto* e : internal_engines()) n += e->memory().arena_bytes;
  return n;
}

std::size_t Engine::weight_bytes() const { return memory().weights(); }

// Engine segments of a hybrid engine run one after another on one context:
// their plans add up, their scratch is the largest.
MemoryBreakdown Engine::memory() const {
  // A dynamic engine's (or segment's): the opt shape's plan, and the weights
  // it holds for every shape.
  std::vector<runtime::MemoryStats> parts;
  if (dynamic_) {
    parts.push_back(dynamic_->memory());
  } else if (hybrid_) {
    for (const auto& st : hybrid_->program().stages) {
      if (st.engine) parts.push_back(st.engine->memory());
      if (st.shaped) parts.push_back(st.shaped->memory());
    }
  } else {
    parts.push_back(engine_->memory());
  }
  MemoryBreakdown out;
  for (const auto& m : parts) {
    out.weights_plain += m.constant_bytes;
    out.weights_packed += m.packed_bytes;
    out.weights_mapped += m.mapped_bytes;
    out.activations += m.arena_bytes;
    out.activations_without_reuse += m.naive_bytes;
    out.scratch = std::max(out.scratch, m.scratch_bytes);
    out.outputs += m.output_bytes;
  }
  if (hybrid_) {
    for (const auto& c : hybrid_->program().constants) out.weights_torch += c.second.nbytes();
  }
  return out;
}

void Engine::save(const std::string& path) const {
  if (dynamic_) {
    dynamic_->save(path, metadata_);
  } else if (hybrid_) {
    hybrid_->save(path, metadata_);
  } else {
    engine_->save(path, metadata_);
  }
}

Engine Engine::with_metadata(std::string text) const {
  if (text.size() > runtime::file::kMaxMetadataBytes) {
    throw InputError("engine metadata is " + std::to_string(text.size()) + " bytes, at most " +
                     std::to_string(runtime::file::kMaxMetadataBytes));
  }
  Engine copy = *this;
  copy.metadata_ = std::move(text);
  return copy;
}

Engine Engine::with_load_settings(const CompileSettings& settings) const {
  validate(settings);
  const CompileSettings defaults;
  for (const auto& s : settings_table()) {
    if (s.phase == SettingPhase::Compile && s.get(settings) != s.get(defaults)) {
      throw SettingsError(s.name + " is a compile-time setting and an engine is already built (" +
                          built_settings() + "); only load-time settings apply to it (" +
                          [] {
                            std::string names;
                            for (const auto& row : settings_table()) {
                              if (row.phase == SettingPhase::Load) names += (names.empty() ? "" : ", ") + row.name;
                            }
                            return names;
                          }() +
                          ")");
    }
  }
  if (settings.max_memory > 0) engine_->check_memory_limit(static_cast<std::uint64_t>(settings.max_memory));
  const int threads = static_cast<int>(settings.num_threads);
  Engine copy = threads > 0 && threads != kernel_threads() ? with_kernel_threads(threads) : *this;
  if (threads > 0) copy.num_threads_ = threads;
  return copy;
}

int Engine::kernel_threads() const {
  if (dynamic_) return dynamic_->kernel_threads();
  const auto engines = internal_engines();
  return engines.empty() ? runtime::openmp_max_threads() : engines.front()->kernel_threads();
}

namespace {
// Hybrid files' dynamic-shape segments, loaded with the load-time settings.
runtime::ShapedSegmentLoader shaped_segment_loader(std::uint64_t max_memory, int num_threads) {
  return [max_memory, num_threads](std::span<const std::byte> bytes) {
    return builder::DynamicSegment::load(bytes, max_memory, num_threads);
  };
}
}  // namespace

Engine Engine::with_kernel_threads(int num_threads) const {
  std::optional<Engine> out;
  if (dynamic_) {
    out.emplace(dynamic_->with_kernel_threads(num_threads));
  } else if (hybrid_) {
    const auto engines = internal_engines();
    const std::uint64_t max_memory = engines.empty() ? 0 : engines.front()->options().max_memory_bytes;
    out.emplace(std::make_shared<const runtime::HybridEngine>(runtime::HybridEngine::deserialize(
        hybrid_->serialize(), "", shaped_segment_loader(max_memory, num_threads), num_threads)));
  } else {
    out.emplace(std::make_shared<const runtime::Engine>(engine_->with_kernel_threads(num_threads)));
  }
  out->metadata_ = metadata_;
  out->num_threads_ = num_threads_;
  return *out;
}

Engine Engine::load(const std::string& path, const CompileSettings& settings) {
  validate(settings);
  conversion::load_env_plugins();  // an engine with plugin layers needs their kernels loaded
  // A hybrid program's file has no program section of its own; the plain
  // loader says so after verifying the container, and the hybrid one reads it.
  auto load_any = [&]() {
    try {
      return Engine(std::make_shared<const runtime::Engine>(
          runtime::Engine::load(path, static_cast<std::uint64_t>(settings.max_memory), settings.num_threads)));
    } catch (const FormatError& e) {
      const std::string what = e.what();
      if (what.find(runtime::file::kDynamicFileMarker) != std::string::npos) {
        return Engine(builder::DynamicEngine::load(path, static_cast<std::uint64_t>(settings.max_memory),
                                                   settings.num_threads));
      }
      if (what.find(runtime::kHybridFileMarker) == std::string::npos) throw;
    }
    return Engine(std::make_shared<const runtime::HybridEngine>(runtime::HybridEngine::load(
        path, shaped_segment_loader(static_cast<std::uint64_t>(settings.max_memory), settings.num_threads),
        settings.num_threads)));
  };
  Engine engine = load_any();
  engine.metadata_ = runtime::file::read_metadata(path);
  // A file built for another CPU is repacked at load: slower to load, and worth knowing.
  for (const auto* e : engine.internal_engines()) {
    if (!e->load_note().empty()) log(LogLevel::Warning, path + ": " + e->load_note());
  }
  if (log_enabled(LogLevel::Info)) log(LogLevel::Info, "loaded " + path + ": " + engine.built_settings());
  try {
    return engine.with_load_settings(settings);
  } catch (const SettingsError& e) {
    throw SettingsError(path + ": " + e.what());
  }
}

ExecutionContext::ExecutionContext(const Engine& engine)
    : engine_(engine) {
  if (engine.internal_hybrid()) {
    hybrid_ = std::make_unique<runtime::HybridContext>(engine.internal_hybrid());
    hybrid_->set_num_threads(engine.num_threads());
  } else if (engine.internal_dynamic()) {
    dynamic_ = std::make_unique<builder::DynamicContext>(engine.internal_dynamic());
    dynamic_->set_num_threads(engine.num_threads());
  } else {
    context_ = std::make_unique<runtime::ExecutionContext>(engine.internal());
    context_->set_num_threads(engine.num_threads());
  }
}
ExecutionContext::~ExecutionContext() = default;
ExecutionContext::ExecutionContext(ExecutionContext&&) noexcept = default;
ExecutionContext& ExecutionContext::operator=(ExecutionContext&&) noexcept = default;

void ExecutionContext::set_profiling(bool on) {
  profiling_ = on;
  if (hybrid_) hybrid_->set_profiling(on);
  if (context_) context_->set_profiling(on);
  if (dynamic_) dynamic_->set_profiling(on);
}

Profile ExecutionContext::profile() const {
  Profile out;
  if (!profiling_) return out;
  std::vector<StepSpec> steps;
  runtime::StepTimes times;
  if (hybrid_) {
    steps = engine_.steps();
    times = hybrid_->profile();
  } else if (const builder::StagedProfile* staged = dynamic_ ? dynamic_->staged_profile() : nullptr) {
    // A staged run: each stage's engine steps, and the layers run on the
    // host between them (data-dependent ones, those sized by a run-time value).
    for (const auto& part : staged->parts) {
      if (part.engine) {
        append_steps(*part.engine, steps);
      } else {
        steps.push_back({part.host_name, part.host_kind, "reference (host)", "fp32", "plain", {}, 0.0, ""});
      }
    }
    times = staged->times;
  } else if (dynamic_) {
    append_steps(*dynamic_->last_engine(), steps);
    times = dynamic_->profile();
  } else {
    append_steps(engine_.internal(), steps);
    times = context_->profile();
  }
  out.runs = times.runs;
  for (std::size_t i = 0; i < steps.size() && i < times.total_ms.size(); ++i) {
    out.steps.push_back({std::move(steps[i]), times.total_ms[i], times.last_start_ms[i], times.last_ms[i]});
  }
  return out;
}

const std::vector<Tensor>& ExecutionContext::run(const std::vector<Tensor>& inputs) {
  if (hybrid_) return hybrid_->run(inputs);
  if (dynamic_) return dynamic_->run(inputs);
  return context_->run(inputs);
}

}  // namespace atenrt
