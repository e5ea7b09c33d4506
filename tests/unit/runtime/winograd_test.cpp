// Our Winograd convolution (runtime/cpu/own/winograd.h), the finite form of
// 3x3 stride-1 fp32 convs on AVX2 CPUs (onednn/conv.cpp): against the
// reference kernel on shapes with edge tiles (odd sizes), padding 0 and 1,
// batch 2, with and without bias, relu, clip and a residual; one context
// alternates finite inputs (Winograd) with NaN/±inf ones (the direct
// primitive, NaN-exact).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "runtime/cpu/isa.h"
#include "runtime/cpu/own/winograd.h"
#include "support/engine_check.h"

namespace atenrt::testing {
namespace {

using namespace atenrt::network;
using builder::BuilderConfig;

// The bar: max|got - want| <= 1e-4 * max|want|.
::testing::AssertionResult close_to_max(const Tensor& got, const Tensor& want) {
  if (got.sizes() != want.sizes()) return ::testing::AssertionFailure() << "sizes differ";
  double err = 0, top = 0;
  const float* g = got.data<float>();
  const float* w = want.data<float>();
  for (std::int64_t i = 0; i < want.numel(); ++i) {
    err = std::max(err, std::fabs(double(g[i]) - w[i]));
    top = std::max(top, std::fabs(double(w[i])));
  }
  if (!(err <= 1e-4 * top)) return ::testing::AssertionFailure() << "max|diff| " << err << ", max|ref| " << top;
  return ::testing::AssertionSuccess();
}

struct WinogradCase {
  std::string name;
  Dims x;  // N, C, H, W
  std::int64_t c_out = 64, pad = 1;
  bool bias = true, residual = false;
  enum class Act { None, Relu, Clip } act = Act::None;
  int tile = 0;  // the tile side choose_tile gives (4: F(4,3), 2: F(2,3))
};

Network make(const WinogradCase& c) {
  Network n;
  auto* x = n.add_input("x", DType::Float32, c.x);
  auto* y = n.add_convolution(
      "conv", x, n.add_constant("w", weights({c.c_out, c.x[1], 3, 3}, 2)),
      c.bias ? n.add_constant("b", weights({c.c_out}, 3)) : nullptr,
      ConvolutionParams{{1, 1}, {c.pad, c.pad}, {c.pad, c.pad}, {1, 1}, 1});
  if (c.residual) {
    auto* r = n.add_input("r", DType::Float32, {c.x[0], c.c_out, c.x[2] + 2 * c.pad - 2, c.x[3] + 2 * c.pad - 2});
    y = n.add_elementwise("add", y, r, ElementwiseOp::Add);
  }
  if (c.act == WinogradCase::Act::Relu) y = n.add_activation("relu", y, ActivationOp::Relu);
  if (c.act == WinogradCase::Act::Clip) y = n.add_activation("clip", y, ActivationOp::Clip, -1.0, 6.0);
  n.mark_output(y);
  return n;
}

std::vector<WinogradCase> cases() {
  using A = WinogradCase::Act;
  return {
      {"f43_odd_edges", {1, 64, 29, 31}, 64, 1, true, false, A::None, 4},
      {"f43_pad0_relu", {1, 64, 30, 33}, 72, 0, true, false, A::Relu, 4},
      {"f43_batch2_residual_relu", {2, 64, 28, 28}, 64, 1, true, true, A::Relu, 4},
      {"f43_no_bias_clip", {1, 72, 28, 29}, 64, 1, false, false, A::Clip, 4},
      {"f23_odd_edges", {1, 64, 15, 17}, 64, 1, true, false, A::None, 2},
      {"f23_residual_relu", {1, 128, 14, 14}, 128, 1, true, true, A::Relu, 2},
      {"f23_pad0_no_bias", {2, 64, 17, 16}, 64, 0, false, false, A::None, 2},
  };
}

// NaN, ±inf and huge values at a few places.
void add_specials(Tensor& t) {
  const float inf = std::numeric_limits<float>::infinity();
  const float specials[] = {std::numeric_limits<float>::quiet_NaN(), inf, -inf, 1e30f};
  float* v = t.mutable_data<float>();
  for (std::int64_t i = 0, k = 0; i < t.numel(); i += 997, ++k) v[i] = specials[k % 4];
}

class Winograd : public ::testing::TestWithParam<WinogradCase> {};

TEST_P(Winograd, MatchesReferenceWithFiniteAndSpecialInputs) {
  const auto& c = GetParam();
  const Dims& x = c.x;
  const std::int64_t oh = x[2] + 2 * c.pad - 2, ow = x[3] + 2 * c.pad - 2;
  const int tile = runtime::cpu::own::winograd::choose_tile(x[1], c.c_out, oh, ow);
  const std::string isa = runtime::cpu::cpu_isa_name();
  const bool expected = isa == "avx2" || isa == "avx2_vnni";  // below AVX-512 (oneDNN has no Winograd there)
  if (expected) {
    EXPECT_EQ(tile, c.tile) << "the heuristic changed: adjust the case";
  }

  BuilderConfig config;
  config.constant_folding = false;
  runtime::Engine engine = builder::build(make(c), config);
  std::string impl;
  for (const auto& step : engine.steps()) {
    if (step.kind == "Convolution") impl = step.implementation;
  }
  if (expected) {
    EXPECT_NE(impl.find("wino_f" + std::to_string(c.tile) + "3"), std::string::npos) << impl;
  } else if (isa.rfind("avx512", 0) == 0) {
    // oneDNN's own Winograd (onednn_winograd) where the channels fill 16-blocks, never ours
    EXPECT_EQ(impl.find("wino_f"), std::string::npos) << impl;
    const bool blocks = x[1] % 16 == 0 && c.c_out % 16 == 0;
    EXPECT_EQ(impl.find("+onednn_wino") != std::string::npos, blocks) << impl;
  } else {
    EXPECT_EQ(impl.find("wino"), std::string::npos) << impl;
  }

  Network ref_net = make(c);
  const reference::TensorMap finite = random_inputs(ref_net);
  reference::TensorMap in_source = random_inputs(ref_net, 7), in_residual = random_inputs(ref_net, 9);
  add_specials(in_source.at("x"));
  if (c.residual) add_specials(in_residual.at("r"));
  auto ctx = engine.create_context();
  int round = 0;
  const std::vector<const reference::TensorMap*> runs{&finite, &in_source, &finite, &in_residual, &finite};
  for (const auto* inputs : runs) {
    SCOPED_TRACE(c.name + ", run " + std::to_string(round++));
    const auto want = reference::run(ref_net, *inputs);
    const auto got = ctx.run(*inputs);
    for (const auto& [name, t] : want) {
      if (inputs != &in_source && (inputs != &in_residual || !c.residual)) {  // finite: Winograd ran
        EXPECT_TRUE(close_to_max(got.at(name), t)) << name;
      } else {
        EXPECT_TRUE(close(got.at(name), t, 1e-4)) << name;  // NaN where PyTorch has NaN, ±inf alike
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Conv3x3, Winograd, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<WinogradCase>& info) { return info.param.name; });

// The three stages by themselves (the GEMMs as a plain loop here), for both
// tile sides, against a direct convolution in double: nChw8c in and out,
// odd sizes (edge tiles), uneven padding, batch 2, bias, sum and two clamps.
TEST(WinogradStages, MatchDirectConvolution) {
  namespace wg = runtime::cpu::own::winograd;
  if (wg::choose_tile(64, 64, 56, 56) == 0) GTEST_SKIP() << "no AVX2 and FMA here";
  for (int m : {2, 4}) {
    SCOPED_TRACE("F(" + std::to_string(m) + ",3)");
    wg::Shape s;
    s.m = m, s.n = 2, s.c_in = 16, s.c_out = 24, s.h = 11, s.w = 9, s.pad_top = 1, s.pad_left = 0;
    s.oh = s.h + 2 - 2, s.ow = s.w + 1 - 2;  // bottom padding 1, right padding 1
    const Tensor x = random_tensor(DType::Float32, {s.n, s.c_in / 8, s.h, s.w, 8}, 1);
    const Tensor w = weights({s.c_out, s.c_in, 3, 3}, 2), b = weights({s.c_out}, 3);
    const Tensor r = random_tensor(DType::Float32, {s.n, s.c_out / 8, s.oh, s.ow, 8}, 4);
    wg::Epilogue e;
    e.sum = true;
    e.clamps = {{0.f, std::numeric_limits<float>::infinity()}, {-1.f, 1.5f}};

    const std::int64_t aa = s.alpha() * s.alpha(), tiles = s.tiles();
    const std::vector<float> u = wg::transform_weights(s, w.data<float>());
    std::vector<float> v(aa * tiles * s.c_in), mm(aa * tiles * s.c_out, 0.f);
    wg::transform_input(s, x.data<float>(), v.data());
    for (std::int64_t a = 0; a < aa; ++a) {
      for (std::int64_t t = 0; t < tiles; ++t) {
        for (std::int64_t ci = 0; ci < s.c_in; ++ci) {
          for (std::int64_t co = 0; co < s.c_out; ++co) {
            mm[(a * tiles + t) * s.c_out + co] += v[(a * tiles + t) * s.c_in + ci] * u[(a * s.c_in + ci) * s.c_out + co];
          }
        }
      }
    }
    Tensor y = random_tensor(DType::Float32, r.sizes(), 4);  // the residual, summed in place
    wg::transform_output(s, mm.data(), b.data<float>(), e, y.mutable_data<float>());

    auto at = [](const Tensor& t, std::int64_t n, std::int64_t c, std::int64_t i, std::int64_t j) {
      const auto& d = t.sizes();
      return t.data<float>()[(((n * d[1] + c / 8) * d[2] + i) * d[3] + j) * 8 + c % 8];
    };
    double err = 0, top = 0;
    for (std::int64_t n = 0; n < s.n; ++n) {
      for (std::int64_t co = 0; co < s.c_out; ++co) {
        for (std::int64_t i = 0; i < s.oh; ++i) {
          for (std::int64_t j = 0; j < s.ow; ++j) {
            double acc = b.data<float>()[co];
            for (std::int64_t ci = 0; ci < s.c_in; ++ci) {
              for (int ki = 0; ki < 3; ++ki) {
                for (int kj = 0; kj < 3; ++kj) {
                  const std::int64_t yy = i + ki - s.pad_top, xx = j + kj - s.pad_left;
                  if (yy < 0 || yy >= s.h || xx < 0 || xx >= s.w) continue;
                  acc += double(at(x, n, ci, yy, xx)) * w.data<float>()[((co * s.c_in + ci) * 3 + ki) * 3 + kj];
                }
              }
            }
            acc += at(r, n, co, i, j);
            acc = std::min(std::max(std::max(acc, 0.0), -1.0), 1.5);
            err = std::max(err, std::fabs(acc - at(y, n, co, i, j)));
            top = std::max(top, std::fabs(acc));
          }
        }
      }
    }
    EXPECT_LE(err, 1e-4 * top) << "max|diff| " << err;
    EXPECT_GT(top, 0.5);  // the clamps leave values to compare
  }
}

// Only 3x3, stride 1, dilation 1, one group, and channels in blocks of 8 (at
// least 64), over the measured sizes.
TEST(WinogradChoice, OnlyWhereItMeasuredFaster) {
  using runtime::cpu::own::winograd::choose_tile;
  const std::string isa = runtime::cpu::cpu_isa_name();
  if (isa != "avx2" && isa != "avx2_vnni") GTEST_SKIP() << "no Winograd of ours on " << isa;
  EXPECT_EQ(choose_tile(64, 64, 56, 56), 4);
  EXPECT_EQ(choose_tile(128, 128, 28, 28), 4);
  EXPECT_EQ(choose_tile(256, 256, 14, 14), 2);
  EXPECT_EQ(choose_tile(512, 512, 7, 7), 0);
  EXPECT_EQ(choose_tile(60, 64, 56, 56), 0);
  EXPECT_EQ(choose_tile(32, 32, 56, 56), 0);

  auto impl_of = [](ConvolutionParams p, Dims x, Dims w) {
    Network n;
    n.mark_output(n.add_convolution("conv", n.add_input("x", DType::Float32, x), n.add_constant("w", weights(w, 2)),
                                    nullptr, p));
    for (const auto& step : builder::build(std::move(n), BuilderConfig{}).steps()) {
      if (step.kind == "Convolution") return step.implementation;
    }
    return std::string();
  };
  const Dims x{1, 64, 28, 28};
  EXPECT_NE(impl_of({{1, 1}, {1, 1}, {1, 1}, {1, 1}, 1}, x, {64, 64, 3, 3}).find("wino"), std::string::npos);
  EXPECT_EQ(impl_of({{2, 2}, {1, 1}, {1, 1}, {1, 1}, 1}, x, {64, 64, 3, 3}).find("wino"), std::string::npos);
  EXPECT_EQ(impl_of({{1, 1}, {2, 2}, {2, 2}, {2, 2}, 1}, x, {64, 64, 3, 3}).find("wino"), std::string::npos);
  EXPECT_EQ(impl_of({{1, 1}, {1, 1}, {1, 1}, {1, 1}, 2}, x, {64, 32, 3, 3}).find("wino"), std::string::npos);
  EXPECT_EQ(impl_of({{1, 1}, {2, 2}, {2, 2}, {1, 1}, 1}, x, {64, 64, 5, 5}).find("wino"), std::string::npos);
}

}  // namespace
}  // namespace atenrt::testing
