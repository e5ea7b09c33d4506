// Sizes that are values computed at run time (docs/dynamic-shapes.md,
// "Data-dependent output shapes"), on hand-built graphs as torch.export
// writes them: n = mask.sum().item() (an unbacked u0 with its
// _assert_scalar(u0 >= 0) and sym_constrain_range_for_size), then
// x.new_zeros(n), x[:n], view(n, -1), view(n * 4); and after a
// data-dependent layer: m = unique(labels, return_counts).counts.max().item(),
// x[:m]. Expectations computed by hand; counts 0, some and all; engine files;
// a failed assertion at run time; contexts on threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>

#include "api/pipeline.h"
#include "atenrt/atenrt.h"
#include "builder/dynamic_engine.h"
#include "support/graph_builder.h"
#include "support/temp_path.h"
#include "support/threads_check.h"

using namespace atenrt;

namespace {

using A = atenrt::testing::GraphBuilder;
using atenrt::testing::add_sym_node;
using Dims = std::vector<std::int64_t>;


ir::SymInt u(const char* name) { return ir::SymInt::named(name); }

// u0 = item(sum(mask)) with the checks torch.export writes for a size.
void count_of(A& b, const char* tensor, const char* name) {
  const std::string item = name;
  add_sym_node(b, item, "aten._local_scalar_dense.default", {A::arg("self", A::t(tensor))}, u(name));
  add_sym_node(b, item + "_ge", "operator.ge", {A::arg("a", u(name)), A::arg("b", std::int64_t{0})}, ir::SymBoolRef{item + "_ge"});
  add_sym_node(b, item + "_check", "aten._assert_scalar.default",
           {A::arg("self", ir::SymBoolRef{item + "_ge"}),
            A::arg("assert_msg", std::string("Runtime assertion failed for expression u0 >= 0 on node '" + item + "_ge'"))},
           std::nullopt);
  add_sym_node(b, item + "_size", "aten.sym_constrain_range_for_size.default", {A::arg("size", u(name))}, std::nullopt);
}

// x [6, 4], mask [6] (bool): n = mask.sum().item(); zeros = x.new_zeros(n);
// head = x[:n]; rows = head.view(n, -1); flat = head.view(n * 4);
// (view(0, -1) is ambiguous: torch raises at count 0, and so does the engine)
// wide = x.new_ones(max(n, 2), 3).
ir::ExportedProgram item_program() {
  A b;
  b.fill_schema_defaults = true;
  b.input("x", DType::Float32, {6, 4});
  b.input("mask", DType::Bool, {6});
  b.node("total", "aten.sum.default", {A::arg("self", A::t("mask"))}, DType::Int64, {});
  count_of(b, "total", "u0");
  b.node("zeros", "aten.new_zeros.default", {A::arg("self", A::t("x")), A::arg("size", ir::SymIntList{u("u0")})},
         DType::Float32, {-1});
  b.node("head", "aten.slice.Tensor",
         {A::arg("self", A::t("x")), A::arg("dim", std::int64_t{0}), A::arg("start", std::int64_t{0}), A::arg("end", u("u0"))},
         DType::Float32, {-1, 4});
  b.node("rows", "aten.view.default", {A::arg("self", A::t("head")), A::arg("size", ir::SymIntList{u("u0"), ir::SymInt::of(-1)})},
         DType::Float32, {-1, 4});
  add_sym_node(b, "times4", "operator.mul", {A::arg("a", u("u0")), A::arg("b", std::int64_t{4})}, u("times4"));
  b.node("flat", "aten.view.default", {A::arg("self", A::t("head")), A::arg("size", ir::SymIntList{u("times4")})},
         DType::Float32, {-1});
  add_sym_node(b, "at_least2", "torch.sym_max", {A::arg("a", u("u0")), A::arg("b", std::int64_t{2})}, u("at_least2"));
  b.node("wide", "aten.new_ones.default",
         {A::arg("self", A::t("x")), A::arg("size", ir::SymIntList{u("at_least2"), ir::SymInt::of(3)})}, DType::Float32, {-1, 3});
  for (const char* o : {"zeros", "head", "rows", "flat", "wide"}) b.output(o);
  ir::ExportedProgram p;
  p.graph = std::move(b.g);
  return p;
}

std::vector<Tensor> item_inputs(int count) {
  Tensor x(DType::Float32, {6, 4}), mask(DType::Bool, {6});
  for (int i = 0; i < 24; ++i) x.mutable_data<float>()[i] = static_cast<float>(i) * 0.5f - 3.0f + static_cast<float>(count);
  for (int i = 0; i < 6; ++i) mask.mutable_data<bool>()[i] = (i * 5 + count) % 6 < count;
  return {x, mask};
}

void expect_item_outputs(const std::vector<Tensor>& in, const std::vector<Tensor>& out) {
  std::int64_t n = 0;
  for (int i = 0; i < 6; ++i) n += in[1].data<bool>()[i];
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(out[0].sizes(), (Dims{n}));
  for (std::int64_t i = 0; i < n; ++i) EXPECT_EQ(out[0].contiguous().data<float>()[i], 0.0f);
  const std::vector<float> head(in[0].data<float>(), in[0].data<float>() + n * 4);
  for (std::size_t o : {1u, 2u, 3u}) {
    EXPECT_EQ(out[o].sizes(), o == 3 ? Dims{n * 4} : (Dims{n, 4})) << o;
    const Tensor c = out[o].contiguous();
    EXPECT_EQ(std::vector<float>(c.data<float>(), c.data<float>() + c.numel()), head) << o;
  }
  const std::int64_t rows = std::max<std::int64_t>(n, 2);
  EXPECT_EQ(out[4].sizes(), (Dims{rows, 3}));
  const Tensor w = out[4].contiguous();
  for (std::int64_t i = 0; i < rows * 3; ++i) EXPECT_EQ(w.data<float>()[i], 1.0f);
}

TEST(ItemSizes, ItemOfASumSizesWhatFollows) {
  const Engine engine = api::compile_program(item_program(), {});
  ASSERT_TRUE(engine.is_dynamic());
  ASSERT_TRUE(engine.dynamic()->data_dependent());
  EXPECT_EQ(engine.outputs().at(1).dims, (Dims{-1, 4}));
  ExecutionContext ctx = engine.create_context();
  for (int count : {3, 6, 1, 3, 6}) {
    SCOPED_TRACE("count " + std::to_string(count));
    const auto in = item_inputs(count);
    expect_item_outputs(in, ctx.run(in));
  }
  try {
    (void)ctx.run(item_inputs(0));
    ADD_FAILURE() << "view(0, -1) ran";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot reshape 0 elements"), std::string::npos) << e.what();
  }
  expect_item_outputs(item_inputs(2), ctx.run(item_inputs(2)));  // the context runs on
  const std::string path = atenrt::testing::temp_path("item_sizes.atrt");
  engine.save(path);
  const Engine loaded = Engine::load(path);
  std::remove(path.c_str());
  ExecutionContext again = loaded.create_context();
  for (int count : {2, 5}) expect_item_outputs(item_inputs(count), again.run(item_inputs(count)));
}

// Contexts on threads, each running the item() program at its own counts,
// give what one context gives one run at a time.
TEST(ItemSizes, ContextsOnThreadsAgreeWithOneAtATime) {
  const Engine engine = api::compile_program(item_program(), {});
  std::vector<std::vector<Tensor>> inputs;
  for (int count : {1, 2, 3, 4, 5, 6, 2, 5}) inputs.push_back(item_inputs(count));
  atenrt::testing::expect_threads_agree_with_one_at_a_time(engine, inputs);
}

// labels [8] (int64), x [8, 2]: counts = unique(labels, return_counts)[2];
// m = counts.max().item(); top = x[:m]; both m and the unique's sizes are
// found at run time (a value-sized stage after a data-dependent one).
ir::ExportedProgram after_unique_program() {
  A b;
  b.fill_schema_defaults = true;
  b.input("labels", DType::Int64, {8});
  b.input("x", DType::Float32, {8, 2});
  ir::Node uq;
  uq.name = "uq";
  uq.target = ir::OpName::parse("aten._unique2.default");
  uq.inputs = {A::arg("self", A::t("labels")), A::arg("sorted", true), A::arg("return_inverse", false),
               A::arg("return_counts", true)};
  for (const char* o : {"values", "inverse", "counts"}) {
    uq.outputs.push_back(ir::TensorRef{o});
    b.meta(o, DType::Int64, {-1});
  }
  b.g.nodes.push_back(std::move(uq));
  b.node("most", "aten.max.default", {A::arg("self", A::t("counts"))}, DType::Int64, {});
  count_of(b, "most", "u1");
  b.node("top", "aten.slice.Tensor",
         {A::arg("self", A::t("x")), A::arg("dim", std::int64_t{0}), A::arg("start", std::int64_t{0}), A::arg("end", u("u1"))},
         DType::Float32, {-1, 2});
  for (const char* o : {"values", "counts", "top"}) b.output(o);
  ir::ExportedProgram p;
  p.graph = std::move(b.g);
  return p;
}

TEST(ItemSizes, ItemAfterADataDependentLayer) {
  const Engine engine = api::compile_program(after_unique_program(), {});
  ExecutionContext ctx = engine.create_context();
  for (const std::vector<std::int64_t>& labels : std::vector<std::vector<std::int64_t>>{
           {3, 1, 3, 0, 5, 1, 3, 3}, {7, 7, 7, 7, 7, 7, 7, 7}, {0, 1, 2, 3, 4, 5, 6, 7}, {3, 1, 3, 0, 5, 1, 3, 3}}) {
    Tensor l(DType::Int64, {8}), x(DType::Float32, {8, 2});
    std::copy(labels.begin(), labels.end(), l.mutable_data<std::int64_t>());
    for (int i = 0; i < 16; ++i) x.mutable_data<float>()[i] = static_cast<float>(i) - 4.5f;
    const auto& out = ctx.run({l, x});
    std::map<std::int64_t, std::int64_t> hist;
    for (auto v : labels) ++hist[v];
    std::int64_t most = 0;
    std::vector<std::int64_t> values, counts;
    for (const auto& [v, c] : hist) {
      values.push_back(v);
      counts.push_back(c);
      most = std::max(most, c);
    }
    const Tensor v = out[0].contiguous(), c = out[1].contiguous(), top = out[2].contiguous();
    EXPECT_EQ(std::vector<std::int64_t>(v.data<std::int64_t>(), v.data<std::int64_t>() + v.numel()), values);
    EXPECT_EQ(std::vector<std::int64_t>(c.data<std::int64_t>(), c.data<std::int64_t>() + c.numel()), counts);
    ASSERT_EQ(top.sizes(), (Dims{most, 2}));
    for (std::int64_t i = 0; i < most * 2; ++i) EXPECT_EQ(top.data<float>()[i], static_cast<float>(i) - 4.5f);
  }
}

// profile() of a staged run: the stage engines' steps and the host steps
// between them, in run order, for the last run's path.
TEST(ItemSizes, ProfileCoversStagedRuns) {
  const Engine engine = api::compile_program(after_unique_program(), {});
  ExecutionContext ctx = engine.create_context();
  ctx.set_profiling(true);
  Tensor l(DType::Int64, {8}), x(DType::Float32, {8, 2});
  for (int i = 0; i < 8; ++i) l.mutable_data<std::int64_t>()[i] = i % 3;
  for (int i = 0; i < 16; ++i) x.mutable_data<float>()[i] = static_cast<float>(i);
  for (int run = 0; run < 3; ++run) (void)ctx.run({l, x});
  const Profile p = ctx.profile();
  EXPECT_EQ(p.runs, 3);
  std::vector<std::string> host;
  for (const auto& s : p.steps) {
    if (s.step.implementation == "reference (host)") host.push_back(s.step.kind + " " + s.step.name);
    EXPECT_GE(s.total_ms, s.last_ms) << s.step.name;
    EXPECT_GE(s.last_ms, 0.0) << s.step.name;
  }
  // unique on the host, then the slice sized by max(counts).item().
  ASSERT_EQ(host.size(), 2u) << ::testing::PrintToString(host);
  EXPECT_EQ(host[0].rfind("DataDependent:Unique ", 0), 0u) << host[0];
  EXPECT_NE(host[1].find("top"), std::string::npos) << host[1];
  for (std::size_t i = 1; i < p.steps.size(); ++i) {
    EXPECT_GE(p.steps[i].last_start_ms + 1e-6, p.steps[i - 1].last_start_ms) << p.steps[i].step.name;
  }
  ctx.set_profiling(false);
  (void)ctx.run({l, x});
  EXPECT_TRUE(ctx.profile().steps.empty());
}

// A size whose assertion fails at run time is an InputError naming the node:
// n = item(sum(d)) - 3 with torch's _assert_scalar(n >= 0), then new_zeros(n).
TEST(ItemSizes, AFailedSizeAssertionIsAnInputError) {
  A b;
  b.fill_schema_defaults = true;
  b.input("d", DType::Int64, {3});
  b.input("x", DType::Float32, {2});
  b.node("total", "aten.sum.default", {A::arg("self", A::t("d"))}, DType::Int64, {});
  add_sym_node(b, "raw", "aten._local_scalar_dense.default", {A::arg("self", A::t("total"))}, u("raw"));
  add_sym_node(b, "n", "operator.sub", {A::arg("a", u("raw")), A::arg("b", std::int64_t{3})}, u("n"));
  add_sym_node(b, "n_ge", "operator.ge", {A::arg("a", u("n")), A::arg("b", std::int64_t{0})}, ir::SymBoolRef{"n_ge"});
  add_sym_node(b, "n_check", "aten._assert_scalar.default",
           {A::arg("self", ir::SymBoolRef{"n_ge"}), A::arg("assert_msg", std::string("Runtime assertion failed for expression u0 - 3 >= 0"))},
           std::nullopt);
  b.node("zeros", "aten.new_zeros.default", {A::arg("self", A::t("x")), A::arg("size", ir::SymIntList{u("n")})},
         DType::Float32, {-1});
  b.output("zeros");
  ir::ExportedProgram p;
  p.graph = std::move(b.g);
  const Engine engine = api::compile_program(std::move(p), {});
  ExecutionContext ctx = engine.create_context();
  Tensor d(DType::Int64, {3}), x(DType::Float32, {2});
  for (int i = 0; i < 3; ++i) d.mutable_data<std::int64_t>()[i] = 2;
  EXPECT_EQ(ctx.run({d, x}).at(0).sizes(), (Dims{3}));
  for (int i = 0; i < 3; ++i) d.mutable_data<std::int64_t>()[i] = 1;
  EXPECT_EQ(ctx.run({d, x}).at(0).sizes(), (Dims{0}));  // a size of 0 holds
  d.mutable_data<std::int64_t>()[0] = -2;
  try {
    (void)ctx.run({d, x});
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("n_check"), std::string::npos) << e.what();
  }
}

}  // namespace
