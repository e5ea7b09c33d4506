// Loads the PyTorch-computed decomposition cases (tests/lowering/make_cases.py)
// into one-node graphs.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "atenrt/tensor.h"
#include "ir/graph.h"
#include "support/fixtures.h"

namespace atenrt::lowering::testing {

struct LoweringCase {
  std::string name;
  std::string op;
  ir::Graph graph;  // user inputs → one node → outputs
  std::map<std::string, Tensor> inputs;
  std::vector<Tensor> expected;  // PyTorch's outputs
  std::vector<std::string> expected_ops;
  std::vector<std::string> unexpected_ops;
};

// The directory of generated cases: $ATENRT_LOWERING_CASES_DIR, or one made
// now with /usr/bin/python3 under the build dir; nullopt (with `why`) when
// neither is possible.
std::optional<std::string> cases_dir(std::string& why);
std::vector<std::string> case_names(const std::string& dir);
LoweringCase load_case(const std::string& dir, const std::string& name);

// "" when `got` matches PyTorch's `want` (support/compare.h with rtol = atol =
// 1e-4: same dtype and sizes, NaN matches NaN, an infinity only itself,
// integers exactly), else where and how it differs.
std::string compare_to_pytorch(const Tensor& got, const Tensor& want);

// A test over every generated case; skips (with the reason) when there are none.
class LoweringCasesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    auto dir = cases_dir(why);
    if (!dir) ATENRT_FIXTURE_MISSING(why);
    dir_ = *dir;
    names_ = case_names(dir_);
    ASSERT_FALSE(names_.empty()) << "no cases in " << dir_;
  }
  std::string dir_;
  std::vector<std::string> names_;
};

}  // namespace atenrt::lowering::testing
