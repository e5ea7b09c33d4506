// The decomposition registry and the converter policy: which of a
// decomposition and a converter runs is decided by settings, and the report
// says so.
#include <gtest/gtest.h>

#include <stdexcept>

#include "atenrt/errors.h"
#include "lowering_graph.h"
#include "lowering/node_args.h"
#include "lowering/graph_utils.h"
#include "lowering/lower.h"
#include "lowering/registry.h"

namespace atenrt::lowering::testing {
namespace {

// Test-only ops: a decomposition marked preferred_over_converter, and one
// whose validator refuses inputs of rank 1.
[[maybe_unused]] const DecompositionGroup test_only{"misc", {
    {"aten.lowering_test_preferred.default",
     [](GraphBuilder& b, const ir::Node& n) { return std::vector<std::string>{b.unary("relu", tensor_arg(n, "self"))}; },
     {.preferred_over_converter = true}},
    {"aten.lowering_test_validated.default",
     [](GraphBuilder& b, const ir::Node& n) { return std::vector<std::string>{b.unary("relu", tensor_arg(n, "self"))}; },
     {.validator = [](const ir::NodeView& n) {
       const ir::TensorMeta* m = n.meta("self");
       return m && m->sizes.size() == 1 ? ir::Capability::no("rank 1 is refused") : ir::Capability::yes();
     }}},
}};

// A one-node graph `op(self=x)` over an input of `sizes`.
ir::Graph one_op_graph(const char* op, std::vector<std::int64_t> sizes) {
  auto m = lowering_graph();
  m.input("x", DType::Float32, sizes);
  ir::Node n;
  n.name = "p";
  n.target = ir::OpName::parse(op);
  n.inputs = {A("self", R("x"))};
  n.outputs = {ir::TensorRef{"p"}};
  m.meta("p", DType::Float32, sizes);
  m.g.nodes.push_back(n);
  m.output("p");
  return m.g;
}

ir::Graph addmm_graph() {
  auto m = lowering_graph();
  m.input("bias", DType::Float32, {3});
  m.input("a", DType::Float32, {2, 4});
  m.input("b", DType::Float32, {4, 3});
  m.node("out", "aten.addmm.default", {A("self", R("bias")), A("mat1", R("a")), A("mat2", R("b")), A("beta", 0.5)}, DType::Float32, {2, 3});
  m.output("out");
  return m.g;
}

bool has(const ir::Graph& g, const std::string& op) { return op_histogram(g).contains(op); }

TEST(LoweringPolicy, WithoutConvertersTheDecompositionRuns) {
  auto g = addmm_graph();
  auto report = lower(g);
  EXPECT_TRUE(report.decomposed("aten.addmm.default")) << report.to_string();
  EXPECT_FALSE(has(g, "aten.addmm.default")) << graph_to_string(g);
  EXPECT_TRUE(has(g, "aten.mm.default"));
}

TEST(LoweringPolicy, AnEnabledConverterWinsByDefault) {
  auto g = addmm_graph();
  LoweringSettings s;
  s.has_converter = [](const std::string& key) { return key == "aten.addmm.default"; };
  auto report = lower(g, s);
  EXPECT_FALSE(report.decomposed("aten.addmm.default"));
  EXPECT_TRUE(has(g, "aten.addmm.default")) << graph_to_string(g);
  EXPECT_FALSE(has(g, "aten.mm.default"));
  EXPECT_EQ(report.not_decomposed.at("aten.addmm.default"), "a converter handles it");
}

// A converter that exists but refuses this node (its validator says no) must
// not keep the decomposition from running.
TEST(LoweringPolicy, AConverterThatRefusesTheNodeLetsTheDecompositionRun) {
  auto g = addmm_graph();
  LoweringSettings s;
  s.has_converter = [](const std::string&) { return true; };
  const ir::Node* seen = nullptr;
  s.converter_accepts = [&](const ir::Graph&, const ir::Node& node) {
    seen = &node;
    return false;
  };
  auto report = lower(g, s);
  EXPECT_NE(seen, nullptr);
  EXPECT_TRUE(report.decomposed("aten.addmm.default")) << report.to_string();

  auto accepted = addmm_graph();
  s.converter_accepts = [](const ir::Graph&, const ir::Node& node) { return node.target.name == "addmm"; };
  report = lower(accepted, s);
  EXPECT_FALSE(report.decomposed("aten.addmm.default"));
  EXPECT_TRUE(has(accepted, "aten.addmm.default"));
}

TEST(LoweringPolicy, SettingsCanForceTheDecompositionOverAConverter) {
  LoweringSettings s;
  s.has_converter = [](const std::string&) { return true; };
  s.forced_decompositions = {"aten.addmm.default"};
  auto g = addmm_graph();
  EXPECT_TRUE(lower(g, s).decomposed("aten.addmm.default"));
  s.forced_decompositions.clear();
  s.prefer_decompositions = true;
  auto g2 = addmm_graph();
  EXPECT_TRUE(lower(g2, s).decomposed("aten.addmm.default"));
  // ... unless the converter is pinned.
  s.converter_preferred = {"aten.addmm.default"};
  auto g3 = addmm_graph();
  auto report = lower(g3, s);
  EXPECT_FALSE(report.decomposed("aten.addmm.default"));
  EXPECT_EQ(report.not_decomposed.at("aten.addmm.default"), "the converter is preferred by settings");
}

TEST(LoweringPolicy, PreferredDecompositionRunsDespiteAConverter) {
  auto g = one_op_graph("aten.lowering_test_preferred.default", {4});
  LoweringSettings s;
  s.has_converter = [](const std::string&) { return true; };
  auto report = lower(g, s);
  EXPECT_TRUE(report.decomposed("aten.lowering_test_preferred.default")) << report.to_string();
  EXPECT_TRUE(has(g, "aten.relu.default")) << graph_to_string(g);
  EXPECT_FALSE(has(g, "aten.lowering_test_preferred.default"));
}

// A validator refuses before the decomposition runs: the node stays and
// the report carries the validator's reason.
TEST(LoweringPolicy, AValidatorThatRefusesKeepsTheNodeWithItsReason) {
  auto refused = one_op_graph("aten.lowering_test_validated.default", {4});
  auto report = lower(refused);
  EXPECT_FALSE(report.decomposed("aten.lowering_test_validated.default"));
  EXPECT_TRUE(has(refused, "aten.lowering_test_validated.default")) << graph_to_string(refused);
  EXPECT_EQ(report.not_decomposed.at("aten.lowering_test_validated.default"),
            "declined for node 'p' (aten.lowering_test_validated.default): rank 1 is refused");

  auto accepted = one_op_graph("aten.lowering_test_validated.default", {2, 4});
  EXPECT_TRUE(lower(accepted).decomposed("aten.lowering_test_validated.default"));
  EXPECT_TRUE(has(accepted, "aten.relu.default")) << graph_to_string(accepted);
}

TEST(LoweringPolicy, GroupsAndKeysSwitchDecompositionsOff) {
  LoweringSettings s;
  s.disabled_groups = {"linear_algebra"};
  auto g = addmm_graph();
  auto r = lower(g, s);
  EXPECT_TRUE(has(g, "aten.addmm.default"));
  EXPECT_EQ(r.not_decomposed.at("aten.addmm.default"), "group 'linear_algebra' is disabled");
  s = {};
  s.enabled_groups = std::set<std::string>{"activations"};
  auto g2 = addmm_graph();
  lower(g2, s);
  EXPECT_TRUE(has(g2, "aten.addmm.default"));
  s = {};
  s.disabled_decompositions = {"aten.addmm.default"};
  auto g3 = addmm_graph();
  lower(g3, s);
  EXPECT_TRUE(has(g3, "aten.addmm.default"));
  s = {};
  s.decompositions_enabled = false;
  auto g4 = addmm_graph();
  lower(g4, s);
  EXPECT_TRUE(has(g4, "aten.addmm.default"));
}

TEST(LoweringPolicy, ADecompositionThatDoesNotFitLeavesTheNodeAndSaysWhy) {
  auto m = lowering_graph();
  m.input("x", DType::Float32, {2, 3, 4});
  m.g.tensor_values["x"].sizes[0] = ir::SymInt::named("s0");  // dynamic batch
  m.input("w", DType::Float32, {5, 4});
  m.node("y", "aten.linear.default", {A("input", R("x")), A("weight", R("w"))}, DType::Float32, {2, 3, 5});
  m.g.tensor_values["y"].sizes[0] = ir::SymInt::named("s0");
  m.output("y");
  auto report = lower(m.g);
  EXPECT_TRUE(has(m.g, "aten.linear.default")) << graph_to_string(m.g);
  ASSERT_TRUE(report.not_decomposed.contains("aten.linear.default"));
  EXPECT_NE(report.not_decomposed.at("aten.linear.default").find("static"), std::string::npos)
      << report.not_decomposed.at("aten.linear.default");
}

TEST(LoweringRegistry, KeysAreUniqueOverloadsInNamedGroups) {
  auto& reg = DecompositionRegistry::instance();
  EXPECT_THROW(reg.add(Decomposition{"aten.addmm.default", "misc", nullptr, {}}), std::logic_error);
  EXPECT_THROW(reg.add(Decomposition{"aten.addmm", "misc", nullptr, {}}), std::logic_error);
  const auto groups = reg.groups();
  for (const char* g : {"activations", "linear_algebra", "misc", "normalization", "reductions", "views"}) {
    EXPECT_NE(std::find(groups.begin(), groups.end(), g), groups.end()) << g;
  }
  EXPECT_GE(decomposition_keys().size(), 75u);
  const auto passes = pass_names();
  EXPECT_EQ(passes, (std::vector<std::string>{"symbolic_values", "inplace_to_functional", "noop_removal", "view_canonicalization",
                                               "constant_folding", "cse", "dead_code"}));
}

TEST(LoweringRegistry, MalformedArgumentsAreCleanErrorsNotCrashes) {
  auto m = lowering_graph();
  m.input("a", DType::Float32, {2, 4});
  m.input("b", DType::Float32, {4, 3});
  // mat2 given a number instead of a tensor.
  m.node("out", "aten.addmm.default", {A("self", R("a")), A("mat1", R("a")), A("mat2", 3.0)}, DType::Float32, {2, 3});
  m.output("out");
  try {
    lower(m.g);
    FAIL() << "expected a FormatError";
  } catch (const FormatError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("mat2"), std::string::npos) << msg;
    EXPECT_NE(msg.find("aten.addmm.default"), std::string::npos) << msg;
  }
}

}  // namespace
}  // namespace atenrt::lowering::testing
