// The thread count given at load (with_load_settings, Engine::load) is the
// one the kernels run on, for static, dynamic and hybrid engines alike:
// oneDNN fixes a primitive's thread team when it is made, so a count set
// only on the context left every convolution on the count the engine was
// compiled with (`atenrt bench --streams 2` ran two streams of two threads
// each on two cores).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <thread>

#include "api/pipeline.h"
#include "atenrt/atenrt.h"
#include "runtime/torch_plugin.h"
#include "support/graph_builder.h"
#include "support/temp_path.h"
#include "support/thread_count.h"

using namespace atenrt;

namespace {

using atenrt::testing::GraphBuilder;
using atenrt::testing::temp_path;
using atenrt::testing::threads_a_run_starts;
using A = GraphBuilder;
using Ints = std::vector<std::int64_t>;

constexpr std::int64_t kIn = 16, kOut = 32, kSide = 32;

// out = relu(conv3x3(x, w)), x [batch, 16, 32, 32]; batch -1: s0 in [1, 4].
// Enough work that oneDNN splits the convolution over every thread it may use.
ir::ExportedProgram conv_relu(std::int64_t batch) {
  GraphBuilder b;
  b.fill_schema_defaults = true;
  b.input("x", DType::Float32, {batch, kIn, kSide, kSide});
  Tensor w(DType::Float32, {kOut, kIn, 3, 3});
  for (std::int64_t i = 0; i < w.numel(); ++i) w.mutable_data<float>()[i] = std::sin(0.37f * static_cast<float>(i)) * 0.1f;
  b.weight("w", w);
  b.node("c", "aten.convolution.default",
         {A::arg("input", A::t("x")), A::arg("weight", A::t("w")), A::arg("bias", ir::None{}),
          A::arg("stride", Ints{1, 1}), A::arg("padding", Ints{1, 1}), A::arg("dilation", Ints{1, 1}),
          A::arg("transposed", false), A::arg("output_padding", Ints{0, 0}), A::arg("groups", std::int64_t{1})},
         DType::Float32, {batch, kOut, kSide, kSide});
  b.node("out", "aten.relu.default", {A::arg("self", A::t("c"))}, DType::Float32, {batch, kOut, kSide, kSide});
  b.output("out");
  if (batch < 0) {
    for (const char* value : {"x", "c", "out"}) {  // one batch symbol for all
      b.g.tensor_values.at(value).sizes.at(0) = ir::SymInt::named("s0");
      b.g.tensor_values.at(value).strides.clear();
    }
  }
  ir::ExportedProgram p;
  p.graph = std::move(b.g);
  if (batch < 0) p.graph.range_constraints["s0"] = ir::SymRange{1, 4};
  return p;
}

std::vector<Tensor> input(std::int64_t batch) {
  Tensor x(DType::Float32, {batch, kIn, kSide, kSide});
  for (std::int64_t i = 0; i < x.numel(); ++i) x.mutable_data<float>()[i] = std::cos(0.11f * static_cast<float>(i));
  return {x};
}

CompileSettings threads(int n) {
  CompileSettings s;
  s.num_threads = n;
  return s;
}

// The same outputs, whichever thread count made the kernels.
void expect_same_results(const Engine& a, const Engine& b, const std::vector<Tensor>& in) {
  auto ca = a.create_context(), cb = b.create_context();
  const Tensor x = ca.run(in).at(0).contiguous(), y = cb.run(in).at(0).contiguous();
  ASSERT_EQ(x.sizes(), y.sizes());
  double max_ref = 0, max_err = 0;
  for (std::int64_t i = 0; i < x.numel(); ++i) {
    max_ref = std::max(max_ref, std::abs(static_cast<double>(y.data<float>()[i])));
    max_err = std::max(max_err, std::abs(static_cast<double>(x.data<float>()[i] - y.data<float>()[i])));
  }
  EXPECT_GT(max_ref, 0.1);
  EXPECT_LE(max_err, 1e-5 * max_ref);
}

// `two`'s kernels were made for two threads: a run starts a worker (the
// check's own control); made again for one, a run starts none, and an engine
// file loaded with one thread starts none either.
void expect_load_time_threads_reach_kernels(const Engine& two, const std::vector<Tensor>& in) {
  ASSERT_EQ(two.kernel_threads(), 2);
  EXPECT_GT(threads_a_run_starts(two, in), 0) << "the check itself: a two-thread run starts a worker";

  const Engine one = two.with_load_settings(threads(1));
  EXPECT_EQ(one.kernel_threads(), 1);
  EXPECT_EQ(one.num_threads(), 1);
  EXPECT_EQ(threads_a_run_starts(one, in), 0) << "with_load_settings(num_threads 1) still ran more threads";
  expect_same_results(one, two, in);
  EXPECT_EQ(two.with_load_settings(threads(2)).kernel_threads(), 2);
  EXPECT_GT(threads_a_run_starts(one.with_load_settings(threads(2)), in), 0) << "made again for two";

  const std::string path = temp_path("kernel_threads.atrt");
  two.save(path);
  const Engine loaded = Engine::load(path, threads(1));
  std::remove(path.c_str());
  EXPECT_EQ(loaded.kernel_threads(), 1);
  EXPECT_EQ(threads_a_run_starts(loaded, in), 0) << "an engine file loaded for one thread ran more";
}

class KernelThreads : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::thread::hardware_concurrency() < 2) GTEST_SKIP() << "one core: every engine runs one thread";
  }
};

TEST_F(KernelThreads, StaticEngine) {
  const Engine two = api::compile_program(conv_relu(2), threads(2));
  ASSERT_FALSE(two.is_dynamic());
  expect_load_time_threads_reach_kernels(two, input(2));
}

TEST_F(KernelThreads, DynamicEngineAndItsLaterSpecializations) {
  const Engine two = api::compile_program(conv_relu(-1), threads(2));
  ASSERT_TRUE(two.is_dynamic());
  expect_load_time_threads_reach_kernels(two, input(4));  // the opt shape
  // A shape first seen after the change: its specialization is made then.
  const Engine one = two.with_load_settings(threads(1));
  EXPECT_EQ(threads_a_run_starts(one, input(3)), 0) << "a later specialization ran more threads";
  EXPECT_GT(threads_a_run_starts(two, input(3)), 0);
}

TEST_F(KernelThreads, HybridEngineSegments) {
  if (!runtime::torch_fallback_built()) GTEST_SKIP() << "built without ATENRT_WITH_TORCH";
  std::string why;
  if (!runtime::torch_plugin(&why)) GTEST_SKIP() << why;
  CompileSettings s = threads(2);
  s.torch_executed_ops = {"aten.relu.default"};
  s.min_block_size = 1;
  const Engine two = api::compile_program(conv_relu(2), s);
  ASSERT_TRUE(two.hybrid());
  expect_load_time_threads_reach_kernels(two, input(2));
}

}  // namespace
