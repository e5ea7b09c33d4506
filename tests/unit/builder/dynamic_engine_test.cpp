// builder::DynamicEngine on a network with a dynamic batch: every shape's
// engine matches the reference executor, weights are packed once for every
// shape, the cache is bounded and keeps the opt shape.
#include <gtest/gtest.h>

#include "builder/dynamic_engine.h"
#include "test_util.h"

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

}  // namespace
}  // namespace atenrt::builder
