// Shared helpers for the builder and runtime tests: random inputs, the reference
// oracle and tolerant comparison.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>

#include "builder/builder.h"
#include "reference/reference.h"
#include "support/compare.h"

namespace atenrt::testing {

inline Tensor random_tensor(DType dtype, const network::Dims& dims, std::uint32_t seed,
                            double lo = -2.0, double hi = 2.0) {
  Tensor t(dtype, dims);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  for (std::int64_t i = 0; i < t.numel(); ++i) {
    const double v = u(gen);
    switch (dtype) {
      case DType::Float32: t.mutable_data<float>()[i] = static_cast<float>(v); break;
      case DType::Float64: t.mutable_data<double>()[i] = v; break;
      case DType::Int64: t.mutable_data<std::int64_t>()[i] = static_cast<std::int64_t>(std::floor(v * 3)); break;
      case DType::Int32: t.mutable_data<std::int32_t>()[i] = static_cast<std::int32_t>(std::floor(v * 3)); break;
      case DType::Bool: t.mutable_data<std::uint8_t>()[i] = v > 0; break;
      default: ADD_FAILURE() << "random_tensor: dtype not handled";
    }
  }
  return t;
}

// Small float32 weights in [-0.5, 0.5): keeps deep test stacks well scaled.
inline Tensor weights(const network::Dims& dims, std::uint32_t seed) {
  return random_tensor(DType::Float32, dims, seed, -0.5, 0.5);
}

// |a - b| <= tol + tol * |b|, NaN matching NaN and ±inf only itself,
// integers exactly (support/compare.h); reports the first mismatch.
inline ::testing::AssertionResult close(const Tensor& got, const Tensor& want, double tol) {
  const std::string diff = compare_tensors(got, want, tol, tol);
  if (diff.empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << diff;
}

inline bool bit_identical(const Tensor& a, const Tensor& b) {
  return a.dtype() == b.dtype() && a.sizes() == b.sizes() && a.to_bytes() == b.to_bytes();
}

// Random inputs for every network input (seeded by position).
inline reference::TensorMap random_inputs(const network::Network& net, std::uint32_t seed = 1) {
  reference::TensorMap in;
  std::uint32_t s = seed;
  for (const auto* t : net.inputs()) in[t->name] = random_tensor(t->dtype, t->dims, s++);
  return in;
}

// Builds `make()` twice (the builder consumes its network): once for the
// engine, once for the reference; runs both on the same inputs and compares.
inline void expect_engine_matches_reference(const std::function<network::Network()>& make,
                                            const builder::BuilderConfig& config, double tol,
                                            const std::string& what,
                                            const std::function<void(reference::TensorMap&)>& tweak = {}) {
  SCOPED_TRACE(what);
  network::Network ref_net = make();
  auto inputs = random_inputs(ref_net);
  if (tweak) tweak(inputs);
  const auto want = reference::run(ref_net, inputs);
  runtime::Engine engine = builder::build(make(), config);
  auto ctx = engine.create_context();
  const auto got = ctx.run(inputs);
  // The network's outputs drive the loop: an engine that drops or renames one fails.
  ASSERT_EQ(engine.outputs().size(), ref_net.outputs().size()) << "engine output count";
  for (std::size_t i = 0; i < ref_net.outputs().size(); ++i) {
    const std::string& name = ref_net.outputs()[i]->name;
    EXPECT_EQ(engine.outputs()[i].name, name) << "engine output " << i;
    ASSERT_TRUE(got.count(name)) << "the engine has no output " << name;
    EXPECT_TRUE(close(got.at(name), want.at(name), tol)) << "output " << name;
  }
}

}  // namespace atenrt::testing
