// Our conv and matmul layers (one-layer engines built by the builder) beside
// oneDNN's raw primitive on the same shapes, fp32 and bf16, as GFLOP/s.
//
// The raw primitive is the best case: source, weights and destination in the
// formats it prefers (format_tag::any), weights reordered once, no reorders
// in the timed loop. Our engine takes plain NCHW / row-major tensors in and
// gives them back out, so its figure includes the edge reorders a one-layer
// network needs. Compare the two as a ratio within one run (the machine is shared).
#include <benchmark/benchmark.h>
#include <dnnl.hpp>

#include <random>

#include "builder/builder.h"

namespace {

using namespace atenrt;
using network::Dims;
using runtime::Precision;

Tensor random(const Dims& d, unsigned seed) {
  Tensor t(DType::Float32, d);
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  for (std::int64_t i = 0; i < t.numel(); ++i) t.mutable_data<float>()[i] = u(g);
  return t;
}

struct ConvShape {
  const char* name;
  std::int64_t n, cin, h, cout, k, stride;
};
const ConvShape kConvs[] = {
    {"r50_stem_7x7s2", 1, 3, 224, 64, 7, 2}, {"r50_3x3_64", 1, 64, 56, 64, 3, 1},
    {"r50_1x1_256_64", 1, 256, 56, 64, 1, 1}, {"r50_3x3_128", 1, 128, 28, 128, 3, 1},
    {"r50_3x3_256", 1, 256, 14, 256, 3, 1},  {"r50_1x1_1024_256", 1, 1024, 14, 256, 1, 1},
};
struct MatmulShape {
  const char* name;
  Dims a, b;
};
const MatmulShape kMatmuls[] = {
    {"bert_qkv_128x768x768", {128, 768}, {768, 768}},
    {"bert_ffn1_128x768x3072", {128, 768}, {768, 3072}},
    {"bert_ffn2_128x3072x768", {128, 3072}, {3072, 768}},
    {"bert_attn_12x128x64x128", {12, 128, 64}, {12, 64, 128}},
};

double conv_flops(const ConvShape& s) {
  const std::int64_t oh = (s.h + 2 * (s.k / 2) - s.k) / s.stride + 1;
  return 2.0 * s.n * s.cout * oh * oh * s.cin * s.k * s.k;
}
double matmul_flops(const MatmulShape& s) {
  const std::int64_t batch = s.a.size() == 3 ? s.a[0] : 1;
  return 2.0 * batch * s.a[s.a.size() - 2] * s.a.back() * s.b.back();
}

void report(benchmark::State& state, double flops) {
  state.counters["GFLOP/s"] =
      benchmark::Counter(flops * static_cast<double>(state.iterations()) / 1e9, benchmark::Counter::kIsRate);
}

// ---- ours: a one-layer engine
void run_engine(benchmark::State& state, network::Network net, Precision precision, double flops) {
  builder::BuilderConfig config;
  config.precision = precision;
  const auto engine = builder::build(std::move(net), config);
  auto ctx = engine.create_context();
  std::vector<Tensor> inputs;
  unsigned seed = 1;
  for (const auto& in : engine.inputs()) inputs.push_back(random(in.dims, seed++));
  for (auto _ : state) benchmark::DoNotOptimize(ctx.run(inputs).data());
  report(state, flops);
}

void BM_OursConv(benchmark::State& state, ConvShape s, Precision p) {
  network::Network n;
  auto* x = n.add_input("x", DType::Float32, {s.n, s.cin, s.h, s.h});
  const std::int64_t pad = s.k / 2;
  auto* y = n.add_convolution("conv", x, n.add_constant("w", random({s.cout, s.cin, s.k, s.k}, 2)),
                              n.add_constant("b", random({s.cout}, 3)),
                              network::ConvolutionParams{{s.stride, s.stride}, {pad, pad}, {pad, pad}, {1, 1}, 1});
  n.mark_output(y);
  run_engine(state, std::move(n), p, conv_flops(s));
}

void BM_OursMatmul(benchmark::State& state, MatmulShape s, Precision p) {
  network::Network n;
  auto* a = n.add_input("a", DType::Float32, s.a);
  // 2-d right operands are weights (constants, pre-packed); batched ones are activations.
  auto* b = s.b.size() == 2 ? n.add_constant("w", random(s.b, 2)) : n.add_input("b", DType::Float32, s.b);
  n.mark_output(n.add_matmul("mm", a, b));
  run_engine(state, std::move(n), p, matmul_flops(s));
}

// ---- raw oneDNN primitives
using dnnl::memory;
const dnnl::engine& eng() {
  static dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}

void BM_RawConv(benchmark::State& state, ConvShape s, Precision p) {
  const auto dt = p == Precision::BFloat16 ? memory::data_type::bf16 : memory::data_type::f32;
  const std::int64_t pad = s.k / 2, oh = (s.h + 2 * pad - s.k) / s.stride + 1;
  const memory::desc src({s.n, s.cin, s.h, s.h}, dt, memory::format_tag::any);
  const memory::desc wei({s.cout, s.cin, s.k, s.k}, dt, memory::format_tag::any);
  const memory::desc bias({s.cout}, memory::data_type::f32, memory::format_tag::a);
  const memory::desc dst({s.n, s.cout, oh, oh}, memory::data_type::f32, memory::format_tag::any);
  dnnl::convolution_forward::desc d(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, src, wei,
                                    bias, dst, {s.stride, s.stride}, {pad, pad}, {pad, pad});
  dnnl::convolution_forward::primitive_desc pd(d, eng());
  dnnl::convolution_forward conv(pd);
  memory m_src(pd.src_desc(), eng()), m_wei(pd.weights_desc(), eng()), m_bias(bias, eng()), m_dst(pd.dst_desc(), eng());
  dnnl::stream stream(eng());
  for (auto _ : state) {
    conv.execute(stream, {{DNNL_ARG_SRC, m_src}, {DNNL_ARG_WEIGHTS, m_wei}, {DNNL_ARG_BIAS, m_bias}, {DNNL_ARG_DST, m_dst}});
    stream.wait();
  }
  report(state, conv_flops(s));
  state.SetLabel(pd.impl_info_str());
}

void BM_RawMatmul(benchmark::State& state, MatmulShape s, Precision p) {
  const auto dt = p == Precision::BFloat16 ? memory::data_type::bf16 : memory::data_type::f32;
  memory::dims ad(s.a.begin(), s.a.end()), bd(s.b.begin(), s.b.end());
  memory::dims cd = ad;
  cd.back() = bd.back();
  const bool weights = s.b.size() == 2;
  const memory::desc a(ad, dt, ad.size() == 2 ? memory::format_tag::ab : memory::format_tag::abc);
  const memory::desc b(bd, dt, weights ? memory::format_tag::any : memory::format_tag::abc);
  const memory::desc c(cd, memory::data_type::f32, cd.size() == 2 ? memory::format_tag::ab : memory::format_tag::abc);
  dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a, b, c), eng());
  dnnl::matmul mm(pd);
  memory m_a(pd.src_desc(), eng()), m_b(pd.weights_desc(), eng()), m_c(pd.dst_desc(), eng());
  dnnl::stream stream(eng());
  for (auto _ : state) {
    mm.execute(stream, {{DNNL_ARG_SRC, m_a}, {DNNL_ARG_WEIGHTS, m_b}, {DNNL_ARG_DST, m_c}});
    stream.wait();
  }
  report(state, matmul_flops(s));
  state.SetLabel(pd.impl_info_str());
}

int register_all() {
  for (auto p : {Precision::Float32, Precision::BFloat16}) {
    const std::string tag = p == Precision::BFloat16 ? "bf16" : "f32";
    for (const auto& s : kConvs) {
      benchmark::RegisterBenchmark(("conv/" + tag + "/" + s.name + "/ours").c_str(), BM_OursConv, s, p)->UseRealTime();
      benchmark::RegisterBenchmark(("conv/" + tag + "/" + s.name + "/raw").c_str(), BM_RawConv, s, p)->UseRealTime();
    }
    for (const auto& s : kMatmuls) {
      benchmark::RegisterBenchmark(("matmul/" + tag + "/" + s.name + "/ours").c_str(), BM_OursMatmul, s, p)->UseRealTime();
      benchmark::RegisterBenchmark(("matmul/" + tag + "/" + s.name + "/raw").c_str(), BM_RawMatmul, s, p)->UseRealTime();
    }
  }
  return 0;
}
const int registered = register_all();

}  // namespace

BENCHMARK_MAIN();
