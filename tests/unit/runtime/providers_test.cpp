// The kernel provider table and the engine's walk over it.
#include "runtime/cpu/providers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "atenrt/errors.h"
#include "runtime/engine.h"

namespace atenrt::runtime {
namespace {

TEST(Providers, OrderedOptimizedFirstAndTheReferenceTakesEveryKind) {
  const auto providers = cpu::kernel_providers();
  ASSERT_EQ(providers.size(), 4u);
  EXPECT_EQ(providers[0].name, "onednn");
  EXPECT_EQ(providers[1].name, "own");
  EXPECT_EQ(providers[2].name, "plugin");
  EXPECT_EQ(providers[3].name, "reference");
  for (std::size_t i = 0; i < providers.size(); ++i) {
    EXPECT_EQ(providers[i].last_resort, i + 1 == providers.size()) << providers[i].name;
    EXPECT_FALSE(providers[i].declines.empty()) << providers[i].name;
  }
  EXPECT_TRUE(providers[0].takes_blocked);
  for (int k = 0; k < network::kLayerKindCount; ++k) {
    const auto kind = static_cast<network::LayerKind>(k);
    EXPECT_NE(providers[3].maker_for(kind), nullptr) << network::layer_kind_name(kind);
    int makers = 0;
    for (const auto& m : providers[3].makers) makers += m.kind == kind;
    EXPECT_EQ(makers, 1) << network::layer_kind_name(kind);
  }
  EXPECT_EQ(providers[0].maker_for(network::LayerKind::Scatter), nullptr);
  // Plugin layers go to their plugin's kernel, and to nothing optimized of ours.
  EXPECT_NE(providers[2].maker_for(network::LayerKind::Plugin), nullptr);
  EXPECT_EQ(providers[2].makers.size(), 1u);
  EXPECT_EQ(providers[0].maker_for(network::LayerKind::Plugin), nullptr);
  EXPECT_EQ(providers[1].maker_for(network::LayerKind::Plugin), nullptr);
  EXPECT_NE(providers[0].maker_for(network::LayerKind::Convolution), nullptr);
}

Tensor random_f32(const Dims& dims, std::uint32_t seed) {
  Tensor t(DType::Float32, dims);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  for (std::int64_t i = 0; i < t.numel(); ++i) t.mutable_data<float>()[i] = u(gen);
  return t;
}

// x → conv (3x3, 16 channels: oneDNN picks a blocked output) → average pool
// with a divisor override (oneDNN has none: our fallback reads plain only).
Program conv_then_pool(bool with_override) {
  Program p;
  auto tensor = [&](const std::string& name, Dims dims, TensorRole role, Tensor value = {}) {
    p.tensors.push_back({name, DType::Float32, std::move(dims), role, std::move(value)});
    return static_cast<int>(p.tensors.size()) - 1;
  };
  const int x = tensor("x", {1, 16, 8, 8}, TensorRole::Input);
  const int w = tensor("w", {16, 16, 3, 3}, TensorRole::Constant, random_f32({16, 16, 3, 3}, 2));
  const int c = tensor("c", {1, 16, 8, 8}, TensorRole::Activation);
  const int y = tensor("y", {1, 16, 4, 4}, TensorRole::Activation);
  network::ConvolutionParams conv;
  conv.stride = {1, 1};
  conv.padding_pre = conv.padding_post = {1, 1};
  conv.dilation = {1, 1};
  p.steps.push_back({"conv", conv, {x, w}, {c}, {}, Precision::Float32, {}});
  network::PoolingParams pool;
  pool.op = network::PoolingOp::Average;
  pool.kernel = pool.stride = {2, 2};
  pool.padding_pre = pool.padding_post = {0, 0};
  if (with_override) pool.divisor_override = 3;
  p.steps.push_back({"pool", pool, {c}, {y}, {}, Precision::Float32, {}});
  p.inputs = {x};
  p.outputs = {y};
  return p;
}

TEST(Providers, BlockedInputOfAPlainOnlyKernelGetsAToPlainStep) {
  const Engine engine(conv_then_pool(true));
  const auto steps = engine.steps();
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[0].name, "conv");
  EXPECT_EQ(steps[0].implementation.rfind("onednn:", 0), 0u);
  ASSERT_NE(steps[0].output_layout, "plain") << "oneDNN chose a plain conv output: the case tests nothing";
  EXPECT_EQ(steps[1].name, "pool:to_plain");
  EXPECT_EQ(steps[1].kind, "Reorder");
  EXPECT_EQ(steps[1].implementation, "onednn:reorder");
  EXPECT_EQ(steps[2].name, "pool");
  EXPECT_EQ(steps[2].implementation, "reference");

  // Same numbers as oneDNN's pooling over the blocked tensor, scaled by 4/3.
  const Engine plain(conv_then_pool(false));
  ASSERT_EQ(plain.steps().size(), 2u);
  const Tensor x = random_f32({1, 16, 8, 8}, 1);
  auto ctx = engine.create_context();
  auto ctx_plain = plain.create_context();
  const Tensor got = ctx.run(std::vector<Tensor>{x})[0];
  const Tensor want = ctx_plain.run(std::vector<Tensor>{x})[0];
  for (std::int64_t i = 0; i < got.numel(); ++i) {
    EXPECT_NEAR(got.data<float>()[i], want.data<float>()[i] * 4.f / 3.f, 1e-5f) << i;
  }
}

TEST(Providers, ReferenceKernelsOffRefuseWhatOnlyTheReferenceTakes) {
  EngineOptions options;
  options.allow_reference_kernels = false;
  try {
    const Engine engine(conv_then_pool(true), options);
    FAIL() << "expected UnsupportedError";
  } catch (const UnsupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("step 'pool' (Pooling) has no optimized kernel"), std::string::npos)
        << e.what();
  }
}

// x → conv a → conv b → conv c + a (residual, a oneDNN sum post-op) → conv d.
// Or: d also adds a, so a lives past c; or c adds the graph input x.
enum class Residual { DiesAtC, ReadLater, GraphInput };
Program residual_block(Residual residual) {
  Program p;
  auto tensor = [&](const std::string& name, Dims dims, TensorRole role, Tensor value = {}) {
    p.tensors.push_back({name, DType::Float32, std::move(dims), role, std::move(value)});
    return static_cast<int>(p.tensors.size()) - 1;
  };
  const Dims act = {1, 16, 8, 8};
  const int x = tensor("x", act, TensorRole::Input);
  network::ConvolutionParams conv;
  conv.stride = {1, 1};
  conv.padding_pre = conv.padding_post = {1, 1};
  conv.dilation = {1, 1};
  auto add_conv = [&](const std::string& name, int in, int residual) {
    const int w = tensor(name + ".w", {16, 16, 3, 3}, TensorRole::Constant,
                         random_f32({16, 16, 3, 3}, static_cast<std::uint32_t>(p.tensors.size())));
    const int y = tensor(name, act, TensorRole::Activation);
    Step step{name, conv, {in, w}, {y}, {}, Precision::Float32, {}};
    if (residual >= 0) {
      step.inputs.push_back(residual);
      step.post_ops.push_back({PostOpKind::Add, {}, 2, "add"});
    }
    p.steps.push_back(std::move(step));
    return y;
  };
  const int a = add_conv("a", x, -1);
  const int b = add_conv("b", a, -1);
  const int c = add_conv("c", b, residual == Residual::GraphInput ? x : a);
  const int d = add_conv("d", c, residual == Residual::ReadLater ? a : -1);
  p.inputs = {x};
  p.outputs = {d};
  return p;
}

TEST(Providers, ResidualAddWritesInPlaceOfAResidualThatDiesThere) {
  const Engine engine(residual_block(Residual::DiesAtC));
  const auto steps = engine.steps();
  ASSERT_EQ(steps.size(), 4u);
  ASSERT_NE(steps[0].output_layout, "plain") << "oneDNN chose a plain conv output: the case tests nothing";
  EXPECT_EQ(steps[2].name, "c");
  EXPECT_EQ(steps[2].in_place_of, "a");
  for (std::size_t i : {0u, 1u, 3u}) EXPECT_EQ(steps[i].in_place_of, "") << steps[i].name;

  // Same numbers as the plan that gives every tensor its own buffer (the
  // residual copied into c's buffer first), NaN included.
  EngineOptions own_buffers;
  own_buffers.reuse_memory = false;
  const Engine apart(residual_block(Residual::DiesAtC), own_buffers);
  for (const auto& s : apart.steps()) EXPECT_EQ(s.in_place_of, "") << s.name;
  Tensor x = random_f32({1, 16, 8, 8}, 1);
  x.mutable_data<float>()[5] = std::numeric_limits<float>::quiet_NaN();
  auto ctx = engine.create_context();
  auto ctx_apart = apart.create_context();
  for (int run = 0; run < 2; ++run) {  // the second run starts from the first run's arena
    const Tensor got = ctx.run(std::vector<Tensor>{x})[0];
    const Tensor want = ctx_apart.run(std::vector<Tensor>{x})[0];
    int nans = 0;
    for (std::int64_t i = 0; i < got.numel(); ++i) {
      const float g = got.data<float>()[i], w = want.data<float>()[i];
      if (std::isnan(w)) {
        EXPECT_TRUE(std::isnan(g)) << i;
        ++nans;
      } else {
        EXPECT_EQ(g, w) << i;
      }
    }
    EXPECT_GT(nans, 0);
  }
}

TEST(Providers, ResidualReadLaterOrAGraphInputKeepsItsOwnBuffer) {
  for (Residual r : {Residual::ReadLater, Residual::GraphInput}) {
    const Engine engine(residual_block(r));
    ASSERT_EQ(engine.steps().size(), 4u);
    for (const auto& s : engine.steps()) EXPECT_EQ(s.in_place_of, "") << s.name;
  }
}

}  // namespace
}  // namespace atenrt::runtime
