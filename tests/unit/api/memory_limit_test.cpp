// Hostile sizes that reach the engine (issue 17): the memory limit and
// checked size arithmetic turn them into clear atenrt errors with the sizes
// in the message, before any kernel library sees them.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "atenrt/atenrt.h"
#include "test_paths.h"

using namespace atenrt;

namespace {

std::string resources(const std::string& name) {
  return std::string(ATENRT_CORPUS_DIR) + "/resources/small/" + name;
}

std::string message_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

// Regression: activations patched to 2^36 rows crashed `atenrt compile` and
// `bench` with SIGFPE inside oneDNN's matmul primitive creation; every tensor
// is now checked against the memory limit before a kernel is made.
TEST(MemoryLimit, ActivationsOf2To36RowsAreRefusedBeforeAnyKernel) {
  const std::string msg = message_of([] { compile(resources("linear_2_36_rows.pt2")); });
  EXPECT_NE(msg.find("engine: tensor 'x' (float32[68719476736, 4]) needs 1.0 TiB"), std::string::npos) << msg;
  EXPECT_NE(msg.find("more than the memory limit"), std::string::npos) << msg;
}

}  // namespace
