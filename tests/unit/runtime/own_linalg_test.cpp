// LinearAlgebra layers in an engine: the own kernel (LAPACK with its
// workspace in the context's scratch) against the reference, every op, both
// dtypes, batched, and that the engine picks the own kernel. Run-time data
// LAPACK must not see (pivots out of range) and check_errors are InputErrors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "support/engine_check.h"

namespace atenrt::testing {
namespace {

using namespace atenrt::network;
using builder::BuilderConfig;
using O = LinalgOp;

LinalgParams lp(O op) {
  LinalgParams p;
  p.op = op;
  return p;
}

// A network computing `op` on inputs made from random ones: pivots come from
// a factorization in the network, so they are valid.
Network make(O op, DType dt, bool flag) {
  Network n;
  auto* a = n.add_input("a", dt, {2, 4, 4});
  auto* b = n.add_input("b", dt, {2, 4, 3});
  LinalgParams p = lp(op);
  p.upper = flag;
  p.left = true;
  p.full = flag;
  p.hermitian = flag;
  std::vector<NetworkTensor*> ins{a};
  switch (op) {
    case O::Solve:
    case O::TriangularSolve: ins.push_back(b); break;
    case O::CholeskySolve: ins = {b, a}; break;
    case O::LuUnpack:
    case O::LuSolve: {
      auto* f = n.add_layer("f", {a}, lp(O::LuFactor));
      ins = {f->output(0), f->output(1)};
      if (op == O::LuSolve) ins.push_back(b);
      break;
    }
    case O::LdlSolve: {
      auto* f = n.add_layer("f", {a}, lp(O::LdlFactor));
      ins = {f->output(0), f->output(1), b};
      break;
    }
    case O::HouseholderProduct:
    case O::Ormqr: {
      auto* g = n.add_layer("g", {a}, lp(O::Geqrf));
      ins = {g->output(0), g->output(1)};
      if (op == O::Ormqr) ins.push_back(b);
      break;
    }
    case O::Pinv: {
      Tensor tol(DType::Float64, {2});
      tol.mutable_data<double>()[0] = 0.01;
      tol.mutable_data<double>()[1] = 0.2;
      ins = {a, n.add_constant("atol", tol), n.add_constant("rtol", tol)};
      break;
    }
    default: break;
  }
  for (auto* y : n.add_layer("y", ins, p)->outputs) n.mark_output(y);
  return n;
}

struct Case {
  O op;
  DType dt;
  bool flag;
};

class OwnLinalgVsReference : public ::testing::TestWithParam<Case> {};

TEST_P(OwnLinalgVsReference, MatchesReferenceAndIsOwn) {
  const Case c = GetParam();
  BuilderConfig config;
  config.constant_folding = false;
  config.engine.allow_reference_kernels = false;  // a fallback would be an error here
  auto net = [&] { return make(c.op, c.dt, c.flag); };
  expect_engine_matches_reference(net, config, 1e-6, std::string(linalg_op_name(c.op)));
  const auto engine = builder::build(net(), config);
  int seen = 0;
  for (const auto& step : engine.steps()) {
    if (step.kind == "LinearAlgebra") {
      EXPECT_EQ(step.implementation, "own") << step.name;
      ++seen;
    }
  }
  EXPECT_GE(seen, 1);
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (int k = 0; k < kLinalgOpCount; ++k) {
    for (DType dt : {DType::Float32, DType::Float64}) out.push_back({static_cast<O>(k), dt, (k + (dt == DType::Float32)) % 2 == 0});
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Ops, OwnLinalgVsReference, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return std::string(linalg_op_name(info.param.op)) + "_" + std::string(dtype_name(info.param.dt));
                         });

// Runs the network through an engine; its outputs in the network's order.
std::vector<Tensor> run_engine(Network& n, const reference::TensorMap& inputs) {
  std::vector<std::string> names;
  for (const auto* t : n.outputs()) names.push_back(t->name);
  BuilderConfig config;
  config.constant_folding = false;
  auto engine = builder::build(std::move(n), config);
  auto ctx = engine.create_context();
  auto got = ctx.run(inputs);
  std::vector<Tensor> outs;
  for (const auto& name : names) outs.push_back(got.at(name));
  return outs;
}

TEST(OwnLinalg, BadPivotsAreInputErrors) {
  Network n;
  auto* lu = n.add_input("lu", DType::Float32, {3, 3});
  auto* piv = n.add_input("piv", DType::Int32, {3});
  n.mark_output(n.add_layer("unpack", {lu, piv}, lp(O::LuUnpack))->output(0));
  Tensor a(DType::Float32, {3, 3});
  for (int i = 0; i < 9; ++i) a.mutable_data<float>()[i] = static_cast<float>(i);
  Tensor p(DType::Int32, {3});
  const std::int32_t bad[] = {1, 7, 3};
  std::memcpy(p.mutable_data<std::int32_t>(), bad, sizeof(bad));
  try {
    run_engine(n, {{"lu", a}, {"piv", p}});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("layer 'unpack'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("pivot 7"), std::string::npos) << e.what();
  }
}

TEST(OwnLinalg, LdlPivotPairsAreChecked) {
  Network n;
  auto* ld = n.add_input("ld", DType::Float64, {3, 3});
  auto* piv = n.add_input("piv", DType::Int32, {3});
  auto* b = n.add_input("b", DType::Float64, {3, 1});
  n.mark_output(n.add_layer("solve", {ld, piv, b}, lp(O::LdlSolve))->output(0));
  Tensor a(DType::Float64, {3, 3}), rhs(DType::Float64, {3, 1});
  for (int i = 0; i < 9; ++i) a.mutable_data<double>()[i] = 1.0 + i;
  for (int i = 0; i < 3; ++i) rhs.mutable_data<double>()[i] = 1.0;
  Tensor p(DType::Int32, {3});
  const std::int32_t lone[] = {1, 2, -3};  // a 2x2 block that would run past the last row
  std::memcpy(p.mutable_data<std::int32_t>(), lone, sizeof(lone));
  EXPECT_THROW(run_engine(n, {{"ld", a}, {"piv", p}, {"b", rhs}}), InputError);
}

TEST(OwnLinalg, CheckErrorsRaisesOnSingular) {
  for (bool check : {false, true}) {
    Network n;
    auto* a = n.add_input("a", DType::Float32, {2, 2});
    auto p = lp(O::Inverse);
    p.check_errors = check;
    auto* l = n.add_layer("inv", {a}, p);
    n.mark_output(l->output(0));
    n.mark_output(l->output(1));
    ASSERT_EQ(l->params_as<LinalgParams>().check_errors, check);
    Tensor x(DType::Float32, {2, 2});
    const float v[] = {1, 2, 2, 4};
    std::memcpy(x.mutable_data<float>(), v, sizeof(v));
    if (!check) {
      const auto outs = run_engine(n, {{"a", x}});
      EXPECT_EQ(outs[1].data<std::int32_t>()[0], 2);  // PyTorch's info: U(2,2) is zero
      continue;
    }
    try {
      const auto outs = run_engine(n, {{"a", x}});
      FAIL() << "no error: info " << outs[1].data<std::int32_t>()[0];
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("singular"), std::string::npos) << e.what();
    }
  }
}

TEST(OwnLinalg, NonFiniteSvdInputIsAnInputError) {
  // PyTorch raises too ("failed to converge ... non-finite values"); LAPACK says info -4.
  Network n;
  auto* a = n.add_input("a", DType::Float32, {3, 3});
  auto p = lp(O::Svd);
  for (auto* y : n.add_layer("svd", {a}, p)->outputs) n.mark_output(y);
  Tensor x(DType::Float32, {3, 3});
  for (int i = 0; i < 9; ++i) x.mutable_data<float>()[i] = static_cast<float>(i % 4);
  x.mutable_data<float>()[4] = std::nanf("");
  try {
    run_engine(n, {{"a", x}});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("NaN or inf"), std::string::npos) << e.what();
  }
}

TEST(OwnLinalg, ShapeInferenceRefusesWhatLapackCannotTake) {
  Network n;
  auto* big = n.add_input("big", DType::Float32, {50000, 50000});
  EXPECT_THROW(n.add_layer("inv", {big}, lp(O::Inverse)), LayerError);
  auto* rect = n.add_input("rect", DType::Float32, {3, 4});
  EXPECT_THROW(n.add_layer("inv2", {rect}, lp(O::Inverse)), LayerError);
  auto* ints = n.add_input("ints", DType::Int64, {3, 3});
  EXPECT_THROW(n.add_layer("det", {ints}, lp(O::Det)), LayerError);
  auto* a = n.add_input("a", DType::Float32, {2, 3, 3});
  auto* b = n.add_input("b", DType::Float32, {3, 3, 1});
  EXPECT_THROW(n.add_layer("solve", {a, b}, lp(O::Solve)), LayerError);  // batch dims differ
}

}  // namespace
}  // namespace atenrt::testing
