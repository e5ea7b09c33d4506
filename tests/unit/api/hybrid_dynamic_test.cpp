// Hybrid programs with shapes known only at run time (issue 11 with issue
// 10): dynamic inputs whose sizes flow through torch segments (size
// expressions such as 2*s0 included), sizes a torch segment computes from
// the data (nonzero) that an engine segment then reads, and data-dependent
// engine outputs that a torch segment reads. Each hybrid program is checked
// against the same graph compiled whole (the native baseline, itself checked
// against PyTorch by the converter and data-dependent tests) at several
// shapes, the range's edges and a zero-row count included; and engine files
// and threads.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "api/pipeline.h"
#include "atenrt/atenrt.h"
#include "runtime/torch_plugin.h"
#include "support/graph_builder.h"
#include "support/temp_path.h"
#include "support/threads_check.h"

using namespace atenrt;

namespace {

using atenrt::testing::GraphBuilder;
using atenrt::testing::add_sym_node;
using A = GraphBuilder;

void set_symbol(GraphBuilder& b, const std::string& value, std::size_t dim, const std::string& symbol) {
  b.g.tensor_values.at(value).sizes.at(dim) = ir::SymInt::named(symbol);
  b.g.tensor_values.at(value).strides.clear();
}

// x[s0, 4], s0 in [1, 8]: a = x * w; r = relu(a); c = sigmoid(r + x);
// k = cat([c, c]) (2*s0 rows); rk = relu(k); out = rk * 2, and c.
ir::ExportedProgram dynamic_batch_program() {
  GraphBuilder b;
  b.fill_schema_defaults = true;
  b.input("x", DType::Float32, {-1, 4});
  set_symbol(b, "x", 0, "s0");
  Tensor w(DType::Float32, {4});
  for (int i = 0; i < 4; ++i) w.mutable_data<float>()[i] = 0.5f - 0.3f * static_cast<float>(i);
  b.weight("w", w);
  auto rows = [&](const std::string& name, const char* symbol) { set_symbol(b, name, 0, symbol); };
  b.node("a", "aten.mul.Tensor", {A::arg("self", A::t("x")), A::arg("other", A::t("w"))}, DType::Float32, {-1, 4});
  rows("a", "s0");
  b.node("r", "aten.relu.default", {A::arg("self", A::t("a"))}, DType::Float32, {-1, 4});
  rows("r", "s0");
  b.node("s", "aten.add.Tensor", {A::arg("self", A::t("r")), A::arg("other", A::t("x"))}, DType::Float32, {-1, 4});
  rows("s", "s0");
  b.node("c", "aten.sigmoid.default", {A::arg("self", A::t("s"))}, DType::Float32, {-1, 4});
  rows("c", "s0");
  b.node("k", "aten.cat.default", {A::arg("tensors", ir::TensorList{ir::TensorRef{"c"}, ir::TensorRef{"s"}})},
         DType::Float32, {-1, 4});
  rows("k", "2*s0");
  b.node("rk", "aten.relu.default", {A::arg("self", A::t("k"))}, DType::Float32, {-1, 4});
  rows("rk", "2*s0");
  b.node("out", "aten.mul.Scalar", {A::arg("self", A::t("rk")), A::arg("other", 2.0)}, DType::Float32, {-1, 4});
  rows("out", "2*s0");
  b.output("out");
  b.output("c");
  ir::ExportedProgram p;
  p.graph = std::move(b.g);
  p.graph.range_constraints["s0"] = ir::SymRange{1, 8};
  return p;
}


// x[s0, 4], s0 in [1, 6]: n = x.size(0); v = x.view(n, 2, 2);
// w = v.expand((2 * n) // 2, 2, 2) (sizes the fallback takes at run time);
// out = sigmoid(w).
ir::ExportedProgram run_time_size_program() {
  GraphBuilder b;
  b.fill_schema_defaults = true;
  b.input("x", DType::Float32, {-1, 4});
  set_symbol(b, "x", 0, "s0");
  add_sym_node(b, "n", "aten.sym_size.int", {A::arg("self", A::t("x")), A::arg("dim", std::int64_t{0})}, ir::SymInt::named("n"),
           "s0");
  add_sym_node(b, "twice", "_operator.mul", {A::arg("a", ir::SymInt::named("n")), A::arg("b", std::int64_t{2})},
           ir::SymInt::named("twice"), "2*s0");
  add_sym_node(b, "half", "_operator.floordiv", {A::arg("a", ir::SymInt::named("twice")), A::arg("b", std::int64_t{2})},
           ir::SymInt::named("half"), "(2*s0)//2");
  b.node("v", "aten.view.default",
         {A::arg("self", A::t("x")), A::arg("size", ir::SymIntList{ir::SymInt::named("n"), ir::SymInt::of(2), ir::SymInt::of(2)})},
         DType::Float32, {-1, 2, 2});
  set_symbol(b, "v", 0, "s0");
  b.node("w", "aten.expand.default",
         {A::arg("self", A::t("v")),
          A::arg("size", ir::SymIntList{ir::SymInt::named("half"), ir::SymInt::of(2), ir::SymInt::of(2)})},
         DType::Float32, {-1, 2, 2});
  set_symbol(b, "w", 0, "s0");
  b.node("out", "aten.sigmoid.default", {A::arg("self", A::t("w"))}, DType::Float32, {-1, 2, 2});
  set_symbol(b, "out", 0, "s0");
  b.output("out");
  ir::ExportedProgram p;
  p.graph = std::move(b.g);
  p.graph.range_constraints["s0"] = ir::SymRange{1, 6};
  return p;
}

// x[4, 5], y[4, 3]: nz = nonzero(x) (u0 rows); rows = nz[:, 0];
// picked = y[rows]; out = sigmoid(picked).
ir::ExportedProgram nonzero_program() {
  GraphBuilder b;
  b.fill_schema_defaults = true;
  b.input("x", DType::Float32, {4, 5});
  b.input("y", DType::Float32, {4, 3});
  b.node("nz", "aten.nonzero.default", {A::arg("self", A::t("x"))}, DType::Int64, {-1, 2});
  b.node("rows", "aten.select.int",
         {A::arg("self", A::t("nz")), A::arg("dim", std::int64_t{1}), A::arg("index", std::int64_t{0})}, DType::Int64, {-1});
  b.node("picked", "aten.index.Tensor",
         {A::arg("self", A::t("y")), A::arg("indices", ir::OptionalTensorList{ir::TensorRef{"rows"}})}, DType::Float32, {-1, 3});
  b.node("out", "aten.sigmoid.default", {A::arg("self", A::t("picked"))}, DType::Float32, {-1, 3});
  for (const char* v : {"nz", "rows", "picked", "out"}) set_symbol(b, v, 0, "u0");
  b.output("out");
  b.output("nz");
  ir::ExportedProgram p;
  p.graph = std::move(b.g);
  return p;
}

Tensor ramp(std::vector<std::int64_t> dims, float scale, float shift) {
  Tensor t(DType::Float32, dims);
  for (std::int64_t i = 0; i < t.numel(); ++i) t.mutable_data<float>()[i] = std::sin(static_cast<float>(i) * scale) + shift;
  return t;
}

// x with non-zeros where i % period == 0 (period 0: none).
std::vector<Tensor> nonzero_inputs(int period) {
  Tensor x(DType::Float32, {4, 5});
  for (int i = 0; i < 20; ++i) x.mutable_data<float>()[i] = period > 0 && i % period == 0 ? static_cast<float>(i) - 7.5f : 0.0f;
  return {x, ramp({4, 3}, 0.7f, 0.1f)};
}

double value_at(const Tensor& t, std::int64_t i) {
  return t.dtype() == DType::Int64 ? static_cast<double>(t.data<std::int64_t>()[i]) : static_cast<double>(t.data<float>()[i]);
}

void expect_same(const std::vector<Tensor>& got, const std::vector<Tensor>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t o = 0; o < want.size(); ++o) {
    SCOPED_TRACE("output " + std::to_string(o));
    ASSERT_EQ(got[o].dtype(), want[o].dtype());
    ASSERT_EQ(got[o].sizes(), want[o].sizes());
    const Tensor g = got[o].contiguous(), w = want[o].contiguous();
    double max_ref = 0, max_err = 0;
    for (std::int64_t i = 0; i < w.numel(); ++i) {
      max_ref = std::max(max_ref, std::abs(value_at(w, i)));
      max_err = std::max(max_err, std::abs(value_at(g, i) - value_at(w, i)));
    }
    EXPECT_LE(max_err, 1e-4 * max_ref);
  }
}

CompileSettings fallback_for(std::vector<std::string> ops) {
  CompileSettings s;
  s.torch_executed_ops = std::move(ops);
  s.min_block_size = 1;
  return s;
}

class HybridDynamic : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!runtime::torch_fallback_built()) GTEST_SKIP() << "built without ATENRT_WITH_TORCH";
    std::string why;
    if (!runtime::torch_plugin(&why)) GTEST_SKIP() << why;
  }
};

TEST_F(HybridDynamic, DynamicBatchFlowsThroughTorchSegments) {
  const Engine native = api::compile_program(dynamic_batch_program(), {});
  const Engine hybrid = api::compile_program(dynamic_batch_program(), fallback_for({"aten.relu.default"}));
  ASSERT_TRUE(hybrid.hybrid());
  EXPECT_EQ(hybrid.fallback_ops(), (std::vector<std::string>{"aten.relu.default"}));
  EXPECT_EQ(hybrid.inputs().at(0).dims, (std::vector<std::int64_t>{-1, 4}));
  EXPECT_EQ(hybrid.inputs().at(0).min_dims, (std::vector<std::int64_t>{1, 4}));
  EXPECT_EQ(hybrid.inputs().at(0).max_dims, (std::vector<std::int64_t>{8, 4}));
  EXPECT_EQ(hybrid.outputs().at(0).dims, (std::vector<std::int64_t>{-1, 4}));
  ExecutionContext h = hybrid.create_context(), n = native.create_context();
  for (std::int64_t batch : {1, 3, 8, 3, 5, 1}) {
    SCOPED_TRACE("batch " + std::to_string(batch));
    const std::vector<Tensor> in{ramp({batch, 4}, 0.9f, static_cast<float>(batch) * 0.05f - 0.2f)};
    const auto want = n.run(in);
    const auto got = h.run(in);
    ASSERT_EQ(got.at(0).sizes(), (std::vector<std::int64_t>{2 * batch, 4}));
    expect_same(got, want);
  }
  for (std::int64_t batch : {0, 9}) {
    try {
      h.run({ramp({batch, 4}, 1.0f, 0.0f)});
      ADD_FAILURE() << "batch " << batch << " ran";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("outside the engine's range [1, 8]"), std::string::npos) << e.what();
    }
  }
}

TEST_F(HybridDynamic, TorchNodesTakeSizesTheRunKnows) {
  const Engine native = api::compile_program(run_time_size_program(), {});
  const Engine hybrid =
      api::compile_program(run_time_size_program(), fallback_for({"aten.view.default", "aten.expand.default"}));
  ASSERT_TRUE(hybrid.hybrid());
  const std::string path = atenrt::testing::temp_path("hybrid_sizes.atrt");
  hybrid.save(path);
  const Engine loaded = Engine::load(path);
  std::remove(path.c_str());
  ExecutionContext h = hybrid.create_context(), l = loaded.create_context(), n = native.create_context();
  for (std::int64_t batch : {1, 4, 6, 4, 2}) {
    SCOPED_TRACE("batch " + std::to_string(batch));
    const std::vector<Tensor> in{ramp({batch, 4}, 0.8f, -0.3f)};
    const auto want = n.run(in);
    ASSERT_EQ(want.at(0).sizes(), (std::vector<std::int64_t>{batch, 2, 2}));
    expect_same(h.run(in), want);
    expect_same(l.run(in), want);
  }
}

TEST_F(HybridDynamic, EngineFilesKeepTheRangesAndShapedSegments) {
  const Engine hybrid = api::compile_program(dynamic_batch_program(), fallback_for({"aten.relu.default"}));
  const std::string path = atenrt::testing::temp_path("hybrid_dynamic.atrt");
  hybrid.save(path);
  const Engine loaded = Engine::load(path);
  std::remove(path.c_str());
  ASSERT_TRUE(loaded.hybrid());
  EXPECT_EQ(loaded.inputs().at(0).max_dims, (std::vector<std::int64_t>{8, 4}));
  ExecutionContext a = hybrid.create_context(), b = loaded.create_context();
  for (std::int64_t batch : {2, 8, 1}) {
    const std::vector<Tensor> in{ramp({batch, 4}, 0.4f, -0.1f)};
    const auto want = a.run(in);
    const auto got = b.run(in);
    for (std::size_t o = 0; o < want.size(); ++o) {
      EXPECT_EQ(got[o].contiguous().to_bytes(), want[o].contiguous().to_bytes()) << "batch " << batch << " output " << o;
    }
  }
}

TEST_F(HybridDynamic, SizesATorchSegmentComputesFromDataSizeTheEngineSegmentAfterIt) {
  const Engine native = api::compile_program(nonzero_program(), {});
  const Engine hybrid = api::compile_program(nonzero_program(), fallback_for({"aten.nonzero.default"}));
  ASSERT_TRUE(hybrid.hybrid());
  EXPECT_EQ(hybrid.fallback_ops(), (std::vector<std::string>{"aten.nonzero.default"}));
  ExecutionContext h = hybrid.create_context(), n = native.create_context();
  // Some rows, none, all, and counts seen before.
  for (int period : {3, 0, 1, 7, 3, 0}) {
    SCOPED_TRACE("period " + std::to_string(period));
    const auto in = nonzero_inputs(period);
    expect_same(h.run(in), n.run(in));
  }
}

TEST_F(HybridDynamic, DataDependentEngineOutputsFeedTorchSegments) {
  const Engine native = api::compile_program(nonzero_program(), {});
  const Engine hybrid = api::compile_program(nonzero_program(), fallback_for({"aten.sigmoid.default"}));
  ASSERT_TRUE(hybrid.hybrid());
  const std::string path = atenrt::testing::temp_path("hybrid_data_dependent.atrt");
  hybrid.save(path);
  const Engine loaded = Engine::load(path);
  std::remove(path.c_str());
  ExecutionContext h = loaded.create_context(), n = native.create_context();
  for (int period : {2, 0, 1, 5}) {
    SCOPED_TRACE("period " + std::to_string(period));
    const auto in = nonzero_inputs(period);
    expect_same(h.run(in), n.run(in));
  }
}

TEST_F(HybridDynamic, ContextsOnThreadsRunDifferentShapesAtOnce) {
  const Engine hybrid = api::compile_program(dynamic_batch_program(), fallback_for({"aten.relu.default"}));
  std::vector<std::vector<Tensor>> inputs;
  for (std::int64_t batch = 1; batch <= 8; ++batch) inputs.push_back({ramp({batch, 4}, 0.3f, 0.0f)});
  atenrt::testing::expect_threads_agree_with_one_at_a_time(hybrid, inputs);
}

}  // namespace
