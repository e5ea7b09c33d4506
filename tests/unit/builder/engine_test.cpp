// Engine-level behaviour: threads, input validation, memory plan (engine files: engine_file_test.cpp).
#include <gtest/gtest.h>

#include <cstdio>
#include <thread>

#include "mixed_network.h"
#include "resnet_like.h"

namespace atenrt::testing {
namespace {

using namespace atenrt::network;

TEST(Threads, EightContextsOnOneEngineGiveIdenticalResults) {
  const auto engine = builder::build(resnet_like(2));
  Network ref = resnet_like(2);
  const auto inputs = random_inputs(ref);
  auto ctx = engine.create_context();
  const Tensor want = ctx.run(inputs).at("logits");
  std::vector<Tensor> got(8);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      auto own = engine.create_context();
      for (int i = 0; i < 3; ++i) got[t] = own.run(inputs).at("logits").contiguous();
      got[t] = Tensor(std::make_shared<Storage>(got[t].to_bytes()), got[t].dtype(), got[t].sizes(),
                      contiguous_strides(got[t].sizes()), 0);
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < 8; ++t) EXPECT_TRUE(bit_identical(got[t], want)) << "thread " << t;
}

TEST(Threads, ThreadCountOption) {
  builder::BuilderConfig one;
  one.engine.num_threads = 1;
  expect_engine_matches_reference([] { return resnet_like(); }, one, 1e-4, "1 thread");
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
