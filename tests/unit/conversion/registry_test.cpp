// The registry's rules: priority, registration order, validators, the
// dynamic-shape flag, duplicates and a user's override.
#include <gtest/gtest.h>

#include "conversion/context.h"
#include "conversion/registry.h"
#include "conversion/scope.h"
#include "support/graph_builder.h"

namespace atenrt::conversion {
namespace {

using testing::GraphBuilder;

// A converter that records which registration ran by the layer it adds.
ConverterFn tagging(network::UnaryOp op) {
  return [op](const Scope& s, const NodeArgs& args) -> Outputs {
    return {s.add_unary("", args.tensor("self"), op)};
  };
}

// A registration for aten.relu.default, built field by field in a named local:
// brace-initializing it as a temporary inside reg.add({...}) makes gcc 12 at
// -O3 warn (-Wmaybe-uninitialized) about the std::function members' manager.
ConverterRegistration registration(std::string family, ConverterFn convert, ConverterOptions options,
                                   std::string source) {
  ConverterRegistration r;
  r.key = "aten.relu.default";
  r.family = std::move(family);
  r.convert = std::move(convert);
  r.options = std::move(options);
  r.source = std::move(source);
  r.order = 0;
  return r;
}

struct Fixture : ::testing::Test {
  GraphBuilder b;
  ConversionSettings settings;
  void SetUp() override {
    b.input("x", DType::Float32, {2, 3});
    b.node("relu", "aten.relu.default", {GraphBuilder::arg("self", GraphBuilder::t("x"))}, DType::Float32, {2, 3});
    b.output("relu");
  }
  NodeView view() const { return NodeView(b.g, b.g.nodes[0]); }
};

TEST_F(Fixture, HighPriorityIsTriedFirstWhateverTheOrder) {
  ConverterRegistry reg;
  reg.add(registration("a", tagging(network::UnaryOp::Exp), {}, "t"));
  reg.add(registration("b", tagging(network::UnaryOp::Log), {.priority = Priority::High}, "t"));
  auto sel = reg.select(view(), settings);
  ASSERT_NE(sel.chosen, nullptr);
  EXPECT_EQ(sel.chosen->family, "b");
}

TEST_F(Fixture, RegistrationOrderWithinAPriority) {
  ConverterRegistry reg;
  reg.add(registration("first", tagging(network::UnaryOp::Exp), {}, "t"));
  reg.add(registration("second", tagging(network::UnaryOp::Log), {}, "t"));
  EXPECT_EQ(reg.select(view(), settings).chosen->family, "first");
}

TEST_F(Fixture, ARefusingValidatorFallsThroughWithItsReason) {
  ConverterRegistry reg;
  reg.add(registration("picky", tagging(network::UnaryOp::Exp),
           {.validator = [](const NodeView&, const ConversionSettings&) { return Capability::no("never"); },
            .priority = Priority::High},
           "t"));
  reg.add(registration("plain", tagging(network::UnaryOp::Log), {}, "t"));
  auto sel = reg.select(view(), settings);
  ASSERT_NE(sel.chosen, nullptr);
  EXPECT_EQ(sel.chosen->family, "plain");
  ASSERT_EQ(sel.refusals.size(), 1u);
  EXPECT_EQ(sel.refusals[0], "picky converter: never");
}

TEST_F(Fixture, AllRefusedGivesEveryReason) {
  ConverterRegistry reg;
  reg.add(registration("a", tagging(network::UnaryOp::Exp),
           {.validator = [](const NodeView&, const ConversionSettings&) { return Capability::no("r1"); }}, "t"));
  reg.add(registration("b", tagging(network::UnaryOp::Exp),
           {.validator = [](const NodeView&, const ConversionSettings&) { return Capability::no("r2"); }}, "t"));
  auto sel = reg.select(view(), settings);
  EXPECT_EQ(sel.chosen, nullptr);
  EXPECT_EQ(sel.reason(), "a converter: r1; b converter: r2");
}

TEST_F(Fixture, DisabledRegistrationsAreSkipped) {
  ConverterRegistry reg;
  reg.add(registration("off", tagging(network::UnaryOp::Exp), {.enabled = false}, "t"));
  auto sel = reg.select(view(), settings);
  EXPECT_EQ(sel.chosen, nullptr);
  EXPECT_NE(sel.reason().find("no converter is registered for aten.relu.default"), std::string::npos);
}

TEST_F(Fixture, DuplicateKeyPriorityAndFamilyIsAnError) {
  ConverterRegistry reg;
  reg.add(registration("activation", tagging(network::UnaryOp::Exp), {}, "one.cpp"));
  try {
    reg.add(registration("activation", tagging(network::UnaryOp::Exp), {}, "two.cpp"));
    FAIL() << "expected a duplicate error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("duplicate converter for aten.relu.default"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("one.cpp"), std::string::npos);
  }
  // Same key at another priority, or from another family, is allowed.
  EXPECT_NO_THROW(reg.add(registration("activation", tagging(network::UnaryOp::Exp),
                           {.priority = Priority::High}, "three.cpp")));
  EXPECT_NO_THROW(reg.add(registration("user", tagging(network::UnaryOp::Exp), {}, "four.cpp")));
}

TEST_F(Fixture, DynamicShapesNeedTheFlagOrTheSetting) {
  GraphBuilder d;
  d.input("x", DType::Float32, {-1, 3});
  d.node("relu", "aten.relu.default", {GraphBuilder::arg("self", GraphBuilder::t("x"))}, DType::Float32, {-1, 3});
  ConverterRegistry reg;
  reg.add(registration("static_only", tagging(network::UnaryOp::Exp), {}, "t"));
  NodeView v(d.g, d.g.nodes[0]);
  auto sel = reg.select(v, settings);
  EXPECT_EQ(sel.chosen, nullptr);
  EXPECT_EQ(sel.reason(), "static_only converter: does not support dynamic shapes");
  ConversionSettings assume;
  assume.assume_dynamic_shape_support = true;
  EXPECT_NE(reg.select(v, assume).chosen, nullptr);
}

TEST_F(Fixture, OverloadlessTargetFallsBackToDefault) {
  ir::OpName packet = ir::OpName::parse("aten.sym_size");
  auto keys = lookup_keys(packet);
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[1], "aten.sym_size.default");
  EXPECT_EQ(lookup_keys(ir::OpName::parse("operator.getitem")).size(), 1u);
}

TEST(GlobalRegistry, HasNoDuplicatesAndEveryEntryHasAFamily) {
  const auto all = ConverterRegistry::global().all();
  EXPECT_GT(all.size(), 100u);
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_FALSE(all[i]->family.empty()) << all[i]->key;
    if (i > 0 && all[i]->key == all[i - 1]->key) {
      EXPECT_FALSE(all[i]->options.priority == all[i - 1]->options.priority && all[i]->family == all[i - 1]->family)
          << all[i]->key;
    }
  }
}

}  // namespace
}  // namespace atenrt::conversion
