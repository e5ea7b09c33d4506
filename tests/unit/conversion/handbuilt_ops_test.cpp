// Ops that torch 1.13 cannot export (torch >= 2.1 spellings, data-dependent
// shapes), evaluators and validator refusals, on hand-built graphs with
// hand-computed expectations.
#include <gtest/gtest.h>

#include <cmath>

#include "atenrt/errors.h"
#include "conversion/context.h"
#include "conversion/host_tensor.h"
#include "conversion/registry.h"
#include "evaluator_chain.h"
#include "support/graph_builder.h"
#include "support/reference_run.h"

namespace atenrt::conversion {
namespace {

using testing::GraphBuilder;
using A = GraphBuilder;

Tensor f32(std::vector<std::int64_t> sizes, std::vector<double> v) { return tensor_from(DType::Float32, sizes, v); }

std::vector<Tensor> run(const ir::Graph& g, const std::vector<Tensor>& inputs) {
  return testing::run_on_reference(g, inputs);
}

void expect_near(const Tensor& t, const std::vector<double>& want, double tol = 1e-5) {
  ASSERT_EQ(t.numel(), static_cast<std::int64_t>(want.size()));
  const Tensor c = t.contiguous();
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(element_as_double(c, static_cast<std::int64_t>(i)), want[i], tol) << i;
}

std::string refusal(const ir::Graph& g) {
  try {
    convert_graph(g);
  } catch (const UnsupportedError& e) {
    return e.what();
  }
  return "";
}

TEST(HandBuilt, PreluKernel) {
  GraphBuilder b;
  b.input("x", DType::Float32, {2, 3});
  b.weight("w", f32({1, 3}, {0.1, 0.2, 0.3}));
  b.node("prelu", "aten._prelu_kernel.default", {A::arg("self", A::t("x")), A::arg("weight", A::t("w"))},
         DType::Float32, {2, 3});
  b.output("prelu");
  auto out = run(b.g, {f32({2, 3}, {-1, 2, -3, 4, -5, 6})});
  expect_near(out[0], {-0.1, 2, -0.9, 4, -1.0, 6});
}

// item() / _local_scalar_dense (torch 2.x exports of `.item()`): a run-time
// number that Python operators and scalar_tensor consume; a constant's item
// folds to a number. out0 = scalar_tensor(sum(x).item() * 2); out1 = full([2], w.item() + 1).
TEST(HandBuilt, ItemOfARunTimeAndAConstantTensor) {
  GraphBuilder b;
  b.input("x", DType::Float32, {2, 3});
  b.weight("w", f32({1}, {0.25}));
  b.node("sum", "aten.sum.default", {A::arg("self", A::t("x")), A::arg("dtype", ir::None{})}, DType::Float32, {});
  auto scalar_node = [&](const std::string& name, const std::string& target, std::vector<ir::NamedArgument> args) {
    ir::Node n;
    n.name = name;
    n.target = ir::OpName::parse(target);
    n.inputs = std::move(args);
    n.outputs.push_back(ir::SymFloatRef{name});
    b.g.nodes.push_back(std::move(n));
    return ir::Argument(ir::SymFloatRef{name});
  };
  const auto item = scalar_node("item", "aten._local_scalar_dense.default", {A::arg("self", A::t("sum"))});
  const auto twice = scalar_node("twice", "_operator.mul", {A::arg("a", item), A::arg("b", std::int64_t{2})});
  b.node("out", "aten.scalar_tensor.default", {A::arg("s", twice), A::arg("dtype", ir::ScalarTypeArg{DType::Float32, 6})},
         DType::Float32, {});
  const auto w = scalar_node("w_item", "aten.item.default", {A::arg("self", A::t("w"))});
  const auto w1 = scalar_node("w_plus", "_operator.add", {A::arg("a", w), A::arg("b", std::int64_t{1})});
  b.node("filled", "aten.full.default", {A::arg("size", ir::IntList{2}), A::arg("fill_value", w1),
                                          A::arg("dtype", ir::ScalarTypeArg{DType::Float32, 6})},
         DType::Float32, {2});
  b.output("out");
  b.output("filled");
  auto out = run(b.g, {f32({2, 3}, {1, 2, 3, 4, 5, 6.5})});
  expect_near(out[0], {43});
  expect_near(out[1], {1.25, 1.25});
  // A tensor that may hold more than one element is refused, naming why.
  GraphBuilder wide;
  wide.input("x", DType::Float32, {2});
  ir::Node n;
  n.name = "item";
  n.target = ir::OpName::parse("aten.item.default");
  n.inputs = {A::arg("self", A::t("x"))};
  n.outputs = {ir::SymFloatRef{"item"}};
  wide.g.nodes.push_back(n);
  wide.node("out", "aten.scalar_tensor.default", {A::arg("s", ir::SymFloatRef{"item"})}, DType::Float32, {});
  wide.output("out");
  EXPECT_NE(refusal(wide.g).find("may not hold exactly one element"), std::string::npos) << refusal(wide.g);
}

TEST(HandBuilt, BatchNormLegitNoTraining) {
  GraphBuilder b;
  b.input("x", DType::Float32, {1, 2, 1, 2});
  b.weight("w", f32({2}, {2, 1}));
  b.weight("bias", f32({2}, {0, 1}));
  b.weight("mean", f32({2}, {1, 0}));
  b.weight("var", f32({2}, {4, 1}));
  ir::Node n;
  n.name = "bn";
  n.target = ir::OpName::parse("aten._native_batch_norm_legit_no_training.default");
  n.inputs = {A::arg("input", A::t("x")), A::arg("weight", A::t("w")), A::arg("bias", A::t("bias")),
              A::arg("running_mean", A::t("mean")), A::arg("running_var", A::t("var")),
              A::arg("momentum", 0.1), A::arg("eps", 0.0)};
  n.outputs = {ir::TensorRef{"bn_0"}, ir::TensorRef{"bn_unused_1"}, ir::TensorRef{"bn_unused_2"}};
  b.meta("bn_0", DType::Float32, {1, 2, 1, 2});
  b.g.nodes.push_back(n);
  b.output("bn_0");
  auto out = run(b.g, {f32({1, 2, 1, 2}, {3, 5, 2, -2})});
  // (x - mean) / sqrt(var) * w + b
  expect_near(out[0], {2, 4, 3, -1});
}

TEST(HandBuilt, ScaledDotProductAttentionCausal) {
  GraphBuilder b;
  b.input("q", DType::Float32, {1, 2, 1});
  b.input("k", DType::Float32, {1, 2, 1});
  b.input("v", DType::Float32, {1, 2, 1});
  b.node("sdpa", "aten.scaled_dot_product_attention.default",
         {A::arg("query", A::t("q")), A::arg("key", A::t("k")), A::arg("value", A::t("v")), A::arg("attn_mask", ir::None{}),
          A::arg("dropout_p", 0.0), A::arg("is_causal", true), A::arg("scale", ir::None{})},
         DType::Float32, {1, 2, 1});
  b.output("sdpa");
  auto out = run(b.g, {f32({1, 2, 1}, {1, 1}), f32({1, 2, 1}, {0, 1}), f32({1, 2, 1}, {10, 20})});
  // Row 0 sees only key 0; row 1: softmax([0, 1]) over values [10, 20].
  const double p1 = std::exp(1.0) / (1.0 + std::exp(1.0));
  expect_near(out[0], {10, 10 * (1 - p1) + 20 * p1}, 1e-4);
}

TEST(HandBuilt, SdpaWithDropoutIsRefused) {
  GraphBuilder b;
  b.input("q", DType::Float32, {1, 2, 4});
  b.node("sdpa", "aten.scaled_dot_product_attention.default",
         {A::arg("query", A::t("q")), A::arg("key", A::t("q")), A::arg("value", A::t("q")), A::arg("attn_mask", ir::None{}),
          A::arg("dropout_p", 0.1), A::arg("is_causal", false), A::arg("scale", ir::None{})},
         DType::Float32, {1, 2, 4});
  b.output("sdpa");
  EXPECT_NE(refusal(b.g).find("dropout_p > 0"), std::string::npos);
}

TEST(HandBuilt, SqueezeDimsAndAnyDims) {
  GraphBuilder b;
  b.input("x", DType::Bool, {2, 1, 3, 1});
  b.node("sq", "aten.squeeze.dims", {A::arg("self", A::t("x")), A::arg("dim", ir::IntList{1, -1})}, DType::Bool, {2, 3});
  b.node("any", "aten.any.dims", {A::arg("self", A::t("sq")), A::arg("dim", ir::IntList{-1}), A::arg("keepdim", false)},
         DType::Bool, {2});
  b.output("any");
  Tensor x(DType::Bool, {2, 1, 3, 1});
  set_element_int(x, 4, 1);
  auto out = run(b.g, {x});
  EXPECT_EQ(element_as_int(out[0], 0), 0);
  EXPECT_EQ(element_as_int(out[0], 1), 1);
}

TEST(HandBuilt, SymSizeArithmeticFeedsAView) {
  // view(x, [sym_size(x, 0) * 3]) with static sizes folds to a constant shape.
  GraphBuilder b;
  b.input("x", DType::Float32, {2, 3});
  ir::Node size;
  size.name = "sym_size_int";
  size.target = ir::OpName::parse("aten.sym_size.int");
  size.inputs = {A::arg("self", A::t("x")), A::arg("dim", std::int64_t{0})};
  size.outputs = {ir::SymInt::named("s0")};
  b.g.nodes.push_back(size);
  ir::Node mul;
  mul.name = "mul";
  mul.target = ir::OpName::parse("_operator.mul");
  mul.target = ir::OpName{"operator", "mul", ""};
  mul.inputs = {A::arg("a", ir::SymInt::named("s0")), A::arg("b", std::int64_t{3})};
  mul.outputs = {ir::SymInt::named("s1")};
  b.g.nodes.push_back(mul);
  b.node("view", "aten.view.default", {A::arg("self", A::t("x")), A::arg("size", ir::SymIntList{ir::SymInt::named("s1")})},
         DType::Float32, {6});
  b.output("view");
  auto out = run(b.g, {f32({2, 3}, {1, 2, 3, 4, 5, 6})});
  EXPECT_EQ(out[0].sizes(), (std::vector<std::int64_t>{6}));
  expect_near(out[0], {1, 2, 3, 4, 5, 6});
}

TEST(HandBuilt, EveryEvaluatorFoldsAsPythonWould) {
  const auto chain = testing::evaluator_chain();
  std::vector<double> iota(24);
  for (std::size_t i = 0; i < iota.size(); ++i) iota[i] = static_cast<double>(i);
  auto out = run(chain.graph, {f32({2, 3, 4}, iota)});
  ASSERT_EQ(out.size(), 2 + chain.comparisons.size());
  EXPECT_EQ(out[0].sizes(), (std::vector<std::int64_t>{2, 4}));
  expect_near(out[0], std::vector<double>(8, 8.0));
  for (std::size_t i = 0; i < chain.comparisons.size(); ++i) {
    SCOPED_TRACE("comparison " + std::to_string(i));
    expect_near(out[1 + i], {chain.comparisons[i]});
  }
  expect_near(out.back(), std::vector<double>(iota.begin() + 12, iota.end()));
}

TEST(HandBuilt, GetitemOnASplitAndADeadEmpty) {
  GraphBuilder b;
  b.input("x", DType::Float32, {4});
  ir::Node split;
  split.name = "split";
  split.target = ir::OpName::parse("aten.split.Tensor");
  split.inputs = {A::arg("self", A::t("x")), A::arg("split_size", std::int64_t{2}), A::arg("dim", std::int64_t{0})};
  split.outputs = {ir::TensorList{ir::TensorRef{"s_0"}, ir::TensorRef{"s_1"}}};
  b.meta("s_0", DType::Float32, {2});
  b.meta("s_1", DType::Float32, {2});
  b.g.nodes.push_back(split);
  ir::Node get;
  get.name = "getitem";
  get.target = ir::OpName{"operator", "getitem", ""};
  get.inputs = {A::arg("a", A::t("split")), A::arg("b", std::int64_t{1})};
  get.outputs = {ir::TensorRef{"getitem"}};
  b.meta("getitem", DType::Float32, {2});
  b.g.nodes.push_back(get);
  b.node("empty", "aten.empty.memory_format", {A::arg("size", ir::IntList{3}), A::arg("dtype", ir::None{})},
         DType::Float32, {3});
  b.node("detach", "aten.detach.default", {A::arg("self", A::t("getitem"))}, DType::Float32, {2});
  b.output("detach");
  auto out = run(b.g, {f32({4}, {1, 2, 3, 4})});
  expect_near(out[0], {3, 4});
}

TEST(HandBuilt, DataDependentShapesConvertOrAreRefusedWithTheirReason) {
  // nonzero converts (its row count is found at run time) and runs on the reference.
  GraphBuilder b;
  b.input("x", DType::Float32, {2, 3});
  b.node("nz", "aten.nonzero.default", {A::arg("self", A::t("x"))}, DType::Int64, {-1, 2});
  b.output("nz");
  const auto nz = run(b.g, {f32({2, 3}, {0, 1, 0, -2, 0, 3})});
  EXPECT_EQ(nz[0].sizes(), (std::vector<std::int64_t>{3, 2}));
  expect_near(nz[0], {0, 1, 1, 0, 1, 2});
  // where(condition) of a 0-d condition is refused naming why.
  GraphBuilder w;
  w.input("c", DType::Bool, {});
  w.node("w", "aten.where.default", {A::arg("condition", A::t("c"))}, DType::Int64, {-1});
  w.output("w");
  EXPECT_NE(refusal(w.g).find("0-d condition"), std::string::npos) << refusal(w.g);
  // A mask whose dims do not match self's, and a 0-d mask, are refused naming why.
  for (auto [mask_dims, why] : std::vector<std::pair<std::vector<std::int64_t>, std::string>>{
           {{3, 5}, "does not match self's dims"}, {{}, "0-d boolean mask"}}) {
    GraphBuilder m;
    m.input("x", DType::Float32, {3, 4});
    m.input("mask", DType::Bool, mask_dims);
    m.node("idx", "aten.index.Tensor",
           {A::arg("self", A::t("x")), A::arg("indices", ir::OptionalTensorList{ir::TensorRef{"mask"}})}, DType::Float32, {-1});
    m.output("idx");
    EXPECT_NE(refusal(m.g).find(why), std::string::npos) << refusal(m.g);
  }
}

TEST(HandBuilt, EmbeddingGradientOnlyFlagsConvert) {
  // sparse and scale_grad_by_freq change only the gradient: the forward converts as without them.
  for (const char* flag : {"sparse", "scale_grad_by_freq"}) {
    GraphBuilder b;
    b.weight("w", f32({4, 2}, {0, 1, 2, 3, 4, 5, 6, 7}));
    b.input("i", DType::Int64, {3});
    b.node("emb", "aten.embedding.default",
           {A::arg("weight", A::t("w")), A::arg("indices", A::t("i")), A::arg("padding_idx", std::int64_t{-1}),
            A::arg("scale_grad_by_freq", std::string(flag) == "scale_grad_by_freq"), A::arg("sparse", std::string(flag) == "sparse")},
           DType::Float32, {3, 2});
    b.output("emb");
    EXPECT_EQ(refusal(b.g), "") << flag;
  }
}

TEST(HandBuilt, UnknownOpNamesTheNodeAndOp) {
  GraphBuilder b;
  b.input("x", DType::Float32, {2});
  b.node("f", "aten.frobnicate.default", {A::arg("self", A::t("x"))}, DType::Float32, {2});
  b.output("f");
  EXPECT_NE(refusal(b.g).find("node 'f' (aten.frobnicate.default): not supported: no converter is registered"),
            std::string::npos);
}

TEST(HandBuilt, AnInputReturnedAsOutputGetsItsOwnTensor) {
  GraphBuilder b;
  b.input("x", DType::Int32, {2});
  b.node("c", "aten.clone.default", {A::arg("self", A::t("x"))}, DType::Int32, {2});
  b.output("c");
  b.output("x");
  ConvertedGraph c = convert_graph(b.g);
  ASSERT_EQ(c.outputs.size(), 2u);
  EXPECT_NE(c.outputs[0], c.outputs[1]);
  EXPECT_FALSE(c.outputs[0]->is_input);
}

TEST(HandBuilt, WrongOutputDtypeFromAConverterIsCaught) {
  // The graph claims relu of int32 gives float32: the check names the value.
  GraphBuilder b;
  b.input("x", DType::Int32, {2});
  b.node("r", "aten.relu.default", {A::arg("self", A::t("x"))}, DType::Float32, {2});
  b.output("r");
  EXPECT_NE(refusal(b.g).find("converter produced int32[2] for 'r' but the graph says float32[2]"), std::string::npos)
      << refusal(b.g);
}

}  // namespace
}  // namespace atenrt::conversion
