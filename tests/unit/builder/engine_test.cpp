// Engine-level behaviour: threads, engine files, input validation, memory plan.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <thread>

#include "resnet_like.h"

namespace atenrt::testing {
namespace {

using namespace atenrt::network;

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "/atenrt_" + name + "_" + std::to_string(::getpid());
}

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

// A network touching oneDNN, own and reference kernels, for engine files.
Network mixed() {
  Network n;
  auto* x = n.add_input("x", DType::Float32, {1, 8, 6, 6});
  auto* idx = n.add_input("idx", DType::Int64, {3});
  auto* c = n.add_activation("relu", n.add_convolution("conv", x, n.add_constant("w", random_tensor(DType::Float32, {8, 8, 3, 3}, 3)),
                                                        nullptr, ConvolutionParams{{1, 1}, {1, 1}, {1, 1}, {1, 1}, 1}),
                             ActivationOp::Relu);
  auto* flat = n.add_reshape("flat", c, {8, 36});
  auto* g = n.add_gather("g", flat, n.add_unary("absidx", idx, UnaryOp::Abs), GatherMode::Axis, 0);
  auto* cs = n.add_cumulative("cs", g, CumulativeOp::Sum, 1);
  auto* tk = n.add_topk("tk", cs, 4, -1, true);
  n.mark_output(tk->output(0));
  n.mark_output(tk->output(1));
  n.mark_output(n.add_softmax("sm", n.add_slice("sl", cs, {1}, {0}, {36}, {5}), -1));
  return n;
}

reference::TensorMap mixed_inputs() {
  reference::TensorMap in;
  in["x"] = random_tensor(DType::Float32, {1, 8, 6, 6}, 1);
  Tensor idx(DType::Int64, {3});
  idx.mutable_data<std::int64_t>()[0] = 7;
  idx.mutable_data<std::int64_t>()[1] = -2;
  idx.mutable_data<std::int64_t>()[2] = 0;
  in["idx"] = idx;
  return in;
}

TEST(EngineFile, SaveLoadRunIsBitIdentical) {
  for (auto precision : {runtime::Precision::Float32, runtime::Precision::BFloat16}) {
    for (bool resnet : {false, true}) {
      builder::BuilderConfig config;
      config.precision = precision;
      auto engine = builder::build(resnet ? resnet_like() : mixed(), config);
      const std::string path = temp_path("engine");
      engine.save(path);
      auto loaded = runtime::Engine::load(path);
      std::remove(path.c_str());
      const auto inputs = resnet ? random_inputs(resnet_like()) : mixed_inputs();
      auto a = engine.create_context();
      auto b = loaded.create_context();
      const auto ra = a.run(inputs);
      const auto rb = b.run(inputs);
      ASSERT_EQ(ra.size(), rb.size());
      for (const auto& [name, t] : ra) EXPECT_TRUE(bit_identical(t, rb.at(name))) << name;
      EXPECT_EQ(engine.serialize(), loaded.serialize());
      if (!resnet && precision == runtime::Precision::Float32) {
        Network ref = mixed();
        const auto want = reference::run(ref, inputs);
        for (const auto& [name, t] : rb) EXPECT_TRUE(close(t, want.at(name), 1e-4)) << name;
      }
    }
  }
}

void expect_refused(const std::vector<std::byte>& bytes, const std::string& fragment) {
  try {
    runtime::Engine::deserialize(bytes);
    ADD_FAILURE() << "accepted a bad engine file (" << fragment << ")";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(EngineFile, CorruptFilesAreRefused) {
  const auto good = builder::build(mixed()).serialize();
  ASSERT_NO_THROW(runtime::Engine::deserialize(good));
  // every 97th byte of the payload flipped, and the last one
  for (std::size_t at = 24; at < good.size(); at += 97) {
    auto bad = good;
    bad[at] ^= std::byte{0x40};
    expect_refused(bad, "checksum");
  }
  auto last = good;
  last.back() ^= std::byte{1};
  expect_refused(last, "checksum");
  for (std::size_t n : {std::size_t{0}, std::size_t{7}, std::size_t{23}, std::size_t{24}, good.size() / 2, good.size() - 1}) {
    expect_refused(std::vector<std::byte>(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n)),
                   n < 8 ? "magic" : (n < 24 ? "magic" : "truncated"));
  }
  auto magic = good;
  magic[0] = std::byte{'P'};
  expect_refused(magic, "magic");
  auto version = good;
  version[8] = std::byte{99};
  expect_refused(version, "version");
  auto longer = good;
  longer.push_back(std::byte{0});
  expect_refused(longer, "truncated or padded");
  EXPECT_THROW(runtime::Engine::load(temp_path("does_not_exist")), FormatError);
  // a foreign file on disk
  const std::string path = temp_path("foreign");
  {
    std::ofstream out(path, std::ios::binary);
    out << "PK\x03\x04 not an engine at all, but long enough to have a header";
  }
  EXPECT_THROW(runtime::Engine::load(path), FormatError);
  std::remove(path.c_str());
}

TEST(EngineFile, ValidChecksumButInconsistentProgramIsRefused) {
  // Re-sign a payload whose first step reads a tensor id out of range: the
  // checksum passes, validation must not.
  auto engine = builder::build(mixed());
  runtime::Program prog = engine.program();
  prog.steps[0].inputs[0] = 999;
  EXPECT_THROW(runtime::Engine(prog, {}), FormatError);
  runtime::Program early = engine.program();
  std::swap(early.steps[0], early.steps[1]);  // reads before it is produced
  EXPECT_THROW(runtime::Engine(early, {}), FormatError);
  runtime::Program wrong = engine.program();
  wrong.tensors[wrong.steps[0].outputs[0]].dims.push_back(2);
  EXPECT_THROW(runtime::Engine(wrong, {}), FormatError);
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
