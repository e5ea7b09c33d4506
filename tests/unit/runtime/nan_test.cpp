// NaN, ±inf and -0 through the engine: every kernel family whose optimized
// form could treat them differently from PyTorch (oneDNN's relu/clip/max/min
// use max/min instructions that drop NaN; its max pooling and reduction start
// at -FLT_MAX; its softmax keeps rows that hold NaN or +inf). Each case runs
// the engine and the reference (PyTorch semantics) on inputs seeded with
// specials; a few values are also pinned to what torch 1.13 prints.
#include <gtest/gtest.h>

#include <limits>

#include "support/engine_check.h"

namespace atenrt::testing {
namespace {

using namespace atenrt::network;
using builder::BuilderConfig;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// Every third element a special value, the rest stay random.
void add_specials(Tensor& t, int phase = 0) {
  if (t.dtype() != DType::Float32) return;
  const float specials[] = {kNaN, kInf, -kInf, -0.0f, 0.0f, 1e30f, -1e30f};
  float* v = t.mutable_data<float>();
  for (std::int64_t i = 0; i < t.numel(); ++i) {
    if ((i + phase) % 3 == 0) v[i] = specials[((i + phase) / 3) % 7];
  }
}

void specials_everywhere(reference::TensorMap& in) {
  int phase = 0;
  for (auto& [name, t] : in) add_specials(t, phase++);
}

struct Case {
  std::string name;
  std::function<Network()> make;
  std::function<void(reference::TensorMap&)> tweak = specials_everywhere;
  double tol = 1e-5;
};


ActivationParams act(ActivationOp op, double alpha = 0.0, double beta = 0.0) { return {op, alpha, beta}; }

std::vector<ActivationParams> activations() {
  return {act(ActivationOp::Relu),
          act(ActivationOp::Clip, -0.5, 0.7),  // hardtanh
          act(ActivationOp::Clip, 0.0, 6.0),   // relu6
          act(ActivationOp::Clip, -0.5, kInf),  // clamp(min=)
          act(ActivationOp::Clip, -kInf, 0.7),  // clamp(max=)
          act(ActivationOp::LeakyRelu, 0.1),
          act(ActivationOp::LeakyRelu, 0.0),
          act(ActivationOp::Elu, 0.7),
          act(ActivationOp::Selu),
          act(ActivationOp::Sigmoid),
          act(ActivationOp::Tanh),
          act(ActivationOp::GeluErf),
          act(ActivationOp::GeluTanh),
          act(ActivationOp::HardSigmoid, 1.0 / 6, 0.5),
          act(ActivationOp::HardSwish),
          act(ActivationOp::Silu),
          act(ActivationOp::Mish),
          act(ActivationOp::Softplus, 2.0, 3.0)};
}

std::string act_name(const ActivationParams& a) {
  auto num = [](double v) { return std::isinf(v) ? std::string(v < 0 ? "minf" : "inf") : std::to_string(static_cast<int>(v * 10)); };
  return std::string(activation_op_name(a.op)) + "_" + num(a.alpha) + "_" + num(a.beta);
}

NetworkTensor* add_act(Network& n, const std::string& name, NetworkTensor* x, const ActivationParams& a) {
  return n.add_activation(name, x, a.op, a.alpha, a.beta);
}

// A 1x1 convolution with identity weights: the specials reach the output
// unchanged, where the fused post-ops see them.
NetworkTensor* identity_conv(Network& n, const std::string& name, NetworkTensor* x, std::int64_t c) {
  Tensor w(DType::Float32, {c, c, 1, 1});
  for (std::int64_t i = 0; i < c; ++i) w.mutable_data<float>()[i * c + i] = 1.0f;
  return n.add_convolution(name, x, n.add_constant(name + "_w", w), nullptr,
                           ConvolutionParams{{1, 1}, {0, 0}, {0, 0}, {1, 1}, 1});
}

// NaN/inf in a conv input spread over the pixel (0 * inf = NaN), so the
// convs below see specials only through their bias: -inf, +inf, NaN channels.
Tensor special_bias(std::int64_t c) {
  Tensor b = weights({c}, 5);
  const float specials[] = {-kInf, kInf, kNaN};
  for (std::int64_t i = 0; i < c; i += 4) b.mutable_data<float>()[i] = specials[(i / 4) % 3];
  return b;
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const auto& a : activations()) {
    for (const Dims& dims : std::vector<Dims>{{2, 3, 5, 7}, {37}}) {
      out.push_back({"act_" + act_name(a) + shape_to_string(dims), [=] {
                       Network n;
                       n.mark_output(add_act(n, "act", n.add_input("x", DType::Float32, dims), a));
                       return n;
                     }});
    }
    // fused into a conv whose output stays blocked for the next conv
    out.push_back({"conv_" + act_name(a) + "_conv", [=] {
                     Network n;
                     auto* x = n.add_input("x", DType::Float32, {1, 16, 6, 6});
                     auto* c = n.add_convolution("c1", x, n.add_constant("w", weights({16, 16, 3, 3}, 1)),
                                                 n.add_constant("b", special_bias(16)),
                                                 ConvolutionParams{{1, 1}, {1, 1}, {1, 1}, {1, 1}, 1});
                     auto* y = add_act(n, "act", c, a);
                     n.mark_output(n.add_convolution("c2", y, n.add_constant("w2", weights({16, 16, 1, 1}, 2)), nullptr,
                                                     ConvolutionParams{{1, 1}, {0, 0}, {0, 0}, {1, 1}, 1}));
                     n.mark_output(y);  // also read directly
                     return n;
                   }, [](reference::TensorMap&) {}, 1e-4});
    out.push_back({"conv_identity_" + act_name(a), [=] {
                     Network n;
                     auto* x = n.add_input("x", DType::Float32, {1, 5, 4, 4});
                     n.mark_output(add_act(n, "act", identity_conv(n, "c", x, 5), a));
                     return n;
                   }, [](reference::TensorMap& in) {
                     // every other pixel: one special, other channels 0 (±inf then spreads as
                     // NaN through the zero weights, exactly as in torch)
                     Tensor& t = in["x"];
                     float* v = t.mutable_data<float>();
                     const float specials[] = {kNaN, kInf, -kInf, -0.0f, -1e30f};
                     for (std::int64_t p = 0; p < 16; ++p) {
                       if (p % 2) continue;
                       for (std::int64_t c = 0; c < 5; ++c) v[c * 16 + p] = 0.0f;
                       v[(p % 5) * 16 + p] = specials[(p / 2) % 5];
                     }
                   }});
    out.push_back({"matmul_bias_" + act_name(a), [=] {
                     Network n;
                     auto* x = n.add_input("x", DType::Float32, {3, 8});
                     auto* m = n.add_matmul("mm", x, n.add_constant("w", weights({8, 12}, 3)));
                     auto* b = n.add_elementwise("bias", m, n.add_constant("b", special_bias(12)), ElementwiseOp::Add);
                     n.mark_output(add_act(n, "act", b, a));
                     return n;
                   }, [](reference::TensorMap&) {}, 1e-4});
  }
  for (auto op : {ElementwiseOp::Max, ElementwiseOp::Min, ElementwiseOp::Equal, ElementwiseOp::NotEqual,
                  ElementwiseOp::Less, ElementwiseOp::LessEqual, ElementwiseOp::Greater, ElementwiseOp::GreaterEqual,
                  ElementwiseOp::Add, ElementwiseOp::Sub, ElementwiseOp::Mul, ElementwiseOp::Div}) {
    for (const auto& [a, b] : std::vector<std::pair<Dims, Dims>>{{{4, 21}, {4, 21}}, {{4, 21}, {21}}, {{1}, {3, 7}}}) {
      out.push_back({"elementwise_" + std::string(elementwise_op_name(op)) + shape_to_string(a) + shape_to_string(b), [=] {
                       Network n;
                       auto* x = n.add_input("x", DType::Float32, a);
                       auto* y = n.add_input("y", DType::Float32, b);
                       n.mark_output(n.add_elementwise("e", x, y, op));
                       return n;
                     }});
    }
  }
  for (auto op : {UnaryOp::Sign, UnaryOp::Abs, UnaryOp::IsNan, UnaryOp::IsInf, UnaryOp::Floor, UnaryOp::Exp}) {
    out.push_back({"unary_" + std::string(unary_op_name(op)), [=] {
                     Network n;
                     n.mark_output(n.add_unary("u", n.add_input("x", DType::Float32, {4, 9}), op));
                     return n;
                   }});
  }
  // max pooling: plain input, and blocked input from a conv (bias specials)
  for (bool ceil : {false, true}) {
    out.push_back({std::string("maxpool_plain") + (ceil ? "_ceil" : ""), [=] {
                     Network n;
                     PoolingParams p;
                     p.kernel = {3, 3}, p.stride = {2, 2}, p.padding_pre = {1, 1}, p.padding_post = {1, 1}, p.ceil_mode = ceil;
                     n.mark_output(n.add_pooling("pool", n.add_input("x", DType::Float32, {1, 3, 9, 8}), p));
                     return n;
                   }});
  }
  out.push_back({"maxpool_all_minus_inf", [] {
                   Network n;
                   PoolingParams p;
                   p.kernel = {2, 2}, p.stride = {2, 2};
                   n.mark_output(n.add_pooling("pool", n.add_input("x", DType::Float32, {1, 2, 4, 4}), p));
                   return n;
                 }, [](reference::TensorMap& in) {
                   float* v = in["x"].mutable_data<float>();
                   for (int i = 0; i < 32; ++i) v[i] = i < 16 ? -kInf : (i == 21 ? kNaN : static_cast<float>(i));
                 }});
  out.push_back({"conv_maxpool_blocked", [] {
                   Network n;
                   auto* x = n.add_input("x", DType::Float32, {1, 16, 8, 8});
                   auto* c = n.add_convolution("c1", x, n.add_constant("w", weights({16, 16, 3, 3}, 1)),
                                               n.add_constant("b", special_bias(16)),
                                               ConvolutionParams{{1, 1}, {1, 1}, {1, 1}, {1, 1}, 1});
                   PoolingParams p;
                   p.kernel = {3, 3}, p.stride = {2, 2}, p.padding_pre = {1, 1}, p.padding_post = {1, 1};
                   auto* pool = n.add_pooling("pool", c, p);
                   n.mark_output(n.add_convolution("c2", pool, n.add_constant("w2", weights({16, 16, 1, 1}, 2)), nullptr,
                                                   ConvolutionParams{{1, 1}, {0, 0}, {0, 0}, {1, 1}, 1}));
                   n.mark_output(pool);
                   return n;
                 }, [](reference::TensorMap&) {}, 1e-4});
  out.push_back({"adaptive_maxpool", [] {
                   Network n;
                   PoolingParams p;
                   p.adaptive = true, p.output_size = {2, 3};
                   n.mark_output(n.add_pooling("pool", n.add_input("x", DType::Float32, {2, 3, 6, 6}), p));
                   return n;
                 }});
  for (auto op : {ReduceOp::Max, ReduceOp::Min, ReduceOp::ArgMax, ReduceOp::ArgMin, ReduceOp::Sum, ReduceOp::Mean,
                  ReduceOp::Prod}) {
    for (const auto& axes : std::vector<Dims>{{1}, {-1}, {0, 2}, {}}) {
      if ((op == ReduceOp::ArgMax || op == ReduceOp::ArgMin) && axes.size() != 1) continue;
      out.push_back({"reduce_" + std::string(reduce_op_name(op)) + shape_to_string(axes), [=] {
                       Network n;
                       n.mark_output(n.add_reduce("r", n.add_input("x", DType::Float32, {3, 4, 5}), op, axes, false));
                       return n;
                     }});
    }
  }
  for (bool log : {false, true}) {
    for (std::int64_t axis : {-1, 1}) {
      out.push_back({std::string(log ? "logsoftmax" : "softmax") + (axis < 0 ? "_last" : "_1"), [=] {
                       Network n;
                       n.mark_output(n.add_softmax("sm", n.add_input("x", DType::Float32, {3, 5, 7}), axis, log));
                       return n;
                     }, [](reference::TensorMap& in) {
                       float* v = in["x"].mutable_data<float>();
                       v[3] = kNaN;                                   // row 0 (last axis)
                       v[7 + 2] = kInf;                               // row 1
                       for (int j = 0; j < 7; ++j) v[14 + j] = -kInf;  // row 2: all -inf
                       v[21 + 4] = -kInf;                             // row 3: one -inf, finite max
                     }});
    }
  }
  // Without NaN or +inf the repair does nothing: a causal mask's -inf among
  // finite values is exact as oneDNN computes it, and a row of -inf throughout
  // must come out NaN from oneDNN itself (0 / 0), as torch's.
  for (std::int64_t axis : {-1, 1}) {
    auto softmax = [=] {
      Network n;
      n.mark_output(n.add_softmax("sm", n.add_input("x", DType::Float32, {3, 5, 7}), axis, false));
      return n;
    };
    // x[o, j, i] of [3, 5, 7], `j` along the softmax axis.
    auto at = [=](std::int64_t o, std::int64_t j, std::int64_t i) {
      return axis < 0 ? (o * 5 + i % 5) * 7 + j % 7 : (o * 5 + j % 5) * 7 + i;
    };
    const std::int64_t len = axis < 0 ? 7 : 5, rows = axis < 0 ? 5 : 7;
    const std::string suffix = axis < 0 ? "_last" : "_1";
    out.push_back({"softmax_causal_mask" + suffix, softmax, [=](reference::TensorMap& in) {
                     float* v = in["x"].mutable_data<float>();
                     for (std::int64_t o = 0; o < 3; ++o) {
                       for (std::int64_t r = 0; r < rows; ++r) {
                         for (std::int64_t j = r % len + 1; j < len; ++j) v[at(o, j, r)] = -kInf;
                       }
                     }
                   }});
    out.push_back({"softmax_plus_inf_no_nan" + suffix, softmax, [=](reference::TensorMap& in) {
                     in["x"].mutable_data<float>()[at(1, 2, 4)] = kInf;  // that row all NaN in torch
                   }});
    out.push_back({"softmax_one_row_all_minus_inf" + suffix, softmax, [=](reference::TensorMap& in) {
                     float* v = in["x"].mutable_data<float>();
                     for (std::int64_t j = 0; j < len; ++j) v[at(2, j, 3)] = -kInf;  // the last outer, inner 3
                     v[at(0, 1, 0)] = -kInf;                                         // and a finite row's -inf
                   }});
  }
  out.push_back({"layernorm", [] {
                   Network n;
                   NormalizationParams p;
                   p.axis = -1;
                   n.mark_output(n.add_normalization("ln", n.add_input("x", DType::Float32, {4, 6}),
                                                     n.add_constant("s", weights({6}, 1)), n.add_constant("b", weights({6}, 2)), p));
                   return n;
                 }, [](reference::TensorMap& in) {
                   float* v = in["x"].mutable_data<float>();
                   v[1] = kNaN, v[8] = kInf, v[14] = -kInf;
                 }});
  out.push_back({"topk", [] {
                   Network n;
                   auto* l = n.add_topk("t", n.add_input("x", DType::Float32, {3, 9}), 4, -1, true);
                   n.mark_output(l->output(0));
                   n.mark_output(l->output(1));
                   return n;
                 }});
  return out;
}

class NanVsReference : public ::testing::TestWithParam<Case> {};

TEST_P(NanVsReference, MatchesReference) {
  const Case& c = GetParam();
  BuilderConfig config;
  config.constant_folding = false;
  expect_engine_matches_reference(c.make, config, c.tol, c.name, c.tweak);
}

INSTANTIATE_TEST_SUITE_P(Specials, NanVsReference, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           std::string s = std::to_string(info.index) + "_" + info.param.name;
                           for (auto& ch : s) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return s;
                         });

// Values torch 1.13 prints for the cases the brief names.
std::vector<float> run_one(Network n, const std::vector<float>& x) {
  runtime::Engine engine = builder::build(std::move(n));
  Tensor in(DType::Float32, {static_cast<std::int64_t>(x.size())});
  std::copy(x.begin(), x.end(), in.mutable_data<float>());
  auto ctx = engine.create_context();
  const auto& outs = ctx.run(std::vector<Tensor>{in});
  const float* y = outs[0].data<float>();
  return std::vector<float>(y, y + outs[0].numel());
}

void expect_same(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << "element " << i << ": got " << got[i];
    } else {
      EXPECT_EQ(got[i], want[i]) << "element " << i;
    }
  }
}

const std::vector<float> kX = {kNaN, kInf, -kInf, -1.0f, 0.0f, 2.0f};

TEST(TorchValues, ReluClampSignMaximum) {
  auto one = [](auto f, std::int64_t size = 6) {
    Network n;
    n.mark_output(f(n, n.add_input("x", DType::Float32, {size})));
    return n;
  };
  expect_same(run_one(one([](Network& n, NetworkTensor* x) { return n.add_activation("a", x, ActivationOp::Relu); }), kX),
              {kNaN, kInf, 0, 0, 0, 2});
  expect_same(run_one(one([](Network& n, NetworkTensor* x) { return n.add_activation("a", x, ActivationOp::Clip, 0, 6); }), kX),
              {kNaN, 6, 0, 0, 0, 2});
  expect_same(run_one(one([](Network& n, NetworkTensor* x) { return n.add_unary("s", x, UnaryOp::Sign); }), kX),
              {0, 1, -1, -1, 0, 1});
  expect_same(run_one(one([](Network& n, NetworkTensor* x) {
                        Tensor c(DType::Float32, {1});
                        c.mutable_data<float>()[0] = 1.0f;
                        return n.add_elementwise("m", n.add_constant("c", c), x, ElementwiseOp::Max);
                      }), kX),
              {kNaN, kInf, 1, 1, 1, 2});
  expect_same(run_one(one([](Network& n, NetworkTensor* x) {
                        return n.add_reduce("r", x, ReduceOp::Max, {0}, true);
                      }, 3), {1.0f, kNaN, 3.0f}),
              {kNaN});
  expect_same(run_one(one([](Network& n, NetworkTensor* x) {
                        PoolingParams p;
                        p.kernel = {2};
                        p.stride = {2};
                        return n.add_pooling("p", n.add_reshape("r", x, {1, 1, -1}), p);
                      }), {-kInf, -kInf, 1.0f, kNaN, 4.0f, 5.0f}),
              {-kInf, kNaN, 5.0f});
}

// Convolutions and matmuls whose fused relu or clip runs as oneDNN's max/min form
// (cheap, but it turns NaN into a number) whenever the values they read are
// finite, and as the NaN-keeping form otherwise: one context alternates
// between finite inputs and inputs with specials in the source, or in the
// residual only, and must match the reference every time.
struct FiniteFormCase {
  std::string name;
  std::function<Network()> make;
};

std::vector<FiniteFormCase> finite_form_cases() {
  auto conv = [](Network& n, NetworkTensor* x, std::uint32_t seed, bool bias) {
    const std::string id = std::to_string(seed);
    return n.add_convolution("c" + id, x, n.add_constant("w" + id, weights({16, 16, 3, 3}, seed)),
                             bias ? n.add_constant("b" + id, weights({16}, seed + 50)) : nullptr,
                             ConvolutionParams{{1, 1}, {1, 1}, {1, 1}, {1, 1}, 1});
  };
  return {
      {"conv_relu_conv",
       [=] {  // blocked between the convs, as in ResNets
         Network n;
         auto* c1 = conv(n, n.add_input("x", DType::Float32, {1, 16, 9, 7}), 1, true);
         auto* y = n.add_activation("relu", c1, ActivationOp::Relu);
         n.mark_output(conv(n, y, 2, false));
         n.mark_output(y);
         return n;
       }},
      {"conv_relu6",
       [=] {  // MobileNets: clip is otherwise our own pass after the conv
         Network n;
         n.mark_output(n.add_activation("relu6", conv(n, n.add_input("x", DType::Float32, {1, 16, 9, 7}), 3, true),
                                        ActivationOp::Clip, 0.0, 6.0));
         return n;
       }},
      {"conv_relu6_conv_relu6",
       [=] {  // MobileNets: the first conv's clip vouches its output finite when its finite
              // form ran, and the second skips its check then; never when the first kept NaN
         Network n;
         auto* c1 = conv(n, n.add_input("x", DType::Float32, {1, 16, 9, 7}), 5, true);
         auto* y = n.add_activation("relu6", c1, ActivationOp::Clip, 0.0, 6.0);
         n.mark_output(n.add_activation("clip", conv(n, y, 6, true), ActivationOp::Clip, -0.5, 0.7));
         return n;
       }},
      {"conv_relu_maxpool",
       [=] {  // ResNets' stem, SqueezeNet: the relu's max form vouches the pool's input free of NaN
              // and -inf, so the pool skips its NaN repair; never when the conv kept NaN
         Network n;
         auto* y = n.add_activation("relu", conv(n, n.add_input("x", DType::Float32, {1, 16, 9, 7}), 9, true),
                                    ActivationOp::Relu);
         PoolingParams p;
         p.kernel = {3, 3};
         p.stride = {2, 2};
         p.padding_pre = {1, 1};
         p.padding_post = {1, 1};
         n.mark_output(n.add_pooling("pool", y, p));
         return n;
       }},
      {"conv_residual_relu",
       [=] {  // the residual add fuses as the sum: its operand is checked too
         Network n;
         auto* x = n.add_input("x", DType::Float32, {1, 16, 9, 7});
         auto* r = n.add_input("r", DType::Float32, {1, 16, 9, 7});
         auto* s = n.add_elementwise("add", conv(n, x, 4, true), r, ElementwiseOp::Add);
         n.mark_output(n.add_activation("relu", s, ActivationOp::Relu));
         return n;
       }},
      {"linear_bias_relu",
       [] {  // MLPs: the bias is a binary post-op before the relu, in both forms
         Network n;
         auto* m = n.add_matmul("fc", n.add_input("x", DType::Float32, {6, 32}), n.add_constant("w", weights({32, 24}, 7)));
         auto* b = n.add_elementwise("bias", m, n.add_constant("b", weights({24}, 8)), ElementwiseOp::Add);
         n.mark_output(n.add_activation("relu", b, ActivationOp::Relu));
         return n;
       }},
  };
}

class FiniteInputForm : public ::testing::TestWithParam<FiniteFormCase> {};

TEST_P(FiniteInputForm, SwitchesFormsPerRunAndMatchesReference) {
  const auto& c = GetParam();
  BuilderConfig config;
  config.constant_folding = false;
  runtime::Engine engine = builder::build(c.make(), config);
  bool fused_form = false;
  for (const auto& step : engine.steps()) fused_form = fused_form || step.finite_input_form;
  EXPECT_TRUE(fused_form) << "no step got the finite-input form";
  Network ref_net = c.make();
  // The same random values three times (tensors share storage when copied).
  const reference::TensorMap finite = random_inputs(ref_net);
  reference::TensorMap in_source = random_inputs(ref_net), in_residual = random_inputs(ref_net);
  add_specials(in_source.at("x"));
  if (in_residual.count("r")) add_specials(in_residual["r"]);
  auto ctx = engine.create_context();
  int round = 0;
  const std::vector<const reference::TensorMap*> runs{&finite, &in_source, &finite, &in_residual, &in_source, &finite};
  for (const auto* inputs : runs) {
    SCOPED_TRACE(c.name + ", run " + std::to_string(round++));
    const auto want = reference::run(ref_net, *inputs);
    const auto got = ctx.run(*inputs);
    for (const auto& [name, t] : want) EXPECT_TRUE(close(got.at(name), t, 1e-4)) << name;  // ±1e30 specials cancel
  }
}

INSTANTIATE_TEST_SUITE_P(ConvAndMatMul, FiniteInputForm, ::testing::ValuesIn(finite_form_cases()),
                         [](const ::testing::TestParamInfo<FiniteFormCase>& info) { return info.param.name; });

}  // namespace
}  // namespace atenrt::testing
