// Every decomposition against PyTorch: the lowered one-node graph holds the
// case's expected ops and none of its unexpected ones, and its values (the
// lowered graph converted and run by the reference executor) match PyTorch's
// within rtol = atol = 1e-4. (The API tests run the same cases on the engine.)
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>

#include "case_loader.h"
#include "lowering/graph_utils.h"
#include "lowering/lower.h"
#include "lowering/registry.h"
#include "support/reference_run.h"

namespace atenrt::lowering::testing {
namespace {

using DecompositionCases = LoweringCasesTest;

TEST_F(DecompositionCases, LoweredGraphsHaveTheExpectedOpsAndMatchPyTorch) {
  for (const auto& name : names_) {
    SCOPED_TRACE("case " + name);
    LoweringCase c = load_case(dir_, name);
    const std::string before = graph_to_string(c.graph);
    LoweringReport report;
    try {
      report = lower(c.graph, LoweringSettings{});
    } catch (const std::exception& e) {
      ADD_FAILURE() << "lowering threw: " << e.what() << "\nbefore:\n" << before;
      continue;
    }
    const std::string context = "\nbefore:\n" + before + "after:\n" + graph_to_string(c.graph) + report.to_string();
    EXPECT_TRUE(report.decomposed(c.op)) << c.op << " was not decomposed" << context;
    const auto hist = op_histogram(c.graph);
    for (const auto& op : c.expected_ops) EXPECT_TRUE(hist.contains(op)) << "missing " << op << context;
    for (const auto& op : c.unexpected_ops) EXPECT_FALSE(hist.contains(op)) << "still has " << op << context;
    std::vector<Tensor> got;
    try {
      got = atenrt::testing::run_on_reference(c.graph, c.inputs);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "evaluation failed: " << e.what() << context;
      continue;
    }
    ASSERT_EQ(got.size(), c.expected.size()) << context;
    for (std::size_t i = 0; i < got.size(); ++i) {
      const std::string diff = compare_to_pytorch(got[i], c.expected[i]);
      EXPECT_TRUE(diff.empty()) << "output " << i << ": " << diff << context;
    }
  }
}

// The test harness itself must fail on a wrong result: perturb one output
// of the first case with a float32 output.
TEST_F(DecompositionCases, ComparisonCatchesAWrongValue) {
  for (const auto& name : names_) {
    const LoweringCase c = load_case(dir_, name);
    const Tensor want = c.expected[0].contiguous();
    if (want.dtype() != DType::Float32 || want.numel() == 0) continue;
    Tensor wrong(want.dtype(), want.sizes());
    std::memcpy(wrong.raw_mutable_data(), want.raw_data(), static_cast<std::size_t>(want.numel()) * sizeof(float));
    ASSERT_TRUE(compare_to_pytorch(wrong, want).empty()) << name;
    float& first = wrong.mutable_data<float>()[0];
    first += 1e-2f + 1e-2f * std::abs(first);
    EXPECT_FALSE(compare_to_pytorch(wrong, want).empty()) << name;
    return;
  }
  FAIL() << "no case has a float32 output";
}

TEST_F(DecompositionCases, EveryRegisteredDecompositionHasACase) {
  std::set<std::string> covered;
  for (const auto& name : names_) covered.insert(load_case(dir_, name).op);
  for (const auto* d : DecompositionRegistry::instance().all()) {
    if (d->key.starts_with("aten.lowering_test_")) continue;  // test-only registrations
    EXPECT_TRUE(covered.contains(d->key)) << d->key << " has no case in tests/lowering/cases.py";
  }
}

}  // namespace
}  // namespace atenrt::lowering::testing
