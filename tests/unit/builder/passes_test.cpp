// Each builder pass on its own, and every fusion: the built engine against
// the unfused reference, plus the legality rules that must block a fusion.
#include <cmath>
#include <cstdlib>

#include <gtest/gtest.h>

#include "resnet_like.h"

namespace atenrt::testing {
namespace {

using namespace atenrt::network;
using builder::BuilderConfig;

Tensor w_(const Dims& d, std::uint32_t seed) { return random_tensor(DType::Float32, d, seed, -0.5, 0.5); }

TEST(ConstantFolding, FoldsConstantSubgraphsAndShape) {
  auto make = [] {
    Network n;
    auto* x = n.add_input("x", DType::Float32, {2, 3});
    auto* a = n.add_constant("a", w_({2, 3}, 1));
    auto* b = n.add_constant("b", w_({3}, 2));
    auto* ab = n.add_elementwise("ab", a, b, ElementwiseOp::Mul);
    auto* e = n.add_unary("e", ab, UnaryOp::Exp);
    auto* s = n.add_shape("s", x);  // static dims: folds too
    auto* sf = n.add_cast("sf", n.add_reduce("sr", s, ReduceOp::Sum, {}, false), DType::Float32);
    n.mark_output(n.add_elementwise("y", n.add_elementwise("xe", x, e, ElementwiseOp::Add), sf, ElementwiseOp::Mul));
    return n;
  };
  Network n = make();
  EXPECT_EQ(builder::fold_constants(n), 5);  // ab, e, s, sr, sf
  builder::remove_dead_layers(n);
  int non_constant = 0;
  for (auto* l : n.layers()) non_constant += l->kind() != LayerKind::Constant;
  EXPECT_EQ(non_constant, 2);
  expect_engine_matches_reference(make, {}, 1e-5, "folded engine");
  BuilderConfig off;
  off.constant_folding = false;
  expect_engine_matches_reference(make, off, 1e-5, "unfolded engine");
}

// A Fill whose shape comes from a constant (an engine file's, untrusted) is
// sized by the value, not the declared dims: folding must check the size it
// would allocate before running the reference kernel (the engine-file fuzzer
// found a dynamic engine whose fold asked std::vector for 2^40 elements).
TEST(ConstantFolding, RefusesAFoldLargerThanTheMemoryLimit) {
  Network n;
  auto* x = n.add_input("x", DType::Float32, {2});
  Tensor shape(DType::Int64, {2});
  shape.mutable_data<std::int64_t>()[0] = std::int64_t{1} << 20;
  shape.mutable_data<std::int64_t>()[1] = std::int64_t{1} << 20;
  auto* f = n.add_fill("huge", FillParams{}, n.add_constant("shape", shape));
  n.mark_output(x);
  n.mark_output(f);
  try {
    builder::fold_constants(n, 64u << 20);
    FAIL() << "folded a 4 TiB fill";
  } catch (const UnsupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("layer 'huge' would be folded into a constant of"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("more than the memory limit"), std::string::npos) << e.what();
  }
  // Within the limit it folds.
  Network small;
  auto* y = small.add_input("y", DType::Float32, {2});
  Tensor s2(DType::Int64, {1});
  s2.mutable_data<std::int64_t>()[0] = 3;
  small.mark_output(y);
  small.mark_output(small.add_fill("f", FillParams{}, small.add_constant("shape", s2)));
  EXPECT_EQ(builder::fold_constants(small, 64u << 20), 1);
}

TEST(DeadLayers, RemovesUnusedLayers) {
  auto make = [] {
    Network n;
    auto* x = n.add_input("x", DType::Float32, {4});
    n.add_unary("unused", n.add_unary("unused_in", x, UnaryOp::Exp), UnaryOp::Log);
    n.mark_output(n.add_unary("y", x, UnaryOp::Neg));
    return n;
  };
  builder::BuildReport report;
  auto engine = builder::build(make(), {}, &report);
  EXPECT_EQ(report.removed_layers, 2);
  EXPECT_EQ(engine.steps().size(), 1u);
  BuilderConfig keep;
  keep.dead_layer_removal = false;
  EXPECT_EQ(builder::build(make(), keep).steps().size(), 3u);
  expect_engine_matches_reference(make, keep, 1e-5, "dead layers kept");
}

// A padding by nothing (torchvision's Swin pads to whole windows) and a cast
// to the same dtype (a one-input torch.cat) copy their input: removed, their
// consumers read the input. A network output that is an input keeps its copy.
TEST(Identities, PaddingByNothingAndSameDtypeCastAreRemoved) {
  const auto make = [] {
    Network n;
    auto* x = n.add_input("x", DType::Float32, {1, 2, 4, 4});
    PaddingParams none;
    none.pre = {0, 0, 0, 0};
    none.post = {0, 0, 0, 0};
    auto* padded = n.add_padding("pad", x, none);
    auto* copied = n.add_cast("copy", padded, DType::Float32);
    n.mark_output(n.add_unary("e", copied, UnaryOp::Exp));
    n.mark_output(n.add_cast("x_again", x, DType::Float32));  // an output that is the input: kept
    return n;
  };
  Network n = make();
  EXPECT_EQ(builder::remove_identities(n), 2);
  builder::remove_dead_layers(n);
  int kept = 0;
  for (auto* l : n.layers()) {
    EXPECT_NE(l->kind(), LayerKind::Padding);
    kept += l->kind() == LayerKind::Cast;
  }
  EXPECT_EQ(kept, 1) << "the output copy of the input stays";
  expect_engine_matches_reference(make, {}, 1e-6, "identities removed");
}

TEST(BatchNormFolding, FoldsIntoConvolution) {
  auto make = [] {
    Network n;
    auto* x = n.add_input("x", DType::Float32, {2, 4, 9, 9});
    n.mark_output(conv_bn(n, "c", x, 4, 8, 3, 1, true, 5));
    return n;
  };
  Network n = make();
  EXPECT_EQ(builder::fold_batchnorm(n), 1);
  builder::BuildReport report;
  auto engine = builder::build(make(), {}, &report);
  EXPECT_EQ(report.folded_batchnorms, 1);
  for (const auto& s : engine.steps()) EXPECT_NE(s.kind, "Normalization") << s.name;
  expect_engine_matches_reference(make, {}, 1e-4, "folded");
  BuilderConfig off;
  off.fold_batchnorm = false;
  auto unfolded = builder::build(make(), off);
  bool has_bn = false;
  for (const auto& s : unfolded.steps()) has_bn = has_bn || s.kind == "Normalization";
  EXPECT_TRUE(has_bn);
}

TEST(BatchNormFolding, NotWhenConvOutputHasAnotherUse) {
  Network n;
  auto* x = n.add_input("x", DType::Float32, {1, 2, 5, 5});
  auto* c = n.add_convolution("c", x, n.add_constant("w", w_({2, 2, 1, 1}, 1)), nullptr,
                              ConvolutionParams{{1, 1}, {0, 0}, {0, 0}, {1, 1}, 1});
  NormalizationParams bn;
  bn.op = NormalizationOp::Batch;
  auto* y = n.add_normalization("bn", c, n.add_constant("g", w_({2}, 2)), n.add_constant("b", w_({2}, 3)), bn,
                                n.add_constant("m", w_({2}, 4)), n.add_constant("v", random_tensor(DType::Float32, {2}, 5, 0.5, 1)));
  n.mark_output(y);
  n.mark_output(c);
  EXPECT_EQ(builder::fold_batchnorm(n), 0);
}

// Atrous convolutions dilated past their input (DeepLab's ASPP: rate 36 on
// a small map) read padding with every tap but the ones trimming keeps; the
// reference runs the untrimmed network, so a match shows the sums are the
// same. Cases: only the centre reads (a 1x1 conv), one dim trimmed and the
// other not (with stride 2 and a bias), nothing to trim, and a NaN in a
// dropped tap (a convolution skips padding: the NaN reaches no output).
TEST(TapTrimming, DropsTapsThatOnlyReadPadding) {
  struct Case {
    const char* what;
    Dims x, kernel, dilation, padding, stride;
    bool bias, nan_in_corner;
    Dims trimmed_kernel;  // empty: not trimmed
  };
  const Case cases[] = {
      {"rate 6 on 5x5", {1, 3, 5, 5}, {3, 3}, {6, 6}, {6, 6}, {1, 1}, false, false, {1, 1}},
      {"rate 5, 5x9, stride 2", {2, 4, 5, 9}, {3, 3}, {5, 5}, {5, 5}, {2, 2}, true, false, {1, 3}},
      {"rate 2 on 9x9", {1, 3, 9, 9}, {3, 3}, {2, 2}, {2, 2}, {1, 1}, true, false, {}},
      {"NaN in a dropped tap", {1, 3, 5, 5}, {3, 3}, {6, 6}, {6, 6}, {1, 1}, false, true, {1, 1}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    const auto make = [&c] {
      Network n;
      auto* x = n.add_input("x", DType::Float32, c.x);
      Tensor w = w_({5, c.x[1], c.kernel[0], c.kernel[1]}, 7);
      if (c.nan_in_corner) w.mutable_data<float>()[0] = std::nanf("");
      auto* b = c.bias ? n.add_constant("b", w_({5}, 8)) : nullptr;
      n.mark_output(n.add_convolution("atrous", x, n.add_constant("w", w), b,
                                      ConvolutionParams{c.stride, c.padding, c.padding, c.dilation, 1}));
      return n;
    };
    Network n = make();
    const Dims out = n.outputs()[0]->dims;
    EXPECT_EQ(builder::trim_padding_taps(n), c.trimmed_kernel.empty() ? 0 : 1);
    builder::remove_dead_layers(n);
    for (auto* l : n.layers()) {
      if (l->kind() != LayerKind::Convolution) continue;
      const Dims& k = l->input(1)->dims;
      EXPECT_EQ(Dims(k.begin() + 2, k.end()), c.trimmed_kernel.empty() ? c.kernel : c.trimmed_kernel);
      EXPECT_EQ(l->output()->dims, out) << "the output keeps its size";
    }
    expect_engine_matches_reference(make, {}, 1e-5, "trimmed engine vs untrimmed reference");
  }
}

TEST(SinkReshapes, ActivationAndResidualAfterAViewOfALinearLayerFuse) {
  // A transformer block's shape: x[1, 6, 8] -> view [6, 8] -> matmul + bias -> view [1, 6, 16] -> relu,
  // then matmul + bias -> view [1, 6, 8] -> + x (residual). The views hid the relu and the residual
  // add from post-op fusion.
  auto make = [] {
    Network n;
    auto* x = n.add_input("x", DType::Float32, {1, 6, 8});
    auto* x2 = n.add_reshape("x2", x, {6, 8});
    auto* h = n.add_elementwise("b1", n.add_matmul("mm1", x2, n.add_constant("w1", w_({8, 16}, 1))),
                                n.add_constant("bias1", w_({16}, 2)), ElementwiseOp::Add);
    auto* r = n.add_activation("relu", n.add_reshape("v1", h, {1, 6, 16}), ActivationOp::Relu);
    auto* r2 = n.add_reshape("v2", r, {6, 16});
    auto* o = n.add_elementwise("b2", n.add_matmul("mm2", r2, n.add_constant("w2", w_({16, 8}, 3))),
                                n.add_constant("bias2", w_({8}, 4)), ElementwiseOp::Add);
    n.mark_output(n.add_elementwise("residual", n.add_reshape("v3", o, {1, 6, 8}), x, ElementwiseOp::Add));
    return n;
  };
  Network n = make();
  EXPECT_EQ(builder::sink_reshapes(n), 2);  // relu and the residual add move above their views
  EXPECT_EQ(builder::collapse_reshapes(n), 1);  // v1 then v2 is the identity
  builder::remove_dead_layers(n);
  auto engine = builder::build(make());
  std::vector<std::string> names;
  for (const auto& s : engine.steps()) names.push_back(s.name);
  // x reshaped, mm1 (+bias, +relu), mm2 (+bias, +residual), the view back to [1, 6, 8].
  EXPECT_EQ(engine.steps().size(), 5u) << ::testing::PrintToString(names);
  std::size_t fused = 0;
  for (const auto& s : engine.steps()) fused += s.fused.size();
  EXPECT_EQ(fused, 4u);
  EXPECT_EQ(engine.steps()[1].fused, (std::vector<std::string>{"b1", "relu"}));
  expect_engine_matches_reference(make, {}, 1e-5, "reshapes sunk");
  BuilderConfig off;
  off.fuse_post_ops = false;
  expect_engine_matches_reference(make, off, 1e-5, "not fused");
}

TEST(FoldTransposes, MatMulReadsATransposedOperandInPlace) {
  // q @ k.transpose(-2, -1), directly and through bmm's reshape of the batch dims.
  auto make = [] {
    Network n;
    auto* q = n.add_input("q", DType::Float32, {2, 4, 8});
    auto* k = n.add_input("k", DType::Float32, {2, 4, 8});
    n.mark_output(n.add_matmul("scores", q, n.add_permute("kt", k, {0, 2, 1})));
    auto* k4 = n.add_input("k4", DType::Float32, {1, 2, 4, 8});
    auto* kt4 = n.add_reshape("kt4_3d", n.add_permute("kt4", k4, {0, 1, 3, 2}), {2, 8, 4});
    n.mark_output(n.add_matmul("scores2", q, kt4));
    return n;
  };
  Network n = make();
  EXPECT_EQ(builder::fold_transposes_into_matmul(n), 2);
  builder::remove_dead_layers(n);
  int shuffles = 0;
  for (auto* l : n.layers()) shuffles += l->kind() == LayerKind::Shuffle && l->params_as<ShuffleParams>().first_perm.size();
  EXPECT_EQ(shuffles, 0);  // only the leading-dims reshape of k4 remains, no permutation
  ASSERT_NE(n.find_layer("scores"), nullptr);
  EXPECT_TRUE(n.find_layer("scores")->params_as<MatMulParams>().transpose_b);
  expect_engine_matches_reference(make, {}, 1e-5, "transposes folded");
  BuilderConfig off;
  off.fuse_post_ops = false;
  expect_engine_matches_reference(make, off, 1e-5, "not folded");
}

// ---- fusions: (name, network, fused layers expected in the single step)
struct FusionCase {
  std::string name;
  std::function<Network()> make;
  std::size_t steps;                // steps after fusion
  std::vector<std::string> fused;   // of the first step
};

NetworkTensor* conv(Network& n, NetworkTensor* x, std::int64_t cin, std::int64_t cout, std::uint32_t seed) {
  return n.add_convolution("conv" + std::to_string(seed), x, n.add_constant("w" + std::to_string(seed), w_({cout, cin, 3, 3}, seed)),
                           n.add_constant("b" + std::to_string(seed), w_({cout}, seed + 1)),
                           ConvolutionParams{{1, 1}, {1, 1}, {1, 1}, {1, 1}, 1});
}

std::vector<FusionCase> fusion_cases() {
  std::vector<FusionCase> out;
  for (int op = 0; op < kActivationOpCount; ++op) {
    const auto a = static_cast<ActivationOp>(op);
    double alpha = 0.1, beta = 0.0;  // softplus too: the runtime applies it after the conv
    if (a == ActivationOp::Softplus) alpha = 2.0, beta = 20.0;
    if (a == ActivationOp::Clip) alpha = -0.5, beta = 0.7;
    if (a == ActivationOp::HardSigmoid) alpha = 1.0 / 6, beta = 0.5;
    out.push_back({"conv_" + std::string(activation_op_name(a)), [=] {
                     Network n;
                     auto* x = n.add_input("x", DType::Float32, {1, 8, 6, 6});
                     n.mark_output(n.add_activation("act", conv(n, x, 8, 16, 1), a, alpha, beta));
                     return n;
                   }, 1, {"act"}});
  }
  // clip runs as the runtime's own pass after the primitive (oneDNN's drops
  // NaN): a residual add after it must stay a separate step.
  out.push_back({"conv_clip_then_add_not_fused", [] {
                   Network n;
                   auto* x = n.add_input("x", DType::Float32, {2, 16, 7, 7});
                   auto* r = n.add_activation("clip", conv(n, x, 16, 16, 1), ActivationOp::Clip, 0.0, 6.0);
                   n.mark_output(n.add_elementwise("add", r, x, ElementwiseOp::Add));
                   return n;
                 }, 2, {"clip"}});
  // relu is a NaN-exact oneDNN post-op chain, so the add after it fuses too.
  out.push_back({"conv_relu_then_add_fused", [] {
                   Network n;
                   auto* x = n.add_input("x", DType::Float32, {2, 16, 7, 7});
                   auto* r = n.add_activation("relu", conv(n, x, 16, 16, 1), ActivationOp::Relu);
                   n.mark_output(n.add_elementwise("add", r, x, ElementwiseOp::Add));
                   return n;
                 }, 1, {"relu", "add"}});
  out.push_back({"conv_residual_relu", [] {
                   Network n;
                   auto* x = n.add_input("x", DType::Float32, {2, 16, 7, 7});
                   auto* s = n.add_elementwise("add", conv(n, x, 16, 16, 1), x, ElementwiseOp::Add);
                   n.mark_output(n.add_activation("relu", s, ActivationOp::Relu));
                   return n;
                 }, 1, {"add", "relu"}});
  out.push_back({"conv_bias_add_broadcast", [] {
                   Network n;
                   auto* x = n.add_input("x", DType::Float32, {1, 8, 5, 5});
                   auto* b = n.add_constant("cb", w_({8, 1, 1}, 9));
                   n.mark_output(n.add_elementwise("bias", b, conv(n, x, 8, 8, 1), ElementwiseOp::Add));
                   return n;
                 }, 1, {"bias"}});
  out.push_back({"residual_from_later_step", [] {
                   // the add's other operand is produced after the first conv: the
                   // fused conv must move to the add's position
                   Network n;
                   auto* x = n.add_input("x", DType::Float32, {1, 8, 6, 6});
                   auto* a = conv(n, x, 8, 8, 1);
                   auto* b = conv(n, x, 8, 8, 3);
                   n.mark_output(n.add_elementwise("add", a, b, ElementwiseOp::Add));
                   return n;
                 }, 2, {}});
  out.push_back({"matmul_bias_gelu", [] {
                   Network n;
                   auto* x = n.add_input("x", DType::Float32, {2, 5, 32});
                   auto* m = n.add_matmul("mm", x, n.add_constant("w", w_({32, 48}, 1)));
                   auto* b = n.add_elementwise("bias", m, n.add_constant("b", w_({48}, 2)), ElementwiseOp::Add);
                   n.mark_output(n.add_activation("gelu", b, ActivationOp::GeluErf));
                   return n;
                 }, 1, {"bias", "gelu"}});
  out.push_back({"matmul_residual", [] {
                   Network n;
                   auto* x = n.add_input("x", DType::Float32, {6, 24});
                   auto* m = n.add_matmul("mm", x, n.add_constant("w", w_({24, 24}, 1)));
                   n.mark_output(n.add_elementwise("res", x, m, ElementwiseOp::Add));
                   return n;
                 }, 1, {"res"}});
  out.push_back({"deconv_relu", [] {
                   Network n;
                   auto* x = n.add_input("x", DType::Float32, {1, 4, 5, 5});
                   auto* d = n.add_deconvolution("dc", x, n.add_constant("w", w_({4, 6, 2, 2}, 1)), nullptr,
                                                 DeconvolutionParams{{2, 2}, {0, 0}, {0, 0}, {1, 1}, {0, 0}, 1});
                   n.mark_output(n.add_activation("relu", d, ActivationOp::Relu));
                   return n;
                 }, 1, {"relu"}});
  // legality: conv output also a network output → nothing fused
  out.push_back({"blocked_by_output", [] {
                   Network n;
                   auto* x = n.add_input("x", DType::Float32, {1, 4, 5, 5});
                   auto* c = conv(n, x, 4, 4, 1);
                   n.mark_output(c);
                   n.mark_output(n.add_activation("relu", c, ActivationOp::Relu));
                   return n;
                 }, 2, {}});
  // legality: conv output used twice → nothing fused
  out.push_back({"blocked_by_second_use", [] {
                   Network n;
                   auto* x = n.add_input("x", DType::Float32, {1, 4, 5, 5});
                   auto* c = conv(n, x, 4, 4, 1);
                   auto* r = n.add_activation("relu", c, ActivationOp::Relu);
                   n.mark_output(n.add_elementwise("mul", r, c, ElementwiseOp::Mul));
                   return n;
                 }, 3, {}});
  // legality: the add would broadcast the conv output itself → not fused
  out.push_back({"blocked_by_broadcast_of_output", [] {
                   Network n;
                   auto* x = n.add_input("x", DType::Float32, {1, 4, 5, 5});
                   auto* y = n.add_input("y", DType::Float32, {3, 4, 5, 5});
                   n.mark_output(n.add_elementwise("add", conv(n, x, 4, 4, 1), y, ElementwiseOp::Add));
                   return n;
                 }, 2, {}});
  return out;
}

class Fusions : public ::testing::TestWithParam<FusionCase> {};

TEST_P(Fusions, FusedEngineMatchesUnfusedReference) {
  const auto& c = GetParam();
  auto engine = builder::build(c.make());
  const auto steps = engine.steps();
  ASSERT_EQ(steps.size(), c.steps);
  if (!c.fused.empty()) {
    EXPECT_EQ(steps[0].fused, c.fused);
  }
  if (c.name == "residual_from_later_step") {
    EXPECT_EQ(steps[1].fused, std::vector<std::string>{"add"});
  }
  expect_engine_matches_reference(c.make, {}, 1e-4, c.name);
  BuilderConfig off;
  off.fuse_post_ops = false;
  expect_engine_matches_reference(c.make, off, 1e-4, c.name + " (unfused)");
}

INSTANTIATE_TEST_SUITE_P(Table, Fusions, ::testing::ValuesIn(fusion_cases()),
                         [](const ::testing::TestParamInfo<FusionCase>& info) { return info.param.name; });

// A backend that takes post-ops on every conv but no Add: the builder fuses
// only what the backend says, and nothing at all for a backend that takes none.
class ActivationsOnly final : public runtime::Backend {
 public:
  explicit ActivationsOnly(bool takes) : takes_(takes) {}
  std::string_view name() const override { return "test"; }
  bool takes_post_ops(const runtime::Program&, const runtime::Step& step) const override {
    return takes_ && step.kind() == LayerKind::Convolution;
  }
  bool can_append_post_op(const runtime::Program&, const runtime::Step&, const runtime::PostOp& op,
                          int) const override {
    return op.kind == runtime::PostOpKind::Activation;
  }
  std::string precision_unavailable(runtime::Precision) const override { return {}; }

 private:
  bool takes_;
};

TEST(Fusion, FusesOnlyWhatTheBackendTakes) {
  auto make = [] {
    Network n;
    auto* x = n.add_input("x", DType::Float32, {2, 16, 7, 7});
    auto* r = n.add_activation("relu", conv(n, x, 16, 16, 1), ActivationOp::Relu);
    n.mark_output(n.add_elementwise("add", r, x, ElementwiseOp::Add));
    return n;
  };
  auto fused = builder::to_program(make());
  EXPECT_EQ(builder::fuse_post_ops(fused, ActivationsOnly(true)),
            std::vector<std::string>{"activation: relu into conv1"});
  ASSERT_EQ(fused.steps.size(), 2u);
  ASSERT_EQ(fused.steps[0].post_ops.size(), 1u);
  EXPECT_EQ(fused.steps[0].post_ops[0].fused_layer, "relu");
  auto none = builder::to_program(make());
  EXPECT_TRUE(builder::fuse_post_ops(none, ActivationsOnly(false)).empty());
  EXPECT_EQ(none.steps.size(), 3u);
  auto cpu = builder::to_program(make());
  EXPECT_EQ(builder::fuse_post_ops(cpu).size(), 2u);  // the CPU backend takes relu and the add
}

TEST(Layout, ConvChainsStayBlocked) {
  auto make = [] {
    Network n;
    auto* x = n.add_input("x", DType::Float32, {1, 16, 12, 12});
    auto* a = n.add_activation("r1", conv(n, x, 16, 32, 1), ActivationOp::Relu);
    auto* b = conv(n, a, 32, 32, 3);
    n.mark_output(conv(n, b, 32, 16, 5));
    return n;
  };
  auto engine = builder::build(make());
  const auto steps = engine.steps();
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_NE(steps[0].output_layout, "plain");  // between convs: oneDNN's blocked format
  EXPECT_NE(steps[1].output_layout, "plain");
  EXPECT_EQ(steps[2].output_layout, "plain");  // network output
  expect_engine_matches_reference(make, {}, 1e-4, "blocked");
  BuilderConfig plain;
  plain.engine.blocked_layout = false;
  for (const auto& s : builder::build(make(), plain).steps()) EXPECT_EQ(s.output_layout, "plain");
  expect_engine_matches_reference(make, plain, 1e-4, "plain");
}

TEST(Layout, WeightPrepackingOffGivesSameResults) {
  BuilderConfig off;
  off.engine.prepack_weights = false;
  expect_engine_matches_reference([] { return resnet_like(); }, off, 1e-4, "no prepacking");
}

// The CPU backend's answer, the one the builder uses: bf16 where this CPU
// has bf16 instructions (avx512_bf16, AMX), fp32 elsewhere (avx2).
bool native_bf16() { return runtime::cpu_backend().precision_unavailable(runtime::Precision::BFloat16).empty(); }

runtime::Engine build_bf16(Network net) {
  BuilderConfig bf16;
  bf16.precision = runtime::Precision::BFloat16;
  return builder::build(std::move(net), bf16);
}

// ctest runs this suite a second time under ONEDNN_MAX_CPU_ISA=AVX2 with
// ATENRT_TEST_NO_NATIVE_BF16=1: there the fp32 fallback must be what ran.
TEST(Precision, ForcedAvx2HasNoNativeBf16) {
  if (!std::getenv("ATENRT_TEST_NO_NATIVE_BF16")) GTEST_SKIP() << "only under ONEDNN_MAX_CPU_ISA=AVX2 (ctest)";
  EXPECT_FALSE(native_bf16());
}

TEST(Precision, BFloat16ComputeForConvAndMatmul) {
  BuilderConfig bf16;
  bf16.precision = runtime::Precision::BFloat16;
  builder::BuildReport report;
  auto engine = builder::build(resnet_like(), bf16, &report);
  const bool native = native_bf16();
  for (const auto& s : engine.steps()) {
    const bool heavy = s.kind == "Convolution" || s.kind == "MatMul";
    EXPECT_EQ(s.precision, heavy && native ? runtime::Precision::BFloat16 : runtime::Precision::Float32) << s.name;
    EXPECT_EQ(s.implementation.find("reference"), std::string::npos) << s.name << ": " << s.implementation;
  }
  if (native) {
    EXPECT_EQ(report.precision_note, "");
  } else {
    EXPECT_NE(report.precision_note.find("bf16 requested but this CPU ("), std::string::npos) << report.precision_note;
    EXPECT_NE(report.precision_note.find("layers stay fp32"), std::string::npos) << report.precision_note;
  }
  // bf16 keeps 8 mantissa bits (2^-9 relative per rounding): compare at the
  // scale of the output, within 1e-2 of max(1, max |reference|); fp32 within 1e-4.
  Network ref = resnet_like();
  auto inputs = random_inputs(ref);
  const auto want = reference::run(ref, inputs).at("logits");
  auto ctx = engine.create_context();
  const auto got = ctx.run(inputs).at("logits");
  double scale = 1.0, worst = 0.0;
  for (std::int64_t i = 0; i < want.numel(); ++i) scale = std::max(scale, std::fabs(double(want.data<float>()[i])));
  for (std::int64_t i = 0; i < want.numel(); ++i) {
    worst = std::max(worst, std::fabs(double(got.data<float>()[i]) - want.data<float>()[i]));
  }
  if (native) {
    EXPECT_LE(worst, 1e-2 * scale);
    EXPECT_GT(worst, 0.0);  // really computed in bf16
  } else {
    EXPECT_LE(worst, 1e-4 * scale);  // fp32's answer
  }
}

// Compares a bf16 engine's output with the float32 reference: NaN and ±inf
// where the reference has them (odd: it has some), finite values within
// bf16's error, and not exactly (it really computed in bf16).
void expect_bf16_result(const Tensor& want, const Tensor& got, bool odd) {
  ASSERT_EQ(want.numel(), got.numel());
  double scale = 0.0, worst = 0.0;
  int odd_values = 0;
  for (std::int64_t i = 0; i < want.numel(); ++i) {
    const float w = want.data<float>()[i], g = got.data<float>()[i];
    ASSERT_EQ(std::isnan(w), std::isnan(g)) << "at " << i << ": " << g << " vs " << w;
    ASSERT_EQ(std::isinf(w), std::isinf(g)) << "at " << i << ": " << g << " vs " << w;
    if (!std::isfinite(w)) {
      ++odd_values;
      if (std::isinf(w)) {
        EXPECT_EQ(w, g) << "at " << i;
      }
      continue;
    }
    scale = std::max(scale, std::fabs(double(w)));
    worst = std::max(worst, std::fabs(double(g) - w));
  }
  EXPECT_EQ(odd_values > 0, odd);
  EXPECT_LE(worst, 3e-2 * scale);
  EXPECT_GT(worst, 0.0);
}

// The engine against the float32 reference `ref` on random x (from `seed`),
// then on the same x with `odd` (index -> NaN or ±inf) written into it.
void expect_bf16_with_finite_and_odd_x(runtime::Engine& engine, const Network& ref, std::uint32_t seed,
                                       const std::vector<std::pair<int, float>>& odd) {
  auto ctx = engine.create_context();
  for (const bool with_odd : {false, true}) {
    SCOPED_TRACE(with_odd ? "NaN or inf in x" : "finite x");
    auto inputs = random_inputs(ref, seed);
    if (with_odd) {
      float* x = inputs["x"].mutable_data<float>();
      for (const auto& [i, v] : odd) x[i] = v;
    }
    expect_bf16_result(reference::run(ref, inputs).begin()->second, ctx.run(inputs).begin()->second, with_odd);
  }
}

// The first `count` steps store their results in bf16.
void expect_bf16_results(const std::vector<runtime::StepInfo>& steps, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    EXPECT_NE(steps[i].output_layout.find(" bf16"), std::string::npos) << steps[i].name << ": " << steps[i].output_layout;
  }
}

// bf16 activations: between bf16 convolutions (a clip after the first two,
// as MobileNet's relu6; a residual add into the third) the tensors are stored
// in bf16, and only the engine's output is float32. NaN and ±inf in x go the
// exact way (the clip's finite form checks the bf16 source) and land where
// the float32 reference puts them; finite values within bf16's error.
TEST(Precision, Bf16ActivationsStayBf16BetweenConvs) {
  if (!native_bf16()) GTEST_SKIP() << "no bf16 kernels on this CPU: bf16 builds are fp32";
  const auto make = [] {
    Network n;
    auto* x = n.add_input("x", DType::Float32, {1, 16, 12, 12});
    auto* a = n.add_activation("clip_a", conv(n, x, 16, 32, 61), ActivationOp::Clip, 0.0, 6.0);
    auto* b = n.add_activation("clip_b", conv(n, a, 32, 32, 62), ActivationOp::Clip, 0.0, 6.0);
    auto* c = n.add_elementwise("residual", conv(n, b, 32, 32, 63), a, ElementwiseOp::Add);
    n.mark_output(conv(n, c, 32, 16, 64));
    return n;
  };
  auto engine = build_bf16(make());
  const auto steps = engine.steps();
  ASSERT_EQ(steps.size(), 4u);
  expect_bf16_results(steps, 3);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(steps[i].precision, runtime::Precision::BFloat16) << steps[i].name;
  EXPECT_EQ(steps[3].output_layout, "plain");
  expect_bf16_with_finite_and_odd_x(engine, make(), 1, {{5, std::nanf("")}, {700, INFINITY}, {1500, -INFINITY}});
}

// ResNet's stem: a bf16 convolution, relu, 3x3/2 max pooling, read by the
// next convolution and by its residual add. The pooling passes bf16 through
// (the max of bf16 values is one of them), so the stem writes bf16 too; NaN
// and -inf in x reach the pooling, whose NaN repair then reads bf16.
TEST(Precision, Bf16ActivationsPassThroughMaxPooling) {
  if (!native_bf16()) GTEST_SKIP() << "no bf16 kernels on this CPU: bf16 builds are fp32";
  const auto make = [] {
    Network n;
    auto* x = n.add_input("x", DType::Float32, {1, 16, 12, 12});
    auto* a = n.add_activation("relu_a", conv(n, x, 16, 32, 91), ActivationOp::Relu);
    network::PoolingParams pool;
    pool.op = network::PoolingOp::Max;
    pool.kernel = {3, 3};
    pool.stride = {2, 2};
    pool.padding_pre = pool.padding_post = {1, 1};
    auto* p = n.add_pooling("pool", a, pool);
    auto* b = n.add_elementwise("residual", conv(n, p, 32, 32, 92), p, ElementwiseOp::Add);
    n.mark_output(conv(n, b, 32, 16, 93));
    return n;
  };
  auto engine = build_bf16(make());
  const auto steps = engine.steps();
  ASSERT_EQ(steps.size(), 4u);
  EXPECT_EQ(steps[1].kind, "Pooling");
  expect_bf16_results(steps, 3);
  expect_bf16_with_finite_and_odd_x(engine, make(), 5, {{5, std::nanf("")}, {900, -INFINITY}});
}

// A squeeze-excitation gate between bf16 convolutions (EfficientNet's
// x * sigmoid(conv(mean(x)))): the mean and the gate read the convolution's
// bf16 result, and the gate writes bf16 for the convolution after it.
TEST(Precision, Bf16ActivationsFlowThroughASqueezeExcitationGate) {
  if (!native_bf16()) GTEST_SKIP() << "no bf16 kernels on this CPU: bf16 builds are fp32";
  const auto make = [] {
    Network n;
    auto* x = n.add_input("x", DType::Float32, {1, 16, 12, 12});
    auto* a = n.add_activation("silu_a", conv(n, x, 16, 32, 71), ActivationOp::Silu);
    auto* m = n.add_reduce("mean", a, ReduceOp::Mean, {2, 3}, true);
    auto* g = n.add_activation("gate", conv(n, m, 32, 32, 72), ActivationOp::Sigmoid);
    auto* y = n.add_elementwise("scaled", a, g, ElementwiseOp::Mul);
    n.mark_output(conv(n, y, 32, 16, 73));
    return n;
  };
  auto engine = build_bf16(make());
  std::map<std::string, std::string> layout;
  for (const auto& s : engine.steps()) layout[s.kind] += s.output_layout + ";";
  EXPECT_NE(layout["Convolution"].find(" bf16;"), std::string::npos) << layout["Convolution"];  // the gated one
  EXPECT_NE(layout["Elementwise"].find(" bf16"), std::string::npos) << layout["Elementwise"];
  EXPECT_EQ(layout["Reduce"].find("bf16"), std::string::npos) << layout["Reduce"];  // its reader computes in bf16, it not
  auto ctx = engine.create_context();
  Network ref = make();
  for (std::uint32_t seed : {1u, 2u}) {
    auto inputs = random_inputs(ref, seed);
    expect_bf16_result(reference::run(ref, inputs).begin()->second, ctx.run(inputs).begin()->second, false);
  }
}

// Two bf16 convolutions multiplied, the product read by a float32 step:
// oneDNN's jit binary wants src0 and dst of one type, so the convolutions
// write float32 for it (bf16 inputs with a float32 result sent the product
// to our plain kernel behind two reorders).
TEST(Precision, AFloat32ElementwiseResultKeepsItsInputsFloat32) {
  if (!native_bf16()) GTEST_SKIP() << "no bf16 kernels on this CPU: bf16 builds are fp32";
  const auto make = [] {
    Network n;
    auto* x = n.add_input("x", DType::Float32, {1, 16, 12, 12});
    auto* y = n.add_elementwise("product", conv(n, x, 16, 32, 81), conv(n, x, 16, 32, 82), ElementwiseOp::Mul);
    n.mark_output(n.add_activation("gate", y, ActivationOp::Sigmoid));
    return n;
  };
  auto engine = build_bf16(make());
  for (const auto& s : engine.steps()) {
    EXPECT_NE(s.kind, "Reorder") << s.name;
    EXPECT_EQ(s.output_layout.find("bf16"), std::string::npos) << s.name << ": " << s.output_layout;
    if (s.kind == "Elementwise") {
      EXPECT_EQ(s.implementation.rfind("onednn:", 0), 0u) << s.implementation;
    }
  }
  auto ctx = engine.create_context();
  Network ref = make();
  const auto inputs = random_inputs(ref);
  expect_bf16_result(reference::run(ref, inputs).begin()->second, ctx.run(inputs).begin()->second, false);
}

// A backend without fast bf16 kernels: conv and matmul stay fp32 and the
// builder says why, whatever this CPU has.
class NoBf16 final : public runtime::Backend {
 public:
  std::string_view name() const override { return "no-bf16"; }
  bool takes_post_ops(const runtime::Program&, const runtime::Step&) const override { return false; }
  bool can_append_post_op(const runtime::Program&, const runtime::Step&, const runtime::PostOp&, int) const override {
    return false;
  }
  std::string precision_unavailable(runtime::Precision p) const override {
    return p == runtime::Precision::BFloat16 ? "no bf16 here" : "";
  }
};

TEST(Precision, StepsStayFp32WhereTheBackendHasNoKernels) {
  auto prog = builder::to_program(resnet_like());
  EXPECT_EQ(builder::set_precision(prog, runtime::Precision::BFloat16, NoBf16()), "no bf16 here");
  int heavy = 0;
  for (const auto& s : prog.steps) {
    heavy += s.kind() == LayerKind::Convolution || s.kind() == LayerKind::MatMul;
    EXPECT_EQ(s.precision, runtime::Precision::Float32) << s.name;
  }
  EXPECT_GT(heavy, 0);
  EXPECT_EQ(builder::set_precision(prog, runtime::Precision::Float32, NoBf16()), "");
}

TEST(ResNetLike, WholeNetworkMatchesReference) {
  builder::BuildReport report;
  auto engine = builder::build(resnet_like(), {}, &report);
  EXPECT_EQ(report.folded_batchnorms, 10);
  EXPECT_FALSE(report.fusions.empty());
  expect_engine_matches_reference([] { return resnet_like(2); }, {}, 1e-4, "resnet-like batch 2");
}

}  // namespace
}  // namespace atenrt::testing
