// Is a Winograd convolution of our own faster than oneDNN 2.6's direct f32
// conv on an AVX2 CPU (where oneDNN has no Winograd)? ResNet's 3x3, stride 1
// shapes at batch 1, source and destination in nChw8c (the blocked layout
// our AVX2 convs already pass between layers), all costs included: input
// transform, the alpha^2 GEMMs (one batched oneDNN matmul, weights
// transformed and packed once), output transform with bias.
//
// Compare the rows of one run as ratios (the machine is shared). At startup
// each Winograd variant is checked against the direct conv (max|diff| /
// max|ref|, printed to stderr).
#include <benchmark/benchmark.h>
#include <dnnl.hpp>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "runtime/cpu/own/winograd.h"

namespace {

using dnnl::memory;
using tag = memory::format_tag;
using dt = memory::data_type;
namespace own = atenrt::runtime::cpu::own;

const dnnl::engine& eng() {
  static dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}

struct Shape {
  const char* name;
  int c, h;  // cin == cout, h == w
};
const Shape kShapes[] = {{"64@56", 64, 56}, {"128@28", 128, 28}, {"256@14", 256, 14}, {"512@7", 512, 7}};

std::vector<float> random(std::size_t n, unsigned seed) {
  std::vector<float> v(n);
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  for (auto& x : v) x = u(g);
  return v;
}

// ---- oneDNN direct conv, as our engine makes it (format any -> nChw8c here)
struct Direct {
  dnnl::convolution_forward::primitive_desc pd;
  dnnl::convolution_forward conv;
  memory src, wei, bias, dst;
  Direct(const Shape& s, const std::vector<float>& x, const std::vector<float>& w, const std::vector<float>& b) {
    const memory::desc src_md({1, s.c, s.h, s.h}, dt::f32, tag::any), wei_md({s.c, s.c, 3, 3}, dt::f32, tag::any),
        b_md({s.c}, dt::f32, tag::a), dst_md({1, s.c, s.h, s.h}, dt::f32, tag::any);
    pd = dnnl::convolution_forward::primitive_desc(
        dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                                        src_md, wei_md, b_md, dst_md, {1, 1}, {1, 1}, {1, 1}),
        eng());
    conv = dnnl::convolution_forward(pd);
    dnnl::stream st(eng());
    auto load = [&](const std::vector<float>& v, const memory::desc& plain, const memory::desc& want) {
      memory p(plain, eng(), const_cast<float*>(v.data())), m(want, eng());
      dnnl::reorder(p, m).execute(st, p, m);
      return m;
    };
    src = load(x, memory::desc({1, s.c, s.h, s.h}, dt::f32, tag::nchw), pd.src_desc());
    wei = load(w, memory::desc({s.c, s.c, 3, 3}, dt::f32, tag::oihw), pd.weights_desc());
    bias = memory(b_md, eng(), const_cast<float*>(b.data()));
    dst = memory(pd.dst_desc(), eng());
    st.wait();
  }
  void run(dnnl::stream& st) {
    conv.execute(st, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei}, {DNNL_ARG_BIAS, bias}, {DNNL_ARG_DST, dst}});
    st.wait();
  }
};

// ---- Winograd F(m,3), nChw8c in and out: the engine's (own/winograd.h),
// with the GEMMs as one batched matmul, as onednn/conv.cpp makes it.
struct Winograd {
  own::winograd::Shape ws;
  own::winograd::Epilogue epilogue;
  const float* bias;
  dnnl::matmul mm;
  memory v_mem, u_mem, m_mem, pad;
  std::string impl;

  Winograd(const Shape& s, int m, const std::vector<float>& w, const std::vector<float>& b) : bias(b.data()) {
    ws.c_in = ws.c_out = s.c, ws.h = ws.w = ws.oh = ws.ow = s.h, ws.pad_top = ws.pad_left = 1, ws.m = m;
    const std::int64_t aa = ws.alpha() * ws.alpha(), tiles = ws.tiles();
    std::vector<float> u = own::winograd::transform_weights(ws, w.data());
    const memory::desc v_md({aa, tiles, s.c}, dt::f32, tag::abc), u_any({aa, s.c, s.c}, dt::f32, tag::any),
        m_md({aa, tiles, s.c}, dt::f32, tag::abc);
    dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(v_md, u_any, m_md), eng());
    mm = dnnl::matmul(pd);
    dnnl::stream st(eng());
    memory u_plain(memory::desc({aa, s.c, s.c}, dt::f32, tag::abc), eng(), u.data());
    u_mem = memory(pd.weights_desc(), eng());
    dnnl::reorder(u_plain, u_mem).execute(st, u_plain, u_mem);
    st.wait();
    v_mem = memory(v_md, eng());
    m_mem = memory(m_md, eng());
    impl = pd.impl_info_str();
  }
  void input_transform(const float* x) { own::winograd::transform_input(ws, x, static_cast<float*>(v_mem.get_data_handle())); }
  void gemm(dnnl::stream& st) {
    mm.execute(st, {{DNNL_ARG_SRC, v_mem}, {DNNL_ARG_WEIGHTS, u_mem}, {DNNL_ARG_DST, m_mem}});
    st.wait();
  }
  void output_transform(float* y) {
    own::winograd::transform_output(ws, static_cast<const float*>(m_mem.get_data_handle()), bias, epilogue, y);
  }
  void run(const float* x, float* y, dnnl::stream& st) {
    input_transform(x);
    gemm(st);
    output_transform(y);
  }
};

double flops(const Shape& s) { return 2.0 * s.c * s.c * 9 * s.h * s.h; }

struct Case {
  std::vector<float> x, w, b;
  explicit Case(const Shape& s)
      : x(random(static_cast<std::size_t>(s.c) * s.h * s.h, 1)),
        // kaiming-like scale, as a trained ResNet's weights
        w(random(static_cast<std::size_t>(s.c) * s.c * 9, 2)),
        b(random(s.c, 3)) {
    const float scale = std::sqrt(3.f / (s.c * 9));
    for (auto& v : w) v *= scale;
  }
};

void check(const Shape& s, int m) {
  Case cs(s);
  Direct d(s, cs.x, cs.w, cs.b);
  dnnl::stream st(eng());
  d.run(st);
  Winograd wg(s, m, cs.w, cs.b);
  std::vector<float> y(static_cast<std::size_t>(s.c) * s.h * s.h);
  wg.run(static_cast<const float*>(d.src.get_data_handle()), y.data(), st);
  const float* ref = static_cast<const float*>(d.dst.get_data_handle());
  double err = 0, mx = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    err = std::max(err, std::fabs(double(y[i]) - ref[i]));
    mx = std::max(mx, std::fabs(double(ref[i])));
  }
  std::fprintf(stderr, "F(%d,3) %-7s max|diff|/max|ref| = %.2e  (direct: %s, matmul: %s)\n", m, s.name, err / mx,
               d.pd.impl_info_str(), wg.impl.c_str());
}

void report(benchmark::State& state, const Shape& s) {
  state.counters["GFLOP/s"] =
      benchmark::Counter(flops(s) * static_cast<double>(state.iterations()) / 1e9, benchmark::Counter::kIsRate);
}

void BM_Direct(benchmark::State& state, Shape s) {
  omp_set_num_threads(static_cast<int>(state.range(0)));
  Case cs(s);
  Direct d(s, cs.x, cs.w, cs.b);
  dnnl::stream st(eng());
  for (auto _ : state) d.run(st);
  report(state, s);
}

void BM_Winograd(benchmark::State& state, Shape s, int m) {
  omp_set_num_threads(static_cast<int>(state.range(0)));
  Case cs(s);
  Direct d(s, cs.x, cs.w, cs.b);  // only for its nChw8c source
  Winograd wg(s, m, cs.w, cs.b);
  std::vector<float> y(static_cast<std::size_t>(s.c) * s.h * s.h);
  const float* x = static_cast<const float*>(d.src.get_data_handle());
  dnnl::stream st(eng());
  for (auto _ : state) wg.run(x, y.data(), st);
  report(state, s);
}

// the three stages apart (where the time goes)
void BM_WinogradStage(benchmark::State& state, Shape s, int m) {
  omp_set_num_threads(static_cast<int>(state.range(0)));
  const int stage = static_cast<int>(state.range(1));
  Case cs(s);
  Direct d(s, cs.x, cs.w, cs.b);
  Winograd wg(s, m, cs.w, cs.b);
  std::vector<float> y(static_cast<std::size_t>(s.c) * s.h * s.h);
  const float* x = static_cast<const float*>(d.src.get_data_handle());
  dnnl::stream st(eng());
  for (auto _ : state) {
    if (stage == 0) wg.input_transform(x);
    if (stage == 1) wg.gemm(st);
    if (stage == 2) wg.output_transform(y.data());
  }
  state.SetLabel(stage == 0 ? "input" : stage == 1 ? "gemm" : "output");
}

int register_all() {
  for (const auto& s : kShapes) {
    check(s, 2);
    check(s, 4);
  }
  for (const auto& s : kShapes) {
    const std::string n = s.name;
    for (int t : {1, 2}) {
      auto args = [t](benchmark::internal::Benchmark* b) {
        b->Arg(t);
        if (t > 1) b->UseRealTime();
      };
      args(benchmark::RegisterBenchmark(("direct/" + n).c_str(), BM_Direct, s));
      args(benchmark::RegisterBenchmark(("wino_f23/" + n).c_str(), BM_Winograd, s, 2));
      args(benchmark::RegisterBenchmark(("wino_f43/" + n).c_str(), BM_Winograd, s, 4));
    }
    for (int stage = 0; stage < 3; ++stage) {
      benchmark::RegisterBenchmark(("stage_f23/" + n).c_str(), BM_WinogradStage, s, 2)->Args({1, stage});
      benchmark::RegisterBenchmark(("stage_f43/" + n).c_str(), BM_WinogradStage, s, 4)->Args({1, stage});
    }
  }
  return 0;
}
const int registered = register_all();

}  // namespace

BENCHMARK_MAIN();
