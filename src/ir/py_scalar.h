// The Python scalar operators torch.export graphs apply to symbolic values
// (`_operator.add`, `operator.ge`, `torch.sym_max`, `math.trunc`, ...; the
// `_SYM_OPS` of torch's serializer), evaluated on known values with Python's
// rules: bool is an int in arithmetic, `//` and `%` round toward -inf, `/` is
// always a float, `int ** negative int` is a float, `&`/`|`/`^` of two bools is
// a bool. Lowering folds them where sizes are static; conversion where a value
// is known when the network is built. One definition, so both agree.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace atenrt::ir {

struct PyNumber {
  enum class Kind : std::uint8_t { Bool, Int, Float };
  Kind kind = Kind::Int;
  std::int64_t i = 0;  // Bool (0/1) and Int
  double f = 0.0;      // Float
  static PyNumber of_bool(bool v) { return {Kind::Bool, v ? 1 : 0, v ? 1.0 : 0.0}; }
  static PyNumber of_int(std::int64_t v) { return {Kind::Int, v, static_cast<double>(v)}; }
  static PyNumber of_float(double v) { return {Kind::Float, 0, v}; }
  bool is_float() const { return kind == Kind::Float; }
  bool is_bool() const { return kind == Kind::Bool; }
  double as_double() const { return is_float() ? f : static_cast<double>(i); }
  bool truthy() const { return is_float() ? f != 0.0 : i != 0; }
  // "True", "4", "2.5"
  std::string to_string() const;
  bool operator==(const PyNumber&) const = default;
};

// Whether `target` (an OpName's str(): "operator.add", "torch.sym_max",
// "math.trunc") is one of the operators below, and how many operands it takes.
bool is_python_scalar_op(const std::string& target);
int python_scalar_op_arity(const std::string& target);

// The operator's result. Throws UnsupportedError for what Python would raise
// (division or modulo by zero, `&` of floats), an int result beyond int64,
// or a wrong operand count; the caller adds the node to the message.
PyNumber eval_python_scalar_op(const std::string& target, const std::vector<PyNumber>& args);

}  // namespace atenrt::ir
