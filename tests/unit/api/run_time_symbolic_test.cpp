// Python scalar operators on values known only at run time: a hand-built
// graph over x [s0, 3] (s0 in [2, 64]) whose size arithmetic torch.export
// would record as nodes: truediv, math.ceil/floor/trunc/sqrt, torch.sym_float,
// sym_int, sym_sqrt, sym_ite, operator.abs/pos. One dynamic engine computes
// them per input shape. Expected values are Python's (torch 1.13 lacks
// torch.sym_*; on plain numbers they are float(), int(), math.sqrt and
// `a if c else b`), printed by /usr/bin/python3 for each s0:
//   q = s/3; c = ceil(q); f = floor(q); sf = float(s); r = sqrt(sf);
//   rs = sym_sqrt(s); ti = int(-q); tr = trunc(q); ite = c if s >= 5 else f;
//   ab = abs(3 - s); po = +(s >= 5)
// and y = x * r as torch.mul(x, r) computes it (r rounded to float32).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "api/pipeline.h"
#include "atenrt/errors.h"
#include "support/graph_builder.h"

using namespace atenrt;

namespace {

using A = atenrt::testing::GraphBuilder;

struct Expected {
  std::int64_t s;
  std::array<double, 11> values;  // q, c, f, sf, r, rs, ti, tr, ite, ab, po
};
const Expected kPython[] = {
    {2, {0.6666666666666666, 1, 0, 2.0, 1.4142135623730951, 1.4142135623730951, 0, 0, 0, 1, 0}},
    {5, {1.6666666666666667, 2, 1, 5.0, 2.23606797749979, 2.23606797749979, -1, 1, 2, 2, 1}},
    {7, {2.3333333333333335, 3, 2, 7.0, 2.6457513110645907, 2.6457513110645907, -2, 2, 3, 4, 1}},
    {64, {21.333333333333332, 22, 21, 64.0, 8.0, 8.0, -21, 21, 22, 61, 1}},
};

// A node with one symbolic output of the given kind named after it.
ir::Argument sym(A& b, const std::string& name, const std::string& target, std::vector<ir::NamedArgument> args,
                 ir::Argument out) {
  ir::Node n;
  n.name = name;
  n.target = target.rfind("aten.", 0) == 0 ? ir::OpName::parse(target)
                                           : ir::OpName{target.substr(0, target.find('.')), target.substr(target.find('.') + 1), ""};
  n.inputs = std::move(args);
  n.outputs = {out};
  b.g.nodes.push_back(std::move(n));
  return out;
}
ir::Argument sym_int(A& b, const std::string& name, const std::string& target, std::vector<ir::NamedArgument> args) {
  return sym(b, name, target, std::move(args), ir::SymInt::named(name));
}
ir::Argument sym_float(A& b, const std::string& name, const std::string& target, std::vector<ir::NamedArgument> args) {
  return sym(b, name, target, std::move(args), ir::SymFloatRef{name});
}

ir::ExportedProgram program() {
  A b;
  b.input("x", DType::Float32, {-1, 3});
  b.g.tensor_values["x"].sizes[0] = ir::SymInt::named("s0");
  b.g.range_constraints["s0"] = ir::SymRange{2, 64};
  auto arg = [](const char* name, ir::Argument a) { return A::arg(name, std::move(a)); };
  const auto s = sym_int(b, "s", "aten.sym_size.int", {arg("self", A::t("x")), arg("dim", std::int64_t{0})});
  const auto q = sym_float(b, "q", "operator.truediv", {arg("a", s), arg("b", std::int64_t{3})});
  const auto c = sym_int(b, "c", "math.ceil", {arg("a", q)});
  const auto f = sym_int(b, "f", "math.floor", {arg("a", q)});
  const auto sf = sym_float(b, "sf", "torch.sym_float", {arg("a", s)});
  const auto r = sym_float(b, "r", "math.sqrt", {arg("a", sf)});
  const auto rs = sym_float(b, "rs", "torch.sym_sqrt", {arg("a", s)});
  const auto nq = sym_float(b, "nq", "operator.neg", {arg("a", q)});
  const auto ti = sym_int(b, "ti", "torch.sym_int", {arg("a", nq)});
  const auto tr = sym_int(b, "tr", "math.trunc", {arg("a", q)});
  const auto ge = sym(b, "ge", "operator.ge", {arg("a", s), arg("b", std::int64_t{5})}, ir::SymBoolRef{"ge"});
  const auto ite = sym_int(b, "ite", "torch.sym_ite", {arg("a", ge), arg("b", c), arg("c", f)});
  const auto d = sym_int(b, "d", "operator.sub", {arg("a", std::int64_t{3}), arg("b", s)});
  const auto ab = sym_int(b, "ab", "operator.abs", {arg("a", d)});
  const auto po = sym_int(b, "po", "operator.pos", {arg("a", ge)});
  int k = 0;
  for (const ir::Argument& v : std::vector<ir::Argument>{q, c, f, sf, r, rs, ti, tr, ite, ab, po}) {
    const std::string name = "out" + std::to_string(k++);
    b.node(name, "aten.scalar_tensor.default", {arg("s", v), arg("dtype", ir::ScalarTypeArg{DType::Float64, 7})},
           DType::Float64, {});
    b.output(name);
  }
  b.node("y", "aten.mul.Tensor", {arg("self", A::t("x")), arg("other", r)}, DType::Float32, {-1, 3});
  b.g.tensor_values["y"].sizes[0] = ir::SymInt::named("s0");
  b.output("y");
  ir::ExportedProgram p;
  p.graph = std::move(b.g);
  return p;
}

TEST(RunTimeSymbolic, MathAndSymOpsOfDynamicSizesMatchPython) {
  Engine engine = api::compile_program(program(), CompileSettings{});
  auto ctx = engine.create_context();
  for (const auto& want : kPython) {
    SCOPED_TRACE("s0 = " + std::to_string(want.s));
    Tensor x(DType::Float32, {want.s, 3});
    for (std::int64_t i = 0; i < want.s * 3; ++i) x.mutable_data<float>()[i] = static_cast<float>(i % 11) - 4.5f;
    const auto& out = ctx.run({x});
    ASSERT_EQ(out.size(), want.values.size() + 1);
    for (std::size_t k = 0; k < want.values.size(); ++k) {
      ASSERT_EQ(out[k].dtype(), DType::Float64) << k;
      // Run-time floats are float32 (as torch uses a Python float with a float32 tensor).
      EXPECT_NEAR(out[k].data<double>()[0], want.values[k], 1e-6 * std::fabs(want.values[k])) << "output " << k;
    }
    const Tensor& y = out.back();
    ASSERT_EQ(y.sizes(), (std::vector<std::int64_t>{want.s, 3}));
    const float r = static_cast<float>(want.values[4]);
    for (std::int64_t i = 0; i < want.s * 3; ++i) EXPECT_EQ(y.data<float>()[i], x.data<float>()[i] * r) << i;
  }
}

TEST(RunTimeSymbolic, WhatPythonRaisesOnKnownValuesNamesTheNode) {
  A b;
  b.input("x", DType::Float32, {4, 3});
  auto arg = [](const char* name, ir::Argument a) { return A::arg(name, std::move(a)); };
  const auto s = sym_int(b, "s", "aten.sym_size.int", {arg("self", A::t("x")), arg("dim", std::int64_t{0})});
  const auto d = sym_int(b, "d", "operator.sub", {arg("a", std::int64_t{3}), arg("b", s)});
  const auto r = sym_float(b, "root", "math.sqrt", {arg("a", d)});
  b.node("y", "aten.mul.Tensor", {arg("self", A::t("x")), arg("other", r)}, DType::Float32, {4, 3});
  b.output("y");
  ir::ExportedProgram p;
  p.graph = std::move(b.g);
  try {
    api::compile_program(std::move(p), CompileSettings{});
    FAIL() << "compiled the square root of -1";
  } catch (const UnsupportedError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("'root'"), std::string::npos) << m;
    EXPECT_NE(m.find("math.sqrt"), std::string::npos) << m;
    EXPECT_NE(m.find("math domain error"), std::string::npos) << m;
  }
}

// The square root of a negative value known only at run time: Python raises (math domain error),
// so a run where it happens is an InputError naming the node; a zero or positive operand runs.
// x [s0, 3], s0 in [2, 64]; root = math.sqrt(5 - s0) (sym_sqrt alike); y = x * root.
TEST(RunTimeSymbolic, SqrtOfANegativeRunTimeValueIsAnErrorAsPythonRaises) {
  for (const char* op : {"math.sqrt", "torch.sym_sqrt"}) {
    SCOPED_TRACE(op);
    A b;
    b.input("x", DType::Float32, {-1, 3});
    b.g.tensor_values["x"].sizes[0] = ir::SymInt::named("s0");
    b.g.range_constraints["s0"] = ir::SymRange{2, 64};
    auto arg = [](const char* name, ir::Argument a) { return A::arg(name, std::move(a)); };
    const auto s = sym_int(b, "s", "aten.sym_size.int", {arg("self", A::t("x")), arg("dim", std::int64_t{0})});
    const auto d = sym_int(b, "d", "operator.sub", {arg("a", std::int64_t{5}), arg("b", s)});
    const auto r = sym_float(b, "root", op, {arg("a", d)});
    b.node("y", "aten.mul.Tensor", {arg("self", A::t("x")), arg("other", r)}, DType::Float32, {-1, 3});
    b.g.tensor_values["y"].sizes[0] = ir::SymInt::named("s0");
    b.output("y");
    ir::ExportedProgram p;
    p.graph = std::move(b.g);
    Engine engine = api::compile_program(std::move(p), CompileSettings{});
    auto ctx = engine.create_context();
    for (std::int64_t rows : {2, 4, 5, 6, 64, 3}) {
      SCOPED_TRACE("s0 = " + std::to_string(rows));
      Tensor x(DType::Float32, {rows, 3});
      for (std::int64_t i = 0; i < rows * 3; ++i) x.mutable_data<float>()[i] = static_cast<float>(i % 7) - 2.5f;
      if (rows > 5) {
        try {
          ctx.run({x});
          FAIL() << "ran the square root of " << 5 - rows;
        } catch (const InputError& e) {
          const std::string m = e.what();
          EXPECT_NE(m.find("'root'"), std::string::npos) << m;
          EXPECT_NE(m.find("math domain error"), std::string::npos) << m;
        }
        continue;
      }
      const auto& out = ctx.run({x});  // the context runs on after a failed run
      const float root = std::sqrt(static_cast<float>(5 - rows));
      for (std::int64_t i = 0; i < rows * 3; ++i) EXPECT_EQ(out[0].data<float>()[i], x.data<float>()[i] * root) << i;
    }
  }
}

}  // namespace
