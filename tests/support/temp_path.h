// A file name in the test temp dir that no other process uses: several test
// runs (ctest -j, a landing and an engineer's run) share /tmp.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

namespace atenrt::testing {

inline std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "/atenrt_" + std::to_string(::getpid()) + "_" + name;
}

}  // namespace atenrt::testing
