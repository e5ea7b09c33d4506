// One hand-built graph that reaches every evaluator: getitem, sym_numel,
// sym_stride, sym_size, the operator.* arithmetic, comparisons and bool operators, math.ceil/floor/trunc/sqrt
// and torch.sym_*, and the assertions _assert_scalar/_assert_async (torch 1.13's static traces record
// none of them). Python
// computed the expected values (its floor division and modulo round toward
// -inf): see the comments (HandBuilt feeds x = 0, 1, ..., 23).
#pragma once

#include "support/graph_builder.h"

namespace atenrt::testing {

struct EvaluatorChain {
  ir::Graph graph;
  std::vector<double> comparisons;  // outputs 1..n as float32 scalars; the last output is x[1]
};

inline EvaluatorChain evaluator_chain() {
  using A = GraphBuilder;
  GraphBuilder b;
  b.input("x", DType::Float32, {2, 3, 4});
  auto sym = [&](const std::string& name, const std::string& target, std::vector<ir::NamedArgument> args) {
    ir::Node n;
    n.name = name;
    n.target = target.rfind("aten.", 0) == 0 ? ir::OpName::parse(target)
                                             : ir::OpName{target.substr(0, target.find('.')), target.substr(target.find('.') + 1), ""};
    n.inputs = std::move(args);
    n.outputs = {ir::SymInt::named(name)};
    b.g.nodes.push_back(std::move(n));
    return ir::Argument(ir::SymInt::named(name));
  };
  auto arg = [](const char* name, ir::Argument a) { return A::arg(name, std::move(a)); };
  const auto numel = sym("numel", "aten.sym_numel.default", {arg("self", A::t("x"))});                     // 24
  const auto stride = sym("stride", "aten.sym_stride.int", {arg("self", A::t("x")), arg("dim", std::int64_t{0})});  // 12
  const auto size = sym("size", "aten.sym_size.int", {arg("self", A::t("x")), arg("dim", std::int64_t{2})});        // 4
  const auto a = sym("a", "operator.add", {arg("a", numel), arg("b", stride)});            // 36
  const auto s = sym("s", "operator.sub", {arg("a", a), arg("b", size)});                  // 32
  const auto c = sym("c", "operator.floordiv", {arg("a", s), arg("b", std::int64_t{-3})});  // 32 // -3 = -11
  const auto d = sym("d", "operator.mod", {arg("a", s), arg("b", std::int64_t{-5})});       // 32 % -5 = -3
  const auto e = sym("e", "operator.pow", {arg("a", d), arg("b", std::int64_t{2})});        // 9
  const auto f = sym("f", "operator.truediv", {arg("a", c), arg("b", std::int64_t{4})});    // -2.75
  const auto g = sym("g", "math.ceil", {arg("a", f)});                                      // -2
  const auto h = sym("h", "math.floor", {arg("a", f)});                                     // -3
  const auto nf = sym("nf", "operator.neg", {arg("a", f)});                                 // 2.75
  const auto i = sym("i", "math.trunc", {arg("a", nf)});                                    // 2
  const auto j = sym("j", "torch.sym_float", {arg("a", i)});                                // 2.0
  const auto k = sym("k", "torch.sym_int", {arg("a", f)});                                  // -2
  const auto rows = sym("rows", "torch.sym_max", {arg("a", i), arg("b", g)});               // 2
  const auto cols = sym("cols", "torch.sym_min", {arg("a", e), arg("b", size)});            // 4
  const auto hk = sym("hk", "operator.mul", {arg("a", h), arg("b", k)});                    // 6
  const auto fill = sym("fill", "operator.add", {arg("a", j), arg("b", hk)});               // 8.0
  b.node("full", "aten.full.default",
         {arg("size", ir::SymIntList{*rows.get_if<ir::SymInt>(), *cols.get_if<ir::SymInt>()}), arg("fill_value", fill),
          arg("dtype", ir::ScalarTypeArg{DType::Float32, 6})},
         DType::Float32, {2, 4});
  b.output("full");
  EvaluatorChain chain;
  const std::vector<std::pair<std::string, ir::Argument>> comparisons = {
      {"eq", sym("eq", "operator.eq", {arg("a", g), arg("b", k)})},     // -2 == -2
      {"ne", sym("ne", "operator.ne", {arg("a", h), arg("b", k)})},     // -3 != -2
      {"lt", sym("lt", "operator.lt", {arg("a", h), arg("b", g)})},     // -3 < -2
      {"le", sym("le", "operator.le", {arg("a", g), arg("b", k)})},     // -2 <= -2
      {"gt", sym("gt", "operator.gt", {arg("a", e), arg("b", size)})},  // 9 > 4
      {"ge", sym("ge", "operator.ge", {arg("a", size), arg("b", e)})},  // 4 >= 9: False
      // torch 1.13's sym_size packet with a dim: 3 == 3
      {"eq3", sym("eq3", "operator.eq", {arg("a", sym("dim1", "aten.sym_size.default", {arg("self", A::t("x")), arg("dim", std::int64_t{1})})),
                                         arg("b", std::int64_t{3})})},
  };
  for (const auto& [name, value] : comparisons) {
    b.node(name + "_t", "aten.scalar_tensor.default", {arg("s", value), arg("dtype", ir::ScalarTypeArg{DType::Float32, 6})},
           DType::Float32, {});
    b.output(name + "_t");
  }
  const auto not_ge = sym("not_ge", "torch.sym_not", {arg("a", comparisons[5].second)});  // not (4 >= 9)
  b.node("not_ge_t", "aten.scalar_tensor.default", {arg("s", not_ge), arg("dtype", ir::ScalarTypeArg{DType::Float32, 6})},
         DType::Float32, {});
  b.output("not_ge_t");
  // Assertions that hold: one on a number known when the network is built (no layer), two on a
  // 0-d tensor (Check layers that pass at run time).
  auto assertion = [&](const std::string& name, const std::string& target, std::vector<ir::NamedArgument> args) {
    ir::Node n;
    n.name = name;
    n.target = ir::OpName::parse(target);
    n.inputs = std::move(args);
    b.g.nodes.push_back(std::move(n));
  };
  assertion("check_eq", "aten._assert_scalar.default", {arg("self", comparisons[0].second), arg("assert_msg", std::string("g == k"))});
  assertion("check_not_ge", "aten._assert_async.msg", {arg("self", A::t("not_ge_t")), arg("assert_msg", std::string("not ge"))});
  assertion("check_eq_t", "aten._assert_async.default", {arg("self", A::t("eq_t"))});
  // Python's bool operators and the rest of torch.sym_*: each through scalar_tensor.
  const auto& cmp = [&](std::size_t i) { return comparisons[i].second; };
  std::vector<std::pair<std::string, ir::Argument>> more = {
      {"and_", sym("and_", "operator.and_", {arg("a", cmp(0)), arg("b", not_ge)})},  // True & True
      {"xor", sym("xor", "operator.xor", {arg("a", cmp(0)), arg("b", cmp(2))})},     // True ^ True: False
      {"not_", sym("not_", "operator.not_", {arg("a", cmp(1))})},                    // not True
      {"ite", sym("ite", "torch.sym_ite", {arg("a", cmp(5)), arg("b", sym("pos", "operator.pos", {arg("a", h)})),
                                           arg("c", sym("abs", "operator.abs", {arg("a", h)}))})},  // abs(-3)
      {"or_", sym("or_", "operator.or_", {arg("a", cmp(5)), arg("b", cmp(1))})},     // False | True
      {"sqrt", sym("sqrt", "math.sqrt", {arg("a", e)})},                             // 3.0
      {"ssqrt", sym("ssqrt", "torch.sym_sqrt", {arg("a", size)})},                   // 2.0
  };
  // item() of a weight folds to a number; of a computed tensor it is a run-time number.
  Tensor two(DType::Float32, {1});
  two.mutable_data<float>()[0] = 2.0f;
  b.weight("two", two);
  b.node("sum_x", "aten.sum.default", {arg("self", A::t("x")), arg("dtype", ir::None{})}, DType::Float32, {});
  const auto w_item = sym("w_item", "aten.item.default", {arg("self", A::t("two"))});              // 2.0
  const auto s_item = sym("s_item", "aten._local_scalar_dense.default", {arg("self", A::t("sum_x"))});  // 0+...+23 = 276
  more.emplace_back("items", sym("items", "operator.mul", {arg("a", s_item), arg("b", w_item)}));    // 552
  for (const auto& [name, value] : more) {
    b.node(name + "_t", "aten.scalar_tensor.default", {arg("s", value), arg("dtype", ir::ScalarTypeArg{DType::Float32, 6})},
           DType::Float32, {});
    b.output(name + "_t");
  }
  ir::Node split;  // x[1] through getitem on a split's list
  split.name = "split";
  split.target = ir::OpName::parse("aten.split.Tensor");
  split.inputs = {arg("self", A::t("x")), arg("split_size", std::int64_t{1}), arg("dim", std::int64_t{0})};
  split.outputs = {ir::TensorList{ir::TensorRef{"split_0"}, ir::TensorRef{"split_1"}}};
  b.meta("split_0", DType::Float32, {1, 3, 4});
  b.meta("split_1", DType::Float32, {1, 3, 4});
  b.g.nodes.push_back(split);
  ir::Node get;
  get.name = "second";
  get.target = ir::OpName{"operator", "getitem", ""};
  get.inputs = {arg("a", A::t("split")), arg("b", std::int64_t{1})};
  get.outputs = {ir::TensorRef{"second"}};
  b.meta("second", DType::Float32, {1, 3, 4});
  b.g.nodes.push_back(get);
  b.output("second");
  chain.graph = std::move(b.g);
  chain.comparisons = {1, 1, 1, 1, 1, 0, 1, 1, 1, 0, 0, 3, 1, 3, 2, 552};
  return chain;
}

}  // namespace atenrt::testing
