// Int8 steps (runtime/program.h Quantization) and the int8 builder pass
// (builder/int8.h): oneDNN's int8 kernels against the quantization's
// definition computed here with the reference kernels, calibration, the cache
// file, and int8 engine files.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <random>

#include "builder/builder.h"
#include "builder/int8.h"
#include "reference/reference.h"
#include "runtime/cpu/isa.h"
#include "runtime/quantization.h"
#include "runtime/serialize.h"
#include "support/engine_check.h"

namespace atenrt {
namespace {

using network::Dims;
using runtime::Precision;
using runtime::Program;
using runtime::Step;
using runtime::TensorRole;
using testing::close;
using testing::random_tensor;

struct ProgramMaker {
  Program p;
  int tensor(const std::string& name, DType dtype, Dims dims, TensorRole role, Tensor value = {}) {
    p.tensors.push_back({name, dtype, std::move(dims), role, std::move(value)});
    return static_cast<int>(p.tensors.size()) - 1;
  }
};

Tensor relu(const Tensor& x) {
  return reference::run_kernel("relu", network::ActivationParams{network::ActivationOp::Relu}, {x})[0];
}

// What an int8 step means, computed the long way: the input quantized and
// scaled back, the weight dequantized, the float32 layer, then the post-ops.
Tensor expected(const Step& step, const Tensor& x, const Tensor& w_int8, const std::vector<Tensor>& rest) {
  std::vector<Tensor> in{runtime::fake_quantize_input(x, step.quant),
                         runtime::dequantize_weight(w_int8, step.quant.weight_scales, runtime::weight_channel_dim(step))};
  in.insert(in.end(), rest.begin(), rest.end());
  Tensor y = reference::run_kernel(step.name, step.params, in)[0];
  for (const auto& op : step.post_ops) y = reference::run_kernel(step.name, op.activation, {y})[0];
  return y;
}

// Pretends, for one test, that the CPU lacks int8 dot-product instructions
// (runtime/cpu/isa.h): what the builder and the kernel choice then do is
// tested on every machine, not only on one without VNNI.
struct WithoutDotProduct {
  WithoutDotProduct() { runtime::cpu::override_int8_dot_product_for_tests(false); }
  ~WithoutDotProduct() { runtime::cpu::override_int8_dot_product_for_tests(std::nullopt); }
};

// Which kernel runs an int8 step with a constant bias: oneDNN's, where it
// computes the step's definition on this CPU (always with dot-product
// instructions; without them only for unsigned inputs and weights within
// +-63), else the reference kernel.
std::string int8_impl(bool unsigned_input, int weight_limit) {
  const bool exact = runtime::cpu::cpu_has_int8_dot_product() ||
                     (unsigned_input && weight_limit <= runtime::cpu::kInt8WeightLimitWithoutDotProduct);
  return exact ? "onednn" : "reference";
}

// An int8 convolution (bias, relu post-op) built by hand: the kernel chosen
// (oneDNN's, or the reference kernel where oneDNN would not compute it
// exactly, or when the bias is not a constant) must compute what the
// quantization defines.
void check_conv(bool unsigned_input, std::int64_t groups, bool constant_bias, int weight_limit = 127) {
  SCOPED_TRACE("unsigned " + std::to_string(unsigned_input) + ", groups " + std::to_string(groups) +
               ", constant bias " + std::to_string(constant_bias) + ", weights within " + std::to_string(weight_limit));
  const Tensor x = random_tensor(DType::Float32, {2, 16, 9, 9}, 1, unsigned_input ? 0.0 : -2.0, 2.0);
  const Tensor w = random_tensor(DType::Float32, {24, 16 / groups, 3, 3}, 2, -0.5, 0.5);
  const Tensor b = random_tensor(DType::Float32, {24}, 3, -1.0, 1.0);
  auto qw = runtime::quantize_weight(w, 0, weight_limit);
  ProgramMaker m;
  const int xi = m.tensor("x", DType::Float32, {2, 16, 9, 9}, TensorRole::Input);
  const int wi = m.tensor("w", DType::Int8, {24, 16 / groups, 3, 3}, TensorRole::Constant, qw.values);
  const int bi = constant_bias ? m.tensor("b", DType::Float32, {24}, TensorRole::Constant, b)
                               : m.tensor("b", DType::Float32, {24}, TensorRole::Input);
  const int yi = m.tensor("y", DType::Float32, {2, 24, 9, 9}, TensorRole::Activation);
  network::ConvolutionParams conv;
  conv.stride = {1, 1};
  conv.dilation = {1, 1};
  conv.padding_pre = conv.padding_post = {1, 1};
  conv.groups = groups;
  Step step;
  step.name = "conv";
  step.params = conv;
  step.inputs = {xi, wi, bi};
  step.outputs = {yi};
  runtime::PostOp post;
  post.activation.op = network::ActivationOp::Relu;
  step.post_ops = {post};
  step.precision = Precision::Int8;
  // 2 / levels: inputs reach 2, so the top of the range is used and nothing clips.
  step.quant = {2.0f / (unsigned_input ? 255.0f : 127.0f), unsigned_input, qw.scales};
  m.p.steps = {step};
  m.p.inputs = constant_bias ? std::vector<int>{xi} : std::vector<int>{xi, bi};
  m.p.outputs = {yi};
  runtime::Engine engine(m.p);
  const std::string want_impl = constant_bias ? int8_impl(unsigned_input, weight_limit) : "reference";
  EXPECT_EQ(engine.steps()[0].implementation.rfind(want_impl, 0), 0u) << engine.steps()[0].implementation;
  auto ctx = engine.create_context();
  const auto& got = ctx.run(constant_bias ? std::vector<Tensor>{x} : std::vector<Tensor>{x, b});
  const Tensor want = expected(step, x, qw.values, {b});
  EXPECT_TRUE(close(got[0], want, 1e-4));
  // Quantizing is not the identity: the fp32 result differs by far more.
  EXPECT_FALSE(close(relu(reference::run_kernel("conv", conv, {x, w, b})[0]), want, 1e-4));
}

TEST(Int8Kernels, ConvolutionWithSignedInput) { check_conv(false, 1, true); }
TEST(Int8Kernels, ConvolutionWithUnsignedInput) {
  check_conv(true, 1, true);
  check_conv(true, 1, true, runtime::cpu::kInt8WeightLimitWithoutDotProduct);
}
// oneDNN 2.6 describes this case but fails to make its JIT kernel: the next
// implementation (compat.h) runs it.
TEST(Int8Kernels, GroupedConvolution) { check_conv(false, 2, true); }
// oneDNN folds the scale into a constant bias; with a bias that is an input
// the reference kernel runs the step, computing the same definition.
TEST(Int8Kernels, ReferenceKernelRunsWhatOneDnnDeclines) { check_conv(false, 1, false); }
// Without dot-product instructions oneDNN's u8*s8 pair sums saturate in 16
// bits for 8-bit weights (an AVX2 CPU gave 2.59 for 3.60) and it halves the
// weights of s8 inputs: those steps go to the reference kernel; unsigned
// inputs with 7-bit weights (what the builder makes there) stay in oneDNN.
TEST(Int8Kernels, WithoutDotProductOnlyExactStepsGoToOneDnn) {
  WithoutDotProduct guard;
  check_conv(false, 1, true);
  check_conv(true, 1, true);
  check_conv(true, 1, true, runtime::cpu::kInt8WeightLimitWithoutDotProduct);
  check_conv(true, 2, true, runtime::cpu::kInt8WeightLimitWithoutDotProduct);
}

// An int8 convolution read only by int8 convolutions with one input scale
// writes its result quantized (uint8 after relu, int8 otherwise) and they
// read it as is: still exactly each step's definition, the second computed
// from the first's float32 result. A third reader with another scale keeps
// the result float32.
Step int8_conv(const std::string& name, int x, int w, int b, int y, const runtime::QuantizedWeight& qw, float in_scale,
               bool in_unsigned, bool relu) {
  network::ConvolutionParams conv;
  conv.stride = {1, 1};
  conv.dilation = {1, 1};
  conv.padding_pre = conv.padding_post = {1, 1};
  conv.groups = 1;
  Step step;
  step.name = name;
  step.params = conv;
  step.inputs = {x, w, b};
  step.outputs = {y};
  if (relu) {
    runtime::PostOp post;
    post.activation.op = network::ActivationOp::Relu;
    step.post_ops = {post};
  }
  step.precision = Precision::Int8;
  step.quant = {in_scale, in_unsigned, qw.scales};
  return step;
}

// Two int8 convolutions' operands: x [1, 16, hw, hw], a 16 -> 32 and b
// 32 -> 24 (3x3, int8 weights, float32 biases), drawn from seeds seed..seed+4,
// as tensors of a program being made.
struct TwoConvs {
  Tensor x, ba, bb;
  runtime::QuantizedWeight qa, qb;
  ProgramMaker m;
  int xi = -1, wa = -1, wb = -1, bai = -1, bbi = -1;
};

TwoConvs two_convs(std::int64_t hw, std::uint32_t seed) {
  TwoConvs t;
  t.x = random_tensor(DType::Float32, {1, 16, hw, hw}, seed, -2.0, 2.0);
  t.qa = runtime::quantize_weight(random_tensor(DType::Float32, {32, 16, 3, 3}, seed + 1, -0.5, 0.5), 0, 127);
  t.qb = runtime::quantize_weight(random_tensor(DType::Float32, {24, 32, 3, 3}, seed + 2, -0.5, 0.5), 0, 127);
  t.ba = random_tensor(DType::Float32, {32}, seed + 3, -1.0, 1.0);
  t.bb = random_tensor(DType::Float32, {24}, seed + 4, -1.0, 1.0);
  t.xi = t.m.tensor("x", DType::Float32, {1, 16, hw, hw}, TensorRole::Input);
  t.wa = t.m.tensor("wa", DType::Int8, {32, 16, 3, 3}, TensorRole::Constant, t.qa.values);
  t.wb = t.m.tensor("wb", DType::Int8, {24, 32, 3, 3}, TensorRole::Constant, t.qb.values);
  t.bai = t.m.tensor("ba", DType::Float32, {32}, TensorRole::Constant, t.ba);
  t.bbi = t.m.tensor("bb", DType::Float32, {24}, TensorRole::Constant, t.bb);
  return t;
}

void check_int8_chain(bool relu, bool third_reader) {
  SCOPED_TRACE(std::string(relu ? "relu" : "no relu") + (third_reader ? ", a reader with another scale" : ""));
  if (!runtime::cpu::cpu_has_int8_dot_product()) GTEST_SKIP() << "no int8 dot-product instructions: signed inputs stay fp32";
  TwoConvs t = two_convs(9, 11);
  auto& [x, ba, bb, qa, qb, m, xi, wa, wb, bai, bbi] = t;
  const int ya = m.tensor("ya", DType::Float32, {1, 32, 9, 9}, TensorRole::Activation);
  const int yb = m.tensor("yb", DType::Float32, {1, 24, 9, 9}, TensorRole::Activation);
  const int yc = m.tensor("yc", DType::Float32, {1, 24, 9, 9}, TensorRole::Activation);
  // A's results reach ~10: a scale that clips some of them, as calibration's percentile does.
  const float b_scale = 8.0f / (relu ? 255.0f : 127.0f);
  m.p.steps = {int8_conv("a", xi, wa, bai, ya, qa, 2.0f / 127.0f, false, relu),
               int8_conv("b", ya, wb, bbi, yb, qb, b_scale, relu, false)};
  if (third_reader) m.p.steps.push_back(int8_conv("c", ya, wb, bbi, yc, qb, b_scale * 1.5f, relu, false));
  m.p.inputs = {xi};
  m.p.outputs = third_reader ? std::vector<int>{yb, yc} : std::vector<int>{yb};
  runtime::Engine engine(m.p);
  const std::string a_layout = engine.steps()[0].output_layout;
  if (third_reader) {
    EXPECT_EQ(a_layout.find('8'), std::string::npos) << a_layout;
  } else {
    EXPECT_NE(a_layout.find(relu ? " u8" : " s8"), std::string::npos) << a_layout;
  }
  auto ctx = engine.create_context();
  const auto got = ctx.run({x});
  const Tensor want_a = expected(m.p.steps[0], x, qa.values, {ba});
  EXPECT_TRUE(close(got[0], expected(m.p.steps[1], want_a, qb.values, {bb}), 1e-4));
  if (third_reader) {
    EXPECT_TRUE(close(got[1], expected(m.p.steps[2], want_a, qb.values, {bb}), 1e-4));
  }
}

// ResNet's stem: conv, relu, 3x3/2 max pooling (padding 1), then two int8
// convolutions reading the pooled tensor with one scale. The pooling passes
// the quantized tensor through (max commutes with the rounding), so the stem
// conv writes uint8 and the readers' definitions hold as they are.
TEST(Int8Kernels, QuantizedActivationsPassThroughMaxPooling) {
  if (!runtime::cpu::cpu_has_int8_dot_product()) GTEST_SKIP() << "no int8 dot-product instructions: signed inputs stay fp32";
  TwoConvs t = two_convs(10, 61);
  auto& [x, ba, bb, qa, qb, m, xi, wa, wb, bai, bbi] = t;
  const int ya = m.tensor("ya", DType::Float32, {1, 32, 10, 10}, TensorRole::Activation);
  const int yp = m.tensor("yp", DType::Float32, {1, 32, 5, 5}, TensorRole::Activation);
  const int yb = m.tensor("yb", DType::Float32, {1, 24, 5, 5}, TensorRole::Activation);
  const int yc = m.tensor("yc", DType::Float32, {1, 24, 5, 5}, TensorRole::Activation);
  network::PoolingParams pool;
  pool.kernel = {3, 3};
  pool.stride = {2, 2};
  pool.padding_pre = {1, 1};
  pool.padding_post = {1, 1};
  Step pooling;
  pooling.name = "pool";
  pooling.params = pool;
  pooling.inputs = {ya};
  pooling.outputs = {yp};
  const float s = 8.0f / 255.0f;
  m.p.steps = {int8_conv("a", xi, wa, bai, ya, qa, 2.0f / 127.0f, false, true), pooling,
               int8_conv("b", yp, wb, bbi, yb, qb, s, true, false), int8_conv("c", yp, wb, bbi, yc, qb, s, true, true)};
  m.p.inputs = {xi};
  m.p.outputs = {yb, yc};
  runtime::Engine engine(m.p);
  const auto steps = engine.steps();
  EXPECT_NE(steps[0].output_layout.find(" u8"), std::string::npos) << steps[0].output_layout;
  EXPECT_NE(steps[1].output_layout.find(" u8"), std::string::npos) << steps[1].output_layout;
  auto ctx = engine.create_context();
  const auto got = ctx.run({x});
  const Tensor want_p = reference::run_kernel("pool", pool, {expected(m.p.steps[0], x, qa.values, {ba})})[0];
  EXPECT_TRUE(close(got[0], expected(m.p.steps[2], want_p, qb.values, {bb}), 1e-4));
  EXPECT_TRUE(close(got[1], expected(m.p.steps[3], want_p, qb.values, {bb}), 1e-4));
}

TEST(Int8Kernels, QuantizedActivationsBetweenConvolutions) {
  check_int8_chain(true, false);
  check_int8_chain(false, false);
  check_int8_chain(true, true);
}

// ResNet's bottleneck pattern, quantized all through: a block's output is
// read by the next block's first convolution (its source) and by the next
// block's residual add, so it is stored quantized (uint8) and the add reads
// it quantized: there, and only there, a value differs from float32, by the
// rounding to the reader's grid (q * scale). Residuals reach the adds three
// ways: uint8 alike (a sum post-op scaled by the residual's scale), float32
// (a binary post-op; `float_block_input`: a float32 convolution reads the
// block input too, so it stays float32), and uint8 into a float32 result
// (dequantized).
Step with_residual(Step step, int residual) {
  runtime::PostOp add;
  add.kind = runtime::PostOpKind::Add;
  add.operand = static_cast<int>(step.inputs.size());
  step.inputs.push_back(residual);
  step.post_ops.insert(step.post_ops.begin(), add);  // relu(conv + residual)
  return step;
}

// Five int8 3x3 convolutions 16 -> 16 over x [1, 16, 9, 9] (drawn from
// x_seed), as tensors of a program being made: weights from seeds seed..+4,
// biases from seed + 10.., and one float32 result tensor y0..y4 each.
struct BlockConvs {
  Dims d{1, 16, 9, 9};
  Tensor x;
  ProgramMaker m;
  int xi = -1;
  std::vector<runtime::QuantizedWeight> qw;
  std::vector<Tensor> bias;
  std::vector<int> w_ids, b_ids, y_ids;
};

BlockConvs block_convs(std::uint32_t x_seed, std::uint32_t seed) {
  BlockConvs t;
  t.x = random_tensor(DType::Float32, t.d, x_seed, -2.0, 2.0);
  t.xi = t.m.tensor("x", DType::Float32, t.d, TensorRole::Input);
  for (std::uint32_t i = 0; i < 5; ++i) {
    t.qw.push_back(runtime::quantize_weight(random_tensor(DType::Float32, {16, 16, 3, 3}, seed + i, -0.3, 0.3), 0, 127));
    t.bias.push_back(random_tensor(DType::Float32, {16}, seed + 10 + i, -0.5, 0.5));
    const std::string n = std::to_string(i);
    t.w_ids.push_back(t.m.tensor("w" + n, DType::Int8, {16, 16, 3, 3}, TensorRole::Constant, t.qw.back().values));
    t.b_ids.push_back(t.m.tensor("b" + n, DType::Float32, {16}, TensorRole::Constant, t.bias.back()));
    t.y_ids.push_back(t.m.tensor("y" + n, DType::Float32, t.d, TensorRole::Activation));
  }
  return t;
}

void check_int8_residual_chain(bool float_block_input) {
  SCOPED_TRACE(float_block_input ? "float32 block input" : "uint8 block input");
  BlockConvs t = block_convs(21, 30);
  auto& [d, x, m, xi, qw, bias, w_ids, b_ids, y_ids] = t;
  // y0 = a(x); y1 = b(y0); y2 = relu(c(y1) + y0); y3 = e(y2); y4 = relu(f(y3) + y2)
  const float s = 6.0f / 255.0f;  // outputs after relu reach ~5-8: some clip, as with a percentile
  auto conv = [&](int i, int in, float in_scale, bool in_unsigned) {
    return int8_conv("c" + std::to_string(i), in, w_ids[i], b_ids[i], y_ids[i], qw[i], in_scale, in_unsigned, true);
  };
  m.p.steps = {conv(0, xi, 2.0f / 127.0f, false), conv(1, y_ids[0], s, true),
               with_residual(conv(2, y_ids[1], s, true), y_ids[0]), conv(3, y_ids[2], s, true),
               with_residual(conv(4, y_ids[3], s, true), y_ids[2])};
  if (float_block_input) {  // a float32 convolution reads y0 too
    Step side = conv(0, y_ids[0], 0.0f, false);
    side.name = "side";
    side.precision = Precision::Float32;
    side.quant = {};
    side.inputs[1] = m.tensor("w_side", DType::Float32, {16, 16, 3, 3}, TensorRole::Constant,
                              random_tensor(DType::Float32, {16, 16, 3, 3}, 50, -0.3, 0.3));
    side.outputs = {m.tensor("y_side", DType::Float32, d, TensorRole::Activation)};
    m.p.steps.insert(m.p.steps.begin() + 1, side);
  }
  m.p.inputs = {xi};
  m.p.outputs = {y_ids[4]};
  if (float_block_input) m.p.outputs.push_back(m.p.steps[1].outputs[0]);
  runtime::Engine engine(m.p);
  auto steps = engine.steps();
  if (float_block_input) steps.erase(steps.begin() + 1);
  ASSERT_EQ(steps.size(), 5u);
  for (int i = 0; i < 4; ++i) {
    const bool quantized = !(float_block_input && i == 0);
    EXPECT_EQ(steps[i].output_layout.find(" u8") != std::string::npos, quantized) << i << ": " << steps[i].output_layout;
  }
  // The definition, with each residual as stored: q * s where quantized.
  const auto fq = [&](const Tensor& t) { return runtime::fake_quantize_input(t, runtime::Quantization{s, true, {}}); };
  const auto layer = [&](int i, const Tensor& in, const Tensor* residual) {
    const Step& st = m.p.steps[float_block_input && i > 0 ? i + 1 : i];
    std::vector<Tensor> args{runtime::fake_quantize_input(in, st.quant),
                             runtime::dequantize_weight(qw[i].values, qw[i].scales, 0), bias[i]};
    Tensor y = reference::run_kernel(st.name, st.params, args)[0];
    if (residual) {
      y = reference::run_kernel("add", network::ElementwiseParams{network::ElementwiseOp::Add}, {y, *residual})[0];
    }
    return relu(y);
  };
  const Tensor y0 = layer(0, x, nullptr), y1 = layer(1, y0, nullptr);
  const Tensor y0_stored = float_block_input ? y0 : fq(y0);
  const Tensor y2 = layer(2, y1, &y0_stored), y3 = layer(3, y2, nullptr);
  const Tensor y2_stored = fq(y2);
  const Tensor want = layer(4, y3, &y2_stored);
  auto ctx = engine.create_context();
  const auto got = ctx.run({x});
  // A value on a rounding boundary may land one step of s apart when the
  // engine's float32 epilogue and the double reference round differently:
  // 2 % of the output's range allows a few such steps and nothing more.
  EXPECT_TRUE(close(got[0], want, 2e-2));
  // The add read y2 quantized: float32 y2 there differs by more than that.
  EXPECT_FALSE(close(got[0], layer(4, y3, &y2), 1e-3));
}

TEST(Int8Kernels, QuantizedResidualChain) {
  if (!runtime::cpu::cpu_has_int8_dot_product()) GTEST_SKIP() << "no int8 dot-product instructions: signed inputs stay fp32";
  check_int8_residual_chain(false);
  check_int8_residual_chain(true);
}

// ResNet's downsample block: y0 feeds the main branch (b, then c) and the
// downsample branch d, whose result only c adds as its residual. With the
// output scale calibration gave it, d writes int8 (its result is signed) and
// c's sum reads those bytes as int8, scaled: into a uint8 result (`quantized_out`:
// a further int8 convolution e reads c's result) or a float32 one.
void check_int8_downsample(bool quantized_out) {
  SCOPED_TRACE(quantized_out ? "into a uint8 result" : "into a float32 result");
  BlockConvs t = block_convs(71, 80);
  auto& [d, x, m, xi, qw, bias, w_ids, b_ids, y_ids] = t;
  // y0 = a(x); y1 = b(y0); y2 = d(y0), no relu; y3 = relu(c(y1) + y2); y4 = e(y3)
  const float s = 6.0f / 255.0f, sd = 4.0f / 127.0f;  // some of d's results (up to ~6) clip
  auto conv = [&](int i, int in, float in_scale, bool in_unsigned, bool relu) {
    return int8_conv("c" + std::to_string(i), in, w_ids[i], b_ids[i], y_ids[i], qw[i], in_scale, in_unsigned, relu);
  };
  Step down = conv(2, y_ids[0], s, true, false);
  down.quant.output_scale = sd;
  Step c = with_residual(conv(3, y_ids[1], s, true, true), y_ids[2]);
  m.p.steps = {conv(0, xi, 2.0f / 127.0f, false, true), conv(1, y_ids[0], s, true, true), down, c};
  if (quantized_out) m.p.steps.push_back(conv(4, y_ids[3], s, true, true));
  m.p.inputs = {xi};
  m.p.outputs = {y_ids[quantized_out ? 4 : 3]};
  runtime::Engine engine(m.p);
  const auto steps = engine.steps();
  EXPECT_NE(steps[2].output_layout.find(" s8"), std::string::npos) << steps[2].output_layout;
  if (quantized_out) {
    EXPECT_NE(steps[3].output_layout.find(" u8"), std::string::npos) << steps[3].output_layout;
  }
  // The definition, with y2 as stored: q * sd.
  const Tensor y0 = expected(m.p.steps[0], x, qw[0].values, {bias[0]});
  const Tensor y1 = expected(m.p.steps[1], y0, qw[1].values, {bias[1]});
  const Tensor y2 = expected(m.p.steps[2], y0, qw[2].values, {bias[2]});
  const auto y3_with = [&](const Tensor& residual) {
    std::vector<Tensor> args{runtime::fake_quantize_input(y1, c.quant), runtime::dequantize_weight(qw[3].values, qw[3].scales, 0),
                             bias[3]};
    const Tensor y = reference::run_kernel("c", c.params, args)[0];
    return relu(reference::run_kernel("add", network::ElementwiseParams{network::ElementwiseOp::Add}, {y, residual})[0]);
  };
  const Tensor y2_stored = runtime::fake_quantize_input(y2, runtime::Quantization{sd, false, {}});
  const Tensor y3 = y3_with(y2_stored);
  const auto out = [&](const Tensor& y) { return quantized_out ? expected(m.p.steps[4], y, qw[4].values, {bias[4]}) : y; };
  auto ctx = engine.create_context();
  const auto got = ctx.run({x});
  // One step of a grid apart where the engine and the reference round a
  // boundary value differently (QuantizedResidualChain): 2 % of the range.
  EXPECT_TRUE(close(got[0], out(y3), 2e-2));
  // The add read y2 quantized (its negative values too): float32 y2 there differs by more.
  EXPECT_FALSE(close(got[0], out(y3_with(y2)), 1e-3));
}

TEST(Int8Kernels, QuantizedDownsampleBranch) {
  if (!runtime::cpu::cpu_has_int8_dot_product()) GTEST_SKIP() << "no int8 dot-product instructions: signed inputs stay fp32";
  check_int8_downsample(true);
  check_int8_downsample(false);
}

TEST(Int8Kernels, MatMulByAConstantMatrix) {
  for (bool transposed : {false, true}) {
    SCOPED_TRACE(transposed ? "weight [N, K]" : "weight [K, N]");
    const Tensor x = random_tensor(DType::Float32, {4, 32}, 5);
    const Dims wd = transposed ? Dims{20, 32} : Dims{32, 20};
    const Tensor w = random_tensor(DType::Float32, wd, 6, -0.5, 0.5);
    ProgramMaker m;
    Step step;
    step.name = "mm";
    step.params = network::MatMulParams{false, transposed};
    step.precision = Precision::Int8;
    auto qw = runtime::quantize_weight(w, runtime::weight_channel_dim(step));
    const int xi = m.tensor("x", DType::Float32, {4, 32}, TensorRole::Input);
    const int wi = m.tensor("w", DType::Int8, wd, TensorRole::Constant, qw.values);
    const int yi = m.tensor("y", DType::Float32, {4, 20}, TensorRole::Activation);
    step.inputs = {xi, wi};
    step.outputs = {yi};
    step.quant = {2.0f / 127.0f, false, qw.scales};
    m.p.steps = {step};
    m.p.inputs = {xi};
    m.p.outputs = {yi};
    runtime::Engine engine(m.p);
    const std::string want_impl = int8_impl(false, 127);  // a signed input
    EXPECT_EQ(engine.steps()[0].implementation.rfind(want_impl, 0), 0u) << engine.steps()[0].implementation;
    auto ctx = engine.create_context();
    EXPECT_TRUE(close(ctx.run({x})[0], expected(step, x, qw.values, {}), 1e-4));
  }
}

TEST(Int8Program, ExactnessAdmitsInputsAndWeightsWithinItsLimits) {
  const runtime::Int8Exactness any;
  const runtime::Int8Exactness seven_bit{runtime::cpu::kInt8WeightLimitWithoutDotProduct, false};
  EXPECT_TRUE(any.admits_input(false));
  EXPECT_TRUE(seven_bit.admits_input(true));
  EXPECT_FALSE(seven_bit.admits_input(false));
  Tensor w(DType::Int8, {2, 3});
  auto* v = w.mutable_data<std::int8_t>();
  const std::int8_t within[] = {63, -63, 0, 1, -1, 5};
  std::copy(std::begin(within), std::end(within), v);
  EXPECT_TRUE(seven_bit.admits_weight(w));
  v[4] = -64;
  EXPECT_FALSE(seven_bit.admits_weight(w));
  v[4] = -128;
  EXPECT_TRUE(any.admits_weight(w));
}

TEST(Int8Program, ScalesAreChecked) {
  ProgramMaker m;
  const int xi = m.tensor("x", DType::Float32, {4, 32}, TensorRole::Input);
  const int wi = m.tensor("w", DType::Int8, {32, 20}, TensorRole::Constant, Tensor(DType::Int8, {32, 20}));
  const int yi = m.tensor("y", DType::Float32, {4, 20}, TensorRole::Activation);
  Step step;
  step.name = "mm";
  step.params = network::MatMulParams{};
  step.inputs = {xi, wi};
  step.outputs = {yi};
  step.precision = Precision::Int8;
  step.quant = {0.1f, false, std::vector<float>(20, 0.5f)};
  m.p.steps = {step};
  m.p.inputs = {xi};
  m.p.outputs = {yi};
  EXPECT_NO_THROW(m.p.validate());
  auto refused = [&](auto edit, const std::string& why) {
    Program p = m.p;
    edit(p.steps[0]);
    try {
      p.validate();
      ADD_FAILURE() << "accepted: " << why;
    } catch (const FormatError& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  refused([](Step& s) { s.quant.input_scale = 0.0f; }, "input scale");
  refused([](Step& s) { s.quant.input_scale = NAN; }, "input scale");
  refused([](Step& s) { s.quant.weight_scales.pop_back(); }, "19 weight scales for 20 output channels");
  refused([](Step& s) { s.quant.weight_scales[3] = -1.0f; }, "weight scale");
  refused([](Step& s) { s.quant.output_scale = -1.0f; }, "output scale");
  refused([](Step& s) { s.quant.output_scale = INFINITY; }, "output scale");
  refused([](Step& s) { s.precision = Precision::Float32; }, "not int8");
}

// x -> conv(16->32, 3x3, bias) -> relu -> conv(32->32, 3x3) -> y, and a
// depthwise 3x3 conv (a reduction of 9: stays fp32) on the side.
network::Network small_cnn() {
  network::Network n;
  auto* x = n.add_input("x", DType::Float32, {1, 16, 8, 8});
  network::ConvolutionParams p;
  p.padding_pre = p.padding_post = {1, 1};
  auto* c1 = n.add_convolution("c1", x, n.add_constant("w1", testing::weights({32, 16, 3, 3}, 11)),
                               n.add_constant("b1", testing::weights({32}, 12)), p);
  auto* r = n.add_activation("r", c1, network::ActivationOp::Relu);
  auto* c2 = n.add_convolution("c2", r, n.add_constant("w2", testing::weights({32, 32, 3, 3}, 13)), nullptr, p);
  network::ConvolutionParams dw = p;
  dw.groups = 32;
  auto* c3 = n.add_convolution("c3", c2, n.add_constant("w3", testing::weights({32, 1, 3, 3}, 14)), nullptr, dw);
  n.mark_output(c3);
  return n;
}

std::shared_ptr<builder::CalibrationSettings> batches(builder::CalibrationMethod method, int count) {
  auto s = std::make_shared<builder::CalibrationSettings>();
  s->method = method;
  for (int i = 0; i < count; ++i) s->batches.push_back({random_tensor(DType::Float32, {1, 16, 8, 8}, 100 + i)});
  return s;
}

// An int8 engine of `net`, calibrated min/max on three batches.
runtime::Engine build_int8(network::Network net, builder::BuildReport& report) {
  builder::BuilderConfig config;
  config.precision = Precision::Int8;
  config.calibration = batches(builder::CalibrationMethod::MinMax, 3);
  return builder::build(std::move(net), config, &report);
}

// An int8 engine of small_cnn against the fp32 one on an input calibration
// never saw: close (within 5 % of the largest output), not equal. Returns
// the int8 result.
Tensor expect_close_to_fp32_not_equal(const runtime::Engine& engine, const Tensor& x) {
  runtime::Engine fp32 = builder::build(small_cnn(), {});
  auto a = engine.create_context();
  auto b = fp32.create_context();
  const Tensor got = a.run({x})[0], want = b.run({x})[0];
  double err = 0.0, ref = 0.0;
  for (std::int64_t i = 0; i < want.numel(); ++i) {
    err = std::max(err, std::fabs(double(got.data<float>()[i]) - want.data<float>()[i]));
    ref = std::max(ref, std::fabs(double(want.data<float>()[i])));
  }
  EXPECT_LT(err, 0.05 * ref);
  EXPECT_GT(err, 1e-5 * ref);
  return got;
}

TEST(Int8Builder, CalibratesQuantizesAndStaysClose) {
  builder::BuilderConfig config;
  config.precision = Precision::Int8;
  config.calibration = batches(builder::CalibrationMethod::MinMax, 3);
  builder::BuildReport report;
  runtime::Engine engine = builder::build(small_cnn(), config, &report);
  // c1, c2; the depthwise c3 stays fp32, and so does c1 (a signed input)
  // on a CPU without int8 dot-product instructions.
  const int want_int8 = runtime::cpu::cpu_has_int8_dot_product() ? 2 : 1;
  EXPECT_EQ(report.int8_steps, want_int8);
  int int8 = 0;
  for (const auto& s : engine.steps()) int8 += s.precision == Precision::Int8;
  EXPECT_EQ(int8, want_int8);
  // min/max: the scale is exactly max|x| / 127 over every batch.
  float top = 0.0f;
  for (const auto& b : config.calibration->batches) {
    for (std::int64_t i = 0; i < b[0].numel(); ++i) top = std::max(top, std::fabs(b[0].data<float>()[i]));
  }
  ASSERT_TRUE(report.calibration.count("x"));
  EXPECT_FLOAT_EQ(report.calibration.at("x").scale, top / 127.0f);
  EXPECT_FALSE(report.calibration.at("x").non_negative);
  // c2 reads relu's output (fused into c1): never negative, so uint8.
  ASSERT_EQ(report.calibration.size(), 2u);
  bool unsigned_seen = false;
  for (const auto& [name, s] : report.calibration) unsigned_seen = unsigned_seen || s.non_negative;
  EXPECT_TRUE(unsigned_seen);
  const Tensor x = random_tensor(DType::Float32, {1, 16, 8, 8}, 7);
  const Tensor got = expect_close_to_fp32_not_equal(engine, x);
  // The engine file keeps the int8 weights and scales: the same results after a round trip.
  runtime::Engine loaded = runtime::Engine::deserialize(engine.serialize());
  auto c = loaded.create_context();
  EXPECT_TRUE(testing::bit_identical(c.run({x})[0], got));
  // Every conv but the depthwise one int8: under half the fp32 file (without
  // dot-product instructions c1 stays fp32, so the file is not smaller).
  if (runtime::cpu::cpu_has_int8_dot_product()) {
    EXPECT_LT(engine.serialize().size(), builder::build(small_cnn(), {}).serialize().size() / 2);
  }
}

// A ResNet block with a downsample branch: x -> c1 -> relu -> c2 -> (+ down(x))
// -> relu -> c3. Calibration watches the branch's result too (only added as a
// residual, never an int8 step's input), the builder gives the branch that
// output scale, and the engine file keeps it (a header feature bit).
network::Network downsample_block() {
  network::Network n;
  auto* x = n.add_input("x", DType::Float32, {1, 16, 8, 8});
  network::ConvolutionParams p;
  p.padding_pre = p.padding_post = {1, 1};
  auto conv = [&](const std::string& name, network::NetworkTensor* in, std::int64_t out, std::uint32_t seed) {
    return n.add_convolution(name, in, n.add_constant("w_" + name, testing::weights({out, 16, 3, 3}, seed)),
                             n.add_constant("b_" + name, testing::weights({out}, seed + 1)), p);
  };
  auto* c1 = n.add_activation("r1", conv("c1", x, 16, 21), network::ActivationOp::Relu);
  auto* sum = n.add_elementwise("add", conv("c2", c1, 16, 23), conv("down", x, 16, 25), network::ElementwiseOp::Add);
  auto* r = n.add_activation("r2", sum, network::ActivationOp::Relu);
  n.mark_output(conv("c3", r, 16, 27));
  return n;
}

TEST(Int8Builder, DownsampleBranchGetsAnOutputScale) {
  if (!runtime::cpu::cpu_has_int8_dot_product()) GTEST_SKIP() << "no int8 dot-product instructions: signed inputs stay fp32";
  builder::BuildReport report;
  runtime::Engine engine = build_int8(downsample_block(), report);
  EXPECT_EQ(report.int8_steps, 4);
  // Which branch's conv absorbs the add is the fusion's choice: the other's
  // result is the residual that gets the output scale.
  const Program& prog = engine.program();
  const Step* branch = nullptr;
  int with_output_scale = 0;
  for (const auto& s : prog.steps) {
    if (s.quant.output_scale == 0.0f) continue;
    ++with_output_scale;
    branch = &s;
  }
  EXPECT_EQ(with_output_scale, 1);
  ASSERT_NE(branch, nullptr);
  const int residual = branch->outputs[0];
  int added = 0;
  for (const auto& s : prog.steps) {
    EXPECT_NE(s.inputs[0], residual) << s.name << " reads the branch as its input";
    added += !s.post_ops.empty() && s.post_ops[0].kind == runtime::PostOpKind::Add &&
             s.inputs[s.post_ops[0].operand] == residual;
  }
  EXPECT_EQ(added, 1);
  ASSERT_TRUE(report.calibration.count(prog.tensors[residual].name));
  EXPECT_EQ(branch->quant.output_scale, report.calibration.at(prog.tensors[residual].name).scale);
  bool int8_branch = false;
  for (const auto& s : engine.steps()) int8_branch = int8_branch || s.output_layout.find(" s8") != std::string::npos;
  EXPECT_TRUE(int8_branch);
  // The file keeps the scale: the same results after a round trip.
  const auto bytes = engine.serialize();
  std::uint32_t features = 0;
  std::memcpy(&features, bytes.data() + 36, sizeof features);
  EXPECT_EQ(features, runtime::file::kFeatureInt8 | runtime::file::kFeatureInt8OutputScales);
  const Tensor x = random_tensor(DType::Float32, {1, 16, 8, 8}, 9);
  auto a = engine.create_context();
  runtime::Engine loaded = runtime::Engine::deserialize(bytes);
  auto b = loaded.create_context();
  EXPECT_TRUE(testing::bit_identical(b.run({x})[0], a.run({x})[0]));
  EXPECT_EQ(loaded.program().steps.size(), engine.program().steps.size());
}

// What the builder makes for a CPU without int8 dot-product instructions:
// the signed-input conv stays fp32, the unsigned one (after relu) is int8 with
// weights within +-63, every int8 step runs in oneDNN, and the result stays
// close to fp32.
TEST(Int8Builder, WithoutDotProductSignedInputsStayFp32AndWeightsAre7Bit) {
  WithoutDotProduct guard;
  builder::BuildReport report;
  runtime::Engine engine = build_int8(small_cnn(), report);
  EXPECT_EQ(report.int8_steps, 1);
  int int8 = 0;
  for (const auto& s : engine.steps()) {
    if (s.precision != Precision::Int8) continue;
    ++int8;
    EXPECT_EQ(s.implementation.rfind("onednn", 0), 0u) << s.name << ": " << s.implementation;
  }
  EXPECT_EQ(int8, 1);
  expect_close_to_fp32_not_equal(engine, random_tensor(DType::Float32, {1, 16, 8, 8}, 7));
  // The quantization itself: 7-bit weights.
  runtime::Program p = builder::to_program(small_cnn());
  builder::fuse_post_ops(p);  // as build() does: c2 reads the fused relu's output
  ASSERT_EQ(builder::quantize_steps(p, report.calibration, {runtime::cpu::kInt8WeightLimitWithoutDotProduct, false}), 1);
  for (const auto& step : p.steps) {
    if (step.precision != Precision::Int8) continue;
    const Tensor& w = p.tensors[step.inputs[1]].value;
    int top = 0;
    for (std::int64_t i = 0; i < w.numel(); ++i) top = std::max(top, std::abs(int(w.data<std::int8_t>()[i])));
    EXPECT_EQ(top, runtime::cpu::kInt8WeightLimitWithoutDotProduct);
  }
}

TEST(Int8Builder, PercentileAndEntropyClipBelowTheMaximum) {
  for (auto method : {builder::CalibrationMethod::Percentile, builder::CalibrationMethod::Entropy}) {
    SCOPED_TRACE(builder::calibration_method_name(method));
    auto settings = batches(method, 2);
    settings->percentile = 99.9;  // of 2048 values: two may lie above the threshold
    // One outlier far above the rest: min/max would spend the range on it.
    settings->batches[0][0].mutable_data<float>()[5] = 50.0f;
    runtime::Program program = builder::to_program(small_cnn());
    const auto table = builder::calibrate(program, *settings, {});
    ASSERT_TRUE(table.count("x"));
    EXPECT_FLOAT_EQ(table.at("x").abs_max, 50.0f);
    EXPECT_LT(table.at("x").scale * 127.0f, 10.0f);
    EXPECT_GT(table.at("x").scale * 127.0f, 1.0f);
  }
}

TEST(Int8Builder, NeedsCalibrationAndBatchesThatFit) {
  builder::BuilderConfig config;
  config.precision = Precision::Int8;
  EXPECT_THROW(builder::build(small_cnn(), config), InputError);
  auto wrong = std::make_shared<builder::CalibrationSettings>();
  wrong->batches.push_back({random_tensor(DType::Float32, {1, 16, 4, 4}, 1)});
  config.calibration = wrong;
  try {
    builder::build(small_cnn(), config);
    ADD_FAILURE() << "a batch of the wrong shape was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("calibration: batch 0"), std::string::npos) << e.what();
  }
}

TEST(Int8Builder, CalibrationCacheRoundTripsAndRefusesWhatIsMalformed) {
  builder::CalibrationTable table;
  table["x"] = {0.25f, false, 31.0f};
  table["[aten]-[relu] out%"] = {0.0123456789f, true, 3.125f};
  const std::string text = builder::calibration_cache_text(table);
  const auto back = builder::parse_calibration_cache(text, "cache");
  ASSERT_EQ(back.size(), 2u);
  for (const auto& [name, s] : table) {
    ASSERT_TRUE(back.count(name)) << name;
    EXPECT_EQ(back.at(name).scale, s.scale);
    EXPECT_EQ(back.at(name).non_negative, s.non_negative);
    EXPECT_EQ(back.at(name).abs_max, s.abs_max);
  }
  const std::string header = "atenrt-calibration-cache 1\n";
  for (const auto& [bad, why] : std::vector<std::pair<std::string, std::string>>{
           {"not a cache\n", "line 1"},
           {header + "x 0 0 1\n", "line 2: scale"},
           {header + "x nan 0 1\n", "line 2"},
           {header + "x 1e39 0 1\n", "line 2: scale"},
           {header + "x 0.5 2 1\n", "line 2: scale"},
           {header + "x 0.5 0\n", "line 2: expected"},
           {header + "x 0.5 0 1 extra\n", "line 2: expected"},
           {header + "x 0.5 0 1\nx 0.5 0 1\n", "line 3: tensor 'x' listed twice"},
           {header + "x%4 0.5 0 1\n", "line 2: bad %-escape"},
       }) {
    try {
      builder::parse_calibration_cache(bad, "cache");
      ADD_FAILURE() << "accepted: " << bad;
    } catch (const FormatError& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace atenrt
