// The C++ API end to end on the PyTorch fixtures of tests/tools/make_fixtures.py
// ($ATENRT_FIXTURES_DIR): compile, run and compare with PyTorch's eager
// outputs; engine files; settings that refuse; wrong inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "atenrt/atenrt.h"
#include "atenrt/inspect.h"
#include "ir/npz.h"
#include "runtime/torch_plugin.h"
#include "support/fixtures.h"

namespace fs = std::filesystem;
using namespace atenrt;

namespace {

std::string fixtures() {
  const char* dir = std::getenv("ATENRT_FIXTURES_DIR");
  return dir ? dir : "";
}

#define REQUIRE_FIXTURES()                                                                     \
  if (fixtures().empty()) ATENRT_FIXTURE_MISSING("ATENRT_FIXTURES_DIR is not set (scripts/test.sh sets it)")

std::string model(const std::string& name, const std::string& layout = "pt2") {
  return fixtures() + "/" + name + "." + layout + ".pt2";
}

// |a - b| <= atol + rtol * |b| element-wise, for float32 outputs; exact otherwise.
void expect_close(const Tensor& got, const Tensor& want, double rtol, const std::string& what) {
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  ASSERT_EQ(got.sizes(), want.sizes()) << what;
  const Tensor g = got.contiguous();
  const Tensor w = want.contiguous();
  if (want.dtype() != DType::Float32) {
    EXPECT_EQ(g.to_bytes(), w.to_bytes()) << what;
    return;
  }
  for (std::int64_t i = 0; i < w.numel(); ++i) {
    const double a = g.data<float>()[i];
    const double b = w.data<float>()[i];
    ASSERT_LE(std::abs(a - b), rtol + rtol * std::abs(b)) << what << " element " << i;
  }
}

// expect_close without gtest assertions, for worker threads.
bool matches(const Tensor& got, const Tensor& want, double rtol) {
  if (got.dtype() != want.dtype() || got.sizes() != want.sizes()) return false;
  const Tensor g = got.contiguous(), w = want.contiguous();
  if (want.dtype() != DType::Float32) return g.to_bytes() == w.to_bytes();
  double scale = 0;
  for (std::int64_t i = 0; i < w.numel(); ++i) scale = std::max(scale, std::abs(static_cast<double>(w.data<float>()[i])));
  for (std::int64_t i = 0; i < w.numel(); ++i) {
    if (!(std::abs(static_cast<double>(g.data<float>()[i]) - w.data<float>()[i]) <= rtol * scale)) return false;
  }
  return true;
}

void check_model(const std::string& name, const CompileSettings& settings, double rtol) {
  auto inputs = io::read_npz(fixtures() + "/" + name + ".inputs.npz");
  auto expected = io::read_npz(fixtures() + "/" + name + ".outputs.npz");
  Engine engine = compile(model(name), settings);
  ASSERT_EQ(engine.inputs().size(), inputs.size());
  auto ctx = engine.create_context();
  const auto& outputs = ctx.run(inputs);
  ASSERT_EQ(outputs.size(), expected.size());
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    expect_close(outputs[i], expected[i], rtol, name + " output " + std::to_string(i));
  }
}

TEST(Api, FixtureModelsMatchPyTorch) {
  REQUIRE_FIXTURES();
  for (const char* name : {"tiny_cnn", "transformer", "dtypes", "int_bool", "strided"}) {
    SCOPED_TRACE(name);
    check_model(name, {}, 1e-4);
  }
}

TEST(Api, EveryLayoutCompilesToTheSameResult) {
  REQUIRE_FIXTURES();
  auto inputs = io::read_npz(fixtures() + "/tiny_cnn.inputs.npz");
  std::vector<std::vector<std::byte>> results;
  for (const char* layout : {"pt2", "pt2-pickle", "legacy"}) {
    Engine engine = compile(model("tiny_cnn", layout));
    auto ctx = engine.create_context();
    results.push_back(ctx.run(inputs).at(0).to_bytes());
  }
  EXPECT_EQ(results[0], results[1]);
  EXPECT_EQ(results[0], results[2]);
}

TEST(Api, OptimizationLevelsAndLoweringOffAgree) {
  REQUIRE_FIXTURES();
  for (int level = 0; level <= 3; ++level) {
    CompileSettings s;
    s.optimization_level = level;
    s.lowering = level != 0;
    SCOPED_TRACE("optimization level " + std::to_string(level));
    check_model("tiny_cnn", s, 1e-4);
  }
}

// Steps of describe() that say they compute in bf16.
int bf16_steps(const Engine& engine) {
  int n = 0;
  const std::string text = engine.describe();
  for (std::size_t at = text.find("  bf16"); at != std::string::npos; at = text.find("  bf16", at + 1)) ++n;
  return n;
}

// Whether this CPU has fast bf16 kernels (the builder's own answer): where it
// has none, a bf16 compile keeps fp32 and says so.
bool native_bf16() {
  const auto& p = build_info().precisions;
  return std::find(p.begin(), p.end(), "bf16") != p.end();
}

TEST(Api, Bf16WithoutNativeKernelsStaysFp32AndSaysWhy) {
  REQUIRE_FIXTURES();
  if (std::getenv("ATENRT_TEST_NO_NATIVE_BF16")) {
    EXPECT_FALSE(native_bf16()) << "ONEDNN_MAX_CPU_ISA=AVX2 (ctest)";
  }
  CompileSettings s;
  s.precision = Precision::BF16;
  CompileReport report;
  const Engine engine = compile(model("tiny_cnn"), s, &report);
  if (native_bf16()) {
    EXPECT_TRUE(report.warnings.empty());
    EXPECT_EQ(engine.precision(), "bf16");
    return;
  }
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_EQ(report.warnings[0],
            "bf16 requested but this CPU (" + build_info().cpu_isa + ") has no native bf16 kernels: layers stay fp32");
  EXPECT_EQ(engine.precision(), "fp32");
  check_model("tiny_cnn", s, 1e-4);  // fp32's accuracy
}

TEST(Api, Bf16StaysCloseToPyTorch) {
  REQUIRE_FIXTURES();
  if (!native_bf16()) GTEST_SKIP() << "no native bf16 kernels on this CPU (" << build_info().cpu_isa << ")";
  CompileSettings s;
  s.precision = Precision::BF16;
  auto inputs = io::read_npz(fixtures() + "/tiny_cnn.inputs.npz");
  auto expected = io::read_npz(fixtures() + "/tiny_cnn.outputs.npz");
  auto ctx = compile(model("tiny_cnn"), s).create_context();
  const Tensor out = ctx.run(inputs).at(0);
  double scale = 0, error = 0;
  for (std::int64_t i = 0; i < expected[0].numel(); ++i) {
    scale = std::max(scale, std::abs(static_cast<double>(expected[0].data<float>()[i])));
  }
  for (std::int64_t i = 0; i < expected[0].numel(); ++i) {
    EXPECT_NEAR(out.data<float>()[i], expected[0].data<float>()[i], 2e-2 * scale);
    error = std::max(error, std::abs(static_cast<double>(out.data<float>()[i]) - expected[0].data<float>()[i]));
  }
  // bf16 operands (8 mantissa bits) move the result by ~1e-3 of its scale; fp32 by ~1e-7.
  EXPECT_GT(error, 1e-4 * scale) << "the bf16 engine gives fp32's answer: was bf16 used?";
}

TEST(Api, CompiledStepsSayWhichPrecisionTheyUse) {
  REQUIRE_FIXTURES();
  CompileSettings bf16;
  bf16.precision = Precision::BF16;
  const Engine engine = compile(model("tiny_cnn"), bf16);
  if (native_bf16()) {
    EXPECT_GE(bf16_steps(engine), 2) << engine.describe();  // the convolution and the linear
  } else {
    EXPECT_EQ(bf16_steps(engine), 0) << engine.describe();
  }
  const auto path = (fs::temp_directory_path() / "atenrt_api_bf16.atrt").string();
  engine.save(path);
  EXPECT_EQ(bf16_steps(Engine::load(path)), bf16_steps(engine)) << "the engine file lost the precision";
  fs::remove(path);
  EXPECT_EQ(bf16_steps(compile(model("tiny_cnn"))), 0);
}

// Two hybrid engines (int_bool: oneDNN, own and reference kernels;
// transformer: oneDNN and own) shared by eight threads, 20 runs each, every
// output checked against PyTorch's.
TEST(Api, ThreadsSharingHybridEnginesMatchPyTorch) {
  REQUIRE_FIXTURES();
  struct Case {
    Engine engine;
    std::vector<Tensor> inputs, expected;
  };
  std::vector<Case> cases;
  for (const char* name : {"int_bool", "transformer"}) {
    cases.push_back({compile(model(name)), io::read_npz(fixtures() + "/" + name + ".inputs.npz"),
                     io::read_npz(fixtures() + "/" + name + ".outputs.npz")});
  }
  std::atomic<int> wrong{0}, runs{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      const Case& c = cases[t % cases.size()];
      auto ctx = c.engine.create_context();
      for (int i = 0; i < 20; ++i) {
        const auto& out = ctx.run(c.inputs);
        if (out.size() != c.expected.size()) {
          ++wrong;
          continue;
        }
        for (std::size_t k = 0; k < out.size(); ++k) wrong += !matches(out[k], c.expected[k], 1e-4);
        ++runs;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(runs.load(), 8 * 20);
  EXPECT_EQ(wrong.load(), 0) << "outputs that differ from PyTorch's";
}

TEST(Api, SavedEngineRunsBitIdentically) {
  REQUIRE_FIXTURES();
  auto inputs = io::read_npz(fixtures() + "/transformer.inputs.npz");
  Engine engine = compile(model("transformer"));
  const auto path = (fs::temp_directory_path() / "atenrt_api_test.atrt").string();
  engine.save(path);
  Engine loaded = Engine::load(path);
  auto a = engine.create_context();
  auto b = loaded.create_context();
  EXPECT_EQ(a.run(inputs).at(0).to_bytes(), b.run(inputs).at(0).to_bytes());
  fs::remove(path);
}

TEST(Api, WrongInputsNameWhatIsExpected) {
  REQUIRE_FIXTURES();
  Engine engine = compile(model("tiny_cnn"));
  auto ctx = engine.create_context();
  EXPECT_THROW(ctx.run({}), InputError);
  auto inputs = io::read_npz(fixtures() + "/tiny_cnn.inputs.npz");
  Tensor wrong_shape(DType::Float32, {1, 1, 2, 2});
  try {
    ctx.run({wrong_shape});
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(engine.inputs()[0].name), std::string::npos) << msg;
    EXPECT_NE(msg.find(shape_to_string(inputs[0].sizes())), std::string::npos) << msg;
  }
  Tensor wrong_dtype(DType::Int64, inputs[0].sizes());
  EXPECT_THROW(ctx.run({wrong_dtype}), InputError);
}

// torch_executed_ops run in the libtorch fallback; require_full_compilation
// (or a build without the fallback) refuses them with the report.
TEST(Api, TorchExecutedOpsRunInTheFallbackOrRefuseWithTheReport) {
  REQUIRE_FIXTURES();
  CompileSettings s;
  s.torch_executed_ops = {"aten.relu"};
  s.min_block_size = 1;  // the blocks between the relus stay engines
  for (bool full : {true, false}) {
    if (!full && !runtime::torch_fallback_built()) continue;
    s.require_full_compilation = full;
    try {
      const Engine hybrid = compile(model("tiny_cnn"), s);
      ASSERT_FALSE(full) << "expected UnsupportedError";
      EXPECT_TRUE(hybrid.hybrid());
      EXPECT_EQ(hybrid.fallback_ops(), std::vector<std::string>{"aten.relu.default"});
      const auto inputs = io::read_npz(fixtures() + "/tiny_cnn.inputs.npz");
      const Engine native = compile(model("tiny_cnn"));
      EXPECT_FALSE(native.hybrid());
      auto a = hybrid.create_context();
      auto b = native.create_context();
      const auto& got = a.run(inputs);
      const auto& want = b.run(inputs);
      ASSERT_EQ(got.size(), want.size());
      for (std::size_t i = 0; i < got.size(); ++i) expect_close(got[i], want[i], 1e-5, "output " + std::to_string(i));
    } catch (const UnsupportedError& e) {
      ASSERT_TRUE(full) << e.what();
      const std::string msg = e.what();
      EXPECT_NE(msg.find("require_full_compilation"), std::string::npos) << msg;
      EXPECT_NE(msg.find("listed in torch_executed_ops"), std::string::npos) << msg;
      EXPECT_NE(msg.find("aten.relu.default"), std::string::npos) << msg;
    }
  }
}

TEST(Api, DryRunReportsCoverage) {
  REQUIRE_FIXTURES();
  auto report = dry_run(model("resnet18"));
  EXPECT_EQ(report.total_ops, report.supported_ops);
  EXPECT_GT(report.total_ops, 20);
  EXPECT_NE(report.partition.find("(100.0%)"), std::string::npos) << report.partition;
}

TEST(Api, DryRunReportCountsWeightsAndSuggestsOnlyWhenItHelps) {
  REQUIRE_FIXTURES();
  const DryRunReport full = dry_run(model("resnet18")).dry_run;
  EXPECT_TRUE(full.fully_supported());
  EXPECT_EQ(full.engine_segments(), 1);
  EXPECT_FALSE(full.suggested_min_block_size.has_value());  // one engine whatever min_block_size says
  ASSERT_EQ(full.segments.size(), 1u);
  EXPECT_EQ(full.segments[0].inputs.size(), 1u);  // the image; the weights are counted
  EXPECT_GT(full.segments[0].weight_inputs, 50);
  EXPECT_NE(full.to_json().find("\"fully_supported\": true"), std::string::npos);

  CompileSettings s;
  s.torch_executed_ops = {"aten.relu"};
  const DryRunReport cut = dry_run(model("tiny_cnn"), s).dry_run;
  EXPECT_FALSE(cut.fully_supported());
  EXPECT_FALSE(cut.unsupported.empty());
  EXPECT_EQ(cut.unsupported[0].reason, "listed in torch_executed_ops");
  EXPECT_GE(cut.fallback_nodes, static_cast<std::int64_t>(cut.unsupported.size()));
  if (cut.suggested_min_block_size) {
    EXPECT_LT(*cut.suggested_min_block_size, s.min_block_size);
    EXPECT_GT(cut.fallback_supported_nodes, 0);
  }
  s.min_block_size = 1;  // nothing left to suggest
  EXPECT_FALSE(dry_run(model("tiny_cnn"), s).dry_run.suggested_min_block_size.has_value());
}

TEST(Api, EngineFilesTakeLoadTimeSettingsOnly) {
  REQUIRE_FIXTURES();
  const auto path = (fs::temp_directory_path() / "atenrt_api_settings.atrt").string();
  compile(model("tiny_cnn")).save(path);
  CompileSettings load;
  load.num_threads = 1;
  const Engine engine = Engine::load(path, load);
  EXPECT_EQ(engine.num_threads(), 1);
  EXPECT_EQ(engine.effective_threads(), 1);
  EXPECT_EQ(engine.precision(), "fp32");
  CompileSettings bad;
  bad.precision = Precision::BF16;
  try {
    Engine::load(path, bad);
    FAIL() << "expected SettingsError";
  } catch (const SettingsError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("precision is a compile-time setting"), std::string::npos) << msg;
    EXPECT_NE(msg.find("precision fp32"), std::string::npos) << msg;
    EXPECT_NE(msg.find("num_threads"), std::string::npos) << msg;
  }
  const InspectReport report = inspect(path);
  EXPECT_EQ(report.kind, "engine");
  for (const char* needle : {"built with:", "inputs:", "steps (", "memory:", "weights:", "kernels:"}) {
    EXPECT_NE(report.text.find(needle), std::string::npos) << needle << "\n" << report.text;
  }
  EXPECT_NE(report.json.find("\"steps\""), std::string::npos);
  fs::remove(path);
}

// Metadata (the Python package's module structure) rides in an optional
// section: saved, loaded back, absent from files written without it, and
// limited in size.
TEST(Api, EngineMetadataSurvivesSaveAndLoad) {
  REQUIRE_FIXTURES();
  const auto path = (fs::temp_directory_path() / "atenrt_api_metadata.atrt").string();
  const Engine engine = compile(model("tiny_cnn"));
  EXPECT_EQ(engine.metadata(), "");
  engine.save(path);
  EXPECT_EQ(Engine::load(path).metadata(), "");
  const std::string text = std::string("{\"outputs\": \"tensor\"}\0\xff", 24);
  const Engine tagged = engine.with_metadata(text);
  EXPECT_EQ(engine.metadata(), "") << "with_metadata makes a copy";
  tagged.save(path);
  const Engine loaded = Engine::load(path);
  EXPECT_EQ(loaded.metadata(), text);
  EXPECT_EQ(loaded.with_load_settings({}).metadata(), text);
  const InspectReport report = inspect(path);
  EXPECT_NE(report.text.find("metadata:        24 bytes (--json shows it)"), std::string::npos) << report.text;
  EXPECT_NE(report.json.find("\"metadata_bytes\": 24"), std::string::npos) << report.json;
  EXPECT_THROW(engine.with_metadata(std::string((1u << 20) + 1, 'x')), InputError);
  fs::remove(path);
}

TEST(Api, InspectLoweredFollowsCompileSettings) {
  REQUIRE_FIXTURES();
  // addmm has a converter: compile keeps it, and so does inspect --lowered.
  const InspectReport lowered = inspect(model("transformer"), {}, true);
  EXPECT_NE(lowered.text.find("what compile does"), std::string::npos);
  CompileSettings off;
  off.lowering = false;
  const InspectReport none = inspect(model("transformer"), off, true);
  EXPECT_NE(none.json.find("\"decompositions\": {}"), std::string::npos) << none.json.substr(0, 400);
}

TEST(Api, CorruptArchiveIsAFormatErrorNamingTheFile) {
  const auto path = (fs::temp_directory_path() / "atenrt_api_corrupt.pt2").string();
  std::ofstream(path, std::ios::binary) << "PK\x03\x04 not really a zip";
  try {
    compile(path);
    FAIL() << "expected FormatError";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  fs::remove(path);
}

}  // namespace
