// Engine compilation (kernels, layouts, memory plan) and ExecutionContext.
#include "runtime/engine.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <set>

#include "atenrt/errors.h"
#include "ir/checked_math.h"
#include "ir/memory_limit.h"
#include "network/network.h"
#include "runtime/cpu/providers.h"
#include "runtime/engine_impl.h"
#include "runtime/memory_plan.h"
#include "runtime/openmp.h"
#include "runtime/shared_weight_packs.h"

namespace atenrt::runtime {

OmpSetThreads omp_setter() {
  static const auto fn = reinterpret_cast<OmpSetThreads>(dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
  return fn;
}
OmpGetThreads omp_getter() {
  static const auto fn = reinterpret_cast<OmpGetThreads>(dlsym(RTLD_DEFAULT, "omp_get_max_threads"));
  return fn;
}

namespace {
// What Engine::steps() reports, made once the plan is (defined below).
std::vector<StepInfo> describe_steps(const Engine::Impl& impl);

const char* const kHowToSet = " (set with --max-memory / the max_memory setting)";

// Every tensor's bytes, checked for overflow and against the memory limit
// before any kernel is made: a kernel library handed a 2^36-row matrix may
// fault (oneDNN 2.6's matmul raised SIGFPE) rather than fail.
void check_tensor_sizes(const Program& program, std::uint64_t limit) {
  for (const auto& t : program.tensors) {
    const std::uint64_t bytes = tensor_bytes(t);
    if (bytes > limit) {
      throw Error("engine: tensor '" + t.name + "' (" + std::string(dtype_name(t.dtype)) + shape_to_string(t.dims) +
                  ") needs " + format_bytes(bytes) + ", more than the memory limit of " + format_bytes(limit) +
                  kHowToSet);
    }
  }
}

// What the plan holds at once when a context runs: activations (the arena),
// kernel scratch, outputs and weights (plain and pre-packed).
void check_plan(const MemoryStats& m, std::uint64_t limit) {
  const char* what = "engine: memory plan";
  std::uint64_t total = checked::add<Error>(m.arena_bytes, m.scratch_bytes, what);
  total = checked::add<Error>(total, m.output_bytes, what);
  const std::uint64_t weights = checked::add<Error>(m.constant_bytes, m.packed_bytes, what);
  total = checked::add<Error>(total, weights, what);
  if (total > limit) {
    throw Error("engine: the plan needs " + format_bytes(total) + " (activations " + format_bytes(m.arena_bytes) +
                ", scratch " + format_bytes(m.scratch_bytes) + ", outputs " + format_bytes(m.output_bytes) +
                ", weights " + format_bytes(weights) + "), more than the memory limit of " + format_bytes(limit) +
                kHowToSet);
  }
}

}  // namespace

void Engine::Impl::compile() {
  program.normalize();
  program.validate();
  const std::uint64_t memory_limit = resolve_memory_limit(options.max_memory_bytes);
  check_tensor_sizes(program, memory_limit);
  begin_weights();
  const int n = static_cast<int>(program.tensors.size());
  buffers.assign(n, {});
  Consumers consumers(n);
  std::vector<int> producer(n, -1);
  for (int s = 0; s < static_cast<int>(program.steps.size()); ++s) {
    const auto& step = program.steps[s];
    for (std::size_t i = 0; i < step.inputs.size(); ++i) consumers[step.inputs[i]].push_back({s, i});
    for (int id : step.outputs) producer[id] = s;
  }
  std::set<int> output_ids(program.outputs.begin(), program.outputs.end());
  for (int i = 0; i < n; ++i) {
    const auto& t = program.tensors[i];
    buffers[i].tensor = &t;
    if (t.role == TensorRole::Input) buffers[i].where = Where::Input;
    if (t.role == TensorRole::Constant) buffers[i].where = Where::Constant;
  }
  for (std::size_t o = 0; o < program.outputs.size(); ++o) {
    auto& b = buffers[program.outputs[o]];
    if (b.where == Where::Arena) {
      b.where = Where::Output;
      b.index = static_cast<int>(o);
    }
  }
  for (std::size_t i = 0; i < program.inputs.size(); ++i) buffers[program.inputs[i]].index = static_cast<int>(i);

  const std::vector<OutputForm> forms = output_forms(consumers, producer, output_ids);
  const ScopedOpenMpThreads threads(options.num_threads);  // kernels keep the team they are made with
  kernel_threads = options.num_threads > 0 ? options.num_threads : openmp_max_threads();
  for (int s = 0; s < static_cast<int>(program.steps.size()); ++s) {
    add_step(s, forms[s]);
    for (int id : program.steps[s].inputs) {
      if (buffers[id].where == Where::Constant && !consumers[id].empty() && consumers[id].back().first == s) {
        drop_plain_if_packed(id);
      }
    }
  }

  plan_arena();
  memory.scratch_bytes = scratch_bytes;
  finish_weights();
  for (const auto& e : plan) memory.derived_bytes += e.kernel->derived_weight_bytes();
  memory.packed_bytes += memory.derived_bytes;
  check_plan(memory, memory_limit);

  for (int id : program.inputs) {
    const auto& t = program.tensors[id];
    input_info.push_back({t.name, t.dtype, t.dims});
  }
  for (int id : program.outputs) {
    const auto& t = program.tensors[id];
    output_info.push_back({t.name, t.dtype, t.dims});
  }
}

std::vector<Engine::Impl::OutputForm> Engine::Impl::output_forms(const Consumers& consumers,
                                                                 const std::vector<int>& producer,
                                                                 const std::set<int>& output_ids) const {
  auto blocked_allowed = [&](int id) {
    if (!options.blocked_layout || output_ids.count(id) || producer[id] < 0) return false;
    if (!cpu::may_produce_blocked(program.steps[producer[id]], program)) return false;
    for (auto [s, i] : consumers[id]) {
      if (!cpu::accepts_blocked(program.steps[s], i, program)) return false;
    }
    return !consumers[id].empty();
  };
  std::vector<OutputForm> forms(program.steps.size());
  const auto every_reader = [&](std::size_t s, auto&& holds) {
    const auto& readers = consumers[program.steps[s].outputs[0]];
    return std::all_of(readers.begin(), readers.end(), [&](const auto& r) { return holds(r.first, r.second); });
  };
  for (std::size_t s = 0; s < program.steps.size(); ++s) {
    const Step& step = program.steps[s];
    forms[s].blocked = step.outputs.size() == 1 && blocked_allowed(step.outputs[0]);
  }
  // bf16 only where a side computes in bf16 anyway (providers.h). oneDNN's
  // jit binary wants src0 and dst of one type, so an elementwise step reads
  // bf16 only where it writes bf16, and a max pooling passes it through:
  // decided from the last step back.
  for (std::size_t s = program.steps.size(); s-- > 0;) {
    const Step& step = program.steps[s];
    forms[s].bf16 =
        forms[s].blocked && cpu::may_produce_bf16(step) &&
        every_reader(s, [&](int r, std::size_t i) {
          return cpu::accepts_bf16(program.steps[r], i, program) &&
                 (!cpu::reads_bf16_only_to_write_it(program.steps[r]) || forms[r].bf16);
        }) &&
        (cpu::computes_in_bf16(step) ||
         every_reader(s, [&](int r, std::size_t) { return cpu::computes_in_bf16(program.steps[r]); }));
  }
  // Quantized between int8 convolutions: every reader quantizes it as its
  // source with one scale and signedness, so the producer may do that once;
  // or adds it as its residual (a ResNet block's output, read by the next
  // block's first convolution and its residual add): that add then reads it
  // quantized, the one place where this changes a value. A max pooling
  // passes a quantized tensor through (max commutes with the monotone
  // rounding), so it reads as the source of its own readers. A result only
  // added as a residual (a downsample branch) takes the scale calibration
  // chose for it (Quantization::output_scale). Readers come later in the
  // plan: decided from the last step back.
  const auto int8_conv = [&](int r) {
    return program.steps[r].precision == Precision::Int8 && program.steps[r].kind() == network::LayerKind::Convolution;
  };
  const auto max_pooling = [&](int r) { return cpu::max_pooling(program.steps[r]); };
  for (std::size_t s = program.steps.size(); s-- > 0;) {
    if (!forms[s].blocked || !(int8_conv(static_cast<int>(s)) || max_pooling(static_cast<int>(s)))) continue;
    // What reader r quantizes input i as, if it reads it as its source.
    const auto source_quant = [&](int r, std::size_t i) -> std::optional<cpu::KernelRequest::QuantizedOutput> {
      if (i != 0) return std::nullopt;
      if (int8_conv(r)) return cpu::KernelRequest::QuantizedOutput{program.steps[r].quant.input_scale,
                                                                   program.steps[r].quant.input_unsigned};
      if (max_pooling(r)) return forms[r].int8;
      return std::nullopt;
    };
    std::optional<cpu::KernelRequest::QuantizedOutput> q;
    for (const auto& [r, i] : consumers[program.steps[s].outputs[0]]) {
      if (!q) q = source_quant(r, i);
    }
    // Read by no int8 step as its input: the scale calibration chose for it
    // as a residual (a downsample branch), if any.
    const auto& quant = program.steps[s].quant;
    if (!q && int8_conv(static_cast<int>(s)) && quant.output_scale > 0.0f) {
      q = cpu::KernelRequest::QuantizedOutput{quant.output_scale, quant.output_unsigned};
    }
    if (!q) continue;
    const bool int8_chain = every_reader(s, [&](int r, std::size_t i) {
      if (const auto rq = source_quant(r, i)) return rq->scale == q->scale && rq->is_unsigned == q->is_unsigned;
      // The residual of a sum post-op: the reader's first post-op (a later
      // Add is a binary post-op, which would read the integers unscaled).
      const auto& ops = program.steps[r].post_ops;
      return int8_conv(r) && !ops.empty() && ops[0].kind == PostOpKind::Add && ops[0].operand == static_cast<int>(i);
    });
    if (int8_chain) forms[s].int8 = q;
  }
  return forms;
}

void Engine::Impl::plan_arena() {
  std::vector<int> first(buffers.size(), -1), last(buffers.size(), -1);
  for (int p = 0; p < static_cast<int>(plan.size()); ++p) {
    for (int id : plan[p].outputs) first[id] = p;
    for (int id : plan[p].inputs) last[id] = p;
  }
  // An output written in place of an input shares that input's range: one
  // request for the pair, living from the input's writer to the output's last
  // reader. Only arena buffers (never a graph input, output or constant), of
  // the same bytes, and only when the step is the input's last reader and
  // reads it once (it is the residual, not also the convolution's source).
  std::vector<int> root(buffers.size());
  for (int id = 0; id < static_cast<int>(buffers.size()); ++id) root[id] = id;
  for (int p = 0; options.reuse_memory && p < static_cast<int>(plan.size()); ++p) {
    auto& e = plan[p];
    if (e.in_place_input < 0 || e.outputs.size() != 1) continue;
    const int in = e.inputs[e.in_place_input], out = e.outputs[0];
    const bool arena = buffers[in].where == Where::Arena && buffers[out].where == Where::Arena;
    const bool read_once = std::count(e.inputs.begin(), e.inputs.end(), in) == 1;
    if (!arena || !read_once || last[in] != p ||
        cpu::layout_bytes(buffers[in].layout, *buffers[in].tensor) !=
            cpu::layout_bytes(buffers[out].layout, *buffers[out].tensor)) {
      continue;
    }
    root[out] = root[in];
    e.in_place_of = in;
  }

  std::vector<BufferRequest> requests;
  std::vector<int> request_of(buffers.size(), -1);
  std::size_t naive = 0;  // one range per buffer, in place or not
  for (int id = 0; id < static_cast<int>(buffers.size()); ++id) {
    auto& b = buffers[id];
    if (b.where == Where::Output) {
      memory.output_bytes = checked::add<Error>(memory.output_bytes, tensor_bytes(*b.tensor), "engine: output bytes");
    }
    if (b.where != Where::Arena) continue;
    const std::size_t bytes = cpu::layout_bytes(b.layout, *b.tensor);
    naive = checked::add<Error>(naive, checked::align_up<Error>(bytes, 64, "engine: buffer bytes"), "engine: arena");
    if (root[id] != id) continue;
    request_of[id] = static_cast<int>(requests.size());
    requests.push_back({bytes, first[id], std::max(first[id], last[id])});
  }
  for (int id = 0; id < static_cast<int>(buffers.size()); ++id) {
    if (buffers[id].where != Where::Arena || root[id] == id) continue;
    auto& r = requests[request_of[root[id]]];
    r.last_step = std::max(r.last_step, std::max(first[id], last[id]));
  }
  const MemoryPlan mp = plan_memory(requests, options.reuse_memory);
  for (int id = 0; id < static_cast<int>(buffers.size()); ++id) {
    if (buffers[id].where == Where::Arena) buffers[id].offset = mp.offsets[request_of[root[id]]];
  }
  memory.arena_bytes = mp.arena_bytes;
  memory.naive_bytes = naive;
}

void Engine::Impl::add_step(int s, const OutputForm& form) {
  const Step& step = program.steps[s];
  cpu::KernelRequest req;
  req.step = &step;
  req.prepack_weights = options.prepack_weights;
  for (int id : step.inputs) req.inputs.push_back({&program.tensors[id], buffers[id].layout});
  for (int id : step.outputs) req.outputs.push_back(&program.tensors[id]);
  req.blocked_output_allowed = form.blocked;
  req.bf16_output_allowed = form.bf16;
  req.int8_output = form.int8;
  req.packs = packs.get();

  ExecStep exec;
  exec.step = s;
  exec.inputs = step.inputs;
  exec.outputs = step.outputs;
  cpu::KernelChoice choice;
  for (const auto& provider : cpu::kernel_providers()) {
    if (!provider.maker_for(step.kind())) continue;
    if (provider.last_resort && !options.allow_reference_kernels) {
      throw UnsupportedError("engine: step '" + step.name + "' (" + std::string(network::layer_kind_name(step.kind())) +
                             ") has no optimized kernel for this case and reference kernels are off");
    }
    if (!provider.takes_blocked) {
      // Blocked inputs (a primitive that could not be made) are reordered to
      // plain first, through an extra buffer.
      for (std::size_t i = 0; i < step.inputs.size(); ++i) {
        const int id = step.inputs[i];
        if (req.inputs[i].layout.is_plain()) continue;
        ExecStep convert;
        convert.kind = ExecStep::Kind::ToPlain;
        convert.step = s;
        convert.kernel = cpu::make_to_plain_kernel(buffers[id].layout, program.tensors[id]);
        convert.inputs = {id};
        const int extra = static_cast<int>(buffers.size());
        buffers.push_back({&program.tensors[id], Where::Arena, 0, {}});
        convert.outputs = {extra};
        exec.inputs[i] = extra;
        req.inputs[i].layout = {};
        plan.push_back(std::move(convert));
      }
    }
    packs->begin_step();
    choice = provider.make(req);
    packs->end_step(choice.kernel != nullptr);
    if (choice.kernel) break;
  }
  note_weight_uses(step, choice.kernel != nullptr);
  exec.kernel = std::move(choice.kernel);
  exec.in_place_input = choice.in_place_input;
  for (std::size_t i = 0; i < step.outputs.size() && i < choice.output_layouts.size(); ++i) {
    buffers[step.outputs[i]].layout = choice.output_layouts[i];
  }
  scratch_bytes = std::max(scratch_bytes, exec.kernel->scratch_bytes());
  plan.push_back(std::move(exec));
}

Engine::Engine(Program program, EngineOptions options)
    : Engine(std::move(program), options, std::shared_ptr<const LoadedFile>()) {}

Engine::Engine(Program program, EngineOptions options, std::shared_ptr<const LoadedFile> file) {
  auto impl = std::make_shared<Impl>();
  impl->program = std::move(program);
  impl->options = options;
  impl->file = std::move(file);
  impl->compile();
  impl->step_info = describe_steps(*impl);
  impl_ = std::move(impl);
}

struct SharedWeightPacks {
  cpu::WeightPacks packs;
};

std::shared_ptr<SharedWeightPacks> make_shared_weight_packs() { return std::make_shared<SharedWeightPacks>(); }

bool plain_rebuildable(const SharedWeightPacks& shared, const Tensor& constant) {
  return shared.packs.can_rebuild_plain(constant);
}

void rebuild_plain(const SharedWeightPacks& shared, const Tensor& constant) { shared.packs.rebuild_plain(constant); }

std::size_t packed_bytes(const SharedWeightPacks& shared) {
  const auto totals = shared.packs.totals();
  return totals.mapped_bytes + totals.private_bytes;
}

Engine::Engine(Program program, EngineOptions options, std::shared_ptr<SharedWeightPacks> shared) {
  auto impl = std::make_shared<Impl>();
  impl->program = std::move(program);
  impl->options = options;
  if (shared) impl->packs = std::shared_ptr<cpu::WeightPacks>(shared, &shared->packs);  // keeps `shared` alive
  impl->compile();
  impl->step_info = describe_steps(*impl);
  impl_ = std::move(impl);
}

const std::vector<TensorInfo>& Engine::inputs() const { return impl_->input_info; }
const std::vector<TensorInfo>& Engine::outputs() const { return impl_->output_info; }
const Program& Engine::program() const { return impl_->program; }
const EngineOptions& Engine::options() const { return impl_->options; }
MemoryStats Engine::memory() const { return impl_->memory; }

void Engine::check_memory_limit(std::uint64_t limit) const {
  check_tensor_sizes(impl_->program, limit);
  check_plan(impl_->memory, limit);
}
const std::string& Engine::load_note() const { return impl_->load_note; }
int Engine::kernel_threads() const { return impl_->kernel_threads; }

namespace {

// 2 x the multiply-adds of a convolution or matmul step (what GFLOP/s
// figures count); 0 for every other kind.
double step_flops(const Program& prog, const Step& step) {
  auto numel = [&](int id) {
    double n = 1.0;
    for (auto d : prog.tensors[id].dims) n *= static_cast<double>(d);
    return n;
  };
  const auto& dims = [&](int id) -> const Dims& { return prog.tensors[id].dims; };
  switch (step.kind()) {
    case network::LayerKind::Convolution: {  // weight [Cout, Cin/g, k...]: each output reads numel(w)/Cout
      const double cout = static_cast<double>(dims(step.inputs[1]).at(0));
      return cout > 0 ? 2.0 * numel(step.outputs[0]) * numel(step.inputs[1]) / cout : 0.0;
    }
    case network::LayerKind::Deconvolution: {  // weight [Cin, Cout/g, k...]: each input feeds numel(w)/Cin
      const double cin = static_cast<double>(dims(step.inputs[1]).at(0));
      return cin > 0 ? 2.0 * numel(step.inputs[0]) * numel(step.inputs[1]) / cin : 0.0;
    }
    case network::LayerKind::MatMul: {
      const auto& a = dims(step.inputs[0]);
      const auto& p = std::get<network::MatMulParams>(step.params);
      if (a.empty()) return 0.0;
      const std::int64_t k = a.size() == 1 ? a[0] : (p.transpose_a ? a[a.size() - 2] : a.back());
      return 2.0 * numel(step.outputs[0]) * static_cast<double>(k);
    }
    default:
      return 0.0;
  }
}

}  // namespace

namespace {

std::vector<StepInfo> describe_steps(const Engine::Impl& impl) {
  std::vector<StepInfo> out;
  for (const auto& e : impl.plan) {
    const Step& step = impl.program.steps[e.step];
    StepInfo info;
    info.name = step.name;
    info.kind = std::string(network::layer_kind_name(step.kind()));
    info.implementation = e.kernel->implementation();
    info.finite_input_form = e.kernel->finite_input_form();
    for (const auto& op : step.post_ops) info.fused.push_back(op.fused_layer);
    info.output_layout = cpu::layout_name(impl.buffers[e.outputs[0]].layout);
    info.precision = step.precision;
    info.flops = step_flops(impl.program, step);
    if (e.in_place_of >= 0) info.in_place_of = impl.buffers[e.in_place_of].tensor->name;
    if (e.kind == Engine::Impl::ExecStep::Kind::ToPlain) {
      info.flops = 0.0;
      info.name += ":to_plain";
      info.kind = "Reorder";
      info.fused.clear();
    }
    out.push_back(std::move(info));
  }
  return out;
}

}  // namespace

const std::vector<StepInfo>& Engine::steps() const& { return impl_->step_info; }
std::vector<StepInfo> Engine::steps() const&& { return impl_->step_info; }

ExecutionContext Engine::create_context() const { return ExecutionContext(*this); }

// ---------------------------------------------------------------- context

namespace {

struct AlignedFree {
  void operator()(std::byte* p) const { std::free(p); }
};
using Block = std::unique_ptr<std::byte, AlignedFree>;

Block aligned_block(std::size_t bytes, const char* what) {
  const std::size_t size = std::max<std::size_t>(64, checked::align_up<Error>(bytes, 64, what));
  auto* p = static_cast<std::byte*>(std::aligned_alloc(64, size));
  if (!p) throw Error(std::string("cannot allocate the ") + what + " of " + format_bytes(size) + ": out of memory");
  std::memset(p, 0, size);
  return Block(p);
}

}  // namespace

struct ExecutionContext::State {
  std::shared_ptr<const Engine::Impl> engine;
  Block arena;
  Block scratch;
  std::vector<Tensor> outputs;
  std::vector<Tensor> staging;  // for strided inputs
  std::vector<const void*> bound;  // per engine input
  std::vector<std::unique_ptr<cpu::KernelState>> states;
  std::vector<std::vector<const void*>> in_ptrs;
  std::vector<std::vector<void*>> out_ptrs;
  // Per buffer id (as steps name their inputs and outputs): whether the step
  // that wrote it this run vouched it finite (KernelArgs::outputs_finite);
  // per step, its inputs' and outputs' flags.
  std::vector<std::uint8_t> finite;
  std::vector<std::vector<std::uint8_t>> in_finite, out_finite;
  std::vector<std::pair<int, int>> output_copies;  // (output index, tensor id) for non-produced outputs
  int num_threads = 0;  // the engine's option unless set_num_threads overrides it
  bool profiling = false;
  StepTimes times;
};

ExecutionContext::ExecutionContext(const Engine& engine) : state_(std::make_unique<State>()) {
  auto& s = *state_;
  s.engine = engine.impl_;
  const auto& e = *s.engine;
  s.num_threads = e.options.num_threads;
  s.arena = aligned_block(e.memory.arena_bytes, "activation arena");
  s.scratch = aligned_block(e.scratch_bytes, "kernel scratch");
  for (std::size_t o = 0; o < e.program.outputs.size(); ++o) {
    const int id = e.program.outputs[o];
    const auto& t = e.program.tensors[id];
    s.outputs.emplace_back(t.dtype, t.dims);
    if (e.buffers[id].where != Engine::Impl::Where::Output || e.buffers[id].index != static_cast<int>(o)) {
      s.output_copies.push_back({static_cast<int>(o), id});
    }
  }
  for (const auto& info : e.input_info) s.staging.emplace_back(info.dtype, info.dims);
  s.bound.assign(e.input_info.size(), nullptr);
  // A kernel's state may derive weights (Winograd's transforms, with oneDNN
  // reorders): on the engine's thread count too.
  const ScopedOpenMpThreads threads(e.options.num_threads);
  for (const auto& step : e.plan) {
    s.states.push_back(step.kernel->make_state());
    s.in_ptrs.emplace_back(step.inputs.size(), nullptr);
    s.out_ptrs.emplace_back(step.outputs.size(), nullptr);
    s.in_finite.emplace_back(step.inputs.size(), 0);
    s.out_finite.emplace_back(step.outputs.size(), 0);
  }
  s.finite.assign(e.buffers.size(), 0);  // program tensors and the ToPlain steps' extra buffers
}

ExecutionContext::~ExecutionContext() = default;
ExecutionContext::ExecutionContext(ExecutionContext&&) noexcept = default;
ExecutionContext& ExecutionContext::operator=(ExecutionContext&&) noexcept = default;

const std::vector<Tensor>& ExecutionContext::outputs() const { return state_->outputs; }

void ExecutionContext::set_num_threads(int num_threads) {
  state_->num_threads = num_threads > 0 ? num_threads : state_->engine->options.num_threads;
}

const std::vector<Tensor>& ExecutionContext::run(const std::vector<Tensor>& inputs) {
  auto& s = *state_;
  const auto& e = *s.engine;
  if (inputs.size() != e.input_info.size()) {
    throw InputError("engine expects " + std::to_string(e.input_info.size()) + " inputs, got " +
                     std::to_string(inputs.size()));
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const auto& want = e.input_info[i];
    const Tensor& t = inputs[i];
    if (!t.defined() || t.dtype() != want.dtype || t.sizes() != want.dims) {
      throw InputError("input '" + want.name + "': expected " + std::string(dtype_name(want.dtype)) +
                       shape_to_string(want.dims) + ", got " +
                       (t.defined() ? std::string(dtype_name(t.dtype())) + shape_to_string(t.sizes())
                                    : std::string("an undefined tensor")));
    }
    if (t.is_contiguous()) {
      s.bound[i] = t.raw_data();
    } else {
      const auto bytes = t.to_bytes();  // strided input: one copy (allocates; rare)
      std::memcpy(s.staging[i].raw_mutable_data(), bytes.data(), bytes.size());
      s.bound[i] = s.staging[i].raw_data();
    }
  }
  if (s.num_threads > 0) {
    if (auto set = omp_setter()) set(s.num_threads);
  }
  e.check_file();
  auto address = [&](int id) -> std::byte* {
    const auto& b = e.buffers[id];
    switch (b.where) {
      case Engine::Impl::Where::Arena: return s.arena.get() + b.offset;
      case Engine::Impl::Where::Input: return const_cast<std::byte*>(static_cast<const std::byte*>(s.bound[b.index]));
      case Engine::Impl::Where::Output: return s.outputs[b.index].raw_mutable_data();
      case Engine::Impl::Where::Constant: return const_cast<std::byte*>(b.tensor->value.raw_data());
    }
    return nullptr;
  };
  using Clock = std::chrono::steady_clock;
  const auto run_start = Clock::now();
  std::fill(s.finite.begin(), s.finite.end(), 0);  // vouched for this run only
  for (std::size_t p = 0; p < e.plan.size(); ++p) {
    const auto& step = e.plan[p];
    auto& ins = s.in_ptrs[p];
    auto& outs = s.out_ptrs[p];
    auto& in_finite = s.in_finite[p];
    auto& out_finite = s.out_finite[p];
    for (std::size_t i = 0; i < step.inputs.size(); ++i) {
      ins[i] = address(step.inputs[i]);
      in_finite[i] = s.finite[step.inputs[i]];
    }
    for (std::size_t i = 0; i < step.outputs.size(); ++i) outs[i] = address(step.outputs[i]);
    std::fill(out_finite.begin(), out_finite.end(), 0);
    const cpu::KernelArgs args{ins, outs, s.scratch.get(), in_finite, out_finite};
    if (!s.profiling) {
      step.kernel->run(s.states[p].get(), args);
    } else {
      const auto start = Clock::now();
      step.kernel->run(s.states[p].get(), args);
      const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
      s.times.total_ms[p] += ms;
      s.times.last_ms[p] = ms;
      s.times.last_start_ms[p] = std::chrono::duration<double, std::milli>(start - run_start).count();
    }
    for (std::size_t i = 0; i < step.outputs.size(); ++i) s.finite[step.outputs[i]] = out_finite[i];
  }
  if (s.profiling) ++s.times.runs;
  for (auto [o, id] : s.output_copies) {
    if (s.outputs[o].nbytes()) std::memcpy(s.outputs[o].raw_mutable_data(), address(id), s.outputs[o].nbytes());
  }
  e.check_file();  // a weight page lost while the kernels ran: these outputs are wrong
  return s.outputs;
}

void ExecutionContext::set_profiling(bool on) {
  state_->profiling = on;
  state_->times.reset(on ? state_->engine->plan.size() : 0);
}

const StepTimes& ExecutionContext::profile() const { return state_->times; }

void StepTimes::reset(std::size_t steps) {
  runs = 0;
  total_ms.assign(steps, 0.0);
  last_start_ms.assign(steps, 0.0);
  last_ms.assign(steps, 0.0);
}

void StepTimes::append(const StepTimes& other, double offset_ms) {
  total_ms.insert(total_ms.end(), other.total_ms.begin(), other.total_ms.end());
  last_ms.insert(last_ms.end(), other.last_ms.begin(), other.last_ms.end());
  for (double start : other.last_start_ms) last_start_ms.push_back(start + offset_ms);
}

std::map<std::string, Tensor> ExecutionContext::run(const std::map<std::string, Tensor>& inputs) {
  const auto& e = *state_->engine;
  std::vector<Tensor> ordered;
  for (const auto& info : e.input_info) {
    auto it = inputs.find(info.name);
    if (it == inputs.end()) throw InputError("input '" + info.name + "' is missing");
    ordered.push_back(it->second);
  }
  if (inputs.size() != e.input_info.size()) {
    for (const auto& [name, t] : inputs) {
      bool known = false;
      for (const auto& info : e.input_info) known = known || info.name == name;
      if (!known) throw InputError("engine has no input named '" + name + "'");
    }
  }
  const auto& outs = run(ordered);
  std::map<std::string, Tensor> named;
  for (std::size_t i = 0; i < outs.size(); ++i) named[e.output_info[i].name] = outs[i];
  return named;
}

}  // namespace atenrt::runtime
