// Engine-level behaviour: threads, input validation, memory plan (engine files: engine_file_test.cpp).
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <atomic>
#include <cstdio>
#include <map>
#include <thread>

#include "mixed_network.h"
#include "resnet_like.h"

namespace atenrt::testing {
namespace {

using namespace atenrt::network;

// OpenMP's thread count as the runtime oneDNN loaded sees it (-1 when oneDNN
// does not use OpenMP).
int omp_max_threads() {
  using Get = int (*)();
  static const Get get = reinterpret_cast<Get>(dlsym(RTLD_DEFAULT, "omp_get_max_threads"));
  return get ? get() : -1;
}

TEST(Threads, ThreadCountOption) {
  for (int threads : {1, 3}) {
    builder::BuilderConfig config;
    config.engine.num_threads = threads;
    expect_engine_matches_reference([] { return resnet_like(); }, config, 1e-4, std::to_string(threads) + " threads");
    if (omp_max_threads() < 0) GTEST_SKIP() << "oneDNN does not use OpenMP here: no thread count to check";
    EXPECT_EQ(omp_max_threads(), threads) << "a run did not set the engine's thread count";
  }
}

// A copy that owns its bytes (a context's outputs are overwritten by its next run).
Tensor owned_copy(const Tensor& t) {
  return Tensor(std::make_shared<Storage>(t.to_bytes()), t.dtype(), t.sizes(), contiguous_strides(t.sizes()), 0);
}

// Eight threads, each with its own contexts on two shared engines (the hybrid
// network of oneDNN, own and reference kernels, and the oneDNN-heavy ResNet),
// 25 runs each: every result equals the reference executor's and is
// bit-identical across threads. (The API tests check threads against PyTorch.)
TEST(Threads, ContextsOnSharedHybridEnginesInEightThreads) {
  const auto hybrid = builder::build(mixed());
  const auto resnet = builder::build(resnet_like(2));
  const auto hybrid_in = mixed_inputs();
  Network resnet_net = resnet_like(2);
  const auto resnet_in = random_inputs(resnet_net);
  const auto hybrid_want = reference::run(mixed(), hybrid_in);
  const auto resnet_want = reference::run(resnet_net, resnet_in);
  std::map<std::string, Tensor> first_hybrid, first_resnet;
  {
    auto c = hybrid.create_context();
    for (const auto& [k, v] : c.run(hybrid_in)) first_hybrid[k] = owned_copy(v);
    auto r = resnet.create_context();
    for (const auto& [k, v] : r.run(resnet_in)) first_resnet[k] = owned_copy(v);
  }
  for (const auto& [k, v] : first_hybrid) EXPECT_TRUE(close(v, hybrid_want.at(k), 1e-5)) << k;
  for (const auto& [k, v] : first_resnet) EXPECT_TRUE(close(v, resnet_want.at(k), 1e-4)) << k;
  std::atomic<int> differ{0}, runs{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      auto h = hybrid.create_context();
      auto r = resnet.create_context();
      for (int i = 0; i < 25; ++i) {
        for (const auto& [k, v] : h.run(hybrid_in)) differ += !bit_identical(v.contiguous(), first_hybrid.at(k));
        for (const auto& [k, v] : r.run(resnet_in)) differ += !bit_identical(v.contiguous(), first_resnet.at(k));
        ++runs;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(runs.load(), 8 * 25);
  EXPECT_EQ(differ.load(), 0) << "outputs that differ from the single-threaded run";
}

TEST(Inputs, WrongCountDtypeOrShapeIsAnInputError) {
  auto engine = builder::build(mixed());
  auto ctx = engine.create_context();
  auto in = mixed_inputs();
  EXPECT_NO_THROW(ctx.run(in));
  auto missing = in;
  missing.erase("idx");
  EXPECT_THROW(ctx.run(missing), InputError);
  auto extra = in;
  extra["zzz"] = Tensor(DType::Float32, {1});
  EXPECT_THROW(ctx.run(extra), InputError);
  auto dtype = in;
  dtype["idx"] = Tensor(DType::Int32, {3});
  try {
    ctx.run(dtype);
    ADD_FAILURE() << "wrong dtype accepted";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("'idx'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("int64[3]"), std::string::npos) << msg;
  }
  auto shape = in;
  shape["x"] = Tensor(DType::Float32, {1, 8, 6, 5});
  EXPECT_THROW(ctx.run(shape), InputError);
  EXPECT_THROW(ctx.run(std::vector<Tensor>{in["x"]}), InputError);
  auto range = in;
  range["idx"].mutable_data<std::int64_t>()[0] = 8;  // gather index out of range
  EXPECT_THROW(ctx.run(range), InputError);
}

TEST(Inputs, StridedInputsAreAccepted) {
  Network n;
  auto* x = n.add_input("x", DType::Float32, {3, 4});
  n.mark_output(n.add_activation("y", x, ActivationOp::Tanh));
  auto engine = builder::build(std::move(n));
  Tensor base = random_tensor(DType::Float32, {4, 3}, 3);
  Tensor transposed(base.storage(), DType::Float32, {3, 4}, {1, 3}, 0);
  auto ctx = engine.create_context();
  const Tensor got = ctx.run(std::vector<Tensor>{transposed})[0];
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 4; ++j) {
      EXPECT_NEAR(got.data<float>()[i * 4 + j], std::tanh(base.data<float>()[j * 3 + i]), 1e-6);
    }
  }
}

TEST(Outputs, InputsAndConstantsAsOutputs) {
  auto make = [] {
    Network n;
    auto* x = n.add_input("x", DType::Float32, {2});
    auto* c = n.add_constant("c", random_tensor(DType::Float32, {3}, 1));
    auto* y = n.add_cast("y", x, DType::Float32);  // identity cast keeps x as a separate output
    n.mark_output(y);
    n.mark_output(c);
    n.mark_output(x);
    return n;
  };
  expect_engine_matches_reference(make, {}, 0.0, "pass-through outputs");
}

TEST(MemoryPlan, ReusesBuffersOnResNetLikeStack) {
  builder::BuilderConfig naive;
  naive.engine.reuse_memory = false;
  auto planned = builder::build(resnet_like(2));
  auto unplanned = builder::build(resnet_like(2), naive);
  const auto m = planned.memory();
  EXPECT_LT(m.arena_bytes, m.naive_bytes);
  EXPECT_EQ(unplanned.memory().arena_bytes, unplanned.memory().naive_bytes);
  std::printf("[ memory  ] resnet-like batch 2: planned %zu bytes, naive %zu bytes (%.1f%%)\n", m.arena_bytes,
              m.naive_bytes, 100.0 * static_cast<double>(m.arena_bytes) / static_cast<double>(m.naive_bytes));
  Network ref = resnet_like(2);
  const auto in = random_inputs(ref);
  auto a = planned.create_context();
  auto b = unplanned.create_context();
  EXPECT_TRUE(bit_identical(a.run(in).at("logits"), b.run(in).at("logits")));
}

}  // namespace
}  // namespace atenrt::testing
