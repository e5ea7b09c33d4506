// Checked size arithmetic and the float -> int64 conversion used for scalars.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "ir/checked_math.h"

using namespace atenrt;

TEST(CheckedMath, SaturatingI64HasNoUndefinedCases) {
  constexpr auto kMax = std::numeric_limits<std::int64_t>::max();
  constexpr auto kMin = std::numeric_limits<std::int64_t>::min();
  EXPECT_EQ(checked::saturating_i64(2.9), 2);
  EXPECT_EQ(checked::saturating_i64(-2.9), -2);
  EXPECT_EQ(checked::saturating_i64(INFINITY), kMax);
  EXPECT_EQ(checked::saturating_i64(-INFINITY), kMin);
  EXPECT_EQ(checked::saturating_i64(NAN), 0);
  EXPECT_EQ(checked::saturating_i64(1e30), kMax);
  EXPECT_EQ(checked::saturating_i64(-1e30), kMin);
  EXPECT_EQ(checked::saturating_i64(9223372036854775807.0), kMax);  // 2^63 after rounding
  EXPECT_EQ(checked::saturating_i64(-9223372036854775808.0), kMin);
  EXPECT_EQ(checked::saturating_i64(4503599627370497.0), 4503599627370497);  // 2^52 + 1: exact
}

TEST(CheckedMath, OverflowIsAnErrorNamingTheValue) {
  EXPECT_THROW(checked::numel<FormatError>({std::int64_t{1} << 40, std::int64_t{1} << 40}, "t"), FormatError);
  EXPECT_THROW(checked::numel<FormatError>({-1}, "t"), FormatError);
  EXPECT_EQ(checked::numel<FormatError>({2, 3, 4}, "t"), 24u);
  try {
    checked::nbytes<FormatError>({std::int64_t{1} << 62}, 8, "weight 'w'");
    ADD_FAILURE() << "2^62 elements of 8 bytes did not overflow";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("weight 'w'"), std::string::npos) << e.what();
  }
}
