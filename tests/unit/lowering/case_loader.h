// Loads the PyTorch-computed decomposition cases (tests/lowering/make_cases.py)
// into one-node graphs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "ref_eval.h"

namespace atenrt::lowering::testing {

struct LoweringCase {
  std::string name;
  std::string op;
  ir::Graph graph;  // user inputs → one node → outputs
  std::map<std::string, RefTensor> inputs;
  std::vector<RefTensor> expected;  // PyTorch's outputs
  std::vector<std::string> expected_ops;
  std::vector<std::string> unexpected_ops;
};

// The directory of generated cases: $ATENRT_LOWERING_CASES_DIR, or one made
// now with /usr/bin/python3 under the build dir; nullopt (with `why`) when
// neither is possible.
std::optional<std::string> cases_dir(std::string& why);
std::vector<std::string> case_names(const std::string& dir);
LoweringCase load_case(const std::string& dir, const std::string& name);

}  // namespace atenrt::lowering::testing
