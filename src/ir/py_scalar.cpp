#include "ir/py_scalar.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <string_view>

#include "atenrt/errors.h"

namespace atenrt::ir {
namespace {

enum class Op : std::uint8_t {
  Add, Sub, Mul, TrueDiv, FloorDiv, Mod, Pow, Eq, Ne, Lt, Le, Gt, Ge, And, Or, Xor,
  Not, Neg, Pos, Abs, Min, Max, ToFloat, ToInt, Trunc, Floor, Ceil, Ite, Sqrt
};

struct Entry {
  std::string_view target;
  Op op;
  int arity;
};
constexpr Entry kOps[] = {
    {"operator.add", Op::Add, 2},         {"operator.sub", Op::Sub, 2},
    {"operator.mul", Op::Mul, 2},         {"operator.truediv", Op::TrueDiv, 2},
    {"operator.floordiv", Op::FloorDiv, 2}, {"operator.mod", Op::Mod, 2},
    {"operator.pow", Op::Pow, 2},         {"operator.eq", Op::Eq, 2},
    {"operator.ne", Op::Ne, 2},           {"operator.lt", Op::Lt, 2},
    {"operator.le", Op::Le, 2},           {"operator.gt", Op::Gt, 2},
    {"operator.ge", Op::Ge, 2},           {"operator.and_", Op::And, 2},
    {"operator.or_", Op::Or, 2},          {"operator.xor", Op::Xor, 2},
    {"operator.not_", Op::Not, 1},        {"operator.neg", Op::Neg, 1},
    {"operator.pos", Op::Pos, 1},         {"operator.abs", Op::Abs, 1},
    {"torch.sym_not", Op::Not, 1},        {"torch.sym_min", Op::Min, 2},
    {"torch.sym_max", Op::Max, 2},        {"torch.sym_float", Op::ToFloat, 1},
    {"torch.sym_int", Op::ToInt, 1},      {"torch.sym_ite", Op::Ite, 3},
    {"math.trunc", Op::Trunc, 1},         {"math.floor", Op::Floor, 1},
    {"math.ceil", Op::Ceil, 1},           {"math.sqrt", Op::Sqrt, 1},
    {"torch.sym_sqrt", Op::Sqrt, 1},
};

const Entry* find(const std::string& target) {
  for (const auto& e : kOps) {
    if (e.target == target) return &e;
  }
  return nullptr;
}

[[noreturn]] void raise(const std::string& target, const std::string& why) {
  throw UnsupportedError(target + ": " + why);
}

// a op b on int64, or an error naming the operator when Python's result would not fit.
template <typename F>
std::int64_t checked(const std::string& target, std::int64_t a, std::int64_t b, F op) {
  std::int64_t r = 0;
  if (op(a, b, &r)) raise(target, "the int result does not fit in 64 bits");
  return r;
}

// Python's float floor division and modulo (divmod on floats).
std::pair<double, double> float_divmod(double a, double b) {
  double mod = std::fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0.0) {
    if ((b < 0) != (mod < 0)) {
      mod += b;
      div -= 1.0;
    }
  } else {
    mod = std::copysign(0.0, b);
  }
  double floordiv = 0.0;
  if (div != 0.0) {
    floordiv = std::floor(div);
    if (div - floordiv > 0.5) floordiv += 1.0;
  } else {
    floordiv = std::copysign(0.0, a / b);
  }
  return {floordiv, mod};
}

std::int64_t int_floordiv(std::int64_t a, std::int64_t b, const std::string& target) {
  if (b == 0) raise(target, "integer division or modulo by zero");
  if (a == std::numeric_limits<std::int64_t>::min() && b == -1) raise(target, "the int result does not fit in 64 bits");
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

std::int64_t float_to_int(double v, const std::string& target) {
  if (!std::isfinite(v)) raise(target, "cannot convert " + PyNumber::of_float(v).to_string() + " to an int");
  if (v >= 9223372036854775808.0 || v < -9223372036854775808.0) raise(target, "the int result does not fit in 64 bits");
  return static_cast<std::int64_t>(v);
}

int compare(const PyNumber& a, const PyNumber& b) {
  if (!a.is_float() && !b.is_float()) return a.i < b.i ? -1 : (a.i > b.i ? 1 : 0);
  const double x = a.as_double(), y = b.as_double();
  if (std::isnan(x) || std::isnan(y)) return 2;  // unordered: every comparison but != is false
  return x < y ? -1 : (x > y ? 1 : 0);
}

PyNumber arithmetic(Op op, const PyNumber& a, const PyNumber& b, const std::string& target) {
  const bool ints = !a.is_float() && !b.is_float();
  switch (op) {
    case Op::Add:
      if (ints) return PyNumber::of_int(checked(target, a.i, b.i, [](auto x, auto y, auto* r) { return __builtin_add_overflow(x, y, r); }));
      return PyNumber::of_float(a.as_double() + b.as_double());
    case Op::Sub:
      if (ints) return PyNumber::of_int(checked(target, a.i, b.i, [](auto x, auto y, auto* r) { return __builtin_sub_overflow(x, y, r); }));
      return PyNumber::of_float(a.as_double() - b.as_double());
    case Op::Mul:
      if (ints) return PyNumber::of_int(checked(target, a.i, b.i, [](auto x, auto y, auto* r) { return __builtin_mul_overflow(x, y, r); }));
      return PyNumber::of_float(a.as_double() * b.as_double());
    case Op::TrueDiv:
      if (b.as_double() == 0.0) raise(target, "division by zero");
      return PyNumber::of_float(a.as_double() / b.as_double());
    case Op::FloorDiv:
      if (ints) return PyNumber::of_int(int_floordiv(a.i, b.i, target));
      if (b.as_double() == 0.0) raise(target, "float floor division by zero");
      return PyNumber::of_float(float_divmod(a.as_double(), b.as_double()).first);
    case Op::Mod:
      if (ints) {
        const std::int64_t q = int_floordiv(a.i, b.i, target);
        return PyNumber::of_int(a.i - q * b.i);
      }
      if (b.as_double() == 0.0) raise(target, "float modulo by zero");
      return PyNumber::of_float(float_divmod(a.as_double(), b.as_double()).second);
    case Op::Pow:
      if (ints && b.i >= 0) {
        std::int64_t result = 1;
        for (std::int64_t k = 0; k < b.i; ++k) {
          if (__builtin_mul_overflow(result, a.i, &result)) raise(target, "the int result does not fit in 64 bits");
          if (result == 0 || result == 1) break;  // 0 and 1 stay; (-1) alternates but never overflows
        }
        if (a.i == -1) result = b.i % 2 == 0 ? 1 : -1;
        return PyNumber::of_int(result);
      }
      if (a.as_double() == 0.0 && b.as_double() < 0) raise(target, "0 cannot be raised to a negative power");
      return PyNumber::of_float(std::pow(a.as_double(), b.as_double()));
    default:
      break;
  }
  raise(target, "not an arithmetic operator");
}

}  // namespace

std::string PyNumber::to_string() const {
  if (kind == Kind::Bool) return i ? "True" : "False";
  if (kind == Kind::Int) return std::to_string(i);
  if (std::isnan(f)) return "nan";
  if (std::isinf(f)) return f > 0 ? "inf" : "-inf";
  std::ostringstream out;
  out.precision(17);
  out << f;
  std::string s = out.str();
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

bool is_python_scalar_op(const std::string& target) { return find(target) != nullptr; }

int python_scalar_op_arity(const std::string& target) {
  const Entry* e = find(target);
  return e ? e->arity : -1;
}

PyNumber eval_python_scalar_op(const std::string& target, const std::vector<PyNumber>& args) {
  const Entry* e = find(target);
  if (!e) raise(target, "not a Python scalar operator atenrt evaluates");
  if (static_cast<int>(args.size()) != e->arity) {
    raise(target, "takes " + std::to_string(e->arity) + " operands, got " + std::to_string(args.size()));
  }
  const PyNumber& a = args[0];
  switch (e->op) {
    case Op::Eq: return PyNumber::of_bool(compare(a, args[1]) == 0);
    case Op::Ne: return PyNumber::of_bool(compare(a, args[1]) != 0);
    case Op::Lt: return PyNumber::of_bool(compare(a, args[1]) == -1);
    case Op::Le: { const int c = compare(a, args[1]); return PyNumber::of_bool(c == -1 || c == 0); }
    case Op::Gt: return PyNumber::of_bool(compare(a, args[1]) == 1);
    case Op::Ge: { const int c = compare(a, args[1]); return PyNumber::of_bool(c == 1 || c == 0); }
    case Op::And:
    case Op::Or:
    case Op::Xor: {
      const PyNumber& b = args[1];
      if (a.is_float() || b.is_float()) raise(target, "unsupported operand type float for a bitwise operator");
      const std::int64_t r = e->op == Op::And ? (a.i & b.i) : e->op == Op::Or ? (a.i | b.i) : (a.i ^ b.i);
      return a.is_bool() && b.is_bool() ? PyNumber::of_bool(r != 0) : PyNumber::of_int(r);
    }
    case Op::Not: return PyNumber::of_bool(!a.truthy());
    case Op::Neg:
      if (a.is_float()) return PyNumber::of_float(-a.f);
      if (a.i == std::numeric_limits<std::int64_t>::min()) raise(target, "the int result does not fit in 64 bits");
      return PyNumber::of_int(-a.i);
    case Op::Pos: return a.is_float() ? a : PyNumber::of_int(a.i);
    case Op::Abs:
      if (a.is_float()) return PyNumber::of_float(std::fabs(a.f));
      if (a.i == std::numeric_limits<std::int64_t>::min()) raise(target, "the int result does not fit in 64 bits");
      return PyNumber::of_int(a.i < 0 ? -a.i : a.i);
    // builtins.max / min: the first operand unless the second is strictly greater / smaller.
    case Op::Max: return compare(args[1], a) == 1 ? args[1] : a;
    case Op::Min: return compare(args[1], a) == -1 ? args[1] : a;
    case Op::ToFloat: return PyNumber::of_float(a.as_double());
    case Op::ToInt:
    case Op::Trunc: return a.is_float() ? PyNumber::of_int(float_to_int(std::trunc(a.f), target)) : PyNumber::of_int(a.i);
    case Op::Floor: return a.is_float() ? PyNumber::of_int(float_to_int(std::floor(a.f), target)) : PyNumber::of_int(a.i);
    case Op::Ceil: return a.is_float() ? PyNumber::of_int(float_to_int(std::ceil(a.f), target)) : PyNumber::of_int(a.i);
    case Op::Ite: return a.truthy() ? args[1] : args[2];
    case Op::Sqrt:  // math.sqrt: a float, ValueError below zero (-0.0 and nan pass through)
      if (a.as_double() < 0.0) raise(target, "math domain error (the square root of " + a.to_string() + ")");
      return PyNumber::of_float(std::sqrt(a.as_double()));
    default: return arithmetic(e->op, a, args[1], target);
  }
}

}  // namespace atenrt::ir
