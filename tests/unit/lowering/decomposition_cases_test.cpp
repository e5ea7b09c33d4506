// Every decomposition against PyTorch: the lowered one-node graph holds the
// case's expected ops and none of its unexpected ones, and its values (by
// the test reference evaluator) match PyTorch's within rtol = atol = 1e-4.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "case_loader.h"
#include "lowering/graph_utils.h"
#include "lowering/lower.h"
#include "lowering/registry.h"

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
    std::vector<RefTensor> got;
    try {
      got = ref_evaluate(c.graph, c.inputs);
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

// The test harness itself must fail on a wrong result: perturb one output.
TEST_F(DecompositionCases, ComparisonCatchesAWrongValue) {
  LoweringCase c = load_case(dir_, names_.front());
  RefTensor wrong = c.expected[0];
  ASSERT_FALSE(wrong.data.empty());
  wrong.data[0] += 1e-2 + 1e-2 * std::abs(wrong.data[0]);
  EXPECT_FALSE(compare_to_pytorch(wrong, c.expected[0]).empty());
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
