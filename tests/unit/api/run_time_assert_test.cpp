// Run-time assertions, on hand-built graphs as torch.export writes them:
// `_assert_scalar` on a condition over a dynamic dim (torch._check(x.size(0)
// % 2 == 0) records Eq(Mod(s0, 2), 0)) and `_assert_async` (.msg and
// .default) on a one-element tensor computed from the data. A run whose
// condition holds computes as PyTorch does; one where it is false is an
// InputError naming the node and the condition, and the context runs on.
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "api/pipeline.h"
#include "atenrt/errors.h"
#include "support/graph_builder.h"
#include "support/temp_path.h"

using namespace atenrt;

namespace {

using A = atenrt::testing::GraphBuilder;
using atenrt::testing::add_sym_node;

ir::NamedArgument arg(const char* name, ir::Argument a) { return A::arg(name, std::move(a)); }


std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("not an InputError: ") + e.what();
  }
  return "";
}

Tensor rows(std::int64_t n, float offset) {
  Tensor x(DType::Float32, {n, 3});
  for (std::int64_t i = 0; i < n * 3; ++i) x.mutable_data<float>()[i] = static_cast<float>(i) * 0.25f + offset;
  return x;
}

// y = x * 2 under torch._check(x.size(0) % 2 == 0), x [s0, 3] with s0 in [2, 64].
ir::ExportedProgram even_rows() {
  A b;
  b.input("x", DType::Float32, {-1, 3});
  b.g.tensor_values["x"].sizes[0] = ir::SymInt::named("s0");
  b.g.range_constraints["s0"] = ir::SymRange{2, 64};
  add_sym_node(b, "s", "aten.sym_size.int", {arg("self", A::t("x")), arg("dim", std::int64_t{0})}, ir::SymInt::named("s"));
  add_sym_node(b, "mod", "operator.mod", {arg("a", ir::SymInt::named("s")), arg("b", std::int64_t{2})}, ir::SymInt::named("mod"));
  add_sym_node(b, "eq", "operator.eq", {arg("a", ir::SymInt::named("mod")), arg("b", std::int64_t{0})}, ir::SymBoolRef{"eq"});
  add_sym_node(b, "check_even", "aten._assert_scalar.default",
           {arg("self", ir::SymBoolRef{"eq"}),
            arg("assert_msg", std::string("Runtime assertion failed for expression Eq(Mod(s0, 2), 0) on node 'eq'"))},
           std::nullopt);
  b.node("y", "aten.mul.Tensor", {arg("self", A::t("x")), arg("other", std::int64_t{2})}, DType::Float32, {-1, 3});
  b.g.tensor_values["y"].sizes[0] = ir::SymInt::named("s0");
  b.output("y");
  ir::ExportedProgram p;
  p.graph = std::move(b.g);
  return p;
}

void expect_doubled(const Tensor& x, const Tensor& y) {
  ASSERT_EQ(y.sizes(), x.sizes());
  for (std::int64_t i = 0; i < x.numel(); ++i) EXPECT_EQ(y.data<float>()[i], x.data<float>()[i] * 2.0f) << i;
}

TEST(RunTimeAssert, AssertScalarOnADynamicDimChecksEveryRun) {
  CompileSettings settings;
  settings.min_block_size = 1;
  const Engine engine = api::compile_program(even_rows(), settings);
  const std::string path = atenrt::testing::temp_path("run_time_assert.atrt");
  engine.save(path);
  const Engine loaded = Engine::load(path);  // the check travels in the engine file
  std::remove(path.c_str());
  for (const Engine* e : {&engine, &loaded}) {
    ExecutionContext ctx = e->create_context();
    for (std::int64_t n : {4, 2, 64}) {
      const Tensor x = rows(n, -1.0f);
      expect_doubled(x, ctx.run({x}).at(0));
    }
    for (std::int64_t n : {5, 3, 63}) {
      const std::string m = error_of([&] { ctx.run({rows(n, 0.0f)}); });
      EXPECT_NE(m.find("node 'check_even' (aten._assert_scalar.default)"), std::string::npos) << n << ": " << m;
      EXPECT_NE(m.find("Eq(Mod(s0, 2), 0)"), std::string::npos) << n << ": " << m;
      EXPECT_NE(m.find("is false"), std::string::npos) << n << ": " << m;
    }
    const Tensor x = rows(6, 1.0f);  // the context runs on after a failed check
    expect_doubled(x, ctx.run({x}).at(0));
  }
}

// y = x + 1 after _assert_async(sum(x) > 0, "...") and _assert_async(sum(x)) (non-zero).
ir::ExportedProgram positive_sum(const std::string& overload) {
  A b;
  b.input("x", DType::Float32, {4, 3});
  b.node("total", "aten.sum.default", {arg("self", A::t("x")), arg("dtype", ir::None{})}, DType::Float32, {});
  ir::Argument cond = A::t("total");
  if (overload == "msg") {
    b.node("positive", "aten.gt.Scalar", {arg("self", A::t("total")), arg("other", std::int64_t{0})}, DType::Bool, {});
    cond = A::t("positive");
  }
  std::vector<ir::NamedArgument> args = {arg("self", cond)};
  if (overload == "msg") args.push_back(arg("assert_msg", std::string("the sum must be positive")));
  add_sym_node(b, "check_sum", "aten._assert_async." + overload, std::move(args), std::nullopt);
  b.node("y", "aten.add.Tensor", {arg("self", A::t("x")), arg("other", std::int64_t{1}), arg("alpha", std::int64_t{1})},
         DType::Float32, {4, 3});
  b.output("y");
  ir::ExportedProgram p;
  p.graph = std::move(b.g);
  return p;
}

TEST(RunTimeAssert, AssertAsyncOnATensorComputedFromTheData) {
  for (const char* overload : {"msg", "default"}) {
    SCOPED_TRACE(overload);
    ExecutionContext ctx = api::compile_program(positive_sum(overload), CompileSettings{}).create_context();
    const Tensor good = rows(4, 0.5f);
    const Tensor& y = ctx.run({good}).at(0);
    for (std::int64_t i = 0; i < 12; ++i) EXPECT_EQ(y.data<float>()[i], good.data<float>()[i] + 1.0f) << i;
    // msg: the sum of -1.5 + 0.25 i (i < 12) is -1.5, not positive; default: a zero sum is false.
    const std::string m = error_of([&] { ctx.run({rows(4, std::string(overload) == "msg" ? -1.5f : -1.375f)}); });
    EXPECT_NE(m.find(std::string("node 'check_sum' (aten._assert_async.") + overload + ")"), std::string::npos) << m;
    if (std::string(overload) == "msg") {
      EXPECT_NE(m.find("'the sum must be positive' is false"), std::string::npos) << m;
    } else {
      EXPECT_NE(m.find("Expected Tensor with single nonzero value, but got zero"), std::string::npos) << m;
    }
  }
}

TEST(RunTimeAssert, AssertAsyncOfSeveralElementsIsRefusedAsTorchRaises) {
  A b;
  b.input("x", DType::Bool, {3});
  add_sym_node(b, "check_all", "aten._assert_async.default", {arg("self", A::t("x"))}, std::nullopt);
  b.node("y", "aten.logical_not.default", {arg("self", A::t("x"))}, DType::Bool, {3});
  b.output("y");
  ir::ExportedProgram p;
  p.graph = std::move(b.g);
  CompileSettings settings;
  settings.require_full_compilation = true;
  try {
    api::compile_program(std::move(p), settings);
    FAIL() << "compiled";
  } catch (const UnsupportedError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("check_all"), std::string::npos) << m;
    EXPECT_NE(m.find("exactly one element"), std::string::npos) << m;
  }
}

}  // namespace
