// The engine-file fuzz seed with Check layers (tests/fuzz/engine_corpus/run_time_checks.atrt, compiled
// from tests/corpus/valid/run_time_checks.pt2, make_corpus.py run_time_checks_program): it loads as
// the current format reads it, and its two checks act as Python would. x [s0, 3], s0 in [2, 64]:
// `_assert_async(sum(x) > -1)`, then y = x * math.sqrt(5 - s0).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "atenrt/atenrt.h"
#include "atenrt/errors.h"
#include "test_paths.h"

using namespace atenrt;

namespace {

Tensor rows_of(std::int64_t rows, float v) {
  Tensor x(DType::Float32, {rows, 3});
  for (std::int64_t i = 0; i < rows * 3; ++i) x.mutable_data<float>()[i] = v;
  return x;
}

std::string error_of(ExecutionContext& ctx, const Tensor& x) {
  try {
    ctx.run({x});
  } catch (const InputError& e) {
    return e.what();
  }
  return "ran";
}

TEST(RunTimeChecksFile, TheFuzzSeedLoadsAndItsChecksActAsPythonDoes) {
  for (const char* file : {"/tests/fuzz/engine_corpus/run_time_checks.atrt", "/tests/corpus/valid/run_time_checks.pt2"}) {
    SCOPED_TRACE(file);
    const std::string path = std::string(ATENRT_SOURCE_DIR) + file;
    Engine engine = std::string(file).ends_with(".atrt") ? Engine::load(path) : compile(path);
    auto ctx = engine.create_context();
    for (std::int64_t rows : {2, 4, 5}) {
      const auto& out = ctx.run({rows_of(rows, 1.5f)});
      EXPECT_EQ(out[0].data<float>()[0], 1.5f * std::sqrt(static_cast<float>(5 - rows))) << rows;
    }
    std::string e = error_of(ctx, rows_of(6, 1.0f));
    EXPECT_NE(e.find("node 'sqrt' (math.sqrt): math.sqrt of a negative number"), std::string::npos) << e;
    e = error_of(ctx, rows_of(3, -1.0f));
    EXPECT_NE(e.find("node '_assert_async' (aten._assert_async.msg): the assertion 'sum(x) > -1' is false"),
              std::string::npos) << e;
  }
}

}  // namespace
