// Symbolic sizes: every spelling torch.export has written (sympy srepr and
// str), evaluation with Python's integer rules, canonical printing, and
// refusal of anything else.
#include <gtest/gtest.h>

#include "atenrt/errors.h"
#include "ir/sym_expr.h"

namespace atenrt::ir {
namespace {

std::string canon(const char* text) { return SymExpr::parse(text).to_string(); }
std::optional<std::int64_t> eval(const char* text, std::map<std::string, std::int64_t> b) {
  return SymExpr::parse(text).evaluate(b);
}

TEST(SymExpr, SreprAndStrPrintAlike) {
  EXPECT_EQ(canon("Symbol('s0', integer=True, positive=True)"), "s0");
  EXPECT_EQ(canon("s0"), "s0");
  EXPECT_EQ(canon("Mul(Integer(2), Symbol('s77', integer=True, positive=True))"), "2*s77");
  EXPECT_EQ(canon("2*s77"), "2*s77");
  EXPECT_EQ(canon("Add(Symbol('s0'), Integer(-1))"), "s0 - 1");
  EXPECT_EQ(canon("s0 - 1"), "s0 - 1");
  EXPECT_EQ(canon("FloorDiv(Symbol('s0'), Integer(2))"), "s0//2");
  EXPECT_EQ(canon("(s0//2)"), "s0//2");
  EXPECT_EQ(canon("Mod(Symbol('s0'), Integer(3))"), "Mod(s0, 3)");
  EXPECT_EQ(canon("s0 % 3"), "Mod(s0, 3)");
  EXPECT_EQ(canon("Max(Integer(1), Symbol('s0'))"), "Max(1, s0)");
  EXPECT_EQ(canon("Min(s0, s1, 8)"), "Min(s0, s1, 8)");
  EXPECT_EQ(canon("Pow(Symbol('s0'), Integer(2))"), "s0**2");
  EXPECT_EQ(canon("CleanDiv(s0*s1, 4)"), "(s0*s1)//4");
  EXPECT_EQ(canon("PythonMod(s0, 4)"), "Mod(s0, 4)");
  EXPECT_EQ(canon("((s0 - 1)//2) + 1"), "(s0 - 1)//2 + 1");
}

TEST(SymExpr, EvaluatesWithPythonRules) {
  EXPECT_EQ(eval("2*s0 + s1", {{"s0", 3}, {"s1", 4}}), 10);
  EXPECT_EQ(eval("(s0 - 1)//2 + 1", {{"s0", 224}}), 112);
  EXPECT_EQ(eval("s0//2", {{"s0", -3}}), -2);  // floor, not truncation
  EXPECT_EQ(eval("Mod(s0, 3)", {{"s0", -1}}), 2);
  EXPECT_EQ(eval("Max(1, s0)", {{"s0", 0}}), 1);
  EXPECT_EQ(eval("Min(s0, 8)", {{"s0", 77}}), 8);
  EXPECT_EQ(eval("s0**2", {{"s0", 5}}), 25);
  EXPECT_EQ(eval("-s0 + 10", {{"s0", 4}}), 6);
  EXPECT_FALSE(eval("s0 + s1", {{"s0", 1}}).has_value());  // unbound
  EXPECT_FALSE(eval("s0//0", {{"s0", 1}}).has_value());
  EXPECT_FALSE(eval("s0*s0", {{"s0", std::int64_t{1} << 40}}).has_value());  // overflow
}

TEST(SymExpr, Symbols) {
  std::set<std::string> s;
  SymExpr::parse("Max(s0, 2*s1) + u3").collect_symbols(s);
  EXPECT_EQ(s, (std::set<std::string>{"s0", "s1", "u3"}));
  EXPECT_TRUE(SymExpr::parse("Symbol('s9')").is_symbol());
  EXPECT_TRUE(SymExpr::parse("Integer(7)").is_int());
}

TEST(SymExpr, RefusesWhatIsNotASize) {
  for (const char* bad : {"", "s0 +", "s0/2", "sqrt(s0)", "Symbol(s0)", "Symbol('a b')", "Max(s0)", "s0)",
                          "99999999999999999999", "Pow(s0)", "'s0'", "s0 $ 1"}) {
    EXPECT_THROW(SymExpr::parse(bad), FormatError) << bad;
  }
  EXPECT_THROW(SymExpr::parse(std::string(10000, '(')), FormatError);
  EXPECT_THROW(SymExpr::parse(std::string(200, '(') + "s0" + std::string(200, ')')), FormatError);
}

// Interval bounds: exact on sums and products of sizes, sound (if loose) on
// what is not monotone, unbounded where a symbol is.
TEST(SymExpr, Bounds) {
  const std::map<std::string, SymRange> ranges{{"s0", {1, 8}}, {"s1", {2, 5}}, {"u0", {0, std::nullopt}}};
  auto bounds = [&](const char* text) {
    const auto b = SymExpr::parse(text).bounds(ranges);
    return std::make_pair(b.lo, b.hi);
  };
  using P = std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>>;
  EXPECT_EQ(bounds("2*s0"), (P{2, 16}));
  EXPECT_EQ(bounds("s0*s1 + 1"), (P{3, 41}));
  EXPECT_EQ(bounds("s0 - 1"), (P{0, 7}));
  EXPECT_EQ(bounds("-s0 + 10"), (P{2, 9}));
  EXPECT_EQ(bounds("s0//2"), (P{0, 4}));
  EXPECT_EQ(bounds("Mod(s0, 4)"), (P{0, 3}));
  EXPECT_EQ(bounds("Mod(s0, 16)"), (P{1, 8}));  // below the divisor: the value itself
  EXPECT_EQ(bounds("Max(s0, s1)"), (P{2, 8}));
  EXPECT_EQ(bounds("Min(s0, 3)"), (P{1, 3}));
  EXPECT_EQ(bounds("s1**2"), (P{4, 25}));
  EXPECT_EQ(bounds("2*u0"), (P{0, std::nullopt}));
  EXPECT_EQ(bounds("s0 + x9"), (P{1, std::nullopt}));  // a symbol without a range is a size
  EXPECT_EQ(bounds("s0//(s0 - 1)"), (P{std::nullopt, std::nullopt}));  // the divisor may be 0
  // Every value at every binding lies inside.
  for (std::int64_t a = 1; a <= 8; ++a) {
    for (std::int64_t b = 2; b <= 5; ++b) {
      for (const char* text : {"(s0 - s1)//3", "Mod(s0*s1 - 7, s1)", "Max(s0 - 2*s1, 1)"}) {
        const auto v = *SymExpr::parse(text).evaluate({{"s0", a}, {"s1", b}});
        const auto [lo, hi] = bounds(text);
        EXPECT_TRUE(lo && hi && *lo <= v && v <= *hi) << text << " at " << a << ", " << b;
      }
    }
  }
}

TEST(SymExpr, RangeText) {
  EXPECT_EQ((SymRange{2, 64}).to_string(), "[2, 64]");
  EXPECT_EQ((SymRange{2, std::nullopt}).to_string(), "[2, inf]");
}

}  // namespace
}  // namespace atenrt::ir
