// Parsing, evaluating and printing symbolic sizes (sym_expr.h).
#include "ir/sym_expr.h"

#include <cctype>
#include <cmath>
#include <limits>

#include "atenrt/errors.h"

namespace atenrt::ir {
namespace {

constexpr std::size_t kMaxDepth = 64;  // expressions are untrusted text

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  SymExpr parse_all() {
    SymExpr e = additive(0);
    skip_space();
    if (pos_ != text_.size()) fail("unexpected '" + std::string(1, text_[pos_]) + "'");
    return e;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw FormatError("symbolic size '" + std::string(text_.substr(0, 200)) + "': " + why + " at offset " +
                      std::to_string(pos_));
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool eat(std::string_view token) {
    skip_space();
    if (text_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }
  void expect(std::string_view token) {
    if (!eat(token)) fail("expected '" + std::string(token) + "'");
  }
  void deeper(std::size_t depth) const {
    if (depth > kMaxDepth) fail("nested too deeply");
  }

  SymExpr additive(std::size_t depth) {
    deeper(depth);
    SymExpr e = multiplicative(depth + 1);
    for (;;) {
      if (eat("+")) {
        e = binary(SymExpr::Op::Add, std::move(e), multiplicative(depth + 1));
      } else if (peek_minus()) {
        ++pos_;
        e = binary(SymExpr::Op::Add, std::move(e), negate(multiplicative(depth + 1)));
      } else {
        return e;
      }
    }
  }
  bool peek_minus() {
    skip_space();
    return pos_ < text_.size() && text_[pos_] == '-';
  }
  SymExpr multiplicative(std::size_t depth) {
    deeper(depth);
    SymExpr e = unary(depth + 1);
    for (;;) {
      if (eat("//")) {
        e = binary(SymExpr::Op::FloorDiv, std::move(e), unary(depth + 1));
      } else if (eat("*")) {
        e = binary(SymExpr::Op::Mul, std::move(e), unary(depth + 1));
      } else if (eat("%")) {
        e = binary(SymExpr::Op::Mod, std::move(e), unary(depth + 1));
      } else if (eat("/")) {
        fail("true division does not give an integer size");
      } else {
        return e;
      }
    }
  }
  SymExpr unary(std::size_t depth) {
    deeper(depth);
    if (eat("-")) return negate(unary(depth + 1));
    if (eat("+")) return unary(depth + 1);
    SymExpr base = atom(depth + 1);
    if (eat("**")) return binary(SymExpr::Op::Pow, std::move(base), unary(depth + 1));
    return base;
  }
  SymExpr atom(std::size_t depth) {
    deeper(depth);
    skip_space();
    if (pos_ >= text_.size()) fail("unexpected end");
    const char c = text_[pos_];
    if (c == '(') {
      ++pos_;
      SymExpr e = additive(depth + 1);
      expect(")");
      return e;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) return SymExpr::integer(number());
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const std::string name = identifier();
      if (!eat("(")) return SymExpr::named(name);
      return call(name, depth + 1);
    }
    fail("unexpected '" + std::string(1, c) + "'");
  }
  std::int64_t number() {
    std::int64_t v = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      const int digit = text_[pos_] - '0';
      if (v > (std::numeric_limits<std::int64_t>::max() - digit) / 10) fail("integer out of range");
      v = v * 10 + digit;
      ++pos_;
    }
    return v;
  }
  std::string identifier() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }
  std::string quoted() {
    skip_space();
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) fail("expected a quoted name");
    const char q = text_[pos_++];
    const std::size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != q) ++pos_;
    if (pos_ >= text_.size()) fail("unterminated name");
    std::string name(text_.substr(start, pos_ - start));
    ++pos_;
    if (name.empty()) fail("empty symbol name");
    for (char ch : name) {
      if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_') fail("symbol name '" + name + "' is not an identifier");
    }
    return name;
  }
  // srepr's keyword arguments (integer=True, positive=True): read and ignored.
  void skip_keywords() {
    while (eat(",")) {
      skip_space();
      const std::string key = identifier();
      if (key.empty()) fail("expected a keyword argument");
      expect("=");
      skip_space();
      if (identifier().empty()) fail("expected a keyword value");
    }
  }
  SymExpr call(const std::string& name, std::size_t depth) {
    if (name == "Symbol") {
      SymExpr e = SymExpr::named(quoted());
      skip_keywords();
      expect(")");
      return e;
    }
    if (name == "Integer") {
      const bool negative = eat("-");
      skip_space();
      SymExpr e = SymExpr::integer(negative ? -number() : number());
      expect(")");
      return e;
    }
    std::vector<SymExpr> args;
    if (!eat(")")) {
      do {
        args.push_back(additive(depth + 1));
      } while (eat(","));
      expect(")");
    }
    SymExpr::Op op;
    std::size_t arity = 2;  // exactly; 0 means two or more
    if (name == "Add") op = SymExpr::Op::Add, arity = 0;
    else if (name == "Mul") op = SymExpr::Op::Mul, arity = 0;
    else if (name == "Max") op = SymExpr::Op::Max, arity = 0;
    else if (name == "Min") op = SymExpr::Op::Min, arity = 0;
    else if (name == "Pow") op = SymExpr::Op::Pow;
    else if (name == "FloorDiv" || name == "CleanDiv") op = SymExpr::Op::FloorDiv;
    else if (name == "Mod" || name == "PythonMod") op = SymExpr::Op::Mod;
    else fail("function '" + name + "' is not a symbolic size atenrt knows");
    if (arity ? args.size() != arity : args.size() < 2) {
      fail(name + " takes " + (arity ? std::to_string(arity) : std::string("two or more")) + " arguments, got " +
           std::to_string(args.size()));
    }
    SymExpr e;
    e.op = op;
    e.args = std::move(args);
    return e;
  }

  static SymExpr binary(SymExpr::Op op, SymExpr a, SymExpr b) {
    SymExpr e;
    e.op = op;
    // Flatten chains of + and * so that both spellings print alike.
    for (SymExpr* side : {&a, &b}) {
      if ((op == SymExpr::Op::Add || op == SymExpr::Op::Mul) && side->op == op) {
        for (auto& x : side->args) e.args.push_back(std::move(x));
      } else {
        e.args.push_back(std::move(*side));
      }
    }
    return e;
  }
  static SymExpr negate(SymExpr x) {
    if (x.is_int()) return SymExpr::integer(-x.value);
    return binary(SymExpr::Op::Mul, SymExpr::integer(-1), std::move(x));
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

std::optional<std::int64_t> floor_div(std::int64_t a, std::int64_t b) {
  if (b == 0 || (a == std::numeric_limits<std::int64_t>::min() && b == -1)) return std::nullopt;
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

bool atomic(const SymExpr& e) { return e.op == SymExpr::Op::Symbol || (e.is_int() && e.value >= 0); }

std::string wrapped(const SymExpr& e) { return atomic(e) ? e.to_string() : "(" + e.to_string() + ")"; }

}  // namespace

SymExpr SymExpr::integer(std::int64_t v) {
  SymExpr e;
  e.op = Op::Int;
  e.value = v;
  return e;
}

SymExpr SymExpr::named(std::string name) {
  SymExpr e;
  e.op = Op::Symbol;
  e.symbol = std::move(name);
  return e;
}

SymExpr SymExpr::parse(std::string_view text) {
  if (text.size() > 4096) throw FormatError("symbolic size of " + std::to_string(text.size()) + " characters is too long");
  return Parser(text).parse_all();
}

std::optional<std::int64_t> SymExpr::evaluate(const std::map<std::string, std::int64_t>& bindings) const {
  switch (op) {
    case Op::Int: return value;
    case Op::Symbol: {
      auto it = bindings.find(symbol);
      if (it == bindings.end()) return std::nullopt;
      return it->second;
    }
    default: break;
  }
  std::vector<std::int64_t> v;
  for (const auto& a : args) {
    auto x = a.evaluate(bindings);
    if (!x) return std::nullopt;
    v.push_back(*x);
  }
  std::int64_t r = v[0];
  for (std::size_t i = 1; i < v.size(); ++i) {
    switch (op) {
      case Op::Add:
        if (__builtin_add_overflow(r, v[i], &r)) return std::nullopt;
        break;
      case Op::Mul:
        if (__builtin_mul_overflow(r, v[i], &r)) return std::nullopt;
        break;
      case Op::Max: r = std::max(r, v[i]); break;
      case Op::Min: r = std::min(r, v[i]); break;
      case Op::FloorDiv: {
        auto q = floor_div(r, v[i]);
        if (!q) return std::nullopt;
        r = *q;
        break;
      }
      case Op::Mod: {
        auto q = floor_div(r, v[i]);
        if (!q) return std::nullopt;
        r = r - *q * v[i];
        break;
      }
      case Op::Pow: {
        if (v[i] < 0) return std::nullopt;
        std::int64_t p = 1;
        for (std::int64_t k = 0; k < v[i]; ++k) {
          if (__builtin_mul_overflow(p, r, &p)) return std::nullopt;
        }
        r = p;
        break;
      }
      default: return std::nullopt;
    }
  }
  return r;
}

namespace {

// A real interval; +-infinity where unbounded. long double holds every
// int64 exactly.
struct Interval {
  long double lo, hi;
};
constexpr long double kInf = std::numeric_limits<long double>::infinity();
constexpr Interval kAnything{-kInf, kInf};

long double product(long double a, long double b) { return a == 0 || b == 0 ? 0 : a * b; }  // 0 * inf = 0 here

Interval corners(const Interval& a, const Interval& b, long double (*f)(long double, long double)) {
  const long double v[4] = {f(a.lo, b.lo), f(a.lo, b.hi), f(a.hi, b.lo), f(a.hi, b.hi)};
  Interval r{v[0], v[0]};
  for (long double x : v) {
    if (std::isnan(x)) return kAnything;
    r.lo = std::min(r.lo, x);
    r.hi = std::max(r.hi, x);
  }
  return r;
}

Interval combine(SymExpr::Op op, const Interval& a, const Interval& b, const SymExpr& rhs) {
  using Op = SymExpr::Op;
  switch (op) {
    case Op::Add: return {a.lo + b.lo, a.hi + b.hi};
    case Op::Mul: return corners(a, b, product);
    case Op::Max: return {std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
    case Op::Min: return {std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
    case Op::FloorDiv: {
      if (b.lo <= 0 && b.hi >= 0) return kAnything;
      Interval q = corners(a, b, [](long double x, long double y) { return x / y; });
      return {std::floor(q.lo), std::floor(q.hi)};
    }
    case Op::Mod: {  // Python's: the divisor's sign
      if (b.lo <= 0 && b.hi >= 0) return kAnything;
      if (b.lo > 0) return a.lo >= 0 && a.hi < b.lo ? a : Interval{0, b.hi - 1};
      return {b.lo + 1, 0};
    }
    case Op::Pow: {
      if (!rhs.is_int() || rhs.value < 0 || a.lo < 0) return kAnything;
      return {std::pow(a.lo, static_cast<long double>(rhs.value)), std::pow(a.hi, static_cast<long double>(rhs.value))};
    }
    default: return kAnything;
  }
}

Interval interval_of(const SymExpr& e, const std::map<std::string, SymRange>& ranges) {
  switch (e.op) {
    case SymExpr::Op::Int: return {static_cast<long double>(e.value), static_cast<long double>(e.value)};
    case SymExpr::Op::Symbol: {
      auto it = ranges.find(e.symbol);
      if (it == ranges.end()) return {0, kInf};
      return {static_cast<long double>(it->second.min), it->second.max ? static_cast<long double>(*it->second.max) : kInf};
    }
    default: break;
  }
  if (e.args.empty()) return kAnything;
  Interval r = interval_of(e.args[0], ranges);
  for (std::size_t i = 1; i < e.args.size(); ++i) r = combine(e.op, r, interval_of(e.args[i], ranges), e.args[i]);
  return r;
}

std::optional<std::int64_t> to_int(long double v) {
  constexpr long double kLimit = 9.2e18L;
  if (std::isnan(v) || v <= -kLimit || v >= kLimit) return std::nullopt;
  return static_cast<std::int64_t>(v);
}

}  // namespace

SymExpr::Bounds SymExpr::bounds(const std::map<std::string, SymRange>& ranges) const {
  const Interval r = interval_of(*this, ranges);
  return {to_int(std::ceil(r.lo)), to_int(std::floor(r.hi))};
}

void SymExpr::collect_symbols(std::set<std::string>& out) const {
  if (op == Op::Symbol) out.insert(symbol);
  for (const auto& a : args) a.collect_symbols(out);
}

std::string SymExpr::to_string() const {
  switch (op) {
    case Op::Int: return std::to_string(value);
    case Op::Symbol: return symbol;
    case Op::Add: {
      std::string out = args[0].to_string();
      for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string term = args[i].to_string();
        out += term.starts_with("-") ? " - " + term.substr(1) : " + " + term;
      }
      return out;
    }
    case Op::Mul: {
      std::size_t first = 0;
      std::string out;
      if (args[0].is_int() && args[0].value == -1) {
        out = "-";
        first = 1;
      }
      for (std::size_t i = first; i < args.size(); ++i) {
        const bool lead_int = i == first && args[i].is_int();
        out += (i > first ? "*" : "") + (lead_int ? args[i].to_string() : wrapped(args[i]));
      }
      return out;
    }
    case Op::Pow: return wrapped(args[0]) + "**" + wrapped(args[1]);
    case Op::FloorDiv: return wrapped(args[0]) + "//" + wrapped(args[1]);
    case Op::Mod:
    case Op::Max:
    case Op::Min: {
      std::string out = op == Op::Mod ? "Mod(" : op == Op::Max ? "Max(" : "Min(";
      for (std::size_t i = 0; i < args.size(); ++i) out += (i ? ", " : "") + args[i].to_string();
      return out + ")";
    }
  }
  return "?";
}

std::string SymRange::to_string() const {
  return "[" + std::to_string(min) + ", " + (max ? std::to_string(*max) : std::string("inf")) + "]";
}

}  // namespace atenrt::ir
