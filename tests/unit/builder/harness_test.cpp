// The builder tests' comparison must fail when the engine loses an output:
// the second network (the one the engine is built from) drops one of the two
// outputs the reference computes.
#include <gtest/gtest-spi.h>

#include "support/engine_check.h"

namespace atenrt::testing {
namespace {

using namespace atenrt::network;

Network two_outputs(bool drop_second) {
  Network n;
  auto* x = n.add_input("x", DType::Float32, {2, 3});
  n.mark_output(n.add_activation("r", x, ActivationOp::Relu));
  auto* s = n.add_activation("s", x, ActivationOp::Sigmoid);
  if (!drop_second) n.mark_output(s);
  return n;
}

int calls = 0;
void compare_with_a_dropped_output() {
  calls = 0;
  expect_engine_matches_reference([] { return two_outputs(calls++ > 0); }, {}, 1e-5, "dropped output");
}

TEST(Harness, ADroppedOutputFails) {
  EXPECT_FATAL_FAILURE(compare_with_a_dropped_output(), "engine output count");
}

TEST(Harness, TheSameNetworkPasses) {
  expect_engine_matches_reference([] { return two_outputs(false); }, {}, 1e-5, "both outputs");
}

}  // namespace
}  // namespace atenrt::testing
