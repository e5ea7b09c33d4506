// Symbolic sizes: the expressions torch.export writes for dynamic dims
// (pt2_format.md §4), parsed from both spellings torch has used:
//   sympy.srepr  "Mul(Integer(2), Symbol('s0', integer=True, positive=True))"
//   str()        "2*s0", "(s0//2)", "Mod(s0, 2)", "Max(1, s0)"
// An expression prints back in one canonical infix form (to_string), which
// is the name a symbolic SymInt carries through the IR.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace atenrt::ir {

struct SymRange;

struct SymExpr {
  enum class Op { Int, Symbol, Add, Mul, Pow, FloorDiv, Mod, Max, Min };
  Op op = Op::Int;
  std::int64_t value = 0;   // Int
  std::string symbol;       // Symbol
  std::vector<SymExpr> args;

  static SymExpr integer(std::int64_t v);
  static SymExpr named(std::string name);

  // Throws FormatError("symbolic size '<text>': <why>") on anything else.
  static SymExpr parse(std::string_view text);

  bool is_symbol() const { return op == Op::Symbol; }
  bool is_int() const { return op == Op::Int; }
  // The value with every symbol bound, with Python's integer semantics
  // (floor division and modulo round toward -inf); nullopt when a symbol is
  // unbound or a division is by zero.
  std::optional<std::int64_t> evaluate(const std::map<std::string, std::int64_t>& bindings) const;
  void collect_symbols(std::set<std::string>& out) const;
  // The smallest and largest value it takes over the symbols' ranges
  // (interval arithmetic: sound, not always tight); nullopt where unbounded.
  // A symbol the map lacks is a size: [0, unbounded).
  struct Bounds {
    std::optional<std::int64_t> lo, hi;
  };
  Bounds bounds(const std::map<std::string, SymRange>& ranges) const;
  // Canonical infix: "s0", "2*s0", "s0 + 1", "s0//2", "Max(1, s0)".
  std::string to_string() const;
};

// What torch.export's range_constraints says of one symbol: min_val and
// max_val; a missing, null or huge (int_oo, sys.maxsize) max is unbounded.
struct SymRange {
  std::int64_t min = 0;
  std::optional<std::int64_t> max;  // nullopt: unbounded
  std::string to_string() const;    // "[2, 64]", "[2, inf]"
};

}  // namespace atenrt::ir
