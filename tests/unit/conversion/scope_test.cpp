// The converter scope: layer names carry the source IR and the node, child
// scopes add segments, names stay unique, and the source follows the node's
// provenance (a decomposition-made node says so).
#include <gtest/gtest.h>

#include "conversion/context.h"
#include "conversion/registry.h"
#include "conversion/scope.h"
#include "support/graph_builder.h"

namespace atenrt::conversion {
namespace {

using testing::GraphBuilder;

ir::Node node_named(const std::string& name, const std::string& target) {
  ir::Node n;
  n.name = name;
  n.target = ir::OpName::parse(target);
  return n;
}

TEST(Scope, NamesLayersAfterSourceNodeAndSuffix) {
  GraphBuilder b;
  ConversionContext ctx(b.g, {});
  const Scope s(ctx, node_named("relu_1", "aten.relu.default"));
  EXPECT_EQ(s.layer_name(), "[aten]-[relu_1]");
  EXPECT_EQ(s.layer_name("cast"), "[aten]-[relu_1]-[cast]");
  EXPECT_EQ(s.child("lo").layer_name("cast"), "[aten]-[relu_1]-[lo]-[cast]");
  EXPECT_EQ(s.child("lo").child("hi").layer_name(), "[aten]-[relu_1]-[lo]-[hi]");
  EXPECT_EQ(s.with_source(SourceIR::Prims).layer_name(), "[prims]-[relu_1]");
  EXPECT_EQ(s.where(), "node 'relu_1' (aten.relu.default)");
}

TEST(Scope, NamesAreUniqueInTheNetwork) {
  GraphBuilder b;
  ConversionContext ctx(b.g, {});
  const Scope s(ctx, node_named("add", "aten.add.Tensor"));
  auto* x = ctx.net().add_input("x", DType::Float32, {2});
  auto* a = s.add_cast("cast", x, DType::Int32);
  auto* c = s.add_cast("cast", a, DType::Float32);
  auto* d = s.add_activation("", c, network::ActivationOp::Relu);
  auto* e = s.add_activation("", d, network::ActivationOp::Relu);
  EXPECT_EQ(a->producer->name, "[aten]-[add]-[cast]");
  EXPECT_EQ(c->producer->name, "[aten]-[add]-[cast]_1");
  EXPECT_EQ(d->producer->name, "[aten]-[add]");
  EXPECT_EQ(e->producer->name, "[aten]-[add]_1");
}

TEST(Scope, SourceFollowsTheNodesProvenance) {
  EXPECT_EQ(source_ir_of(node_named("n", "aten.mm.default")), SourceIR::ATen);
  EXPECT_EQ(source_ir_of(node_named("n", "prims.sum.default")), SourceIR::Prims);
  EXPECT_EQ(source_ir_of(node_named("n", "operator.getitem")), SourceIR::Operator);
  EXPECT_EQ(source_ir_of(node_named("n", "torch.sym_max")), SourceIR::Torch);
  ir::Node made = node_named("addmm_mm", "aten.mm.default");
  made.metadata[ir::kDecomposedFromKey] = "aten.addmm.default";
  EXPECT_EQ(source_ir_of(made), SourceIR::Decomposition);
  EXPECT_STREQ(source_ir_name(SourceIR::Decomposition), "decomposition");
}

// convert_graph names a decomposition-made node's layers after their origin,
// and graph outputs keep the graph's value names.
TEST(Scope, ConvertGraphUsesTheScopeAndKeepsOutputNames) {
  GraphBuilder b;
  b.input("x", DType::Float32, {2, 3});
  b.node("relu", "aten.relu.default", {GraphBuilder::arg("self", GraphBuilder::t("x"))}, DType::Float32, {2, 3});
  b.node("sig", "aten.sigmoid.default", {GraphBuilder::arg("self", GraphBuilder::t("relu"))}, DType::Float32, {2, 3});
  b.g.nodes[1].metadata[ir::kDecomposedFromKey] = "aten.silu.default";
  b.output("sig");
  ConvertedGraph out = convert_graph(b.g);
  EXPECT_NE(out.network.find_layer("[aten]-[relu]"), nullptr);
  EXPECT_NE(out.network.find_layer("[decomposition]-[sig]"), nullptr);
  ASSERT_EQ(out.outputs.size(), 1u);
  EXPECT_EQ(out.outputs[0]->name, "sig");
}

// One registration serves several keys; the family's dynamic-shape default
// applies unless the registration says otherwise.
constexpr Family kMultiFamily{.name = "scope_test_multi", .supports_dynamic_shapes = true};
ATENRT_CONVERTER(kMultiFamily, keys("scope_test.one.default", "scope_test.two.default"))
(const Scope&, const NodeArgs&) { return {}; }
ATENRT_CONVERTER(kMultiFamily, "scope_test.three.default", .supports_dynamic_shapes = false)
(const Scope&, const NodeArgs&) { return {}; }

TEST(Registration, OneRegistrationServesSeveralKeysWithFamilyDefaults) {
  const auto& reg = ConverterRegistry::global();
  for (const char* key : {"scope_test.one.default", "scope_test.two.default"}) {
    const auto cands = reg.candidates(key);
    ASSERT_EQ(cands.size(), 1u) << key;
    EXPECT_EQ(cands[0]->family, "scope_test_multi");
    EXPECT_TRUE(cands[0]->options.supports_dynamic_shapes);
  }
  const auto three = reg.candidates("scope_test.three.default");
  ASSERT_EQ(three.size(), 1u);
  EXPECT_FALSE(three[0]->options.supports_dynamic_shapes);
}

}  // namespace
}  // namespace atenrt::conversion
