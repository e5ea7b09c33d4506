// Untrusted JSON handling: bare non-finite tokens, depth limit, typed access.
#include <gtest/gtest.h>

#include <cmath>

#include "atenrt/errors.h"
#include "frontend/graph_json.h"
#include "frontend/json_util.h"

using namespace atenrt;
using namespace atenrt::frontend;

TEST(Json, BareNonFiniteTokensBecomeNumbers) {
  const JsonReader r("f.pt2: m.json");
  const json j = parse_json(R"({"a": NaN, "b": -Infinity, "c": [Infinity], "s": "NaN -Infinity text"})", r.where(), 64);
  EXPECT_TRUE(std::isnan(r.number(j["a"], "$.a")));
  EXPECT_EQ(r.number(j["b"], "$.b"), -INFINITY);
  EXPECT_EQ(r.number(j["c"][0], "$.c[0]"), INFINITY);
  EXPECT_EQ(j["s"].get<std::string>(), "NaN -Infinity text");  // strings untouched
}

TEST(Json, EscapedQuotesDoNotConfuseTheScanner) {
  const json j = parse_json(R"({"a": "x\"NaN[[[", "b": NaN})", "w", 2);
  EXPECT_EQ(j["a"].get<std::string>(), "x\"NaN[[[");
}

TEST(Json, DepthLimit) {
  EXPECT_NO_THROW(parse_json("[[[[1]]]]", "w", 4));
  try {
    parse_json("[[[[[1]]]]]", "f.pt2: m.json", 4);
    FAIL();
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("f.pt2: m.json: JSON nesting deeper than 4"), std::string::npos);
  }
}

TEST(Json, TypedAccessNamesThePath) {
  const JsonReader r("f.pt2: m.json");
  const json j = json::parse(R"({"n": "3", "big": 18446744073709551615, "neg": -9223372036854775808})");
  try {
    r.integer(j["n"], "$.n");
    FAIL();
  } catch (const FormatError& e) {
    EXPECT_STREQ(e.what(), "f.pt2: m.json: $.n: expected an integer, got string \"3\"");
  }
  EXPECT_THROW(r.integer(j["big"], "$.big"), FormatError);
  EXPECT_EQ(r.integer(j["neg"], "$.neg"), INT64_MIN);
  EXPECT_THROW(r.at(j, "missing", "$"), FormatError);
  EXPECT_THROW(r.string(j["big"], "$"), FormatError);
}

TEST(Json, SymIntForms) {
  const JsonReader r("w");
  auto read = [&](const char* text) { return read_serde_sym_int(json::parse(text), r, "$"); };
  EXPECT_EQ(read(R"({"as_int": 5})"), ir::SymInt::of(5));
  // srepr (current torch) with a SymExprHint union; str() with a bare-int hint; a bare string.
  const auto srepr = read(R"J({"as_expr": {"expr_str": "Symbol('s17', positive=True, integer=True)", "hint": {"as_int": 2}}})J");
  EXPECT_EQ(srepr.name, "s17");
  EXPECT_EQ(srepr.hint, 2);
  const auto plain = read(R"({"as_expr": {"expr_str": "s0", "hint": 2}})");
  EXPECT_EQ(plain.name, "s0");
  EXPECT_EQ(plain.hint, 2);
  EXPECT_EQ(read(R"({"as_expr": "s3"})").name, "s3");
  // Both spellings of one expression get one name; an unbacked size has no hint.
  EXPECT_EQ(read(R"J({"as_expr": {"expr_str": "Mul(Integer(2), Symbol('s0', integer=True))", "hint": null}})J").name,
            "2*s0");
  EXPECT_EQ(read(R"({"as_expr": {"expr_str": "2*s0", "hint": {"as_int": 8}}})").name, "2*s0");
  EXPECT_FALSE(read(R"({"as_expr": {"expr_str": "u0", "hint": null}})").hint.has_value());
  // A constant expression is a static size.
  EXPECT_EQ(read(R"J({"as_expr": {"expr_str": "Integer(3)", "hint": 3}})J"), ir::SymInt::of(3));
  EXPECT_THROW(read(R"({"as_float": 1.0})"), FormatError);
  try {
    read(R"({"as_expr": {"expr_str": "s0 +", "hint": 2}})");
    FAIL();
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("$.as_expr.expr_str"), std::string::npos) << e.what();
  }
  EXPECT_THROW(read(R"J({"as_expr": {"expr_str": "__import__('os')", "hint": 2}})J"), FormatError);
}

TEST(Json, TensorMetaLenientAndStrict) {
  const JsonReader r("w");
  // Enum names (older writers) and missing strides.
  const auto m = read_tensor_meta(json::parse(R"({"dtype": "BFLOAT16", "sizes": [{"as_int": 2}, {"as_int": 3}]})"), r, "$");
  EXPECT_EQ(m.dtype, DType::BFloat16);
  ASSERT_EQ(m.strides.size(), 2u);
  EXPECT_EQ(m.strides[0], ir::SymInt::of(3));
  // Complex is representable in the file but not in atenrt: dtype is empty, code kept.
  const auto c = read_tensor_meta(json::parse(R"({"dtype": 10, "sizes": []})"), r, "$");
  EXPECT_FALSE(c.dtype.has_value());
  EXPECT_EQ(c.dtype_code, 10);
  EXPECT_THROW(read_tensor_meta(json::parse(R"({"dtype": 7, "sizes": [], "layout": 1})"), r, "$"),
               UnsupportedError);
  EXPECT_THROW(read_tensor_meta(json::parse(R"({"dtype": 7, "sizes": [{"as_int": 1}], "strides": []})"), r, "$"),
               FormatError);
}
