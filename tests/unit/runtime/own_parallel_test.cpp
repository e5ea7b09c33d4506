// Our own passes on the engine's threads (runtime/cpu/own/parallel.h): the
// tail activations after a conv, the NaN checks of max pooling and softmax,
// and our activation, elementwise, unary and select kernels. At sizes that split into chunks (odd
// remainders, NaN/±inf/-0 at the chunk edges), a 2-thread engine must give
// the 1-thread engine's bytes and PyTorch's values; and a run must take
// exactly the engine's thread count.
#include <gtest/gtest.h>

#include <limits>

#include "runtime/cpu/own/parallel.h"
#include "support/engine_check.h"
#include "support/thread_count.h"

namespace atenrt::testing {
namespace {

using namespace atenrt::network;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// Elements in a buffer that 2 threads split into two chunks, the second one
// shorter by an odd remainder.
constexpr std::int64_t kTwoChunks = 2 * runtime::cpu::own::kSimpleGrain + 37;

// Where the second of two chunks of n elements starts (parallel.h's split).
std::int64_t second_chunk(std::int64_t n) {
  const std::int64_t a = runtime::cpu::own::kChunkAlign;
  return ((n + 1) / 2 + a - 1) / a * a;
}

// Runs `make()` on engines of 1 and 2 threads: each matches the reference,
// and the two give the same bytes.
void expect_threads_match(const std::function<Network()>& make, const reference::TensorMap& inputs, double tol,
                          const std::string& what) {
  SCOPED_TRACE(what);
  Network ref_net = make();
  const auto want = reference::run(ref_net, inputs);
  std::map<std::string, Tensor> first;
  for (const int threads : {1, 2}) {
    builder::BuilderConfig config;
    config.engine.num_threads = threads;
    runtime::Engine engine = builder::build(make(), config);
    auto ctx = engine.create_context();
    const auto got = ctx.run(inputs);
    for (const auto* out : ref_net.outputs()) {
      ASSERT_TRUE(got.count(out->name)) << out->name;
      EXPECT_TRUE(close(got.at(out->name), want.at(out->name), tol)) << out->name << " at " << threads << " threads";
      if (threads == 1) {
        first[out->name] = got.at(out->name);
      } else {
        EXPECT_TRUE(bit_identical(got.at(out->name), first.at(out->name))) << out->name << ": 2 threads differ from 1";
      }
    }
  }
}

// Specials at both chunk edges, the ends and every 5th element.
void put_specials(Tensor& t) {
  const float specials[] = {kNaN, kInf, -kInf, -0.0f, 0.0f, 1e30f, -1e30f};
  float* v = t.mutable_data<float>();
  const std::int64_t n = t.numel(), edge = second_chunk(n);
  int next = 0;
  for (const std::int64_t i : {std::int64_t{0}, edge - 2, edge - 1, edge, edge + 1, n - 2, n - 1}) {
    v[i] = specials[next++ % 7];
  }
  for (std::int64_t i = 3; i < n; i += 5) v[i] = specials[next++ % 7];
}

ActivationParams act(ActivationOp op, double alpha = 0.0, double beta = 0.0) { return {op, alpha, beta}; }

// Our own activation kernels (the ones oneDNN gets wrong on NaN, or lacks).
TEST(OwnParallel, ActivationsMatchOneThreadAndPyTorch) {
  for (const auto& a : {act(ActivationOp::Clip, 0.0, 6.0), act(ActivationOp::Clip, -0.5, 0.7),
                        act(ActivationOp::LeakyRelu, 0.0), act(ActivationOp::HardSigmoid, 1.0 / 6, 0.5),
                        act(ActivationOp::Softplus, 2.0, 3.0), act(ActivationOp::Mish)}) {
    const auto make = [a] {
      Network n;
      n.mark_output(n.add_activation("act", n.add_input("x", DType::Float32, {1, kTwoChunks}), a.op, a.alpha, a.beta));
      return n;
    };
    auto inputs = random_inputs(make(), 3);
    put_specials(inputs["x"]);
    expect_threads_match(make, inputs, 1e-5, std::string(activation_op_name(a.op)));
  }
}

// relu6 as the conv's tail over its blocked output, which the next conv reads:
// 13 channels pad to 16 in the blocked layout, and the next conv reads the
// padding too (times zero weights), so it must stay 0. ±inf and ±1e30 come
// through the bias of every 3rd channel, so every 8-channel block of every
// pixel holds some, at the chunk edges too (NaN would make every output of
// the next conv NaN; the activation test has it).
TEST(OwnParallel, ClipTailOverABlockedConvOutput) {
  constexpr std::int64_t c = 13, h = 47, w = 49;  // 16 * 47 * 49 = 36848 floats: two chunks
  const auto make = [] {
    Network n;
    auto* x = n.add_input("x", DType::Float32, {1, c, h, w});
    Tensor bias = weights({c}, 4);
    const float specials[] = {kInf, -kInf, 1e30f, -1e30f};
    for (std::int64_t i = 0; i < c; i += 3) bias.mutable_data<float>()[i] = specials[(i / 3) % 4];
    const ConvolutionParams same{{1, 1}, {1, 1}, {1, 1}, {1, 1}, 1};
    auto* conv = n.add_convolution("c1", x, n.add_constant("w", weights({c, c, 3, 3}, 1)), n.add_constant("b", bias), same);
    auto* y = n.add_activation("relu6", conv, ActivationOp::Clip, 0.0, 6.0);
    n.mark_output(n.add_convolution("c2", y, n.add_constant("w2", weights({c, c, 3, 3}, 2)), nullptr, same));
    return n;
  };
  const auto steps = builder::build(make()).steps();
  ASSERT_FALSE(steps.empty());
  ASSERT_EQ(steps[0].kind, "Convolution");
  ASSERT_EQ(steps[0].fused.size(), 1u) << "relu6 fused into the conv as its tail";
  ASSERT_NE(steps[0].output_layout, "plain") << "the case needs a blocked (padded) conv output";
  const auto inputs = random_inputs(make(), 5);
  expect_threads_match(make, inputs, 1e-4, "conv, relu6, conv");
}

// The max pooling check must see a NaN (or a window of -inf) anywhere, the
// second chunk's first element and the last one included: oneDNN's result
// drops them, and only the check sends the step to the exact pass.
TEST(OwnParallel, MaxPoolCheckSeesEveryChunk) {
  constexpr std::int64_t c = 7, h = 97, w = 95;  // 64505 floats, plain
  const auto make = [] {
    Network n;
    PoolingParams p;
    p.kernel = {2, 2}, p.stride = {2, 2}, p.ceil_mode = true;
    n.mark_output(n.add_pooling("pool", n.add_input("x", DType::Float32, {1, c, h, w}), p));
    return n;
  };
  const std::int64_t n = c * h * w, edge = second_chunk(n);
  for (const std::int64_t at : {std::int64_t{0}, edge - 1, edge, n - 1}) {
    for (const bool nan : {true, false}) {
      reference::TensorMap inputs = random_inputs(make(), 7);
      float* v = inputs["x"].mutable_data<float>();
      if (nan) {
        v[at] = kNaN;
      } else {  // the whole 2x2 window around `at` -inf: oneDNN gives -FLT_MAX there
        const std::int64_t plane = at / (h * w) * h * w, y = at / w % h / 2 * 2, x = at % w / 2 * 2;
        for (std::int64_t dy = 0; dy < 2 && y + dy < h; ++dy) {
          for (std::int64_t dx = 0; dx < 2 && x + dx < w; ++dx) v[plane + (y + dy) * w + x + dx] = -kInf;
        }
      }
      expect_threads_match(make, inputs, 0.0, std::string(nan ? "NaN" : "-inf window") + " at " + std::to_string(at));
    }
  }
}

// Likewise softmax: a row with NaN or +inf becomes all NaN (torch), whichever
// chunk of the whole-input check holds it.
TEST(OwnParallel, SoftmaxCheckSeesEveryChunk) {
  constexpr std::int64_t rows = 67, len = 499;  // 33433 floats
  const auto make = [] {
    Network n;
    n.mark_output(n.add_softmax("sm", n.add_input("x", DType::Float32, {rows, len}), -1, false));
    return n;
  };
  const std::int64_t n = rows * len, edge = second_chunk(n);
  for (const std::int64_t at : {std::int64_t{0}, edge - 1, edge, n - 1}) {
    for (const float special : {kNaN, kInf}) {
      reference::TensorMap inputs = random_inputs(make(), 9);
      inputs["x"].mutable_data<float>()[at] = special;
      expect_threads_match(make, inputs, 1e-5, std::to_string(special) + " at " + std::to_string(at));
    }
  }
}

// Our elementwise, unary and select kernels walk broadcast operands with an
// odometer that each chunk starts at its own first index.
TEST(OwnParallel, ElementwiseUnaryAndSelectMatchOneThreadAndPyTorch) {
  constexpr std::int64_t rows = 67, cols = 63;  // 4221: two chunks of the costly grain
  static_assert(rows * cols > 2 * runtime::cpu::own::kCostlyGrain);
  const auto make = [] {
    Network n;
    auto* x = n.add_input("x", DType::Float32, {rows, cols});
    auto* row = n.add_input("row", DType::Float32, {cols});
    auto* col = n.add_input("col", DType::Float32, {rows, 1});
    auto* i = n.add_input("i", DType::Int32, {rows, cols});
    auto* j = n.add_input("j", DType::Int32, {cols});
    n.mark_output(n.add_elementwise("max", x, row, ElementwiseOp::Max));
    n.mark_output(n.add_elementwise("min", col, x, ElementwiseOp::Min));
    n.mark_output(n.add_elementwise("less", x, col, ElementwiseOp::Less));
    n.mark_output(n.add_elementwise("iadd", i, j, ElementwiseOp::Add));
    n.mark_output(n.add_unary("sign", x, UnaryOp::Sign));
    n.mark_output(n.add_unary("isnan", x, UnaryOp::IsNan));
    n.mark_output(n.add_unary("ineg", i, UnaryOp::Neg));
    n.mark_output(n.add_select("where", n.add_unary("isinf", x, UnaryOp::IsInf), row, col));
    return n;
  };
  auto inputs = random_inputs(make(), 11);
  put_specials(inputs["x"]);
  expect_threads_match(make, inputs, 1e-6, "elementwise, unary, select");
}

// Our own passes run on the engine's threads: a 2-thread engine of only our
// own activation kernel starts a worker, a 1-thread one none.
TEST(OwnParallel, OwnKernelsRunOnTheEnginesThreads) {
  if (std::thread::hardware_concurrency() < 2) GTEST_SKIP() << "one core: every engine runs one thread";
  const auto make = [] {
    Network n;
    n.mark_output(n.add_activation("relu6", n.add_input("x", DType::Float32, {1, kTwoChunks}), ActivationOp::Clip, 0, 6));
    return n;
  };
  const auto inputs = random_inputs(make());
  for (const int threads : {1, 2}) {
    builder::BuilderConfig config;
    config.engine.num_threads = threads;
    const runtime::Engine engine = builder::build(make(), config);
    for (const auto& step : engine.steps()) ASSERT_EQ(step.implementation, "own") << step.name;
    if (threads == 1) {
      EXPECT_EQ(threads_a_run_starts(engine, inputs), 0) << "a 1-thread engine ran more";
    } else {
      EXPECT_GT(threads_a_run_starts(engine, inputs), 0) << "our own kernel stayed on one thread";
    }
  }
}

}  // namespace
}  // namespace atenrt::testing
