// Every layer kind's runtime kernel (oneDNN, ours, or the reference fallback)
// against the reference executor, over a table of shapes. Tolerances: 1e-5
// relative for fp32 kernels; 1e-4 for conv/deconv/matmul, whose oneDNN
// kernels accumulate in fp32 in blocked order while the reference sums in
// double (error ~ sqrt(K) * 2^-24 * sum|terms| for K up to a few hundred).
#include <gtest/gtest.h>

#include "support/engine_check.h"

namespace atenrt::testing {
namespace {

using namespace atenrt::network;
using builder::BuilderConfig;

struct Case {
  std::string name;
  std::function<Network()> make;
  double tol = 1e-5;
};


// One layer over inputs x (and y) of the given shapes.
Case unary_case(const std::string& name, Dims dims, std::function<NetworkTensor*(Network&, NetworkTensor*)> f,
                DType dtype = DType::Float32, double tol = 1e-5) {
  return {name + shape_to_string(dims), [=] {
            Network n;
            n.mark_output(f(n, n.add_input("x", dtype, dims)));
            return n;
          }, tol};
}
Case binary_case(const std::string& name, Dims a, Dims b, std::function<NetworkTensor*(Network&, NetworkTensor*, NetworkTensor*)> f,
                 DType dtype = DType::Float32, double tol = 1e-5) {
  return {name + shape_to_string(a) + shape_to_string(b), [=] {
            Network n;
            auto* x = n.add_input("x", dtype, a);
            auto* y = n.add_input("y", dtype, b);
            n.mark_output(f(n, x, y));
            return n;
          }, tol};
}

std::vector<Case> cases() {
  std::vector<Case> out;
  const std::vector<Dims> shapes = {{2, 3, 5, 7}, {1}, {17}, {1, 1, 1}};
  for (int op = 0; op < kActivationOpCount; ++op) {
    const auto a = static_cast<ActivationOp>(op);
    double alpha = 0.1, beta = 0.0;
    if (a == ActivationOp::Clip) alpha = -0.5, beta = 0.7;
    if (a == ActivationOp::HardSigmoid) alpha = 1.0 / 6, beta = 0.5;
    if (a == ActivationOp::Softplus) alpha = 2.0, beta = 3.0;
    if (a == ActivationOp::Elu) alpha = 0.7;
    for (const auto& s : shapes) {
      out.push_back(unary_case(std::string("activation_") + std::string(activation_op_name(a)), s,
                               [=](Network& n, NetworkTensor* x) { return n.add_activation("act", x, a, alpha, beta); }));
    }
  }
  for (int op = 0; op < kUnaryOpCount; ++op) {
    const auto u = static_cast<UnaryOp>(op);
    const DType dt = u == UnaryOp::Not ? DType::Bool : DType::Float32;
    out.push_back(unary_case(std::string("unary_") + std::string(unary_op_name(u)), {3, 4, 5},
                             [=](Network& n, NetworkTensor* x) { return n.add_unary("u", x, u); }, dt));
  }
  const std::vector<std::pair<Dims, Dims>> bshapes = {{{2, 3, 4}, {2, 3, 4}}, {{2, 3, 4}, {4}}, {{2, 1, 4}, {3, 1}},
                                                      {{1}, {5, 6}}, {{3, 1, 1, 2}, {1, 7, 1}}};
  for (int op = 0; op < kElementwiseOpCount; ++op) {
    const auto e = static_cast<ElementwiseOp>(op);
    const bool logical = e == ElementwiseOp::And || e == ElementwiseOp::Or || e == ElementwiseOp::Xor;
    const bool bitwise = e == ElementwiseOp::BitAnd || e == ElementwiseOp::BitOr || e == ElementwiseOp::BitXor ||
                         e == ElementwiseOp::ShiftLeft || e == ElementwiseOp::ShiftRight;
    for (const auto& [a, b] : bitwise ? std::vector<std::pair<Dims, Dims>>{} : bshapes) {
      out.push_back(binary_case(std::string("elementwise_") + std::string(elementwise_op_name(e)), a, b,
                                [=](Network& n, NetworkTensor* x, NetworkTensor* y) { return n.add_elementwise("e", x, y, e); },
                                logical ? DType::Bool : DType::Float32));
    }
    if (e != ElementwiseOp::Div && e != ElementwiseOp::Pow && !logical && !is_special_function(e)) {
      out.push_back(binary_case(std::string("elementwise_i64_") + std::string(elementwise_op_name(e)), {2, 3, 4}, {3, 1},
                                [=](Network& n, NetworkTensor* x, NetworkTensor* y) {
                                  return n.add_elementwise("e", x, y, e);
                                }, DType::Int64));
    }
  }
  // matmul: plain, batched with broadcast, transposes, vectors, constant weights
  struct Mm { Dims a, b; bool ta, tb, constant_b; };
  for (const Mm& m : std::vector<Mm>{{{5, 7}, {7, 3}, false, false, false},
                                     {{2, 1, 4, 6}, {3, 6, 5}, false, false, false},
                                     {{7, 5}, {3, 7}, true, true, false},
                                     {{6}, {6, 4}, false, false, false},
                                     {{2, 3, 6}, {6}, false, false, false},
                                     {{4, 64}, {64, 33}, false, false, true},
                                     {{2, 9, 31}, {17, 31}, false, true, true}}) {
    out.push_back({"matmul" + shape_to_string(m.a) + shape_to_string(m.b) + (m.ta ? "ta" : "") + (m.tb ? "tb" : "") +
                       (m.constant_b ? "const" : ""),
                   [=] {
                     Network n;
                     auto* a = n.add_input("a", DType::Float32, m.a);
                     auto* b = m.constant_b ? n.add_constant("w", weights(m.b, 7)) : n.add_input("b", DType::Float32, m.b);
                     n.mark_output(n.add_matmul("mm", a, b, m.ta, m.tb));
                     return n;
                   }, 1e-4});
  }
  // convolution: 1d/2d/3d, groups, stride, dilation, asymmetric padding, bias
  struct Cv { Dims x, w; ConvolutionParams p; bool bias; };
  for (const Cv& c : std::vector<Cv>{
           {{1, 3, 9, 9}, {8, 3, 3, 3}, {{1, 1}, {1, 1}, {1, 1}, {1, 1}, 1}, true},
           {{2, 16, 14, 14}, {32, 16, 3, 3}, {{2, 2}, {1, 1}, {1, 1}, {1, 1}, 1}, false},
           {{1, 8, 10, 11}, {8, 2, 3, 3}, {{1, 2}, {0, 1}, {2, 0}, {2, 1}, 4}, true},
           {{1, 32, 7, 7}, {32, 1, 3, 3}, {{1, 1}, {1, 1}, {1, 1}, {1, 1}, 32}, true},
           {{2, 4, 20}, {6, 4, 5}, {{2}, {2}, {2}, {1}, 1}, true},
           {{1, 2, 5, 6, 7}, {4, 2, 3, 3, 3}, {{1, 1, 1}, {1, 0, 1}, {1, 0, 1}, {1, 1, 1}, 1}, true}}) {
    out.push_back({"conv" + shape_to_string(c.x) + shape_to_string(c.w) + "g" + std::to_string(c.p.groups),
                   [=] {
                     Network n;
                     auto* x = n.add_input("x", DType::Float32, c.x);
                     auto* w = n.add_constant("w", weights(c.w, 3));
                     NetworkTensor* b = c.bias ? n.add_constant("b", weights({c.w[0]}, 4)) : nullptr;
                     n.mark_output(n.add_convolution("conv", x, w, b, c.p));
                     return n;
                   }, 1e-4});
  }
  struct Dc { Dims x, w; DeconvolutionParams p; };
  for (const Dc& c : std::vector<Dc>{{{1, 4, 5, 5}, {4, 3, 3, 3}, {{2, 2}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1}},
                                     {{2, 4, 6, 5}, {4, 2, 2, 3}, {{1, 2}, {0, 1}, {0, 1}, {1, 1}, {0, 0}, 2}}}) {
    out.push_back({"deconv" + shape_to_string(c.x) + shape_to_string(c.w), [=] {
                     Network n;
                     auto* x = n.add_input("x", DType::Float32, c.x);
                     auto* w = n.add_constant("w", weights(c.w, 3));
                     auto* b = n.add_constant("b", weights({c.w[1] * c.p.groups}, 4));
                     n.mark_output(n.add_deconvolution("deconv", x, w, b, c.p));
                     return n;
                   }, 1e-4});
  }
  // pooling
  auto pool = [](PoolingOp op, Dims k, Dims s, Dims pad, bool ceil, bool include) {
    PoolingParams p;
    p.op = op, p.kernel = k, p.stride = s, p.padding_pre = pad, p.padding_post = pad, p.ceil_mode = ceil,
    p.count_include_pad = include;
    return p;
  };
  auto adaptive = [](PoolingOp op, Dims o) {
    PoolingParams p;
    p.op = op, p.adaptive = true, p.output_size = o;
    return p;
  };
  for (const auto& [dims, p] : std::vector<std::pair<Dims, PoolingParams>>{
           {{2, 3, 9, 9}, pool(PoolingOp::Max, {3, 3}, {2, 2}, {1, 1}, false, true)},
           {{1, 4, 10, 7}, pool(PoolingOp::Max, {2, 2}, {2, 2}, {0, 0}, true, true)},
           {{1, 4, 9, 9}, pool(PoolingOp::Average, {3, 3}, {2, 2}, {1, 1}, false, true)},
           {{1, 4, 9, 9}, pool(PoolingOp::Average, {3, 3}, {2, 2}, {1, 1}, false, false)},
           {{1, 2, 10, 7}, pool(PoolingOp::Average, {3, 3}, {2, 2}, {1, 1}, true, true)},
           {{2, 8, 7, 7}, adaptive(PoolingOp::Average, {1, 1})},
           {{1, 3, 10, 9}, adaptive(PoolingOp::Max, {4, 3})},
           {{1, 2, 16}, pool(PoolingOp::Max, {3}, {1}, {1}, false, true)}}) {
    out.push_back(unary_case("pool", dims, [p](Network& n, NetworkTensor* x) { return n.add_pooling("pool", x, p); }));
  }
  for (bool log : {false, true}) {
    for (std::int64_t axis : {-1, 0, 1}) {
      out.push_back(unary_case(std::string(log ? "logsoftmax" : "softmax") + std::to_string(axis), {3, 5, 7},
                               [=](Network& n, NetworkTensor* x) { return n.add_softmax("sm", x, axis, log); }));
    }
  }
  // normalization: layer, batch, group, instance
  out.push_back({"layernorm", [] {
                   Network n;
                   auto* x = n.add_input("x", DType::Float32, {2, 5, 12});
                   NormalizationParams p;
                   p.axis = -1;
                   n.mark_output(n.add_normalization("ln", x, n.add_constant("s", weights({12}, 1)),
                                                     n.add_constant("b", weights({12}, 2)), p));
                   return n;
                 }});
  out.push_back({"batchnorm", [] {
                   Network n;
                   auto* x = n.add_input("x", DType::Float32, {2, 6, 5, 5});
                   NormalizationParams p;
                   p.op = NormalizationOp::Batch;
                   n.mark_output(n.add_normalization("bn", x, n.add_constant("s", weights({6}, 1)),
                                                     n.add_constant("b", weights({6}, 2)), p,
                                                     n.add_constant("m", weights({6}, 3)),
                                                     n.add_constant("v", random_tensor(DType::Float32, {6}, 4, 0.5, 2.0))));
                   return n;
                 }});
  for (auto op : {NormalizationOp::Group, NormalizationOp::Instance}) {
    out.push_back({"norm" + std::to_string(static_cast<int>(op)), [op] {
                     Network n;
                     auto* x = n.add_input("x", DType::Float32, {2, 6, 4, 3});
                     NormalizationParams p;
                     p.op = op;
                     p.num_groups = 3;
                     n.mark_output(n.add_normalization("gn", x, n.add_constant("s", weights({6}, 1)),
                                                       n.add_constant("b", weights({6}, 2)), p));
                     return n;
                   }});
  }
  for (auto op : {ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Prod, ReduceOp::Max, ReduceOp::Min, ReduceOp::ArgMax,
                  ReduceOp::ArgMin}) {
    for (const auto& axes : std::vector<Dims>{{1}, {-1}, {0, 2}, {}}) {
      if ((op == ReduceOp::ArgMax || op == ReduceOp::ArgMin) && axes.size() != 1) continue;
      for (bool keep : {false, true}) {
        out.push_back(unary_case("reduce" + std::string(reduce_op_name(op)) + shape_to_string(axes) + (keep ? "k" : ""),
                                 {3, 4, 5}, [=](Network& n, NetworkTensor* x) { return n.add_reduce("r", x, op, axes, keep); }));
      }
    }
  }
  out.push_back(unary_case("reduce_any", {3, 4}, [](Network& n, NetworkTensor* x) {
    return n.add_reduce("r", x, ReduceOp::Any, {1}, false);
  }, DType::Bool));
  // data movement
  out.push_back(unary_case("reshape", {2, 3, 4}, [](Network& n, NetworkTensor* x) { return n.add_reshape("r", x, {4, -1}); }));
  out.push_back(unary_case("permute", {2, 3, 4, 5}, [](Network& n, NetworkTensor* x) { return n.add_permute("p", x, {0, 2, 3, 1}); }));
  out.push_back(unary_case("permute_reshape", {2, 3, 4}, [](Network& n, NetworkTensor* x) {
    ShuffleParams p;
    p.first_perm = {1, 0, 2};
    p.reshape = true;
    p.reshape_dims = {3, 8};
    return n.add_shuffle("s", x, p);
  }));
  out.push_back(unary_case("reshape_permute", {2, 3, 4}, [](Network& n, NetworkTensor* x) {
    ShuffleParams p;
    p.reshape = true;
    p.reshape_dims = {6, 4};
    p.second_perm = {1, 0};
    return n.add_shuffle("s", x, p);
  }));
  out.push_back(unary_case("slice", {5, 6, 7}, [](Network& n, NetworkTensor* x) {
    return n.add_slice("s", x, {0, 2, 1}, {1, -1, 5}, {4, -8, -10}, {2, -2, -1});
  }));
  out.push_back(unary_case("slice_i64", {9}, [](Network& n, NetworkTensor* x) {
    return n.add_slice("s", x, {0}, {1}, {8}, {3});
  }, DType::Int64));
  out.push_back(binary_case("concat", {2, 3, 4}, {2, 5, 4}, [](Network& n, NetworkTensor* x, NetworkTensor* y) {
    return n.add_concatenation("c", {x, y, x}, 1);
  }));
  out.push_back({"gather_axis", [] {
                   Network n;
                   auto* x = n.add_input("x", DType::Float32, {4, 5, 3});
                   Tensor idx(DType::Int64, {2, 3});
                   const std::int64_t v[] = {0, 4, -1, 2, 2, 1};
                   for (int i = 0; i < 6; ++i) idx.mutable_data<std::int64_t>()[i] = v[i];
                   n.mark_output(n.add_gather("g", x, n.add_constant("i", idx), GatherMode::Axis, 1));
                   return n;
                 }});
  out.push_back({"gather_elements", [] {
                   Network n;
                   auto* x = n.add_input("x", DType::Float32, {3, 4});
                   Tensor idx(DType::Int64, {3, 2});
                   const std::int64_t v[] = {0, 3, 1, 1, 2, 0};
                   for (int i = 0; i < 6; ++i) idx.mutable_data<std::int64_t>()[i] = v[i];
                   n.mark_output(n.add_gather("g", x, n.add_constant("i", idx), GatherMode::Elements, 1));
                   return n;
                 }});
  out.push_back({"select", [] {
                   Network n;
                   auto* c = n.add_input("c", DType::Bool, {3, 1, 5});
                   auto* a = n.add_input("a", DType::Float32, {4, 5});
                   auto* b = n.add_input("b", DType::Float32, {1});
                   n.mark_output(n.add_select("w", c, a, b));
                   return n;
                 }});
  for (auto [from, to] : std::vector<std::pair<DType, DType>>{{DType::Float32, DType::Int64}, {DType::Int64, DType::Float32},
                                                              {DType::Float32, DType::Bool}, {DType::Bool, DType::Int32},
                                                              {DType::Float32, DType::BFloat16}}) {
    out.push_back(unary_case("cast_" + std::string(dtype_name(from)) + "_" + std::string(dtype_name(to)), {3, 7},
                             [to](Network& n, NetworkTensor* x) { return n.add_cast("c", x, to); }, from));
  }
  for (auto mode : {PaddingMode::Constant, PaddingMode::Reflect, PaddingMode::Replicate, PaddingMode::Circular}) {
    out.push_back(unary_case("pad" + std::to_string(static_cast<int>(mode)), {2, 3, 5}, [mode](Network& n, NetworkTensor* x) {
      PaddingParams p;
      p.mode = mode, p.pre = {0, 1, 2}, p.post = {0, 2, 1}, p.value = 1.5;
      return n.add_padding("p", x, p);
    }));
  }
  for (auto mode : {ResizeMode::Nearest, ResizeMode::Linear, ResizeMode::Cubic}) {
    out.push_back(unary_case("resize" + std::to_string(static_cast<int>(mode)), {1, 2, 5, 4}, [mode](Network& n, NetworkTensor* x) {
      ResizeParams p;
      p.mode = mode, p.output_size = {9, 7};
      return n.add_resize("r", x, p);
    }));
  }
  out.push_back({"topk", [] {
                   Network n;
                   auto* x = n.add_input("x", DType::Float32, {3, 8});
                   auto* l = n.add_topk("t", x, 3, -1, true);
                   n.mark_output(l->output(0));
                   n.mark_output(l->output(1));
                   return n;
                 }});
  out.push_back(unary_case("cumsum", {3, 5}, [](Network& n, NetworkTensor* x) {
    return n.add_cumulative("c", x, CumulativeOp::Sum, 1);
  }));
  out.push_back({"scatter", [] {
                   Network n;
                   auto* x = n.add_input("x", DType::Float32, {3, 5});
                   auto* u = n.add_input("u", DType::Float32, {2, 5});
                   Tensor idx(DType::Int64, {2, 5});
                   for (int i = 0; i < 10; ++i) idx.mutable_data<std::int64_t>()[i] = (i * 7) % 3;
                   n.mark_output(n.add_scatter("s", x, n.add_constant("i", idx), u, 0, ScatterReduce::Add));
                   return n;
                 }});
  out.push_back(unary_case("shape", {3, 5}, [](Network& n, NetworkTensor* x) { return n.add_shape("s", x); }));
  return out;
}

class KernelVsReference : public ::testing::TestWithParam<Case> {};

TEST_P(KernelVsReference, MatchesReference) {
  const Case& c = GetParam();
  BuilderConfig config;
  config.constant_folding = false;  // keep the layer itself (shape would fold)
  expect_engine_matches_reference(c.make, config, c.tol, c.name);
}

INSTANTIATE_TEST_SUITE_P(AllKinds, KernelVsReference, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           std::string s = std::to_string(info.index) + "_" + info.param.name;
                           for (auto& ch : s) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return s;
                         });

// The kinds the brief wants on oneDNN really use it (not a silent fallback).
TEST(KernelChoice, OptimizedKernelsAreUsed) {
  Network n;
  auto* x = n.add_input("x", DType::Float32, {1, 8, 8, 8});
  ConvolutionParams cp{{1, 1}, {1, 1}, {1, 1}, {1, 1}, 1};
  auto* c = n.add_convolution("conv", x, n.add_constant("w", weights({8, 8, 3, 3}, 1)), nullptr, cp);
  PoolingParams pp;
  pp.kernel = {2, 2};
  auto* p = n.add_pooling("pool", c, pp);
  auto* r = n.add_reshape("flat", p, {1, 128});
  auto* m = n.add_matmul("fc", r, n.add_constant("fw", weights({128, 10}, 2)));
  auto* s = n.add_softmax("sm", m, -1);
  auto* g = n.add_gather("g", s, n.add_constant("gi", Tensor(DType::Int64, {2})), GatherMode::Axis, 1);
  n.mark_output(g);
  auto engine = builder::build(std::move(n));
  for (const auto& step : engine.steps()) {
    if (step.kind == "Convolution" || step.kind == "Pooling" || step.kind == "MatMul" || step.kind == "Softmax") {
      EXPECT_EQ(step.implementation.rfind("onednn:", 0), 0u) << step.name << ": " << step.implementation;
    } else {
      EXPECT_EQ(step.implementation, "own") << step.name;
    }
  }
}

// A linear layer's bias add and a residual add fuse into its matmul and keep
// it on an optimized oneDNN kernel: with the bias first, AVX2 CPUs got
// oneDNN's reference matmul (a sum post-op must come first there), and a
// transformer encoder ran 370 times slower than ONNX Runtime.
TEST(KernelChoice, LinearWithBiasAndResidualAddStaysOnAnOptimizedMatMul) {
  const auto make = [] {
    Network n;
    auto* x = n.add_input("x", DType::Float32, {16, 32});
    auto* m = n.add_matmul("fc", x, n.add_constant("w", weights({32, 32}, 5)));
    auto* b = n.add_elementwise("bias", m, n.add_constant("b", weights({32}, 6)), ElementwiseOp::Add);
    n.mark_output(n.add_elementwise("residual", b, x, ElementwiseOp::Add));
    return n;
  };
  expect_engine_matches_reference(make, {}, 1e-5, "linear + bias + residual");
  auto engine = builder::build(make());
  ASSERT_EQ(engine.steps().size(), 1u) << "bias and residual fused into the matmul";
  const runtime::StepInfo step = engine.steps()[0];  // steps() returns a copy
  EXPECT_EQ(step.fused.size(), 2u);
  EXPECT_EQ(step.implementation.rfind("onednn:", 0), 0u) << step.implementation;
  EXPECT_EQ(step.implementation.find(":ref"), std::string::npos) << step.implementation;
}

// A 3x3 same-size convolution of x [1, C, H, W] (its output blocked where
// oneDNN prefers that, which is what the binary tests below need).
NetworkTensor* conv3x3(Network& n, NetworkTensor* x, std::int64_t channels, std::uint32_t seed) {
  ConvolutionParams cp{{1, 1}, {1, 1}, {1, 1}, {1, 1}, 1};
  return n.add_convolution("conv", x, n.add_constant("w", weights({channels, channels, 3, 3}, seed)), nullptr, cp);
}

// The engine's Elementwise step runs on an optimized oneDNN kernel, not its
// reference one, and the convolution before it gave it a blocked operand.
void expect_optimized_binary_after_blocked_conv(const runtime::Engine& engine) {
  bool found = false;
  for (const auto& step : engine.steps()) {
    if (step.kind == "Convolution") {
      EXPECT_NE(step.output_layout, "plain") << "the case needs a blocked conv output";
    }
    if (step.kind != "Elementwise") continue;
    found = true;
    EXPECT_EQ(step.implementation.rfind("onednn:", 0), 0u) << step.implementation;
    EXPECT_EQ(step.implementation.find(":ref"), std::string::npos) << step.implementation;
  }
  EXPECT_TRUE(found) << "the binary is its own step (it does not fuse into the conv)";
}

// A per-channel scale over a convolution's blocked output (a squeeze-excite
// block) stays on oneDNN's jit binary: with the scale in plain layout oneDNN
// took its reference kernel. 12 channels: the blocked layout pads them.
TEST(KernelChoice, PerChannelScaleOfABlockedConvOutputStaysOnAnOptimizedBinary) {
  const auto make = [] {
    Network n;
    auto* c = conv3x3(n, n.add_input("x", DType::Float32, {1, 12, 6, 6}), 12, 8);
    auto* s = n.add_input("s", DType::Float32, {1, 12, 1, 1});
    n.mark_output(n.add_elementwise("scale", c, s, ElementwiseOp::Mul));
    return n;
  };
  expect_engine_matches_reference(make, {}, 1e-5, "conv * per-channel scale");
  expect_optimized_binary_after_blocked_conv(builder::build(make()));
}

// A blocked conv output and a plain tensor of the same size (ConvNeXt's
// residual adds) stay on oneDNN's jit binary, either way round: oneDNN took
// its reference kernel for mixed layouts. Sub: the order matters, and it is
// no post-op (only adds fuse), so the conv output stays blocked for it.
TEST(KernelChoice, MixedLayoutOperandsStayOnAnOptimizedBinary) {
  for (const bool conv_first : {true, false}) {
    const auto make = [conv_first] {
      Network n;
      auto* c = conv3x3(n, n.add_input("x", DType::Float32, {1, 12, 6, 6}), 12, 9);
      auto* p = n.add_input("p", DType::Float32, {1, 12, 6, 6});
      n.mark_output(conv_first ? n.add_elementwise("sub", c, p, ElementwiseOp::Sub)
                               : n.add_elementwise("sub", p, c, ElementwiseOp::Sub));
      return n;
    };
    expect_engine_matches_reference(make, {}, 1e-5, conv_first ? "conv - plain" : "plain - conv");
    expect_optimized_binary_after_blocked_conv(builder::build(make()));
  }
}

// An inference batch norm of x's `channels` channels with constant
// statistics from `seed` (variances in [0.5, 1.5]).
NetworkTensor* batch_norm(Network& n, NetworkTensor* x, std::int64_t channels, std::uint32_t seed) {
  const Dims vec{channels};
  NormalizationParams bp;
  bp.op = NormalizationOp::Batch;
  return n.add_normalization("bn", x, n.add_constant("gamma", weights(vec, seed)),
                             n.add_constant("beta", weights(vec, seed + 1)), bp,
                             n.add_constant("mean", weights(vec, seed + 2)),
                             n.add_constant("var", random_tensor(DType::Float32, vec, seed + 3, 0.5, 1.5)));
}

// DenseNet's blocks: conv outputs concatenated along channels, a batch norm
// (pre-activation: no conv before it to fold into), relu, the next conv; and
// a one-input concatenation's copy (a same-dtype cast). With whole 16-channel
// blocks (AVX2's nChw8c, or avx512's channels-last) the copy, the
// concatenation and the batch norm keep the convs' layout: no reorder step,
// and no generic plain batch norm (oneDNN's was 5-6x slower). With 12
// channels blocks of 8 do not divide and the plain path may run. Both match
// the reference.
TEST(KernelChoice, DenseBlockStaysBlockedFromConvToConv) {
  for (const std::int64_t channels : {16, 12}) {
    const auto make = [channels] {
      Network n;
      ConvolutionParams cp{{1, 1}, {1, 1}, {1, 1}, {1, 1}, 1};
      const auto conv = [&](const std::string& name, NetworkTensor* x, std::int64_t in, std::uint32_t seed) {
        return n.add_convolution(name, x, n.add_constant(name + ".w", weights({channels, in, 3, 3}, seed)), nullptr, cp);
      };
      auto* c1 = conv("conv1", n.add_input("x", DType::Float32, {1, channels, 6, 6}), channels, 21);
      auto* copy = n.add_cast("copy", c1, DType::Float32);
      auto* c2 = conv("conv2", copy, channels, 22);
      auto* cat = n.add_concatenation("cat", {copy, c2}, 1);
      auto* bn = batch_norm(n, cat, 2 * channels, 23);
      n.mark_output(conv("conv3", n.add_activation("relu", bn, ActivationOp::Relu), 2 * channels, 27));
      return n;
    };
    const std::string what = "dense block, " + std::to_string(channels) + " channels";
    BuilderConfig keep_copies;  // constant folding also removes the copy (builder::remove_identities)
    keep_copies.constant_folding = false;
    expect_engine_matches_reference(make, keep_copies, 1e-5, what);
    if (channels % 16 != 0) continue;
    SCOPED_TRACE(what);
    const auto engine = builder::build(make(), keep_copies);
    int kept_blocked = 0;
    for (const auto& step : engine.steps()) {
      EXPECT_NE(step.kind, "Reorder") << step.name << ": a reorder between layouts";
      if (step.kind == "Cast" || step.kind == "Concatenation" || step.kind == "Normalization") {
        EXPECT_NE(step.output_layout, "plain") << step.name;
        kept_blocked += step.output_layout != "plain";
      }
      if (step.kind == "Normalization") {
        EXPECT_EQ(step.implementation.find("ncsp"), std::string::npos) << step.implementation;
      }
    }
    EXPECT_EQ(kept_blocked, 3) << "the copy, the concatenation and the batch norm are steps of their own";
  }
}

// Batch norm after a conv whose output another layer reads too (so it does
// not fold into the conv; DenseNet's come after concatenations) runs in the conv's layout with the relu after it fused (our own pass): 16
// channels fill blocks, 12 leave padding channels (written zero for the next
// conv); the result goes to another conv (stays blocked) or is the engine's
// output (plain). NaN and ±inf in x reach the batch norm through the conv.
TEST(KernelChoice, BatchNormTakesTheConvsLayoutAndItsRelu) {
  for (const std::int64_t channels : {16, 12}) {
    for (const bool then_conv : {true, false}) {
      const auto make = [channels, then_conv] {
        Network n;
        ConvolutionParams cp{{1, 1}, {1, 1}, {1, 1}, {1, 1}, 1};
        const auto conv = [&](const std::string& name, NetworkTensor* x, std::uint32_t seed) {
          return n.add_convolution(name, x, n.add_constant(name + ".w", weights({channels, channels, 3, 3}, seed)),
                                   nullptr, cp);
        };
        auto* c1 = conv("conv1", n.add_input("x", DType::Float32, {2, channels, 5, 5}), 31);
        auto* relu = n.add_activation("relu", batch_norm(n, c1, channels, 32), ActivationOp::Relu);
        n.mark_output(then_conv ? conv("conv2", relu, 36) : relu);
        n.mark_output(conv("side", c1, 37));  // a second reader of conv1: the batch norm does not fold into it
        return n;
      };
      const std::string what = std::to_string(channels) + " channels, " + (then_conv ? "then a conv" : "an output");
      expect_engine_matches_reference(make, {}, 1e-5, what, [](reference::TensorMap& in) {
        float* x = in["x"].mutable_data<float>();
        x[3] = std::nanf("");
        x[60] = INFINITY;
        x[130] = -INFINITY;
      });
      SCOPED_TRACE(what);
      const auto engine = builder::build(make());
      bool found = false;
      for (const auto& step : engine.steps()) {
        EXPECT_NE(step.kind, "Reorder") << step.name;
        EXPECT_NE(step.kind, "Activation") << step.name << ": the relu is its own step";
        if (step.kind != "Normalization") continue;
        found = true;
        EXPECT_EQ(step.fused.size(), 1u) << "the relu fused into the batch norm";
        EXPECT_EQ(step.output_layout == "plain", !then_conv) << step.output_layout;
      }
      EXPECT_TRUE(found);
    }
  }
}

// An average pooling that counts padding, where torch's right padding is
// more than any window reaches (MaxViT's AvgPool2d(3, 2, padding=1) on an
// even size), runs on oneDNN with the padding it needs: it went to the
// reference kernel. With ceil_mode's extra padding (counted by oneDNN, not
// by torch) it must not take oneDNN; both match the reference.
TEST(KernelChoice, AveragePoolWithUnreachedRightPaddingStaysOnOneDnn) {
  for (const bool ceil : {false, true}) {
    const auto make = [ceil] {
      Network n;
      PoolingParams p;
      p.op = PoolingOp::Average;
      p.kernel = {3, 3};
      p.stride = {2, 2};
      p.padding_pre = {1, 1};
      p.padding_post = {1, 1};
      p.ceil_mode = ceil;
      n.mark_output(n.add_pooling("pool", n.add_input("x", DType::Float32, {1, 8, 8, 8}), p));
      return n;
    };
    expect_engine_matches_reference(make, {}, 1e-6, ceil ? "ceil_mode" : "floor");
    if (ceil) continue;  // the last window reaches 2 past the input: oneDNN would count the extra one
    const auto engine = builder::build(make());
    ASSERT_EQ(engine.steps().size(), 1u);
    EXPECT_EQ(engine.steps()[0].implementation.rfind("onednn:", 0), 0u) << engine.steps()[0].implementation;
  }
}

// A residual add after an activation (EfficientNetV2's conv, silu, add)
// fuses and keeps convolution and matmul on optimized kernels: as a sum
// post-op after an eltwise one, oneDNN's AVX2 kernels refused it and its
// reference kernels ran.
TEST(KernelChoice, ResidualAddAfterAnActivationStaysOnOptimizedKernels) {
  const auto conv = [] {
    Network n;
    auto* x = n.add_input("x", DType::Float32, {1, 16, 8, 8});
    auto* a = n.add_activation("silu", conv3x3(n, x, 16, 10), ActivationOp::Silu);
    n.mark_output(n.add_elementwise("residual", a, x, ElementwiseOp::Add));
    return n;
  };
  const auto matmul = [] {
    Network n;
    auto* x = n.add_input("x", DType::Float32, {16, 32});
    auto* m = n.add_matmul("fc", x, n.add_constant("w", weights({32, 32}, 11)));
    auto* a = n.add_activation("silu", m, ActivationOp::Silu);
    n.mark_output(n.add_elementwise("residual", a, x, ElementwiseOp::Add));
    return n;
  };
  for (const auto& [what, make] : {std::pair{"conv", std::function<Network()>(conv)},
                                   std::pair{"matmul", std::function<Network()>(matmul)}}) {
    expect_engine_matches_reference(make, {}, 1e-5, what);
    auto engine = builder::build(make());
    ASSERT_EQ(engine.steps().size(), 1u) << what << ": activation and residual fused";
    const runtime::StepInfo step = engine.steps()[0];  // steps() returns a copy
    EXPECT_EQ(step.fused.size(), 2u) << what;
    EXPECT_EQ(step.implementation.rfind("onednn:", 0), 0u) << what << ": " << step.implementation;
    EXPECT_EQ(step.implementation.find(":ref"), std::string::npos) << what << ": " << step.implementation;
  }
}

}  // namespace
}  // namespace atenrt::testing
