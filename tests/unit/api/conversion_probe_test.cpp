// The dry run and the partition put the validators' answers to the test by
// converting (conversion::probe_conversion): a node whose validator accepts
// it and whose converter then fails counts as unsupported, with the
// converter's reason. The report never calls supported what conversion
// refuses, and a build with the fallback runs that node in libtorch.
#include <gtest/gtest.h>

#include <cmath>

#include "api/pipeline.h"
#include "atenrt/atenrt.h"
#include "conversion/registry.h"
#include "conversion/scope.h"
#include "runtime/torch_plugin.h"
#include "support/graph_builder.h"

namespace {

constexpr atenrt::conversion::Family kLateFamily{.name = "conversion_probe_test"};

atenrt::conversion::Capability only_late_refusals(const atenrt::conversion::NodeView& node,
                                                  const atenrt::conversion::ConversionSettings&) {
  if (node.name().rfind("late_refusal", 0) == 0) return atenrt::conversion::Capability::yes();
  return atenrt::conversion::Capability::no("not a node this test takes");
}

// A validator that says yes and a converter that then says no: what the
// remaining mid-conversion checks of any converter look like to the pipeline.
ATENRT_CONVERTER(kLateFamily, "aten.sigmoid.default", .validator = only_late_refusals,
                 .priority = atenrt::conversion::Priority::High)
(const atenrt::conversion::Scope&, const atenrt::conversion::NodeArgs&) {
  throw atenrt::UnsupportedError("this test's converter refuses at conversion time");
}

}  // namespace

namespace atenrt {
namespace {

using testing::GraphBuilder;

// x -> relu -> sigmoid (refused late) -> relu -> output
ir::ExportedProgram late_refusal_program() {
  GraphBuilder b;
  b.input("x", DType::Float32, {2, 3});
  b.node("first", "aten.relu.default", {GraphBuilder::arg("self", GraphBuilder::t("x"))}, DType::Float32, {2, 3});
  b.node("late_refusal", "aten.sigmoid.default", {GraphBuilder::arg("self", GraphBuilder::t("first"))},
         DType::Float32, {2, 3});
  b.node("after", "aten.neg.default", {GraphBuilder::arg("self", GraphBuilder::t("late_refusal"))}, DType::Float32,
         {2, 3});
  b.output("after");
  ir::ExportedProgram program;
  program.graph = b.g;
  return program;
}

TEST(ConversionProbe, ALateRefusalIsReportedAsUnsupportedWithTheConvertersReason) {
  CompileSettings settings;
  settings.require_full_compilation = true;
  CompileReport report;
  try {
    api::compile_program(late_refusal_program(), settings, &report);
    FAIL() << "require_full_compilation must refuse a node its converter refuses";
  } catch (const UnsupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("require_full_compilation"), std::string::npos) << e.what();
  }
  EXPECT_EQ(report.total_ops, 3);
  EXPECT_EQ(report.supported_ops, 2) << report.partition;
  ASSERT_EQ(report.dry_run.unsupported.size(), 1u) << report.partition;
  EXPECT_EQ(report.dry_run.unsupported[0].node, "late_refusal");
  EXPECT_EQ(report.dry_run.unsupported[0].reason, "this test's converter refuses at conversion time");
}

TEST(ConversionProbe, TheRefusedNodeRunsInTheFallbackAndItsUsersStillConvert) {
  if (!runtime::torch_fallback_built()) GTEST_SKIP() << "built without ATENRT_WITH_TORCH";
  CompileSettings settings;
  settings.min_block_size = 1;
  CompileReport report;
  Engine engine = api::compile_program(late_refusal_program(), settings, &report);
  EXPECT_EQ(report.dry_run.engine_segments(), 2) << report.partition;  // relu | sigmoid in torch | neg
  auto ctx = engine.create_context();
  Tensor x(DType::Float32, {2, 3});
  const float values[] = {-2.0f, -0.5f, 0.0f, 0.25f, 1.5f, 3.0f};
  for (int i = 0; i < 6; ++i) x.mutable_data<float>()[i] = values[i];
  const auto& out = ctx.run({x});
  ASSERT_EQ(out.size(), 1u);
  for (int i = 0; i < 6; ++i) {
    const float want = -1.0f / (1.0f + std::exp(-std::max(values[i], 0.0f)));
    EXPECT_NEAR(out[0].data<float>()[i], want, 1e-6f) << i;
  }
}

}  // namespace
}  // namespace atenrt
