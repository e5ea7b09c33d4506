// Hostile sizes that reach the engine (issue 17): the memory limit and
// checked size arithmetic turn them into clear atenrt errors with the sizes
// in the message, before any kernel library sees them.
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <string>

#include "atenrt/atenrt.h"
#include "runtime/memory_plan.h"
#include "runtime/program.h"
#include "test_paths.h"
#include "support/temp_path.h"

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
// is now checked against the memory limit before the builder computes
// anything and again before a kernel is made (engine files).
TEST(MemoryLimit, ActivationsOf2To36RowsAreRefusedBeforeAnyKernel) {
  const std::string msg = message_of([] { compile(resources("linear_2_36_rows.pt2")); });
  EXPECT_NE(msg.find("builder: tensor 'x' (float32[68719476736, 4]) needs 1.0 TiB"), std::string::npos) << msg;
  EXPECT_NE(msg.find("more than the memory limit"), std::string::npos) << msg;
}

// x[16384, 4] -> linear -> add -> clamp: no tensor is over 256 KiB, but the
// activations and the output together are.
TEST(MemoryLimit, PlanBeyondTheSettingIsRefusedWithItsSizes) {
  CompileSettings s;
  EXPECT_NO_THROW(compile(resources("linear_16384_rows.pt2"), s));
  s.max_memory = 300 << 10;
  const std::string msg = message_of([&] { compile(resources("linear_16384_rows.pt2"), s); });
  EXPECT_NE(msg.find("engine: the plan needs"), std::string::npos) << msg;
  EXPECT_NE(msg.find("activations "), std::string::npos) << msg;
  EXPECT_NE(msg.find("outputs 192.0 KiB"), std::string::npos) << msg;
  EXPECT_NE(msg.find("memory limit of 300.0 KiB"), std::string::npos) << msg;
}

TEST(MemoryLimit, ReaderHoldsNoMoreThanTheLimit) {
  CompileSettings s;
  s.max_memory = 40;  // fc.weight alone is 48 bytes
  const std::string path = std::string(ATENRT_CORPUS_DIR) + "/valid/program_raw.pt2";
  for (const auto& msg : {message_of([&] { compile(path, s); }), message_of([&] { dry_run(path, s); })}) {
    EXPECT_NE(msg.find("more than the reader's memory limit allows"), std::string::npos) << msg;
    EXPECT_NE(msg.find("program_raw.pt2"), std::string::npos) << msg;
  }
}

// The limit is a load-time setting: an engine file is checked against the
// limit of the process that loads it, and the message names the file.
TEST(MemoryLimit, EngineFilesAreCheckedWhenLoaded) {
  const std::string path = atenrt::testing::temp_path("memory_limit_engine.atrt");
  compile(resources("linear_16384_rows.pt2")).save(path);
  CompileSettings s;
  s.max_memory = 16 << 10;
  const std::string msg = message_of([&] { Engine::load(path, s); });
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
  EXPECT_NE(msg.find("more than the memory limit of 16.0 KiB"), std::string::npos) << msg;
  const Engine loaded = Engine::load(path);
  EXPECT_NE(message_of([&] { loaded.with_load_settings(s); }).find("memory limit of 16.0 KiB"), std::string::npos);
  s.max_memory = 1ll << 30;
  EXPECT_NO_THROW(Engine::load(path, s));
  std::remove(path.c_str());
}

// A creation op claiming 2^38 elements: constant folding would have run the
// reference fill on the host (std::bad_alloc, "internal error"); the builder
// checks every network tensor before any pass computes.
TEST(MemoryLimit, CreationOpOf2To38ElementsIsRefusedBeforeFolding) {
  const std::string msg = message_of([] { compile(resources("ones_2_38_elements.pt2")); });
  EXPECT_NE(msg.find("builder: tensor 'ones' (float32[274877906944]), output of layer"), std::string::npos) << msg;
  EXPECT_NE(msg.find("needs 1.0 TiB"), std::string::npos) << msg;
  EXPECT_NE(msg.find("more than the memory limit"), std::string::npos) << msg;
}

// A 2^38-element tensor allocated on the host is an atenrt error, never a
// std::bad_alloc that the CLI would print as an internal error.
TEST(MemoryLimit, HugeHostTensorIsAnAtenrtError) {
  const std::string msg = message_of([] { Tensor(DType::Float32, {1 << 19, 1 << 19}); });  // 1 TiB
  EXPECT_NE(msg.find("a float32[524288, 524288] tensor needs 1.0 TiB"), std::string::npos) << msg;
  EXPECT_NE(msg.find("more than this machine's memory"), std::string::npos) << msg;
  EXPECT_NE(message_of([] { Tensor(DType::Float32, {1ll << 62, 8}); }).find("overflows"), std::string::npos);
}

// Checked size arithmetic, one case per site class: an overflow is an error
// naming the value, never a wrapped size.
TEST(CheckedSizes, ElementsBytesStridesPlansOverflowIntoErrors) {
  const std::vector<std::int64_t> huge = {1ll << 40, 1ll << 40};
  EXPECT_NE(message_of([&] { numel_of(huge); }).find("[1099511627776, 1099511627776] has more elements"),
            std::string::npos);
  EXPECT_NE(message_of([&] { contiguous_strides({2, 1ll << 40, 1ll << 40}); }).find("strides overflow"),
            std::string::npos);
  runtime::ProgramTensor t;
  t.name = "act";
  t.dims = {1ll << 31, 1ll << 31};  // 2^62 elements, 2^64 bytes
  const std::string bytes = message_of([&] { runtime::tensor_bytes(t); });
  EXPECT_NE(bytes.find("tensor 'act' float32[2147483648, 2147483648]"), std::string::npos) << bytes;
  EXPECT_NE(bytes.find("overflows"), std::string::npos) << bytes;
  // Two live buffers that each fit in size_t but not together in the arena.
  const std::vector<runtime::BufferRequest> plan = {{std::size_t{1} << 62, 0, 1}, {std::size_t{1} << 62, 0, 1}};
  for (bool reuse : {true, false}) {
    const std::string msg = message_of([&] { runtime::plan_memory(plan, reuse); });
    EXPECT_NE(msg.find("memory plan: arena bytes"), std::string::npos) << msg;
  }
  EXPECT_EQ(runtime::plan_memory({{100, 0, 0}, {100, 1, 1}}).arena_bytes, 128u);  // reuse still works
}

}  // namespace
