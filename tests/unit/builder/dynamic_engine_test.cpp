// builder::DynamicEngine on a network with a dynamic batch: every shape's
// engine matches the reference executor, weights are packed once for every
// shape, the cache is bounded and keeps the opt shape.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <tuple>

#include "builder/dynamic_engine.h"
#include "engine_resign.h"
#include "reference/reference.h"
#include "runtime/serialize.h"
#include "support/engine_check.h"
#include "support/temp_path.h"

namespace atenrt::builder {
namespace {

using atenrt::testing::close;
using atenrt::testing::random_tensor;
using atenrt::testing::weights;
using network::ConvolutionParams;
using network::Network;

// conv(3x3) + bias -> relu -> conv(1x1) -> global mean -> flatten by a
// shape tensor built from Shape(x)[0] (as a sym_size view converts).
Network dynamic_net() {
  Network n;
  auto* x = n.add_input("x", DType::Float32, {-1, 8, 6, 6});
  auto* c1 = n.add_convolution("c1", x, n.add_constant("w1", weights({16, 8, 3, 3}, 1)),
                               n.add_constant("b1", weights({16}, 2)), ConvolutionParams{{1, 1}, {1, 1}, {1, 1}, {1, 1}, 1});
  auto* r = n.add_activation("relu", c1, network::ActivationOp::Relu);
  auto* c2 = n.add_convolution("c2", r, n.add_constant("w2", weights({4, 16, 1, 1}, 3)), nullptr,
                               ConvolutionParams{{1, 1}, {0, 0}, {0, 0}, {1, 1}, 1});
  auto* m = n.add_reduce("mean", c2, network::ReduceOp::Mean, {2, 3}, true);
  auto* shape = n.add_shape("shape", x);
  Tensor zero(DType::Int64, {});
  zero.mutable_data<std::int64_t>()[0] = 0;
  auto* batch = n.add_reshape("batch", n.add_gather("gather", shape, n.add_constant("zero", zero),
                                                    network::GatherMode::Axis, 0), {1});
  Tensor four(DType::Int64, {1});
  four.mutable_data<std::int64_t>()[0] = 4;
  auto* size = n.add_concatenation("size", {batch, n.add_constant("four", four)}, 0);
  auto* out = n.add_shuffle("flat", m, network::ShuffleParams{}, size);
  n.set_tensor_name(out, "out");
  n.mark_output(out);
  return n;
}

std::vector<InputRange> batch_range(std::int64_t lo, std::int64_t opt, std::int64_t hi) {
  InputRange r;
  r.name = "x";
  r.dims = {{lo, opt, hi, "s0"}, {8, 8, 8, ""}, {6, 6, 6, ""}, {6, 6, 6, ""}};
  return {r};
}

TEST(DynamicEngine, EveryShapeMatchesTheReferenceAndSharesThePackedWeights) {
  const Network reference_net = dynamic_net();
  DynamicEngine engine(dynamic_net(), BuilderConfig{}, batch_range(1, 4, 9));
  const auto packed = engine.opt_engine().memory().packed_bytes;
  EXPECT_GT(packed, 0u);
  for (std::int64_t b : {1, 4, 9, 2, 7}) {
    const Tensor x = random_tensor(DType::Float32, {b, 8, 6, 6}, static_cast<std::uint32_t>(b));
    auto e = engine.engine_for({{b, 8, 6, 6}});
    auto ctx = e->create_context();
    const auto& out = ctx.run({x});
    const auto want = reference::run(reference_net, {{"x", x}}).at("out");
    EXPECT_TRUE(close(out.at(0), want, 1e-4)) << "batch " << b;
    // The shared store holds exactly the opt shape's packs: no shape packed again.
    EXPECT_EQ(e->memory().packed_bytes, packed) << "batch " << b;
  }
  EXPECT_EQ(engine.stats().specializations, 5u);
}

TEST(DynamicEngine, CacheIsBoundedAndKeepsTheOptShape) {
  DynamicEngine engine(dynamic_net(), BuilderConfig{}, batch_range(1, 2, 16), 3);
  const auto opt = engine.engine_for({{2, 8, 6, 6}});
  for (std::int64_t b = 3; b <= 8; ++b) engine.engine_for({{b, 8, 6, 6}});
  EXPECT_EQ(engine.stats().cached, 3u);
  EXPECT_EQ(engine.stats().evicted, 4u);
  EXPECT_EQ(engine.engine_for({{2, 8, 6, 6}}), opt);  // never evicted
  EXPECT_EQ(engine.stats().specializations, 7u);
}

TEST(DynamicEngine, RangeIsChecked) {
  DynamicEngine engine(dynamic_net(), BuilderConfig{}, batch_range(2, 2, 4));
  auto message = [&](network::Dims dims) {
    try {
      engine.engine_for({dims});
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(message({5, 8, 6, 6}), "input 'x' dim 0 (s0) is 5, outside the engine's range [2, 4]");
  EXPECT_EQ(message({1, 8, 6, 6}), "input 'x' dim 0 (s0) is 1, outside the engine's range [2, 4]");
  EXPECT_NE(message({2, 8, 6, 7}).find("input 'x' dim 3 is 7, the engine takes 6"), std::string::npos);
  EXPECT_NE(message({2, 8, 6}).find("expected 4 dims"), std::string::npos);
  EXPECT_EQ(message({3, 8, 6, 6}), "(accepted)");
}

TEST(DynamicEngine, SpecializeFoldsShapeComputations) {
  const Network net = specialize(dynamic_net(), {{3, 8, 6, 6}});
  EXPECT_TRUE(net.outputs().at(0)->is_static());
  EXPECT_EQ(net.outputs().at(0)->dims, (network::Dims{3, 4}));
  EXPECT_EQ(net.outputs().at(0)->name, "out");
  for (const auto* layer : net.layers()) EXPECT_NE(layer->kind(), network::LayerKind::Shape) << layer->name;
}

// Both engines at one batch size give the same bytes (contexts kept alive:
// outputs may live in their buffers).
bool same_bytes_at(const DynamicEngine& a, const DynamicEngine& b, std::int64_t batch) {
  const Tensor x = random_tensor(DType::Float32, {batch, 8, 6, 6}, static_cast<std::uint32_t>(batch));
  auto ca = a.engine_for({{batch, 8, 6, 6}})->create_context();
  auto cb = b.engine_for({{batch, 8, 6, 6}})->create_context();
  const Tensor ya = ca.run({x}).at(0).contiguous(), yb = cb.run({x}).at(0).contiguous();
  return ya.sizes() == yb.sizes() && ya.dtype() == yb.dtype() && ya.nbytes() > 0 &&
         std::memcmp(ya.raw_data(), yb.raw_data(), ya.nbytes()) == 0;
}

// A saved dynamic engine loads as the same engine: same ranges and settings,
// and every shape in the range gives the bytes the compiled one gives.
TEST(DynamicEngine, FileRoundTripRunsEveryShapeAsBefore) {
  for (auto precision : {runtime::Precision::Float32, runtime::Precision::BFloat16}) {
    BuilderConfig config;
    config.precision = precision;
    const DynamicEngine engine(dynamic_net(), config, batch_range(1, 4, 9), 5);
    const auto bytes = engine.serialize();
    EXPECT_TRUE(DynamicEngine::is_dynamic_file(bytes));
    auto owner = std::make_shared<std::vector<std::byte>>(bytes);
    const auto loaded = DynamicEngine::deserialize(*owner, owner);
    ASSERT_EQ(loaded->ranges().size(), 1u);
    EXPECT_EQ(loaded->ranges()[0].to_string(), engine.ranges()[0].to_string());
    EXPECT_EQ(loaded->min_output_dims(), engine.min_output_dims());
    EXPECT_EQ(loaded->max_output_dims(), engine.max_output_dims());
    for (std::int64_t b : {1, 4, 9, 6}) EXPECT_TRUE(same_bytes_at(engine, *loaded, b)) << "batch " << b;
    // The precision travelled (bf16 where this CPU has bf16 kernels, else the builder keeps fp32).
    const auto built = precision == runtime::Precision::BFloat16 &&
                               !runtime::cpu_backend().precision_unavailable(precision).empty()
                           ? runtime::Precision::Float32
                           : precision;
    EXPECT_EQ(engine.opt_engine().program().steps.front().precision, built);
    EXPECT_EQ(loaded->opt_engine().program().steps.front().precision, built);
  }
  // Through a file on disk as well.
  const DynamicEngine engine(dynamic_net(), BuilderConfig{}, batch_range(2, 2, 3));
  const std::string path = atenrt::testing::temp_path("dynamic_round_trip.atrt");
  engine.save(path);
  const auto loaded = DynamicEngine::load(path);
  EXPECT_TRUE(same_bytes_at(engine, *loaded, 3));
  std::remove(path.c_str());
}

// conv 3x3 (32->128) + bias -> relu -> conv 3x3 (128->128) -> mean -> matmul
// by a [128, 512] weight: weights of many pages (given back whole).
Network weighty_net(network::Dims input_dims) {
  Network n;
  auto* x = n.add_input("x", DType::Float32, std::move(input_dims));
  auto* c1 = n.add_convolution("c1", x, n.add_constant("w1", weights({128, 32, 3, 3}, 11)),
                               n.add_constant("b1", weights({128}, 12)), ConvolutionParams{{1, 1}, {1, 1}, {1, 1}, {1, 1}, 1});
  auto* r = n.add_activation("relu", c1, network::ActivationOp::Relu);
  auto* c2 = n.add_convolution("c2", r, n.add_constant("w2", weights({128, 128, 3, 3}, 13)), nullptr,
                               ConvolutionParams{{1, 1}, {1, 1}, {1, 1}, {1, 1}, 1});
  auto* m = n.add_reduce("mean", c2, network::ReduceOp::Mean, {2, 3}, false);
  auto* out = n.add_matmul("fc", m, n.add_constant("w3", weights({128, 512}, 14)));
  n.set_tensor_name(out, "out");
  n.mark_output(out);
  return n;
}

std::size_t weight_bytes(const runtime::MemoryStats& m) { return m.constant_bytes + m.packed_bytes; }

// A dynamic engine holds each weight once, as a static engine does: its
// plain weights are given back once packed (plain_weights.h), and written
// back exactly for each new shape and for saving.
TEST(DynamicEngine, HoldsEachWeightOnce) {
  const runtime::Engine fixed = build(weighty_net({4, 32, 8, 8}));
  const std::size_t fixed_bytes = weight_bytes(fixed.memory());
  InputRange range;
  range.name = "x";
  range.dims = {{1, 4, 8, "s0"}, {32, 32, 32, ""}, {8, 8, 8, ""}, {8, 8, 8, ""}};
  const DynamicEngine engine(weighty_net({-1, 32, 8, 8}), BuilderConfig{}, {range});
  EXPECT_LE(weight_bytes(engine.memory()), fixed_bytes * 11 / 10)
      << "plain " << engine.memory().constant_bytes << ", packed " << engine.memory().packed_bytes << "; static engine "
      << fixed.memory().constant_bytes << " / " << fixed.memory().packed_bytes;
  const Network reference_net = weighty_net({-1, 32, 8, 8});
  for (std::int64_t b : {1, 8, 3, 4}) {  // new shapes are made from the plain weights written back
    const Tensor x = random_tensor(DType::Float32, {b, 32, 8, 8}, static_cast<std::uint32_t>(b + 20));
    auto ctx = engine.engine_for({{b, 32, 8, 8}})->create_context();
    const auto want = reference::run(reference_net, {{"x", x}}).at("out");
    EXPECT_TRUE(close(ctx.run({x}).at(0), want, 1e-4)) << "batch " << b;
    EXPECT_LE(weight_bytes(engine.memory()), fixed_bytes * 11 / 10) << "after batch " << b;
  }
  // Saving writes the plain weights bit for bit.
  const auto bytes = engine.serialize();
  auto owner = std::make_shared<std::vector<std::byte>>(bytes);
  const auto file = runtime::file::read_dynamic_file(*owner, owner);
  int found = 0;
  for (const Tensor& w : {weights({128, 32, 3, 3}, 11), weights({128, 128, 3, 3}, 13), weights({128, 512}, 14)}) {
    for (const auto& t : file.program.tensors) {
      if (t.role != runtime::TensorRole::Constant || t.dims != w.sizes()) continue;
      ++found;
      EXPECT_EQ(std::memcmp(t.value.raw_data(), w.raw_data(), w.nbytes()), 0) << shape_to_string(w.sizes());
    }
  }
  EXPECT_EQ(found, 3);
  EXPECT_LE(weight_bytes(engine.memory()), fixed_bytes * 11 / 10) << "after saving";
}

// The ranges payload behind the checksum: each check, on a re-signed file.
TEST(DynamicEngine, BadDynamicFilesAreRefused) {
  const DynamicEngine engine(dynamic_net(), BuilderConfig{}, batch_range(1, 4, 9));
  const auto good = engine.serialize();
  // A plain-engine reader names what the file is.
  try {
    (void)runtime::Engine::deserialize(good);
    ADD_FAILURE() << "a dynamic file loaded as a static engine";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find(runtime::file::kDynamicFileMarker), std::string::npos) << e.what();
  }
  const auto container = runtime::file::parse_container(good);
  const std::size_t at = container.find(runtime::file::SectionKind::Ranges)->offset;
  // Payload: u32 version, 5 bytes of settings, i64 capacity, u64 count, then
  // input 0: u64 name length, "x", u8 dtype, u64 rank, dim 0 (min, opt, max,
  // symbol "s0"), dim 1 ...
  const std::size_t name = at + 33, dim0 = at + 43, dim1 = dim0 + 24 + 8 + 2;
  using Patch = std::tuple<std::size_t, std::int64_t, std::size_t>;  // offset, value, width
  auto expect_refused = [&](std::vector<Patch> patches, const std::string& fragment) {
    auto bad = good;
    for (const auto& [offset, value, width] : patches) std::memcpy(bad.data() + offset, &value, width);
    atenrt::testing::resign_engine_file(bad);
    try {
      auto owner = std::make_shared<std::vector<std::byte>>(bad);
      (void)DynamicEngine::deserialize(*owner, owner);
      ADD_FAILURE() << "accepted: " << fragment;
    } catch (const FormatError& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  expect_refused({{at, 2, 4}}, "ranges section: version 2");
  expect_refused({{at + 9, 0, 8}}, "shape-cache capacity 0 out of range");
  expect_refused({{at + 17, 2, 8}}, "2 input ranges for 1 inputs");
  expect_refused({{name, 'y', 1}}, "input 0 ('y') does not match the program's input 'x'");
  expect_refused({{dim0, 5, 8}}, "dim 0: range 5 <= 4 <= 9 does not hold");
  expect_refused({{dim0 + 16, std::int64_t{1} << 50, 8}}, "does not hold (sizes 0..2^40)");
  // A static dim (8) that the ranges say is 7.
  expect_refused({{dim1, 7, 8}, {dim1 + 8, 7, 8}, {dim1 + 16, 7, 8}}, "dim 1: the range");
}

}  // namespace
}  // namespace atenrt::builder

namespace atenrt::builder {
namespace {

// x[-1 or fixed, 6] -> nonzero -> rows (column 0) -> y gathered by them ->
// summed: a data-dependent size in the middle of the network.
Network nonzero_net(std::int64_t axis_marker = 0) {
  Network n;
  auto* x = n.add_input("x", DType::Float32, {-1, 6});
  network::DataDependentParams p;
  p.op = network::DataDependentOp::NonZero;
  p.axis = axis_marker;  // NonZero ignores it; a test finds the record by it
  auto* nz = n.add_layer("nz", {x}, p)->output();
  Tensor zero(DType::Int64, {});
  zero.mutable_data<std::int64_t>()[0] = 0;
  auto* rows = n.add_gather("rows", nz, n.add_constant("zero", zero), network::GatherMode::Axis, 1);
  auto* picked = n.add_gather("picked", x, rows, network::GatherMode::Axis, 0);
  auto* total = n.add_reduce("total", picked, network::ReduceOp::Sum, {0}, false);
  n.set_tensor_name(nz, "nz");
  n.set_tensor_name(total, "total");
  n.mark_output(nz);
  n.mark_output(total);
  return n;
}

std::vector<InputRange> rows_range(std::int64_t lo, std::int64_t opt, std::int64_t hi) {
  InputRange r;
  r.name = "x";
  r.dims = {{lo, opt, hi, "s0"}, {6, 6, 6, ""}};
  return {r};
}

Tensor sparse(std::int64_t rows, int period) {
  Tensor x(DType::Float32, {rows, 6});
  for (std::int64_t i = 0; i < rows * 6; ++i) x.mutable_data<float>()[i] = period && i % period == 0 ? 0.5f * static_cast<float>(i) : 0.0f;
  return x;
}

// Stages run what the reference executor computes, at every count.
TEST(DataDependentStages, EveryCountMatchesTheReference) {
  const DynamicEngine engine(nonzero_net(), BuilderConfig{}, rows_range(1, 4, 8));
  ASSERT_TRUE(engine.data_dependent());
  StagedContext ctx(0);
  Network reference_net = nonzero_net();
  for (auto [rows, period] : std::vector<std::pair<int, int>>{{4, 3}, {4, 0}, {8, 1}, {1, 5}, {4, 3}, {6, 7}}) {
    const Tensor x = sparse(rows, period);
    const auto& out = ctx.run(*engine.plan_for({x.sizes()}), {x});
    const auto want = reference::run(reference_net, {{"x", x}});
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].sizes(), want.at("nz").sizes()) << rows << "/" << period;
    EXPECT_EQ(out[0].contiguous().to_bytes(), want.at("nz").to_bytes());
    EXPECT_TRUE(close(out[1], want.at("total"), 1e-5));
  }
  // A row count outside the range is the range's InputError, as without stages.
  EXPECT_THROW((void)engine.plan_for({{9, 6}}), InputError);
}

// A profiled run's host-step totals are kept per stage shape, not per plan
// object: another shape's plan at the same address starts its own, and a
// plan made again (after eviction) at another address adds to its shape's.
TEST(DataDependentStages, HostStepTotalsFollowTheShapeNotThePlansAddress) {
  const DynamicEngine engine(nonzero_net(), BuilderConfig{}, rows_range(1, 4, 8));
  StagedContext ctx(0);
  ctx.set_profiling(true);
  auto host_step = [&]() {  // (total, last) of the first host step (nonzero)
    const StagedProfile& p = ctx.profile();
    std::size_t index = 0;
    for (const auto& part : p.parts) {
      if (!part.engine) return std::make_pair(p.times.total_ms.at(index), p.times.last_ms.at(index));
      index += part.engine->steps().size();
    }
    ADD_FAILURE() << "no host step";
    return std::make_pair(0.0, 0.0);
  };
  const Tensor a = sparse(4, 3), b = sparse(8, 1);
  StagePlan plan = *engine.plan_for({a.sizes()});
  (void)ctx.run(plan, {a});
  const auto [a_total, a_last] = host_step();
  EXPECT_EQ(a_total, a_last);
  plan = *engine.plan_for({b.sizes()});  // the same address, another shape
  (void)ctx.run(plan, {b});
  EXPECT_EQ(host_step().first, host_step().second);
  const StagePlan again = *engine.plan_for({a.sizes()});  // another address, the first shape
  (void)ctx.run(again, {a});
  EXPECT_EQ(host_step().first, a_total + host_step().second);
}

// A host step's output is checked against the memory limit before it is
// allocated (the output allocator's check).
TEST(DataDependentStages, OutputsOverTheMemoryLimitAreInputErrors) {
  BuilderConfig config;
  config.engine.max_memory_bytes = (1 << 20) - 1;
  Network n;
  auto* x = n.add_input("x", DType::Bool, {-1, 1024});
  network::DataDependentParams p;
  auto* nz = n.add_layer("nz", {x}, p)->output();
  n.mark_output(nz);
  const DynamicEngine engine(std::move(n), config, {InputRange{"x", DType::Bool, {{1, 1, 64, "s0"}, {1024, 1024, 1024, ""}}}});
  StagedContext ctx(0);
  Tensor small(DType::Bool, {1, 1024}), large(DType::Bool, {64, 1024});
  std::memset(small.mutable_data<bool>(), 1, 1024);
  std::memset(large.mutable_data<bool>(), 1, 64 * 1024);
  EXPECT_EQ(ctx.run(*engine.plan_for({small.sizes()}), {small})[0].sizes(), (Dims{1024, 2}));
  try {
    (void)ctx.run(*engine.plan_for({large.sizes()}), {large});  // 65536 x 2 int64: 1 MiB
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("more than the memory limit"), std::string::npos) << e.what();
  }
}

// Engine files carry the DataDependent layer (kind 26): a round trip gives the
// same bytes, and an op out of range is a FormatError naming it.
TEST(DataDependentStages, EngineFilesRoundTripAndRefuseABadOp) {
  constexpr std::int64_t kMarker = 0x0a0b0c0d0e0f1011;
  const DynamicEngine engine(nonzero_net(kMarker), BuilderConfig{}, rows_range(1, 4, 8));
  const auto good = engine.serialize();
  auto owner = std::make_shared<std::vector<std::byte>>(good);
  const auto loaded = DynamicEngine::deserialize(*owner, owner);
  ASSERT_TRUE(loaded->data_dependent());
  StagedContext a(0), b(0);
  for (int period : {2, 0, 1}) {
    const Tensor x = sparse(5, period);
    const auto want = a.run(*engine.plan_for({x.sizes()}), {x});
    const auto got = b.run(*loaded->plan_for({x.sizes()}), {x});
    for (std::size_t o = 0; o < want.size(); ++o) EXPECT_EQ(got[o].contiguous().to_bytes(), want[o].contiguous().to_bytes());
  }
  // The record: u8 op, sorted, return_inverse, return_counts, has_axis, i64 axis, i64 minlength.
  std::size_t at = 0;
  for (std::size_t i = 0; i + 8 <= good.size(); ++i) {
    if (std::memcmp(good.data() + i, &kMarker, 8) == 0) at = i;
  }
  ASSERT_GT(at, 5u);
  auto bad = good;
  bad[at - 5] = std::byte{9};
  atenrt::testing::resign_engine_file(bad);
  try {
    auto o = std::make_shared<std::vector<std::byte>>(bad);
    (void)DynamicEngine::deserialize(*o, o);
    ADD_FAILURE() << "accepted a data-dependent op out of range";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("data-dependent op 9 out of range"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace atenrt::builder
