// Fixtures that tests read from outside the repository (PyTorch-made cases and
// models). ctest counts a skipped test as passed, so a missing fixture may only
// skip when a person runs the tests by hand: with ATENRT_REQUIRE_FIXTURES=1
// (scripts/test.sh, CI) it is a failure. The C++ counterpart of
// ATENRT_REQUIRE_PYTHON_MODULE in tests/python.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace atenrt::testing {

inline bool fixtures_required() {
  const char* e = std::getenv("ATENRT_REQUIRE_FIXTURES");
  return e && std::string(e) == "1";
}

}  // namespace atenrt::testing

// Skips (by hand) or fails (CI) the current test, saying why; returns from it.
#define ATENRT_FIXTURE_MISSING(why)                                                    \
  do {                                                                                \
    if (::atenrt::testing::fixtures_required()) {                                     \
      FAIL() << "missing fixture (ATENRT_REQUIRE_FIXTURES=1 makes this a failure): " \
             << why;                                                                  \
    }                                                                                 \
    GTEST_SKIP() << why;                                                              \
  } while (0)
