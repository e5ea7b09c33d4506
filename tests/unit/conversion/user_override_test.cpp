// A user overrides a built-in converter from their own translation unit, at
// high priority, without touching ours: nodes its validator accepts go to
// it, the rest fall through to the built-in one.
#include <gtest/gtest.h>

#include "conversion/context.h"
#include "conversion/registry.h"
#include "conversion/scope.h"
#include "support/graph_builder.h"

namespace {

constexpr atenrt::conversion::Family kUserFamily{.name = "user_override_test"};

atenrt::conversion::Capability only_named_override(const atenrt::conversion::NodeView& node,
                                                   const atenrt::conversion::ConversionSettings&) {
  if (node.name().rfind("override_me", 0) == 0) return atenrt::conversion::Capability::yes();
  return atenrt::conversion::Capability::no("not a node this test overrides");
}

// relu as sigmoid: a visibly different layer.
ATENRT_CONVERTER(kUserFamily, "aten.relu.default", .validator = only_named_override,
                 .priority = atenrt::conversion::Priority::High)
(const atenrt::conversion::Scope& s, const atenrt::conversion::NodeArgs& args) {
  return {s.add_activation("", args.tensor("self"), atenrt::network::ActivationOp::Sigmoid)};
}

}  // namespace

namespace atenrt::conversion {
namespace {

using testing::GraphBuilder;

TEST(UserOverride, TakesTheNodesItsValidatorAcceptsAndLeavesTheRest) {
  const auto cands = ConverterRegistry::global().candidates("aten.relu.default");
  ASSERT_GE(cands.size(), 2u);
  EXPECT_EQ(cands[0]->family, "user_override_test");
  EXPECT_EQ(cands[1]->family, "activation");

  GraphBuilder b;
  b.input("x", DType::Float32, {4});
  b.node("override_me", "aten.relu.default", {GraphBuilder::arg("self", GraphBuilder::t("x"))}, DType::Float32, {4});
  b.node("plain", "aten.relu.default", {GraphBuilder::arg("self", GraphBuilder::t("override_me"))}, DType::Float32, {4});
  b.output("plain");
  ConvertedGraph out = convert_graph(b.g);
  const auto* first = out.network.find_layer("[aten]-[override_me]");
  const auto* second = out.network.find_layer("[aten]-[plain]");
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(first->params_as<network::ActivationParams>().op, network::ActivationOp::Sigmoid);
  EXPECT_EQ(second->params_as<network::ActivationParams>().op, network::ActivationOp::Relu);
}

}  // namespace
}  // namespace atenrt::conversion
