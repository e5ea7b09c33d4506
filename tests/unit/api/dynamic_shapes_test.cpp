// Dynamic shapes through the C++ API on a hand-built symbolic archive
// (tests/corpus/valid/dynamic_forms.pt2: x [s0, s1], y [s0]; sym_size,
// _operator and torch.sym_* arithmetic, a view by a symbolic size): one
// engine at many shapes against hand-computed results, the ranges the
// settings give and refuse, inputs outside the range, shapes on threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <thread>

#include "atenrt/atenrt.h"
#include "builder/dynamic_engine.h"
#include "test_paths.h"
#include "support/temp_path.h"

using namespace atenrt;

namespace {

const std::string kArchive = std::string(ATENRT_CORPUS_DIR) + "/valid/dynamic_forms.pt2";

CompileSettings with(std::initializer_list<std::pair<const char*, const char*>> rows) {
  CompileSettings s;
  for (const auto& [name, value] : rows) set_setting(s, name, std::string(value));
  return s;
}

std::vector<Tensor> inputs_for(std::int64_t s0, std::int64_t s1) {
  Tensor x(DType::Float32, {s0, s1});
  Tensor y(DType::Float32, {s0});
  for (std::int64_t i = 0; i < s0 * s1; ++i) x.mutable_data<float>()[i] = static_cast<float>(i % 7) - 3.0f;
  for (std::int64_t i = 0; i < s0; ++i) y.mutable_data<float>()[i] = static_cast<float>(i) * 0.5f;
  return {x, y};
}

// out0 = x.view(s0*s1); out1 = x * (max(s0,s1) + min(s0,s1) + s1//2 + s1%4 - s0) + y[:, None]
void expect_results(const std::vector<Tensor>& in, const std::vector<Tensor>& out) {
  const std::int64_t s0 = in[0].sizes()[0], s1 = in[0].sizes()[1];
  ASSERT_EQ(out.size(), 2u);
  ASSERT_EQ(out[0].sizes(), (std::vector<std::int64_t>{s0 * s1}));
  ASSERT_EQ(out[1].sizes(), (std::vector<std::int64_t>{s0, s1}));
  const std::int64_t k = std::max(s0, s1) + std::min(s0, s1) + s1 / 2 + s1 % 4 - s0;
  const Tensor o0 = out[0].contiguous(), o1 = out[1].contiguous();
  for (std::int64_t i = 0; i < s0; ++i) {
    for (std::int64_t j = 0; j < s1; ++j) {
      const float xv = in[0].data<float>()[i * s1 + j];
      EXPECT_EQ(o0.data<float>()[i * s1 + j], xv);
      EXPECT_FLOAT_EQ(o1.data<float>()[i * s1 + j], xv * static_cast<float>(k) + in[1].data<float>()[i])
          << s0 << "x" << s1 << " at " << i << "," << j;
    }
  }
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(DynamicShapes, OneEngineServesTheRange) {
  const Engine engine = compile(kArchive, with({{"max_shapes", "x:16x20"}}));
  ASSERT_TRUE(engine.is_dynamic());
  const auto& x = engine.inputs().at(0);
  EXPECT_EQ(x.dims, (std::vector<std::int64_t>{-1, -1}));
  EXPECT_EQ(x.min_dims, (std::vector<std::int64_t>{2, 2}));   // range_constraints
  EXPECT_EQ(x.opt_dims, (std::vector<std::int64_t>{6, 10}));  // the hints
  EXPECT_EQ(x.max_dims, (std::vector<std::int64_t>{16, 20}));
  EXPECT_EQ(x.to_string(), "x: float32[-1, -1] (2x2 to 16x20, opt 6x10)");
  EXPECT_EQ(engine.outputs().at(0).dims, (std::vector<std::int64_t>{-1}));
  ExecutionContext ctx = engine.create_context();
  // The range's edges, the opt shape, and shapes revisited after others.
  for (auto [s0, s1] : std::vector<std::pair<int, int>>{{2, 2}, {6, 10}, {16, 20}, {3, 7}, {16, 2}, {2, 2}, {5, 13}, {3, 7}}) {
    const auto in = inputs_for(s0, s1);
    expect_results(in, ctx.run(in));
  }
  EXPECT_EQ(engine.dynamic()->stats().specializations, 6u);  // opt at compile, then 5 new shapes
}

TEST(DynamicShapes, SettingsNarrowAndPin) {
  const Engine narrow = compile(kArchive, with({{"min_shapes", "x:4x4"}, {"opt_shapes", "x:4x8,y:4"}, {"max_shapes", "x:8x8"}}));
  EXPECT_EQ(narrow.inputs()[0].to_string(), "x: float32[-1, -1] (4x4 to 8x8, opt 4x8)");
  EXPECT_EQ(narrow.inputs()[1].to_string(), "y: float32[-1] (4 to 8, opt 4)");  // y's dim is x's s0
  // Pinned: an ordinary static engine for that shape.
  const Engine pinned = compile(kArchive, with({{"shapes", "x:3x5,y:3"}}));
  EXPECT_FALSE(pinned.is_dynamic());
  EXPECT_EQ(pinned.inputs()[0].dims, (std::vector<std::int64_t>{3, 5}));
  ExecutionContext ctx = pinned.create_context();
  const auto in = inputs_for(3, 5);
  expect_results(in, ctx.run(in));
}

TEST(DynamicShapes, RangesThatContradictAreSettingsErrors) {
  auto refused = [](std::initializer_list<std::pair<const char*, const char*>> rows) {
    return error_of([&] { compile(kArchive, with(rows)); });
  };
  EXPECT_NE(refused({}).find("s1 has no upper bound in the archive [2, inf]; give one with max_shapes"), std::string::npos);
  EXPECT_NE(refused({{"min_shapes", "x:8x4"}, {"max_shapes", "x:4x8"}}).find("input 'x' dim 0: min 8 is larger than max 4"),
            std::string::npos);
  EXPECT_NE(refused({{"shapes", "x:20x4,y:20"}}).find("max_shapes: input 'x' dim 0 is 20, above the archive's range of s0 [2, 16]"),
            std::string::npos);
  EXPECT_NE(refused({{"min_shapes", "x:1x4"}, {"max_shapes", "x:8x8"}}).find("below the archive's range of s0 [2, 16]"),
            std::string::npos);
  EXPECT_NE(refused({{"shapes", "x:4x4,y:5"}}).find("both are the size s0 in the archive and must be equal"), std::string::npos);
  EXPECT_NE(refused({{"max_shapes", "z:4x4"}}).find("input 'z', which the graph does not have (inputs: x, y)"),
            std::string::npos);
  EXPECT_NE(refused({{"max_shapes", "x:4x4x4"}}).find("input 'x' has 2 dims"), std::string::npos);
  EXPECT_NE(refused({{"max_shapes", "x:8x9"}, {"opt_shapes", "x:9x9"}}).find("opt 9 is larger than max 8"), std::string::npos);
  for (const char* bad : {"x", "x:4y4", "x:4x", ":4", "x:4,x:5", "x:4,"}) {
    EXPECT_THROW(set_setting(*std::make_unique<CompileSettings>(), "max_shapes", std::string(bad)), SettingsError) << bad;
  }
}

TEST(DynamicShapes, StaticArchivesTakeOnlyTheirOwnShapes) {
  const std::string program = std::string(ATENRT_CORPUS_DIR) + "/valid/program_raw.pt2";  // x: float32[2, 4]
  EXPECT_FALSE(compile(program, with({{"shapes", "x:2x4"}})).is_dynamic());
  EXPECT_EQ(error_of([&] { compile(program, with({{"max_shapes", "x:8x4"}})); }),
            "max_shapes: input 'x' dim 0 is 8, but the archive fixes it at 2 (float32[2, 4]); only its dynamic dims "
            "take ranges");
}

TEST(DynamicShapes, InputsOutsideTheRangeAreInputErrors) {
  const Engine engine = compile(kArchive, with({{"max_shapes", "x:8x8"}}));
  ExecutionContext ctx = engine.create_context();
  EXPECT_EQ(error_of([&] { ctx.run(inputs_for(9, 4)); }), "input 'x' dim 0 (s0) is 9, outside the engine's range [2, 8]");
  EXPECT_EQ(error_of([&] { ctx.run(inputs_for(1, 4)); }), "input 'x' dim 0 (s0) is 1, outside the engine's range [2, 8]");
  auto mismatched = inputs_for(4, 4);
  mismatched[1] = Tensor(DType::Float32, {5});
  EXPECT_EQ(error_of([&] { ctx.run(mismatched); }),
            "input 'y' dim 0 is 5 but input 'x' dim 0 is 4; both are s0 and must be equal");
  auto rank = inputs_for(4, 4);
  rank[0] = Tensor(DType::Float32, {4, 4, 1});
  EXPECT_NE(error_of([&] { ctx.run(rank); }).find("input 'x': expected 2 dims"), std::string::npos);
  auto dtype = inputs_for(4, 4);
  dtype[0] = Tensor(DType::Int64, {4, 4});
  EXPECT_NE(error_of([&] { ctx.run(dtype); }).find("input 'x': expected float32"), std::string::npos);
}

// A dynamic engine saved and loaded is the same engine: its ranges, its
// results at every shape, the shapes it refuses; a static reader refuses it
// naming what it is.
TEST(DynamicShapes, SavedEnginesKeepTheirRanges) {
  const Engine engine = compile(kArchive, with({{"max_shapes", "x:8x8"}, {"opt_shapes", "x:4x3"}}));
  const std::string path = atenrt::testing::temp_path("dynamic_forms.atrt");
  engine.with_metadata("{\"k\": 2}").save(path);
  const Engine loaded = Engine::load(path);
  ASSERT_TRUE(loaded.is_dynamic());
  EXPECT_EQ(loaded.metadata(), "{\"k\": 2}");
  ASSERT_EQ(loaded.inputs().size(), engine.inputs().size());
  for (std::size_t i = 0; i < engine.inputs().size(); ++i) {
    EXPECT_EQ(loaded.inputs()[i].to_string(), engine.inputs()[i].to_string());
  }
  ExecutionContext ctx = loaded.create_context();
  for (auto [s0, s1] : std::vector<std::pair<int, int>>{{4, 3}, {2, 2}, {8, 8}, {5, 7}}) {
    const auto in = inputs_for(s0, s1);
    expect_results(in, ctx.run(in));
  }
  EXPECT_EQ(error_of([&] { ctx.run(inputs_for(9, 4)); }), "input 'x' dim 0 (s0) is 9, outside the engine's range [2, 8]");
  const std::string summary = loaded.describe();
  EXPECT_NE(summary.find("dynamic shapes"), std::string::npos) << summary;
  std::remove(path.c_str());
}

// Profiles follow the shape that ran last: that specialization's steps, and
// the runs at that shape since profiling was turned on.
TEST(DynamicShapes, ProfilesFollowTheShapeThatRan) {
  const Engine engine = compile(kArchive, with({{"max_shapes", "x:8x8"}}));
  ExecutionContext ctx = engine.create_context();
  EXPECT_TRUE(ctx.profile().steps.empty()) << "off by default";
  ctx.set_profiling(true);
  for (int i = 0; i < 3; ++i) ctx.run(inputs_for(5, 7));
  ctx.run(inputs_for(3, 2));
  Profile p = ctx.profile();
  EXPECT_EQ(p.runs, 1);
  ASSERT_FALSE(p.steps.empty());
  double last_end = 0.0;
  for (const auto& t : p.steps) {
    EXPECT_FALSE(t.step.name.empty());
    EXPECT_GE(t.total_ms, 0.0);
    EXPECT_DOUBLE_EQ(t.total_ms, t.last_ms);  // one run at this shape
    EXPECT_GE(t.last_start_ms + 1e-9, last_end) << t.step.name;  // in run order
    last_end = t.last_start_ms + t.last_ms;
  }
  ctx.run(inputs_for(5, 7));
  EXPECT_EQ(ctx.profile().runs, 4);  // the 5x7 context kept its runs
  ctx.set_profiling(false);
  EXPECT_TRUE(ctx.profile().steps.empty());
}

TEST(DynamicShapes, ContextsOnThreadsRunDifferentShapes) {
  const Engine engine = compile(kArchive, with({{"max_shapes", "x:16x16"}}));
  const std::vector<std::pair<int, int>> shapes{{2, 3}, {5, 9}, {16, 16}, {7, 2}};
  std::vector<std::thread> threads;
  std::vector<int> failures(shapes.size(), 0);
  for (std::size_t t = 0; t < shapes.size(); ++t) {
    threads.emplace_back([&, t] {
      ExecutionContext ctx = engine.create_context();
      for (int round = 0; round < 20; ++round) {
        const auto [s0, s1] = shapes[(t + static_cast<std::size_t>(round)) % shapes.size()];
        const auto in = inputs_for(s0, s1);
        const auto& out = ctx.run(in);
        const std::int64_t k = std::max(s0, s1) + std::min(s0, s1) + s1 / 2 + s1 % 4 - s0;
        const float want = in[0].data<float>()[s1 - 1] * static_cast<float>(k) + in[1].data<float>()[0];
        if (out[1].sizes() != in[0].sizes() || out[1].contiguous().data<float>()[s1 - 1] != want) ++failures[t];
      }
    });
  }
  for (auto& th : threads) th.join();
  for (std::size_t t = 0; t < shapes.size(); ++t) EXPECT_EQ(failures[t], 0) << "thread " << t;
  EXPECT_EQ(engine.dynamic()->stats().cached, 5u);  // the opt shape and the four
}

}  // namespace
