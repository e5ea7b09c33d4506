// How close each convolution and matmul of a real network comes, inside the
// network, to oneDNN's own primitive on the same shape (issue 12: GEMM-bound
// layers at >= 80 % of it).
//
//   build/bench/layer_efficiency_bench model.pt2 [--threads N] [--runs N] [--rounds N]
//
// "In the network" is the step's time from the engine's profile: its fused
// post-ops, the layouts its neighbours left, the caches as the previous
// step left them. "Raw" is the primitive alone, made with format_tag::any
// everywhere, weights reordered once, no post-ops and no reorders, run back
// to back on the same buffers: the best oneDNN does on that shape. Rounds
// alternate the two (network runs, then every raw primitive) and each ratio
// is the median over rounds, since the machine is shared: read the ratios,
// not the times.
#include <dnnl.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "atenrt/atenrt.h"
#include "runtime/engine.h"
#include "runtime/openmp.h"

namespace {

using namespace atenrt;
using dnnl::memory;
using Clock = std::chrono::steady_clock;

const dnnl::engine& eng() {
  static const dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}

memory::dims to_dims(const std::vector<std::int64_t>& d) { return memory::dims(d.begin(), d.end()); }

// One step's raw primitive with its buffers, ready to run.
struct Raw {
  std::string step, shape, impl;
  dnnl::primitive prim;
  std::unordered_map<int, memory> args;
};

// The raw oneDNN convolution of a float32 Convolution step (nullopt for others).
std::optional<Raw> raw_convolution(const runtime::Program& prog, const runtime::Step& step) {
  const auto* p = std::get_if<network::ConvolutionParams>(&step.params);
  if (!p || step.precision != runtime::Precision::Float32) return std::nullopt;
  const auto& x = prog.tensors[step.inputs[0]].dims;
  const auto& w = prog.tensors[step.inputs[1]].dims;
  const auto& y = prog.tensors[step.outputs[0]].dims;
  const std::int64_t g = p->groups;
  memory::dims wd = g > 1 ? memory::dims{g, w[0] / g, w[1]} : memory::dims{w[0], w[1]};
  wd.insert(wd.end(), w.begin() + 2, w.end());
  memory::dims dil;
  for (auto d : p->dilation) dil.push_back(d - 1);
  const auto any = memory::format_tag::any;
  const memory::desc src(to_dims(x), memory::data_type::f32, any), wei(wd, memory::data_type::f32, any),
      dst(to_dims(y), memory::data_type::f32, any);
  const memory::desc bias({w[0]}, memory::data_type::f32, memory::format_tag::a);
  const bool has_bias = step.layer_input_count() == 3;
  const auto desc = has_bias ? dnnl::convolution_forward::desc(
                                   dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, src, wei,
                                   bias, dst, to_dims(p->stride), dil, to_dims(p->padding_pre), to_dims(p->padding_post))
                             : dnnl::convolution_forward::desc(
                                   dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, src, wei,
                                   dst, to_dims(p->stride), dil, to_dims(p->padding_pre), to_dims(p->padding_post));
  const dnnl::convolution_forward::primitive_desc pd(desc, eng());
  Raw r{step.name, "", pd.impl_info_str(), dnnl::convolution_forward(pd), {}};
  r.args = {{DNNL_ARG_SRC, memory(pd.src_desc(), eng())},
            {DNNL_ARG_WEIGHTS, memory(pd.weights_desc(), eng())},
            {DNNL_ARG_DST, memory(pd.dst_desc(), eng())}};
  if (has_bias) r.args.emplace(DNNL_ARG_BIAS, memory(bias, eng()));
  for (auto& [arg, m] : r.args) std::fill_n(static_cast<float*>(m.get_data_handle()), m.get_desc().get_size() / 4, 0.01f);
  char shape[160];
  std::snprintf(shape, sizeof shape, "%lldx%lldx%lldx%lld k%lld s%lld g%lld", static_cast<long long>(x[0]),
                static_cast<long long>(x[1]), static_cast<long long>(x[2]), static_cast<long long>(y[1]),
                static_cast<long long>(w.size() > 2 ? w[2] : 1), static_cast<long long>(p->stride[0]),
                static_cast<long long>(g));
  r.shape = shape;
  return r;
}

// The raw oneDNN matmul of a float32 MatMul step whose right operand is a
// constant 2-d weight (what a linear layer is); nullopt for others.
std::optional<Raw> raw_matmul(const runtime::Program& prog, const runtime::Step& step) {
  const auto* p = std::get_if<network::MatMulParams>(&step.params);
  if (!p || step.precision != runtime::Precision::Float32 || p->transpose_a) return std::nullopt;
  const auto& a = prog.tensors[step.inputs[0]];
  const auto& b = prog.tensors[step.inputs[1]];
  if (b.role != runtime::TensorRole::Constant || b.dims.size() != 2 || a.dims.size() < 2) return std::nullopt;
  std::int64_t m = 1;
  for (std::size_t i = 0; i + 1 < a.dims.size(); ++i) m *= a.dims[i];
  const std::int64_t k = a.dims.back(), n = p->transpose_b ? b.dims[0] : b.dims[1];
  const memory::desc ad({m, k}, memory::data_type::f32, memory::format_tag::ab);
  const memory::desc bd({k, n}, memory::data_type::f32, memory::format_tag::any);
  const memory::desc cd({m, n}, memory::data_type::f32, memory::format_tag::ab);
  const dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(ad, bd, cd), eng());
  Raw r{step.name, std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n), pd.impl_info_str(),
        dnnl::matmul(pd), {}};
  r.args = {{DNNL_ARG_SRC, memory(pd.src_desc(), eng())},
            {DNNL_ARG_WEIGHTS, memory(pd.weights_desc(), eng())},
            {DNNL_ARG_DST, memory(pd.dst_desc(), eng())}};
  for (auto& [arg, mem] : r.args) std::fill_n(static_cast<float*>(mem.get_data_handle()), mem.get_desc().get_size() / 4, 0.01f);
  return r;
}

double raw_ms(Raw& r, int runs) {
  dnnl::stream stream(eng());
  r.prim.execute(stream, r.args);  // warm the caches as a back-to-back loop has them
  stream.wait();
  const auto start = Clock::now();
  for (int i = 0; i < runs; ++i) r.prim.execute(stream, r.args);
  stream.wait();
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count() / runs;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

int usage() {
  std::fprintf(stderr, "usage: layer_efficiency_bench model.pt2 [--threads N] [--runs N] [--rounds N]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  std::string model = argv[1];
  int threads = 0, runs = 10, rounds = 5;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const int value = std::atoi(argv[i + 1]);
    if (value <= 0) return usage();
    if (flag == "--threads") threads = value;
    else if (flag == "--runs") runs = value;
    else if (flag == "--rounds") rounds = value;
    else return usage();
  }
  try {
    CompileSettings settings;
    settings.num_threads = threads;
    const Engine engine = compile(model, settings);
    // The raw primitives are made and run under the engine's thread count too.
    const runtime::ScopedOpenMpThreads same_threads(engine.kernel_threads());
    const runtime::Program& prog = engine.internal().program();
    std::vector<Raw> raws;
    for (const auto& step : prog.steps) {
      if (auto r = raw_convolution(prog, step)) raws.push_back(std::move(*r));
      else if (auto m = raw_matmul(prog, step)) raws.push_back(std::move(*m));
    }
    std::vector<Tensor> inputs;
    for (const auto& in : engine.inputs()) {
      Tensor t(in.dtype, in.dims);
      if (in.dtype == DType::Float32) std::fill_n(t.mutable_data<float>(), t.numel(), 0.5f);
      inputs.push_back(t);
    }
    auto ctx = engine.create_context();
    for (int i = 0; i < 3; ++i) ctx.run(inputs);
    std::map<std::string, std::vector<double>> ours, raw;
    for (int round = 0; round < rounds; ++round) {
      ctx.set_profiling(true);  // clears the previous round
      for (int i = 0; i < runs; ++i) ctx.run(inputs);
      for (const auto& s : ctx.profile().steps) ours[s.step.name].push_back(s.total_ms / runs);
      for (auto& r : raws) raw[r.step].push_back(raw_ms(r, runs));
    }
    std::printf("%s: %zu convolution/matmul steps, %d threads, %d rounds of %d runs (medians over rounds)\n",
                model.c_str(), raws.size(), engine.kernel_threads(), rounds, runs);
    std::printf("%-34s %-28s %-16s %9s %9s %7s\n", "step", "shape", "raw kernel", "net ms", "raw ms", "raw/net");
    double sum_ours = 0, sum_raw = 0;
    std::vector<double> ratios;
    for (const auto& r : raws) {
      const double o = median(ours[r.step]), w = median(raw[r.step]);
      if (o <= 0) continue;
      sum_ours += o, sum_raw += w;
      ratios.push_back(w / o);
      std::printf("%-34.34s %-28.28s %-16.16s %9.3f %9.3f %6.0f%%\n", r.step.c_str(), r.shape.c_str(), r.impl.c_str(),
                  o, w, 100.0 * w / o);
    }
    std::printf("all: in the network %.2f ms, raw %.2f ms: %.0f%% of raw throughput (median step %.0f%%)\n", sum_ours,
                sum_raw, sum_ours > 0 ? 100.0 * sum_raw / sum_ours : 0.0, 100.0 * median(ratios));
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "layer_efficiency_bench: %s\n", e.what());
    return 1;
  }
}
