// Data-dependent output shapes end to end (docs/dynamic-shapes.md), on
// hand-built graphs with hand-computed expectations: nonzero, the rows it
// picks (index), a sum over them, and a size computed from its row count
// (sym_size -> operator.mul -> view), at counts 0, some and all; engine files;
// contexts on threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <tuple>

#include "api/pipeline.h"
#include "atenrt/atenrt.h"
#include "builder/dynamic_engine.h"
#include "support/graph_builder.h"
#include "support/temp_path.h"
#include "support/threads_check.h"

using namespace atenrt;

namespace {

using atenrt::testing::GraphBuilder;
using atenrt::testing::add_sym_node;
using A = GraphBuilder;


// x[4, 5], y[4, 3]: nz = nonzero(x); picked = y[nz[:, 0]]; total = picked.sum(0);
// flat = picked.view(nz.size(0) * 3).
ir::ExportedProgram nonzero_program() {
  GraphBuilder b;
  b.fill_schema_defaults = true;
  b.input("x", DType::Float32, {4, 5});
  b.input("y", DType::Float32, {4, 3});
  b.node("nz", "aten.nonzero.default", {A::arg("self", A::t("x"))}, DType::Int64, {-1, 2});
  b.node("rows", "aten.select.int", {A::arg("self", A::t("nz")), A::arg("dim", std::int64_t{1}), A::arg("index", std::int64_t{0})},
         DType::Int64, {-1});
  b.node("picked", "aten.index.Tensor",
         {A::arg("self", A::t("y")), A::arg("indices", ir::OptionalTensorList{ir::TensorRef{"rows"}})}, DType::Float32, {-1, 3});
  b.node("total", "aten.sum.dim_IntList",
         {A::arg("self", A::t("picked")), A::arg("dim", ir::IntList{0}), A::arg("keepdim", false)}, DType::Float32, {3});
  add_sym_node(b, "u0", "aten.sym_size.int", {A::arg("self", A::t("nz")), A::arg("dim", std::int64_t{0})}, ir::SymInt::named("u0"));
  add_sym_node(b, "thrice", "_operator.mul", {A::arg("a", ir::SymInt::named("u0")), A::arg("b", std::int64_t{3})},
           ir::SymInt::named("thrice"));
  b.node("flat", "aten.view.default", {A::arg("self", A::t("picked")), A::arg("size", ir::SymIntList{ir::SymInt::named("thrice")})},
         DType::Float32, {-1});
  for (const char* o : {"nz", "picked", "total", "flat"}) b.output(o);
  ir::ExportedProgram p;
  p.graph = std::move(b.g);
  return p;
}

// x with a zero wherever (i * 5 + j) % period != 0 (period 1: all non-zero;
// 0: all zero).
std::vector<Tensor> inputs_with(int period, float shift = 0.0f) {
  Tensor x(DType::Float32, {4, 5}), y(DType::Float32, {4, 3});
  for (int i = 0; i < 20; ++i) x.mutable_data<float>()[i] = period > 0 && i % period == 0 ? static_cast<float>(i) - 7.5f : 0.0f;
  for (int i = 0; i < 12; ++i) y.mutable_data<float>()[i] = static_cast<float>(i) * 0.25f + shift;
  return {x, y};
}

void expect_matches(const std::vector<Tensor>& in, const std::vector<Tensor>& out) {
  std::vector<std::int64_t> nz;
  for (std::int64_t i = 0; i < 20; ++i) {
    if (in[0].data<float>()[i] != 0.0f) {
      nz.push_back(i / 5);
      nz.push_back(i % 5);
    }
  }
  const auto n = static_cast<std::int64_t>(nz.size() / 2);
  ASSERT_EQ(out.size(), 4u);
  ASSERT_EQ(out[0].sizes(), (std::vector<std::int64_t>{n, 2}));
  ASSERT_EQ(out[0].dtype(), DType::Int64);
  const Tensor o0 = out[0].contiguous();
  for (std::size_t k = 0; k < nz.size(); ++k) EXPECT_EQ(o0.data<std::int64_t>()[k], nz[k]) << k;
  ASSERT_EQ(out[1].sizes(), (std::vector<std::int64_t>{n, 3}));
  const Tensor o1 = out[1].contiguous();
  float total[3] = {0, 0, 0};
  for (std::int64_t r = 0; r < n; ++r) {
    for (int c = 0; c < 3; ++c) {
      const float want = in[1].data<float>()[nz[2 * r] * 3 + c];
      EXPECT_EQ(o1.data<float>()[r * 3 + c], want);
      total[c] += want;
    }
  }
  ASSERT_EQ(out[2].sizes(), (std::vector<std::int64_t>{3}));
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(out[2].contiguous().data<float>()[c], total[c], 1e-4f * (1.0f + std::abs(total[c])));
  ASSERT_EQ(out[3].sizes(), (std::vector<std::int64_t>{3 * n}));
  EXPECT_EQ(out[3].contiguous().to_bytes(), o1.to_bytes());
}

TEST(DataDependent, NonzeroAndWhatFollowsItRunAtEveryCount) {
  const Engine engine = api::compile_program(nonzero_program(), {});
  ASSERT_TRUE(engine.is_dynamic());
  ASSERT_TRUE(engine.dynamic()->data_dependent());
  EXPECT_EQ(engine.outputs().at(0).dims, (std::vector<std::int64_t>{-1, 2}));
  EXPECT_EQ(engine.outputs().at(2).dims, (std::vector<std::int64_t>{3}));
  ExecutionContext ctx = engine.create_context();
  // Some, none (a 0-row nonzero, an empty sum), all, and counts seen before.
  for (int period : {3, 0, 1, 7, 3, 0, 2, 1}) {
    SCOPED_TRACE("period " + std::to_string(period));
    const auto in = inputs_with(period, static_cast<float>(period));
    expect_matches(in, ctx.run(in));
  }
}

TEST(DataDependent, EngineFilesKeepTheStages) {
  const Engine engine = api::compile_program(nonzero_program(), {});
  const std::string path = atenrt::testing::temp_path("data_dependent.atrt");
  engine.save(path);
  const Engine loaded = Engine::load(path);
  std::remove(path.c_str());
  ASSERT_TRUE(loaded.is_dynamic());
  EXPECT_EQ(loaded.outputs().at(1).dims, (std::vector<std::int64_t>{-1, 3}));
  ExecutionContext a = engine.create_context(), b = loaded.create_context();
  for (int period : {2, 0, 1, 5}) {
    const auto in = inputs_with(period);
    const auto want = a.run(in);
    const auto got = b.run(in);
    expect_matches(in, got);
    for (std::size_t o = 0; o < want.size(); ++o) EXPECT_EQ(got[o].contiguous().to_bytes(), want[o].contiguous().to_bytes()) << o;
  }
}

TEST(DataDependent, ContextsOnThreadsAgreeWithOneAtATime) {
  const Engine engine = api::compile_program(nonzero_program(), {});
  std::vector<std::vector<Tensor>> inputs;
  for (int period : {1, 2, 3, 4, 5, 0, 7, 9}) inputs.push_back(inputs_with(period));
  atenrt::testing::expect_threads_agree_with_one_at_a_time(engine, inputs);
}


// Two data-dependent layers in a row (a stage after a stage): the histogram
// of x, repeat_interleave of it (x sorted), and unique with counts of that.
ir::ExportedProgram histogram_program() {
  GraphBuilder b;
  b.fill_schema_defaults = true;
  b.input("x", DType::Int64, {6});
  b.node("hist", "aten.bincount.default", {A::arg("self", A::t("x"))}, DType::Int64, {-1});
  b.node("sorted", "aten.repeat_interleave.Tensor", {A::arg("repeats", A::t("hist"))}, DType::Int64, {-1});
  ir::Node u;
  u.name = "uniq";
  u.target = ir::OpName::parse("aten._unique2.default");
  u.inputs = {A::arg("self", A::t("sorted")), A::arg("sorted", true), A::arg("return_inverse", true),
              A::arg("return_counts", true)};
  for (const char* o : {"values", "inverse", "counts"}) {
    u.outputs.push_back(ir::TensorRef{o});
    b.meta(o, DType::Int64, {-1});
  }
  b.g.nodes.push_back(std::move(u));
  for (const char* o : {"hist", "sorted", "values", "inverse", "counts"}) b.output(o);
  ir::ExportedProgram p;
  p.graph = std::move(b.g);
  return p;
}

TEST(DataDependent, StagesAfterStages) {
  const Engine engine = api::compile_program(histogram_program(), {});
  ExecutionContext ctx = engine.create_context();
  for (const std::vector<std::int64_t>& values : std::vector<std::vector<std::int64_t>>{
           {3, 1, 3, 0, 5, 1}, {0, 0, 0, 0, 0, 0}, {9, 2, 4, 2, 9, 9}, {3, 1, 3, 0, 5, 1}}) {
    Tensor x(DType::Int64, {6});
    std::copy(values.begin(), values.end(), x.mutable_data<std::int64_t>());
    const auto& out = ctx.run({x});
    std::vector<std::int64_t> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::int64_t> hist(static_cast<std::size_t>(sorted.back() + 1), 0), uniq, counts, inverse;
    for (auto v : values) ++hist[static_cast<std::size_t>(v)];
    for (auto v : sorted) {
      if (uniq.empty() || uniq.back() != v) {
        uniq.push_back(v);
        counts.push_back(0);
      }
      ++counts.back();
      inverse.push_back(static_cast<std::int64_t>(uniq.size()) - 1);
    }
    auto as_vector = [](const Tensor& t) {
      const Tensor c = t.contiguous();
      return std::vector<std::int64_t>(c.data<std::int64_t>(), c.data<std::int64_t>() + c.numel());
    };
    EXPECT_EQ(as_vector(out[0]), hist);
    EXPECT_EQ(as_vector(out[1]), sorted);
    EXPECT_EQ(as_vector(out[2]), uniq);
    EXPECT_EQ(as_vector(out[3]), inverse);
    EXPECT_EQ(as_vector(out[4]), counts);
  }
  // A negative value is torch's error, at run time.
  Tensor bad(DType::Int64, {6});
  std::fill(bad.mutable_data<std::int64_t>(), bad.mutable_data<std::int64_t>() + 6, 1);
  bad.mutable_data<std::int64_t>()[2] = -4;
  try {
    (void)ctx.run({bad});
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bincount of a negative value -4"), std::string::npos) << e.what();
  }
}

// x[m] = x[m2] * 2 and x[m] += x[m2] * 2 (index_put with a mask whose values
// hold one row per masked element, a count the engine finds when it runs).
ir::ExportedProgram mask_rows_put_program() {
  GraphBuilder b;
  b.fill_schema_defaults = true;
  b.input("x", DType::Float32, {4, 5});
  b.input("m", DType::Bool, {4, 5});
  b.input("m2", DType::Bool, {4, 5});
  b.node("picked", "aten.index.Tensor", {A::arg("self", A::t("x")), A::arg("indices", ir::OptionalTensorList{ir::TensorRef{"m2"}})},
         DType::Float32, {-1});
  b.node("doubled", "aten.mul.Scalar", {A::arg("self", A::t("picked")), A::arg("other", 2.0)}, DType::Float32, {-1});
  for (bool accumulate : {false, true}) {
    b.node(accumulate ? "added" : "put", "aten.index_put.default",
           {A::arg("self", A::t("x")), A::arg("indices", ir::OptionalTensorList{ir::TensorRef{"m"}}), A::arg("values", A::t("doubled")),
            A::arg("accumulate", accumulate)},
           DType::Float32, {4, 5});
  }
  b.output("put");
  b.output("added");
  ir::ExportedProgram p;
  p.graph = std::move(b.g);
  return p;
}

// The k-th true element of m takes 2 * the k-th true element of x under m2
// (set, and added), as torch does when the counts agree; when they differ,
// torch's shape mismatch is an InputError here.
TEST(DataDependent, MaskedPutTakesOneRowPerMaskedElement) {
  const Engine engine = api::compile_program(mask_rows_put_program(), {});
  ExecutionContext ctx = engine.create_context();
  auto mask = [](int period, int offset) {
    Tensor m(DType::Bool, {4, 5});
    for (int i = 0; i < 20; ++i) m.mutable_data<bool>()[i] = period > 0 && (i + offset) % period == 0;
    return m;
  };
  Tensor x(DType::Float32, {4, 5});
  for (int i = 0; i < 20; ++i) x.mutable_data<float>()[i] = static_cast<float>(i) * 0.5f - 3.0f;
  // (period, offset) pairs with as many true elements as each other: the same
  // mask, shifted ones, none, all.
  for (auto [period, offset, offset2] : std::vector<std::tuple<int, int, int>>{{3, 0, 0}, {4, 1, 3}, {0, 0, 0}, {1, 0, 0}, {5, 2, 4}}) {
    SCOPED_TRACE("period " + std::to_string(period) + ", offsets " + std::to_string(offset) + "/" + std::to_string(offset2));
    const Tensor m = mask(period, offset), m2 = mask(period, offset2);
    std::vector<float> rows;
    for (int i = 0; i < 20; ++i) {
      if (m2.data<bool>()[i]) rows.push_back(2.0f * x.data<float>()[i]);
    }
    const auto& out = ctx.run({x, m, m2});
    ASSERT_EQ(out.size(), 2u);
    const Tensor put = out[0].contiguous(), added = out[1].contiguous();
    std::size_t k = 0;
    for (int i = 0; i < 20; ++i) {
      const float xi = x.data<float>()[i];
      const bool masked = m.data<bool>()[i];
      const float row = masked ? rows.at(k++) : 0.0f;
      EXPECT_EQ(put.data<float>()[i], masked ? row : xi) << i;
      EXPECT_EQ(added.data<float>()[i], masked ? xi + row : xi) << i;
    }
  }
  try {
    (void)ctx.run({x, mask(3, 0), mask(4, 0)});  // 7 masked elements, 5 rows
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("one row per masked element"), std::string::npos) << e.what();
  }
}

}  // namespace
