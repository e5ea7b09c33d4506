// Graph passes on hand-built graphs; failures print the graph before and after.
#include <gtest/gtest.h>

#include <functional>
#include <optional>

#include "atenrt/errors.h"
#include "lowering_graph.h"
#include "lowering/graph_utils.h"
#include "lowering/lower.h"
#include "conversion/host_tensor.h"
#include "support/reference_run.h"

namespace atenrt::lowering::testing {
namespace {

// Runs lower() with only `passes` enabled (decompositions off unless asked).
struct Run {
  std::string before, after;
  LoweringReport report;
  std::string context() const { return "\nbefore:\n" + before + "after:\n" + after + report.to_string(); }
};

Run run_only(ir::Graph& g, std::set<std::string> passes, bool decompositions = false) {
  LoweringSettings s;
  s.decompositions_enabled = decompositions;
  for (const auto& p : pass_names()) {
    if (!passes.contains(p)) s.disabled_passes.insert(p);
  }
  Run r;
  r.before = graph_to_string(g);
  r.report = lower(g, s);
  r.after = graph_to_string(g);
  return r;
}

// The graph's first output for a float32 input `x`, by the reference executor.
std::vector<double> first_output(const ir::Graph& g, std::vector<std::int64_t> sizes, const std::vector<double>& x) {
  const auto out = atenrt::testing::run_on_reference(g, {{"x", conversion::tensor_from(DType::Float32, std::move(sizes), x)}});
  const Tensor t = out.at(0).contiguous();
  std::vector<double> values;
  for (std::int64_t i = 0; i < t.numel(); ++i) values.push_back(conversion::element_as_double(t, i));
  return values;
}

int count(const ir::Graph& g, const std::string& op) {
  auto h = op_histogram(g);
  return h.contains(op) ? h.at(op) : 0;
}

TEST(DeadCode, RemovesUnusedNodesAndUnreadWeightsButKeepsSideEffects) {
  auto m = lowering_graph();
  m.input("x", DType::Float32, {4});
  m.weight("unused_w", f32({4}, {1, 2, 3, 4}));
  m.node("dead", "aten.relu.default", {A("self", R("x"))}, DType::Float32, {4});
  m.node("dead2", "aten.neg.default", {A("self", R("dead"))}, DType::Float32, {4});
  m.node("live", "aten.sigmoid.default", {A("self", R("x"))}, DType::Float32, {4});
  ir::Node inplace;  // in-place: must stay even though nobody reads it
  inplace.name = "mut";
  inplace.target = ir::OpName::parse("aten.relu_.default");
  inplace.inputs = {A("self", R("x"))};
  inplace.outputs = {ir::TensorRef{"mut"}};
  m.meta("mut", DType::Float32, {4});
  m.g.nodes.push_back(inplace);
  m.output("live");
  auto r = run_only(m.g, {"dead_code"});
  EXPECT_EQ(count(m.g, "aten.relu.default"), 0) << r.context();
  EXPECT_EQ(count(m.g, "aten.neg.default"), 0) << r.context();
  EXPECT_EQ(count(m.g, "aten.sigmoid.default"), 1) << r.context();
  EXPECT_EQ(count(m.g, "aten.relu_.default"), 1) << r.context();
  EXPECT_FALSE(m.g.weights.contains("model.unused_w")) << r.context();
  EXPECT_EQ(m.g.inputs.size(), 1u) << r.context();
  EXPECT_EQ(r.report.pass_changes("dead_code"), 3) << r.context();  // 2 nodes + 1 weight
  EXPECT_FALSE(m.g.tensor_values.contains("dead"));
}

TEST(NoopRemoval, DropsIdentityOpsAndKeepsRealConversions) {
  auto m = lowering_graph();
  m.input("x", DType::Float32, {2, 3});
  m.node("d", "aten.detach.default", {A("self", R("x"))}, DType::Float32, {2, 3});
  m.node("c", "aten.clone.default", {A("self", R("d"))}, DType::Float32, {2, 3});
  m.node("al", "aten.alias.default", {A("self", R("c"))}, DType::Float32, {2, 3});
  m.node("lf", "aten.lift_fresh_copy.default", {A("self", R("al"))}, DType::Float32, {2, 3});
  m.node("tc", "aten._to_copy.default", {A("self", R("lf")), A("dtype", ir::ScalarTypeArg{DType::Float32, 7})}, DType::Float32, {2, 3});
  m.node("v", "aten.view.default", {A("self", R("tc")), A("size", ir::IntList{2, 3})}, DType::Float32, {2, 3});
  m.node("dr", "aten.dropout.default", {A("input", R("v")), A("p", 0.5), A("train", false)}, DType::Float32, {2, 3});
  m.node("y", "aten.relu.default", {A("self", R("dr"))}, DType::Float32, {2, 3});
  m.node("yi", "aten._to_copy.default", {A("self", R("y")), A("dtype", ir::ScalarTypeArg{DType::Int64, 4})}, DType::Int64, {2, 3});
  m.node("passthrough", "aten.clone.default", {A("self", R("x"))}, DType::Float32, {2, 3});
  m.output("yi");
  m.output("passthrough");
  auto r = run_only(m.g, {"noop_removal", "dead_code"});
  EXPECT_EQ(m.g.nodes.size(), 3u) << r.context();  // relu, the int64 cast, the copy of an input that is an output
  EXPECT_EQ(count(m.g, "aten._to_copy.default"), 1) << r.context();
  EXPECT_EQ(count(m.g, "aten.clone.default"), 1) << r.context();
  ASSERT_EQ(count(m.g, "aten.relu.default"), 1) << r.context();
  EXPECT_EQ(m.g.nodes[0].inputs[0].arg, R("x")) << r.context();
  EXPECT_EQ(r.report.pass_changes("noop_removal"), 7) << r.context();
}

TEST(InplaceToFunctional, RewritesInPlaceOpsAndRewiresLaterReaders) {
  auto m = lowering_graph();
  m.input("x", DType::Float32, {3});
  m.node("h", "aten.relu.default", {A("self", R("x"))}, DType::Float32, {3});
  m.node("h2", "aten.add_.Tensor", {A("self", R("h")), A("other", 1.0)}, DType::Float32, {3});
  m.node("y", "aten.mul.Tensor", {A("self", R("h")), A("other", 2.0)}, DType::Float32, {3});  // reads h after the mutation
  m.node("xv", "aten.view.default", {A("self", R("x")), A("size", ir::IntList{3})}, DType::Float32, {3});
  m.node("xv2", "aten.relu_.default", {A("self", R("xv"))}, DType::Float32, {3});  // mutates a view: left alone
  m.output("y");
  m.output("xv2");
  auto r = run_only(m.g, {"inplace_to_functional"});
  EXPECT_EQ(count(m.g, "aten.add.Tensor"), 1) << r.context();
  EXPECT_EQ(count(m.g, "aten.add_.Tensor"), 0) << r.context();
  EXPECT_EQ(count(m.g, "aten.relu_.default"), 1) << r.context();
  EXPECT_EQ(m.g.nodes[2].inputs[0].arg, R("h2")) << r.context();
  // Values: y = (relu(x) + 1) * 2 (the untouched view/relu_ tail left out).
  ir::Graph head = m.g;
  head.nodes.resize(3);
  head.outputs.resize(1);
  head.signature.outputs.resize(1);
  EXPECT_EQ(first_output(head, {3}, {-1, 0.5, 2}), (std::vector<double>{2, 3, 6})) << r.context();
}

TEST(InplaceToFunctional, MutatesAViewOfAnIntermediateWhenItsBaseIsNotReadAgain) {
  // `h = relu(x); v = h.flatten(); v.relu_()` (nn.Dropout(inplace=True) or relu_ after a flatten):
  // nothing reads h afterwards, so the in-place op on the view becomes functional.
  auto m = lowering_graph();
  m.input("x", DType::Float32, {2, 2});
  m.node("h", "aten.neg.default", {A("self", R("x"))}, DType::Float32, {2, 2});
  m.node("v", "aten.view.default", {A("self", R("h")), A("size", ir::IntList{4})}, DType::Float32, {4});
  m.node("v2", "aten.relu_.default", {A("self", R("v"))}, DType::Float32, {4});
  m.node("y", "aten.mul.Tensor", {A("self", R("v")), A("other", 2.0)}, DType::Float32, {4});  // reads the mutated view
  m.output("y");
  auto r = run_only(m.g, {"inplace_to_functional"});
  EXPECT_EQ(count(m.g, "aten.relu_.default"), 0) << r.context();
  EXPECT_EQ(count(m.g, "aten.relu.default"), 1) << r.context();
  EXPECT_EQ(m.g.nodes[3].inputs[0].arg, R("v2")) << r.context();
  EXPECT_EQ(first_output(m.g, {2, 2}, {1, -2, 3, -4}), (std::vector<double>{0, 4, 0, 8})) << r.context();

  // The same with the base read after the mutation: renaming cannot express that h changed too.
  auto k = lowering_graph();
  k.input("x", DType::Float32, {2, 2});
  k.node("h", "aten.neg.default", {A("self", R("x"))}, DType::Float32, {2, 2});
  k.node("v", "aten.view.default", {A("self", R("h")), A("size", ir::IntList{4})}, DType::Float32, {4});
  k.node("v2", "aten.relu_.default", {A("self", R("v"))}, DType::Float32, {4});
  k.node("y", "aten.mul.Tensor", {A("self", R("h")), A("other", 2.0)}, DType::Float32, {2, 2});
  k.output("y");
  auto rk = run_only(k.g, {"inplace_to_functional"});
  EXPECT_EQ(count(k.g, "aten.relu_.default"), 1) << rk.context();
}

TEST(ConstantFolding, FoldsATransposedWeightIntoANewConstant) {
  auto m = lowering_graph();
  m.input("x", DType::Float32, {1, 3});
  m.weight("w", f32({2, 3}, {1, 2, 3, 4, 5, 6}));
  m.weight("scale", f32({2}, {10, 100}), ir::InputKind::Buffer);
  m.node("wt", "aten.t.default", {A("self", R("w"))}, DType::Float32, {3, 2});
  m.node("wts", "aten.mul.Tensor", {A("self", R("wt")), A("other", R("scale"))}, DType::Float32, {3, 2});
  m.node("y", "aten.mm.default", {A("self", R("x")), A("mat2", R("wts"))}, DType::Float32, {1, 2});
  m.output("y");
  auto r = run_only(m.g, {"constant_folding", "dead_code"});
  EXPECT_EQ(m.g.nodes.size(), 1u) << r.context();
  EXPECT_EQ(r.report.pass_changes("constant_folding"), 2) << r.context();
  ASSERT_TRUE(m.g.weights.contains("_folded.wts")) << r.context();
  const Tensor& folded = m.g.weights.at("_folded.wts");
  EXPECT_EQ(folded.sizes(), (std::vector<std::int64_t>{3, 2}));
  const std::vector<float> want{10, 400, 20, 500, 30, 600};
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_EQ(folded.data<float>()[i], want[i]) << i;
  // The original weights are no longer read, so they left the signature.
  EXPECT_FALSE(m.g.weights.contains("model.w")) << r.context();
  EXPECT_FALSE(m.g.weights.contains("model.scale")) << r.context();
  ASSERT_EQ(m.g.signature.inputs.size(), 2u) << r.context();
  EXPECT_EQ(m.g.signature.inputs[0].kind, ir::InputKind::UserInput);
  EXPECT_EQ(m.g.signature.inputs[1].kind, ir::InputKind::TensorConstant);
  EXPECT_EQ(m.g.signature.inputs[1].target, "_folded.wts");
  EXPECT_EQ(first_output(m.g, {1, 3}, {1, 1, 1}), (std::vector<double>{60, 1500})) << r.context();
}

TEST(ConstantFolding, LeavesUserInputDependentNodesAlone) {
  auto m = lowering_graph();
  m.input("x", DType::Float32, {2, 3});
  m.node("xt", "aten.t.default", {A("self", R("x"))}, DType::Float32, {3, 2});
  m.output("xt");
  auto r = run_only(m.g, {"constant_folding"});
  EXPECT_EQ(count(m.g, "aten.t.default"), 1) << r.context();
  EXPECT_EQ(r.report.pass_changes("constant_folding"), 0);
}

TEST(ViewCanonicalization, AliasesBecomeViewsAndChainsCollapse) {
  auto m = lowering_graph();
  m.input("x", DType::Float32, {2, 3, 4});
  m.node("a", "aten._unsafe_view.default", {A("self", R("x")), A("size", ir::IntList{6, 4})}, DType::Float32, {6, 4});
  m.node("b", "aten._reshape_alias.default", {A("self", R("a")), A("size", ir::IntList{24}), A("stride", ir::IntList{1})}, DType::Float32, {24});
  m.node("c", "aten.view.default", {A("self", R("b")), A("size", ir::IntList{4, -1})}, DType::Float32, {4, 6});
  m.node("y", "aten.relu.default", {A("self", R("c"))}, DType::Float32, {4, 6});
  m.output("y");
  auto r = run_only(m.g, {"view_canonicalization", "dead_code"});
  EXPECT_EQ(count(m.g, "aten._unsafe_view.default"), 0) << r.context();
  EXPECT_EQ(count(m.g, "aten._reshape_alias.default"), 0) << r.context();
  ASSERT_EQ(count(m.g, "aten.view.default"), 1) << r.context();
  const auto& v = m.g.nodes[0];
  EXPECT_EQ(v.inputs[0].arg, R("x")) << r.context();
  EXPECT_EQ(*v.input("size"), ir::Argument(ir::IntList{4, 6})) << r.context();
}

TEST(CommonSubexpressionElimination, MergesEqualNodesButNotRandomOnes) {
  auto m = lowering_graph();
  m.input("x", DType::Float32, {3});
  m.node("a", "aten.mul.Tensor", {A("self", R("x")), A("other", 2.0)}, DType::Float32, {3});
  m.node("b", "aten.mul.Tensor", {A("self", R("x")), A("other", 2.0)}, DType::Float32, {3});
  m.node("c", "aten.mul.Tensor", {A("self", R("x")), A("other", 3.0)}, DType::Float32, {3});
  m.node("s", "aten.add.Tensor", {A("self", R("a")), A("other", R("b"))}, DType::Float32, {3});
  m.node("y", "aten.add.Tensor", {A("self", R("s")), A("other", R("c"))}, DType::Float32, {3});
  m.node("r1", "aten.rand_like.default", {A("self", R("x"))}, DType::Float32, {3});
  m.node("r2", "aten.rand_like.default", {A("self", R("x"))}, DType::Float32, {3});
  m.output("y");
  m.output("r1");
  m.output("r2");
  auto r = run_only(m.g, {"cse"});
  EXPECT_EQ(count(m.g, "aten.mul.Tensor"), 2) << r.context();
  EXPECT_EQ(count(m.g, "aten.rand_like.default"), 2) << r.context();
  EXPECT_EQ(m.g.nodes[2].inputs[1].arg, R("a")) << r.context();  // s = a + a
  EXPECT_EQ(r.report.pass_changes("cse"), 1);
}

TEST(Passes, EachPassCanBeSwitchedOff) {
  auto m = lowering_graph();
  m.input("x", DType::Float32, {3});
  m.node("dead", "aten.relu.default", {A("self", R("x"))}, DType::Float32, {3});
  m.node("d", "aten.detach.default", {A("self", R("x"))}, DType::Float32, {3});
  m.node("y", "aten.neg.default", {A("self", R("d"))}, DType::Float32, {3});
  m.output("y");
  LoweringSettings s;
  s.disabled_passes = {"dead_code", "noop_removal"};
  const auto before = graph_to_string(m.g);
  auto report = lower(m.g, s);
  EXPECT_EQ(m.g.nodes.size(), 3u) << before << graph_to_string(m.g);
  EXPECT_FALSE(report.pass_ran("dead_code"));
  EXPECT_TRUE(report.pass_ran("cse"));
  EXPECT_EQ(report.skipped_passes, (std::vector<std::string>{"noop_removal", "dead_code"}));
  s.passes_enabled = false;
  auto g2 = m.g;
  EXPECT_TRUE(lower(g2, s).passes.empty());
}

// What make_fx gives for nn.Linear in torch 1.13: detach'ed weight, t, addmm.
TEST(Pipeline, LinearFromMakeFxBecomesOneMmWithAFoldedWeight) {
  auto m = lowering_graph();
  m.weight("w", f32({2, 3}, {1, 0, -1, 2, 1, 0}));
  m.weight("b", f32({2}, {0.5, -0.5}));
  m.input("x", DType::Float32, {4, 3});
  m.node("wd", "aten.detach.default", {A("self", R("w"))}, DType::Float32, {2, 3});
  m.node("wt", "aten.t.default", {A("self", R("wd"))}, DType::Float32, {3, 2});
  m.node("y", "aten.addmm.default", {A("self", R("b")), A("mat1", R("x")), A("mat2", R("wt"))}, DType::Float32, {4, 2});
  m.output("y");
  const auto before = graph_to_string(m.g);
  auto report = lower(m.g);
  const auto ctx = "\nbefore:\n" + before + "after:\n" + graph_to_string(m.g) + report.to_string();
  EXPECT_EQ(op_histogram(m.g), (std::map<std::string, int>{{"aten.add.Tensor", 1}, {"aten.mm.default", 1}})) << ctx;
  EXPECT_TRUE(report.decomposed("aten.addmm.default")) << ctx;
  EXPECT_TRUE(report.decomposed("aten.t.default")) << ctx;
  EXPECT_EQ(report.pass_changes("noop_removal"), 1) << ctx;
  EXPECT_GE(report.pass_changes("constant_folding"), 1) << ctx;
  EXPECT_EQ(first_output(m.g, {4, 3}, {1, 2, 3, 0, 0, 0, -1, 1, 0, 2, 2, 2}),
            (std::vector<double>{-1.5, 3.5, 0.5, -0.5, -0.5, -1.5, 0.5, 5.5}))
      << ctx;
}

TEST(Histogram, CountsOpsAndPrints) {
  auto m = lowering_graph();
  m.input("x", DType::Float32, {3});
  m.node("a", "aten.relu.default", {A("self", R("x"))}, DType::Float32, {3});
  m.node("b", "aten.relu.default", {A("self", R("a"))}, DType::Float32, {3});
  m.output("b");
  EXPECT_EQ(op_histogram(m.g), (std::map<std::string, int>{{"aten.relu.default", 2}}));
  EXPECT_NE(histogram_to_string(op_histogram(m.g)).find("2\taten.relu.default"), std::string::npos);
}

}  // namespace
}  // namespace atenrt::lowering::testing

namespace atenrt::lowering::testing {
namespace {

// A node with one symbolic output (SymInt, SymBool or SymFloat) or none (an assertion).
void sym_node(TestGraphBuilder& m, const std::string& name, const std::string& target, std::vector<ir::NamedArgument> args,
              std::optional<ir::Argument> out) {
  ir::Node n;
  n.name = name;
  n.target = ir::OpName::parse(target);
  if (n.target.ns == "aten") ir::fill_schema_defaults(name, target, args);
  n.inputs = std::move(args);
  if (out) n.outputs.push_back(*out);
  m.g.nodes.push_back(std::move(n));
}

std::string lowering_error(ir::Graph g) {
  try {
    run_only(g, {"symbolic_values"});
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(SymbolicValues, FoldsStaticSizesIntoArgumentsAndDropsTrueAssertions) {
  auto m = lowering_graph();
  m.input("x", DType::Float32, {3, 4});
  const ir::SymInt s = ir::SymInt::named("s");
  sym_node(m, "s", "aten.sym_size.int", {A("self", R("x")), A("dim", std::int64_t{-2})}, ir::Argument(s));
  sym_node(m, "ge", "_operator.ge", {A("a", s), A("b", std::int64_t{2})}, ir::Argument(ir::SymBoolRef{"ge"}));
  sym_node(m, "check", "aten._assert_scalar.default",
           {A("self", ir::SymBoolRef{"ge"}), A("assert_msg", std::string("2 <= s0"))}, std::nullopt);
  sym_node(m, "range", "aten.sym_constrain_range_for_size.default",
           {A("size", s), A("min", std::int64_t{2}), A("max", std::int64_t{8})}, std::nullopt);
  sym_node(m, "meta", "aten._assert_tensor_metadata.default",
           {A("a", R("x")), A("size", ir::SymIntList{s, ir::SymInt::of(4)}), A("dtype", ir::ScalarTypeArg{DType::Float32, 7})},
           std::nullopt);
  sym_node(m, "half", "_operator.truediv", {A("a", s), A("b", std::int64_t{2})}, ir::Argument(ir::SymFloatRef{"half"}));
  sym_node(m, "rows", "_operator.mod", {A("a", std::int64_t{-7}), A("b", s)}, ir::Argument(ir::SymInt::named("rows")));
  m.node("y", "aten.mul.Tensor", {A("self", R("x")), A("other", ir::SymFloatRef{"half"})}, DType::Float32, {3, 4});
  m.node("v", "aten.view.default", {A("self", R("y")), A("size", ir::SymIntList{ir::SymInt::named("rows"), ir::SymInt::of(6)})}, DType::Float32, {2, 6});
  m.node("flag", "aten.scalar_tensor.default", {A("s", ir::SymBoolRef{"ge"})}, DType::Float32, {});
  m.output("v");
  m.output("flag");
  auto r = run_only(m.g, {"symbolic_values", "dead_code"});
  // Only the tensor ops remain, reading literals: 3 / 2 = 1.5, -7 % 3 = 2 (Python), 3 >= 2.
  ASSERT_EQ(m.g.nodes.size(), 3u) << r.context();
  EXPECT_EQ(*m.g.nodes[0].input("other"), ir::Argument(1.5)) << r.context();
  EXPECT_EQ(*m.g.nodes[1].input("size"), ir::Argument(ir::SymIntList{ir::SymInt::of(2), ir::SymInt::of(6)}))
      << r.context();
  EXPECT_EQ(*m.g.nodes[2].input("s"), ir::Argument(true)) << r.context();
  EXPECT_EQ(r.report.pass_changes("symbolic_values"), 3 + 9) << r.context();  // 3 assertions, 9 arguments
}

TEST(SymbolicValues, FalseAssertionsAreErrorsNamingTheNode) {
  auto with = [](const std::function<void(TestGraphBuilder&)>& add) {
    auto m = lowering_graph();
    m.input("x", DType::Float32, {3, 4});
    sym_node(m, "s", "aten.sym_size.int", {A("self", R("x")), A("dim", std::int64_t{0})},
             ir::Argument(ir::SymInt::named("s")));
    add(m);
    m.output("x");
    return lowering_error(m.g);
  };
  const ir::SymInt s = ir::SymInt::named("s");
  std::string e = with([&](TestGraphBuilder& m) {
    sym_node(m, "lt", "_operator.lt", {A("a", s), A("b", std::int64_t{3})}, ir::Argument(ir::SymBoolRef{"lt"}));
    sym_node(m, "not_lt", "torch.sym_not", {A("a", ir::SymBoolRef{"lt"})}, ir::Argument(ir::SymBoolRef{"not_lt"}));
    sym_node(m, "both", "_operator.and_", {A("a", ir::SymBoolRef{"lt"}), A("b", ir::SymBoolRef{"not_lt"})},
             ir::Argument(ir::SymBoolRef{"both"}));
    sym_node(m, "check_both", "aten._assert_scalar.default",
             {A("self", ir::SymBoolRef{"both"}), A("assert_msg", std::string("s0 < 3 and not s0 < 3"))}, std::nullopt);
  });
  EXPECT_NE(e.find("check_both"), std::string::npos) << e;
  EXPECT_NE(e.find("aten._assert_scalar.default"), std::string::npos) << e;
  EXPECT_NE(e.find("'s0 < 3 and not s0 < 3'"), std::string::npos) << e;
  e = with([&](TestGraphBuilder& m) {
    sym_node(m, "range", "aten.sym_constrain_range_for_size.default", {A("size", s), A("min", std::int64_t{4})},
             std::nullopt);
  });
  EXPECT_NE(e.find("'range'"), std::string::npos) << e;
  EXPECT_NE(e.find("value 3 is outside [4, inf]"), std::string::npos) << e;
  e = with([&](TestGraphBuilder& m) {
    sym_node(m, "meta", "aten._assert_tensor_metadata.default",
             {A("a", R("x")), A("dtype", ir::ScalarTypeArg{DType::Int64, 4})}, std::nullopt);
  });
  EXPECT_NE(e.find("'meta'"), std::string::npos) << e;
  EXPECT_NE(e.find("expects dtype"), std::string::npos) << e;
  e = with([&](TestGraphBuilder& m) {
    sym_node(m, "meta", "aten._assert_tensor_metadata.default", {A("a", R("x")), A("size", ir::IntList{3, 5})},
             std::nullopt);
  });
  EXPECT_NE(e.find("expects size [3, 5]"), std::string::npos) << e;
  e = with([&](TestGraphBuilder& m) {
    sym_node(m, "zero", "_operator.sub", {A("a", s), A("b", std::int64_t{3})}, ir::Argument(ir::SymInt::named("zero")));
    sym_node(m, "div", "_operator.floordiv", {A("a", s), A("b", ir::SymInt::named("zero"))},
             ir::Argument(ir::SymInt::named("div")));
  });
  EXPECT_NE(e.find("'div'"), std::string::npos) << e;
  EXPECT_NE(e.find("division or modulo by zero"), std::string::npos) << e;
}

TEST(SymbolicValues, AssertionsOnRunTimeSizesStayForTheEngineToCheck) {
  auto m = lowering_graph();
  m.input("x", DType::Float32, {3, 4});
  m.g.tensor_values["x"].sizes[0] = ir::SymInt::named("s0");
  sym_node(m, "s", "aten.sym_size.int", {A("self", R("x")), A("dim", std::int64_t{0})},
           ir::Argument(ir::SymInt::named("s")));
  sym_node(m, "ge", "_operator.ge", {A("a", ir::SymInt::named("s")), A("b", std::int64_t{2})},
           ir::Argument(ir::SymBoolRef{"ge"}));
  sym_node(m, "check", "aten._assert_scalar.default",
           {A("self", ir::SymBoolRef{"ge"}), A("assert_msg", std::string("2 <= s0"))}, std::nullopt);
  sym_node(m, "limit", "aten.sym_constrain_range.default",
           {A("size", ir::SymInt::named("s")), A("min", std::int64_t{2}), A("max", std::int64_t{9})}, std::nullopt);
  m.node("flag", "aten.scalar_tensor.default", {A("s", ir::SymBoolRef{"ge"})}, DType::Float32, {});
  m.output("flag");
  auto r = run_only(m.g, {"symbolic_values", "dead_code"});
  // sym_size, ge, the assertion (a run-time check in conversion), scalar_tensor; the range limit goes.
  ASSERT_EQ(m.g.nodes.size(), 4u) << r.context();
  EXPECT_EQ(count(m.g, "aten._assert_scalar.default"), 1) << r.context();
  EXPECT_EQ(count(m.g, "aten.sym_constrain_range.default"), 0) << r.context();
  EXPECT_EQ(*m.g.nodes[3].input("s"), ir::Argument(ir::SymBoolRef{"ge"})) << r.context();
}

}  // namespace
}  // namespace atenrt::lowering::testing

namespace atenrt::lowering::testing {
namespace {

// A one-node subgraph: out = <target>(in).
ir::GraphArg unary_body(const std::string& name, const std::string& target) {
  auto g = std::make_shared<ir::Graph>();
  g->inputs = {ir::TensorRef{"in"}};
  ir::Node n;
  n.name = "out";
  n.target = ir::OpName::parse(target);
  n.inputs = {A("self", R("in"))};
  ir::fill_schema_defaults("out", target, n.inputs);
  n.outputs = {ir::TensorRef{"out"}};
  g->nodes = {n};
  g->outputs = {ir::TensorRef{"out"}};
  g->tensor_values["in"] = g->tensor_values["out"] = atenrt::testing::tensor_meta(DType::Float32, {3});
  return ir::GraphArg{name, g};
}

ir::Node hop(const std::string& name, const std::string& op, std::vector<ir::Argument> args) {
  ir::Node n;
  n.name = name;
  n.target = ir::OpName::parse("torch.ops.higher_order." + op);
  for (auto& a : args) n.inputs.push_back(A("", std::move(a)));
  n.outputs = {ir::TensorRef{name}};
  return n;
}

TEST(HigherOrder, CondOnAConstantTensorTakesItsBranch) {
  for (float flag : {0.0f, -0.0f, 2.0f}) {
    auto m = lowering_graph();
    m.input("x", DType::Float32, {3});
    m.weight("flag", f32({1}, {flag}), ir::InputKind::Buffer);
    m.g.nodes.push_back(hop("c", "cond", {R("flag"), unary_body("t", "aten.relu.default"),
                                          unary_body("f", "aten.neg.default"), ir::TensorList{ir::TensorRef{"x"}}}));
    m.meta("c", DType::Float32, {3});
    m.output("c");
    auto r = run_only(m.g, {"symbolic_values", "dead_code"});
    ASSERT_EQ(m.g.nodes.size(), 1u) << r.context();
    EXPECT_EQ(m.g.nodes[0].target.str(), flag != 0.0f ? "aten.relu.default" : "aten.neg.default") << r.context();
    EXPECT_EQ(m.g.nodes[0].outputs[0], R("c")) << r.context();  // the op's output name, for its readers
    EXPECT_NO_THROW(m.g.validate()) << r.context();
  }
}

TEST(HigherOrder, OtherOpsAndEnabledAutocastAreRefusedNamingThem) {
  auto error = [](ir::Node n) {
    auto m = lowering_graph();
    m.input("x", DType::Float32, {3});
    n.outputs = {R("h")};
    m.meta("h", DType::Float32, {3});
    m.g.nodes.push_back(std::move(n));
    m.output("h");
    return lowering_error(m.g);
  };
  std::string e = error(hop("h", "while_loop", {unary_body("cond_fn", "aten.relu.default"),
                                                unary_body("body_fn", "aten.neg.default"), ir::TensorList{ir::TensorRef{"x"}},
                                                ir::TensorList{}}));
  EXPECT_NE(e.find("node 'h' (higher_order.while_loop)"), std::string::npos) << e;
  EXPECT_NE(e.find("at iteration 0 depends on values known only at run time"), std::string::npos) << e;
  e = error(hop("h", "map_impl", {unary_body("body_fn", "aten.neg.default"), ir::TensorList{ir::TensorRef{"x"}}}));
  EXPECT_NE(e.find("node 'h' (higher_order.map_impl)"), std::string::npos) << e;
  EXPECT_NE(e.find("higher-order op 'map_impl' is not supported"), std::string::npos) << e;
  e = error(hop("h", "wrap_with_autocast", {std::string("cpu"), ir::ScalarTypeArg{DType::BFloat16, 13}, true, false,
                                            unary_body("body", "aten.relu.default"), R("x")}));
  EXPECT_NE(e.find("enabled autocast region runs the ops on torch's autocast lists"), std::string::npos) << e;
  EXPECT_NE(e.find("in bfloat16, casts its subgraph does not record"), std::string::npos) << e;
  e = error(hop("h", "wrap_with_set_grad_enabled", {false, unary_body("body", "aten.relu.default"), R("x"), R("x")}));
  EXPECT_NE(e.find("subgraph 'body': takes 1 inputs, the op passes 2"), std::string::npos) << e;
}

// auto_functionalized of an op whose functional twin returns the mutated values itself:
// _native_batch_norm_legit (running_mean and running_var mutated) → _native_batch_norm_legit_functional,
// which produces the node's five outputs under their own names.
TEST(HigherOrder, AutoFunctionalizedTakesTheFunctionalTwinsOutputs) {
  auto m = lowering_graph();
  m.input("x", DType::Float32, {2, 3});
  m.input("mean", DType::Float32, {3});
  m.input("var", DType::Float32, {3});
  ir::Node n = hop("af", "auto_functionalized", {ir::OperatorArg{"torch.ops.aten._native_batch_norm_legit.default"}});
  for (auto& [name, a] : std::vector<std::pair<std::string, ir::Argument>>{
           {"input", R("x")}, {"weight", ir::Argument()}, {"bias", ir::Argument()}, {"running_mean", R("mean")},
           {"running_var", R("var")}, {"training", true}, {"momentum", 0.1}, {"eps", 1e-5}}) {
    n.inputs.push_back(A(name.c_str(), a));
  }
  n.outputs.clear();
  for (const char* o : {"out", "save_mean", "save_rstd", "new_mean", "new_var"}) {
    n.outputs.push_back(R(o));
    m.meta(o, DType::Float32, std::string(o) == "out" ? std::vector<std::int64_t>{2, 3} : std::vector<std::int64_t>{3});
  }
  m.g.nodes.push_back(std::move(n));
  for (const char* o : {"new_mean", "new_var", "out"}) m.output(o);
  auto r = run_only(m.g, {"symbolic_values"});
  ASSERT_EQ(m.g.nodes.size(), 1u) << r.context();
  EXPECT_EQ(m.g.nodes[0].target.str(), "aten._native_batch_norm_legit_functional.default") << r.context();
  EXPECT_EQ(m.g.nodes[0].outputs.size(), 5u) << r.context();
  EXPECT_EQ(m.g.nodes[0].outputs[3], R("new_mean")) << r.context();
  EXPECT_EQ(*m.g.nodes[0].input("training"), ir::Argument(true)) << r.context();
  EXPECT_NO_THROW(m.g.validate()) << r.context();
}

}  // namespace
}  // namespace atenrt::lowering::testing
