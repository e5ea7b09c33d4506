// Hostile sizes that reach the engine (issue 17): the memory limit and
// checked size arithmetic turn them into clear atenrt errors with the sizes
// in the message, before any kernel library sees them.
#include <gtest/gtest.h>

#include <cstdio>
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
  const std::string path = testing::TempDir() + "/memory_limit_engine.atrt";
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

}  // namespace
