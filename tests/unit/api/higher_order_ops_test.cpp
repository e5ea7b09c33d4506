// while_loop and auto_functionalized end to end, on graphs built in the schema torch writes
// (export_opsets.md §1: while_loop(cond_graph, body_graph, carried_inputs, additional_inputs) with
// "" positional inputs and as_graph subgraphs; auto_functionalized(_mutable_op, **kwargs) whose
// outputs are the op's results followed by the new values of the arguments it mutates). torch 1.13
// has neither op; what torch computes is written out beside each test:
//   i, x = 0, x0; while i < 3: i, x = i + 1, x * y   ->   x0 * y**3   (y an additional input)
//   out, x_new = auto_functionalized(aten.add_.Tensor, self=x, other=y, alpha=2)  ->  x + 2 * y, twice
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "api/pipeline.h"
#include "atenrt/errors.h"
#include "support/graph_builder.h"

using namespace atenrt;

namespace {

using A = atenrt::testing::GraphBuilder;
using atenrt::testing::tensor_meta;

ir::Node node(const std::string& name, const std::string& target, std::vector<ir::NamedArgument> args,
              std::vector<ir::Argument> outputs) {
  ir::Node n;
  n.name = name;
  n.target = ir::OpName::parse(target);
  ir::fill_schema_defaults(name, target, args);
  n.inputs = std::move(args);
  n.outputs = std::move(outputs);
  return n;
}

// cond_fn(i, x, y) = i < limit (a 0-d bool tensor)
ir::GraphArg counter_below(std::int64_t limit) {
  auto g = std::make_shared<ir::Graph>();
  g->inputs = {ir::TensorRef{"i"}, ir::TensorRef{"x"}, ir::TensorRef{"y"}};
  g->nodes = {node("lt", "aten.lt.Scalar", {A::arg("self", A::t("i")), A::arg("other", limit)}, {ir::TensorRef{"lt"}})};
  g->outputs = {ir::TensorRef{"lt"}};
  g->tensor_values["i"] = tensor_meta(DType::Int64, {});
  g->tensor_values["x"] = g->tensor_values["y"] = tensor_meta(DType::Float32, {2, 3});
  g->tensor_values["lt"] = tensor_meta(DType::Bool, {});
  return ir::GraphArg{"cond_graph_0", g};
}

// body_fn(i, x, y) = (i + step, x * y)
ir::GraphArg count_and_scale(std::int64_t step) {
  auto g = std::make_shared<ir::Graph>();
  g->inputs = {ir::TensorRef{"i"}, ir::TensorRef{"x"}, ir::TensorRef{"y"}};
  g->nodes = {node("add", "aten.add.Tensor", {A::arg("self", A::t("i")), A::arg("other", step)}, {ir::TensorRef{"add"}}),
              node("mul", "aten.mul.Tensor", {A::arg("self", A::t("x")), A::arg("other", A::t("y"))},
                   {ir::TensorRef{"mul"}})};
  g->outputs = {ir::TensorRef{"add"}, ir::TensorRef{"mul"}};
  g->tensor_values["i"] = g->tensor_values["add"] = tensor_meta(DType::Int64, {});
  g->tensor_values["x"] = g->tensor_values["y"] = g->tensor_values["mul"] = tensor_meta(DType::Float32, {2, 3});
  return ir::GraphArg{"body_graph_0", g};
}

// x [2, 3], y [2, 3] inputs; the counter's start a lifted constant; returns the loop's x.
ir::ExportedProgram loop_program(std::int64_t start, std::int64_t limit, std::int64_t step) {
  A b;
  b.input("x", DType::Float32, {2, 3});
  b.input("y", DType::Float32, {2, 3});
  Tensor i0(DType::Int64, {});
  i0.mutable_data<std::int64_t>()[0] = start;
  b.weight("i0", i0, ir::InputKind::TensorConstant);
  ir::Node loop;
  loop.name = "while_loop";
  loop.target = ir::OpName::parse("torch.ops.higher_order.while_loop");
  loop.inputs = {A::arg("", counter_below(limit)), A::arg("", count_and_scale(step)),
                 A::arg("", ir::TensorList{ir::TensorRef{"i0"}, ir::TensorRef{"x"}}),
                 A::arg("", ir::TensorList{ir::TensorRef{"y"}})};
  loop.outputs = {ir::TensorRef{"getitem"}, ir::TensorRef{"getitem_1"}};
  b.meta("getitem", DType::Int64, {});
  b.meta("getitem_1", DType::Float32, {2, 3});
  b.g.nodes.push_back(std::move(loop));
  b.output("getitem_1");
  ir::ExportedProgram p;
  p.graph = std::move(b.g);
  return p;
}

Tensor filled(std::vector<float> v) {
  Tensor t(DType::Float32, {2, 3});
  for (std::size_t k = 0; k < v.size(); ++k) t.mutable_data<float>()[k] = v[k];
  return t;
}

TEST(WhileLoop, AKnownTripCountUnrollsIntoTheBodyRepeated) {
  const Tensor x = filled({1, -2, 3, 0.5f, 4, -1}), y = filled({2, 0.5f, -1, 3, 1, -2});
  // (start, limit, step) -> trips: 0 < 3 by 1: 3; 5 < 3: none (x itself); -4 < 3 by 3: 3.
  for (auto [start, limit, step, trips] : std::vector<std::array<std::int64_t, 4>>{{0, 3, 1, 3}, {5, 3, 1, 0},
                                                                                      {-4, 3, 3, 3}}) {
    SCOPED_TRACE("start " + std::to_string(start) + " limit " + std::to_string(limit) + " step " + std::to_string(step));
    Engine engine = api::compile_program(loop_program(start, limit, step), CompileSettings{});
    auto ctx = engine.create_context();
    const auto& out = ctx.run({x, y});
    ASSERT_EQ(out.size(), 1u);
    for (int k = 0; k < 6; ++k) {
      float want = x.data<float>()[k];
      for (std::int64_t t = 0; t < trips; ++t) want *= y.data<float>()[k];
      EXPECT_EQ(out[0].data<float>()[k], want) << k;
    }
  }
}

TEST(WhileLoop, ARunTimeConditionAndARunawayLoopAreRefusedNamingTheNode) {
  auto refusal = [](ir::ExportedProgram p) {
    try {
      api::compile_program(std::move(p), CompileSettings{});
    } catch (const UnsupportedError& e) {
      return std::string(e.what());
    }
    return std::string("compiled");
  };
  // The counter never moves: the loop would not end.
  std::string e = refusal(loop_program(0, 3, 0));
  EXPECT_NE(e.find("node 'while_loop' (higher_order.while_loop)"), std::string::npos) << e;
  EXPECT_NE(e.find("still looping after 1024 iterations"), std::string::npos) << e;
  // The counter is a user input: the trip count is known only at run time.
  ir::ExportedProgram p = loop_program(0, 3, 1);
  auto& spec = p.graph.signature.inputs[2];
  p.graph.weights.erase(spec.target);
  spec.kind = ir::InputKind::UserInput;
  spec.target.clear();
  e = refusal(std::move(p));
  EXPECT_NE(e.find("node 'while_loop' (higher_order.while_loop)"), std::string::npos) << e;
  EXPECT_NE(e.find("subgraph 'cond_graph_0') at iteration 0 depends on values known only at run time"),
            std::string::npos) << e;
}

// auto_functionalized(op, **kwargs) with x, y [2, 3] inputs; outputs as the node lists them.
ir::ExportedProgram functionalized_program(const std::string& op, std::vector<ir::NamedArgument> kwargs,
                                           std::vector<std::string> outputs) {
  A b;
  b.input("x", DType::Float32, {2, 3});
  b.input("y", DType::Float32, {2, 3});
  ir::Node n;
  n.name = "auto_functionalized";
  n.target = ir::OpName::parse("torch.ops.higher_order.auto_functionalized");
  n.inputs = {A::arg("", ir::OperatorArg{op})};
  for (auto& k : kwargs) n.inputs.push_back(std::move(k));
  for (const auto& o : outputs) {
    n.outputs.emplace_back(ir::TensorRef{o});
    b.meta(o, DType::Float32, {2, 3});
  }
  b.g.nodes.push_back(std::move(n));
  for (const auto& o : outputs) b.output(o);
  ir::ExportedProgram p;
  p.graph = std::move(b.g);
  return p;
}

TEST(AutoFunctionalized, AnAtenInPlaceOpRunsAsItsFunctionalTwin) {
  const Tensor x = filled({1, -2, 3, 0.5f, 4, -1}), y = filled({2, 0.5f, -1, 3, 1, -2});
  Engine engine = api::compile_program(
      functionalized_program("torch.ops.aten.add_.Tensor",
                             {A::arg("self", A::t("x")), A::arg("other", A::t("y")), A::arg("alpha", std::int64_t{2})},
                             {"getitem", "getitem_1"}),
      CompileSettings{});
  auto ctx = engine.create_context();
  const auto& out = ctx.run({x, y});
  ASSERT_EQ(out.size(), 2u);
  for (int k = 0; k < 6; ++k) {
    const float want = x.data<float>()[k] + 2 * y.data<float>()[k];
    EXPECT_EQ(out[0].data<float>()[k], want) << k;  // the op's result
    EXPECT_EQ(out[1].data<float>()[k], want) << k;  // the mutated x's new value
  }
  EXPECT_EQ(x.data<float>()[1], -2.0f);  // the caller's tensor is not written
}

TEST(AutoFunctionalized, CustomOpsAndMismatchedOutputsAreRefusedNamingTheNode) {
  try {
    api::compile_program(functionalized_program("torch.ops.mylib.scale_.default", {A::arg("x", A::t("x"))},
                                                {"getitem"}),
                         CompileSettings{});
    FAIL() << "compiled a custom op";
  } catch (const UnsupportedError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("node 'auto_functionalized' (higher_order.auto_functionalized)"), std::string::npos) << m;
    EXPECT_NE(m.find("mylib.scale_.default, a custom op"), std::string::npos) << m;
  }
  try {
    api::compile_program(functionalized_program("torch.ops.aten.relu_.default", {A::arg("self", A::t("x"))},
                                                {"getitem", "getitem_1", "getitem_2"}),
                         CompileSettings{});
    FAIL() << "compiled three outputs for relu_";
  } catch (const FormatError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("has 3 outputs; the op's results and the 1 mutated values make 2"), std::string::npos) << m;
  }
}

}  // namespace
