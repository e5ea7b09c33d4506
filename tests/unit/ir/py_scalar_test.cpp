// The Python scalar operators on known values (ir/py_scalar.h). Every
// expected value is what CPython 3.11 prints for the same expression.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "atenrt/errors.h"
#include "ir/py_scalar.h"

namespace atenrt::ir {
namespace {

PyNumber I(std::int64_t v) { return PyNumber::of_int(v); }
PyNumber F(double v) { return PyNumber::of_float(v); }
PyNumber B(bool v) { return PyNumber::of_bool(v); }
PyNumber eval(const char* op, std::vector<PyNumber> args) { return eval_python_scalar_op(op, args); }

TEST(PyScalar, ArithmeticFollowsPython) {
  EXPECT_EQ(eval("operator.floordiv", {I(-7), I(2)}), I(-4));
  EXPECT_EQ(eval("operator.mod", {I(-7), I(2)}), I(1));
  EXPECT_EQ(eval("operator.mod", {I(7), I(-2)}), I(-1));
  EXPECT_EQ(eval("operator.floordiv", {F(7.5), I(-2)}), F(-4.0));
  EXPECT_EQ(eval("operator.mod", {F(7.5), I(-2)}), F(-0.5));
  EXPECT_EQ(eval("operator.floordiv", {F(0.5), F(0.1)}), F(4.0));
  EXPECT_EQ(eval("operator.mod", {F(0.5), F(0.1)}), F(0.09999999999999998));
  EXPECT_TRUE(std::signbit(eval("operator.floordiv", {F(-0.0), I(1)}).f));
  EXPECT_EQ(eval("operator.truediv", {I(1), I(4)}), F(0.25));
  EXPECT_EQ(eval("operator.pow", {I(2), I(-1)}), F(0.5));
  EXPECT_EQ(eval("operator.pow", {I(-2), I(3)}), I(-8));
  EXPECT_EQ(eval("operator.pow", {I(-1), I(1001)}), I(-1));
  EXPECT_EQ(eval("operator.add", {B(true), B(true)}), I(2));  // bool is an int in arithmetic
  EXPECT_EQ(eval("operator.mul", {I(3), B(true)}), I(3));
  EXPECT_EQ(eval("operator.neg", {B(true)}), I(-1));
}

TEST(PyScalar, ComparisonsBitwiseAndConversions) {
  EXPECT_EQ(eval("operator.eq", {I(2), F(2.0)}), B(true));
  EXPECT_EQ(eval("operator.lt", {F(std::nan("")), I(1)}), B(false));
  EXPECT_EQ(eval("operator.ne", {F(std::nan("")), F(std::nan(""))}), B(true));
  EXPECT_EQ(eval("operator.and_", {B(true), B(false)}), B(false));  // bool & bool stays a bool
  EXPECT_EQ(eval("operator.and_", {I(6), I(3)}), I(2));
  EXPECT_EQ(eval("operator.and_", {B(true), I(3)}), I(1));
  EXPECT_EQ(eval("operator.or_", {B(false), B(true)}), B(true));
  EXPECT_EQ(eval("operator.xor", {I(5), I(1)}), I(4));
  EXPECT_EQ(eval("operator.not_", {F(0.0)}), B(true));
  EXPECT_EQ(eval("torch.sym_not", {B(true)}), B(false));
  EXPECT_EQ(eval("torch.sym_max", {I(2), F(2.0)}), I(2));  // builtins.max keeps the first of equals
  EXPECT_EQ(eval("torch.sym_max", {I(2), F(3.5)}), F(3.5));
  EXPECT_EQ(eval("torch.sym_min", {F(1.0), I(1)}), F(1.0));
  EXPECT_EQ(eval("math.trunc", {F(-2.7)}), I(-2));
  EXPECT_EQ(eval("math.floor", {F(-2.7)}), I(-3));
  EXPECT_EQ(eval("math.ceil", {F(-2.7)}), I(-2));
  EXPECT_EQ(eval("torch.sym_int", {F(2.9)}), I(2));
  EXPECT_EQ(eval("torch.sym_float", {I(3)}), F(3.0));
  EXPECT_EQ(eval("torch.sym_ite", {B(false), I(4), I(5)}), I(5));
  EXPECT_EQ(eval("math.sqrt", {I(16)}), F(4.0));  // an int's root is a float
  EXPECT_EQ(eval("torch.sym_sqrt", {F(2.25)}), F(1.5));
  EXPECT_EQ(eval("math.sqrt", {B(true)}), F(1.0));
}

TEST(PyScalar, WhatPythonRefusesIsAnErrorNamingTheOperator) {
  const std::int64_t big = std::numeric_limits<std::int64_t>::max();
  for (const auto& [op, args] : std::vector<std::pair<const char*, std::vector<PyNumber>>>{
           {"operator.floordiv", {I(1), I(0)}},
           {"operator.mod", {F(1.0), F(0.0)}},
           {"operator.truediv", {I(1), B(false)}},
           {"operator.and_", {F(1.5), I(1)}},
           {"operator.mul", {I(big), I(2)}},
           {"operator.add", {I(big), I(1)}},
           {"operator.pow", {I(2), I(64)}},
           {"operator.pow", {I(0), I(-1)}},
           {"math.trunc", {F(INFINITY)}},
           {"torch.sym_int", {F(1e30)}},
           {"math.sqrt", {I(-4)}},
           {"torch.sym_sqrt", {F(-0.5)}},
           {"operator.add", {I(1)}},
       }) {
    try {
      eval(op, args);
      ADD_FAILURE() << op << " did not fail";
    } catch (const UnsupportedError& e) {
      EXPECT_NE(std::string(e.what()).find(op), std::string::npos) << e.what();
    }
  }
  EXPECT_FALSE(is_python_scalar_op("operator.getitem"));
  EXPECT_EQ(python_scalar_op_arity("torch.sym_ite"), 3);
}

}  // namespace
}  // namespace atenrt::ir
