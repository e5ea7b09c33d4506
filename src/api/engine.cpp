// atenrt::Engine and ExecutionContext: the public face of runtime::Engine,
// with the load-time settings (threads) an engine file still takes.
#include <dlfcn.h>

#include <sstream>

#include "atenrt/atenrt.h"
#include "runtime/engine.h"

namespace atenrt {
namespace {

std::vector<TensorSpec> specs(const std::vector<runtime::TensorInfo>& infos) {
  std::vector<TensorSpec> out;
  for (const auto& i : infos) out.push_back({i.name, i.dtype, i.dims});
  return out;
}

const char* precision_name(runtime::Precision p) { return p == runtime::Precision::BFloat16 ? "bf16" : "fp32"; }

// OpenMP's default thread count, from the runtime oneDNN loads (we do not
// link OpenMP ourselves); 1 when oneDNN uses no OpenMP.
int openmp_max_threads() {
  using MaxThreads = int (*)();
  static const auto fn = reinterpret_cast<MaxThreads>(dlsym(RTLD_DEFAULT, "omp_get_max_threads"));
  return fn ? fn() : 1;
}

}  // namespace

std::string TensorSpec::to_string() const {
  return name + ": " + std::string(dtype_name(dtype)) + shape_to_string(dims);
}

Engine::Engine(std::shared_ptr<const runtime::Engine> engine)
    : engine_(std::move(engine)),
      inputs_(specs(engine_->inputs())),
      outputs_(specs(engine_->outputs())),
      num_threads_(engine_->options().num_threads) {}

const std::vector<TensorSpec>& Engine::inputs() const { return inputs_; }
const std::vector<TensorSpec>& Engine::outputs() const { return outputs_; }
ExecutionContext Engine::create_context() const { return ExecutionContext(*this); }

std::vector<StepSpec> Engine::steps() const {
  std::vector<StepSpec> out;
  for (const auto& s : engine_->steps()) {
    out.push_back({s.name, s.kind, s.implementation, precision_name(s.precision),
                   s.output_layout.empty() ? "plain" : s.output_layout, s.fused});
  }
  return out;
}

std::string Engine::precision() const {
  for (const auto& s : engine_->steps()) {
    if (s.precision == runtime::Precision::BFloat16) return "bf16";
  }
  return "fp32";
}

int Engine::effective_threads() const { return num_threads_ > 0 ? num_threads_ : openmp_max_threads(); }

std::string Engine::built_settings() const {
  const auto all = engine_->steps();
  std::size_t bf16 = 0;
  for (const auto& s : all) bf16 += s.precision == runtime::Precision::BFloat16;
  std::ostringstream out;
  out << "precision " << precision();
  if (bf16) out << " (" << bf16 << " of " << all.size() << " steps)";
  const auto& o = engine_->options();
  out << ", " << (o.blocked_layout ? "blocked" : "plain") << " layouts, "
      << (o.prepack_weights ? "pre-packed" : "plain") << " weights";
  return out.str();
}

std::string Engine::describe() const {
  std::ostringstream out;
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
    out << "\n";
  }
  const auto mem = engine_->memory();
  out << "memory: activations " << mem.arena_bytes << " bytes planned (" << mem.naive_bytes
      << " without reuse), weights " << mem.constant_bytes << " bytes, scratch " << mem.scratch_bytes
      << " bytes\n";
  return out.str();
}

std::size_t Engine::activation_bytes() const { return engine_->memory().arena_bytes; }
std::size_t Engine::weight_bytes() const { return engine_->memory().constant_bytes; }

void Engine::save(const std::string& path) const { engine_->save(path); }

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
  Engine copy = *this;
  if (settings.num_threads > 0) copy.num_threads_ = settings.num_threads;
  return copy;
}

Engine Engine::load(const std::string& path, const CompileSettings& settings) {
  validate(settings);
  Engine engine(std::make_shared<const runtime::Engine>(
      runtime::Engine::load(path, static_cast<std::uint64_t>(settings.max_memory))));
  try {
    return engine.with_load_settings(settings);
  } catch (const SettingsError& e) {
    throw SettingsError(path + ": " + e.what());
  }
}

ExecutionContext::ExecutionContext(const Engine& engine)
    : context_(std::make_unique<runtime::ExecutionContext>(engine.internal())), engine_(engine) {
  context_->set_num_threads(engine.num_threads());
}
ExecutionContext::~ExecutionContext() = default;
ExecutionContext::ExecutionContext(ExecutionContext&&) noexcept = default;
ExecutionContext& ExecutionContext::operator=(ExecutionContext&&) noexcept = default;

const std::vector<Tensor>& ExecutionContext::run(const std::vector<Tensor>& inputs) {
  return context_->run(inputs);
}

}  // namespace atenrt
