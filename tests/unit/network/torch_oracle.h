// Differential harness: a table of cases, each a small Network and the
// PyTorch expression it must match. Inputs are generated here (seeded),
// written as .npz, evaluated by one /usr/bin/python3 run for all cases, and
// compared with the reference executor's outputs.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "atenrt/tensor.h"
#include "network/network.h"

namespace atenrt::testing {

enum class Gen {
  Normal,       // N(0, 2)
  Positive,     // (0.1, 3)
  Unit,         // (-0.9, 0.9)
  AboveOne,     // (1, 4)
  HalfSteps,    // k/2 for k in [-8, 8]: exercises round-half-even
  SmallInt,     // integers in [-6, 6] (as the dtype)
  NonZeroInt,   // integers in [-6, 6] without 0
  Exponent,     // integers in [0, 3]
  Bool,
  Special,      // normal values mixed with nan, inf, -inf
  Index,        // indices in [0, bound)
  IndexNeg,     // indices in [-bound, bound)
  Distinct,     // per last-dim row, distinct indices in [0, bound)
  Wide,         // integers in [-300, 300]
};

struct InputSpec {
  DType dtype = DType::Float32;
  network::Dims dims;
  Gen gen = Gen::Normal;
  std::int64_t bound = 0;  // Index / IndexNeg / Distinct
};

// Builds the network from its inputs and returns the outputs, in the order
// of the expression's results.
using Builder = std::function<std::vector<network::NetworkTensor*>(
    network::Network&, const std::vector<network::NetworkTensor*>&)>;

struct OracleCase {
  std::string name;  // unique, [A-Za-z0-9_]
  std::vector<InputSpec> inputs;
  std::string expr;  // Python over x0, x1, ...; torch, F (functional), math
  Builder build;
  double rtol = 1e-5;
  double atol = 1e-6;
};

// Runs every case; returns one failure message per failing case (empty when
// all pass). Sets `skipped` when torch is not available.
struct OracleResult {
  std::vector<std::string> failures;
  int checked = 0;
  bool torch_missing = false;
};
OracleResult run_oracle(const std::vector<OracleCase>& cases);

}  // namespace atenrt::testing
