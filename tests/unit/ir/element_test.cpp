// The one element conversion (ir/element.h): fp16/bf16 rounding and the
// float -> integer rule, against values PyTorch 1.13 gives on x86.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "ir/element.h"

using namespace atenrt;
using ir::float_to_int;

namespace {
constexpr std::int64_t kI64Min = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kI32Min = std::numeric_limits<std::int32_t>::min();
}  // namespace

TEST(Element, FloatToInt64TruncatesAndGivesTheMinimumForNanAndOutOfRange) {
  EXPECT_EQ(float_to_int(2.9, DType::Int64), 2);
  EXPECT_EQ(float_to_int(-2.9, DType::Int64), -2);
  EXPECT_EQ(float_to_int(NAN, DType::Int64), kI64Min);
  EXPECT_EQ(float_to_int(INFINITY, DType::Int64), kI64Min);
  EXPECT_EQ(float_to_int(-INFINITY, DType::Int64), kI64Min);
  EXPECT_EQ(float_to_int(1e20, DType::Int64), kI64Min);
  EXPECT_EQ(float_to_int(-1e20, DType::Int64), kI64Min);
  EXPECT_EQ(float_to_int(9223372036854775808.0, DType::Int64), kI64Min);  // 2^63: just out
  EXPECT_EQ(float_to_int(-9223372036854775808.0, DType::Int64), kI64Min);  // -2^63: in, and the minimum
  EXPECT_EQ(float_to_int(9223372036854774784.0, DType::Int64), 9223372036854774784);  // largest double below 2^63
  EXPECT_EQ(float_to_int(5000000001.0, DType::Int64), 5000000001);
}

TEST(Element, NarrowSignedIntegersGoThroughInt32ThenWrap) {
  // torch: tensor([3e9, 5000000001., 2147483647., 2147483648., 300., -129.5]).to(int32/int16/int8)
  EXPECT_EQ(float_to_int(3e9, DType::Int32), kI32Min);
  EXPECT_EQ(float_to_int(-3e9, DType::Int32), kI32Min);
  EXPECT_EQ(float_to_int(2147483647.0, DType::Int32), 2147483647);
  EXPECT_EQ(float_to_int(2147483648.0, DType::Int32), kI32Min);
  EXPECT_EQ(float_to_int(-2147483648.9, DType::Int32), kI32Min);  // truncates to -2^31: in range
  EXPECT_EQ(float_to_int(NAN, DType::Int32), kI32Min);
  EXPECT_EQ(float_to_int(INFINITY, DType::Int16), 0);         // INT32_MIN wrapped
  EXPECT_EQ(float_to_int(5000000001.0, DType::Int16), 0);     // not 0xf201: int32, not int64
  EXPECT_EQ(float_to_int(2147483647.0, DType::Int16), -1);
  EXPECT_EQ(float_to_int(300.0, DType::Int8), 44);
  EXPECT_EQ(float_to_int(-129.5, DType::Int8), 127);
  EXPECT_EQ(float_to_int(5000000001.0, DType::Int8), 0);
}

TEST(Element, UInt8GoesThroughInt64ThenWraps) {
  EXPECT_EQ(float_to_int(5000000001.0, DType::UInt8), 1);  // torch float64 -> uint8 gives 1
  EXPECT_EQ(float_to_int(-1.0, DType::UInt8), 255);
  EXPECT_EQ(float_to_int(-2.5, DType::UInt8), 254);
  EXPECT_EQ(float_to_int(255.9, DType::UInt8), 255);
  EXPECT_EQ(float_to_int(256.0, DType::UInt8), 0);
  EXPECT_EQ(float_to_int(NAN, DType::UInt8), 0);
  EXPECT_EQ(float_to_int(-INFINITY, DType::UInt8), 0);
}

TEST(Element, BoolIsNonZeroAndNanIsTrue) {
  EXPECT_EQ(float_to_int(0.0, DType::Bool), 0);
  EXPECT_EQ(float_to_int(-0.0, DType::Bool), 0);
  EXPECT_EQ(float_to_int(0.1, DType::Bool), 1);
  EXPECT_EQ(float_to_int(NAN, DType::Bool), 1);
  EXPECT_EQ(ir::wrap_int(256, DType::Bool), 1);
  EXPECT_EQ(ir::wrap_int(256, DType::UInt8), 0);
}

TEST(Element, HalfRoundsToNearestEvenAndKeepsSubnormals) {
  EXPECT_EQ(ir::float_to_half(1.0f), 0x3c00);
  EXPECT_EQ(ir::float_to_half(-0.0f), 0x8000);
  EXPECT_EQ(ir::float_to_half(1.0f + 0x1p-11f), 0x3c00);      // tie: down to even
  EXPECT_EQ(ir::float_to_half(1.0f + 0x3p-11f), 0x3c02);      // tie: up to even
  EXPECT_EQ(ir::float_to_half(65519.0f), 0x7bff);             // the largest half
  EXPECT_EQ(ir::float_to_half(65520.0f), 0x7c00);             // rounds past it: inf
  EXPECT_EQ(ir::float_to_half(-INFINITY), 0xfc00);
  EXPECT_EQ(ir::float_to_half(0x1p-25f), 0x0000);             // half the smallest subnormal: tie to 0
  EXPECT_EQ(ir::float_to_half(0x3p-26f), 0x0001);             // above the tie
  EXPECT_EQ(ir::float_to_half(0x1.8p-24f), 0x0002);           // subnormal tie: up to even
  EXPECT_EQ(ir::float_to_half(0x2.8p-24f), 0x0002);           // subnormal tie: down to even
  EXPECT_EQ(ir::float_to_half(0x1p-14f * (1 - 0x1p-10f)), 0x03ff);  // the largest subnormal
  EXPECT_EQ(ir::float_to_half(1e-40f), 0x0000);               // a float subnormal
  const std::uint16_t nan = ir::float_to_half(-NAN);
  EXPECT_EQ(nan & 0xfe00, 0xfe00);  // a quiet NaN, sign kept
  EXPECT_EQ(ir::half_to_float(0x0001), 0x1p-24f);
  EXPECT_EQ(ir::half_to_float(0x03ff), 0x1p-14f * (1 - 0x1p-10f));
  EXPECT_EQ(ir::half_to_float(0xc000), -2.0f);
  EXPECT_EQ(ir::half_to_float(0x7c00), INFINITY);
  EXPECT_TRUE(std::isnan(ir::half_to_float(0x7e00)));
  for (std::uint32_t h = 0; h < 0x10000; ++h) {  // every non-NaN half round-trips
    if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0) continue;
    ASSERT_EQ(ir::float_to_half(ir::half_to_float(static_cast<std::uint16_t>(h))), h) << std::hex << h;
  }
}

TEST(Element, BFloat16RoundsToNearestEvenAndKeepsSubnormals) {
  EXPECT_EQ(ir::float_to_bf16(1.0f), 0x3f80);
  EXPECT_EQ(ir::float_to_bf16(1.00390625f), 0x3f80);  // tie: down to even
  EXPECT_EQ(ir::float_to_bf16(1.01171875f), 0x3f82);  // tie: up to even
  EXPECT_EQ(ir::float_to_bf16(1e-40f), 0x0001);       // a subnormal, not flushed
  EXPECT_EQ(ir::float_to_bf16(0x1.fffffep127f), 0x7f80);  // FLT_MAX rounds to inf
  EXPECT_EQ(ir::float_to_bf16(3.3961e38f), 0x7f7f);
  EXPECT_EQ(ir::float_to_bf16(-INFINITY), 0xff80);
  const std::uint16_t nan = ir::float_to_bf16(std::bit_cast<float>(0x7f800001u));  // signalling, payload low
  EXPECT_TRUE(std::isnan(ir::bf16_to_float(nan)));  // truncating would have made it inf
  EXPECT_EQ(ir::bf16_to_float(0x0001), std::bit_cast<float>(0x00010000u));
}

TEST(Element, ReadAndWriteEveryDtype) {
  std::byte buf[8];
  ir::write_f64(buf, DType::Float16, 0.1);
  EXPECT_EQ(ir::read_f64(buf, DType::Float16), static_cast<double>(ir::half_to_float(0x2e66)));
  ir::write_f64(buf, DType::BFloat16, -3.0);
  EXPECT_EQ(ir::read_f64(buf, DType::BFloat16), -3.0);
  ir::write_f64(buf, DType::Int32, 3e9);
  EXPECT_EQ(ir::read_i64(buf, DType::Int32), kI32Min);
  ir::write_f64(buf, DType::Int8, 300.0);
  EXPECT_EQ(ir::read_i64(buf, DType::Int8), 44);
  ir::write_f64(buf, DType::Int64, NAN);
  EXPECT_EQ(ir::read_i64(buf, DType::Int64), kI64Min);
  ir::write_i64(buf, DType::UInt8, -1);
  EXPECT_EQ(ir::read_i64(buf, DType::UInt8), 255);
  ir::write_i64(buf, DType::Bool, 256);
  EXPECT_EQ(ir::read_i64(buf, DType::Bool), 1);
  ir::write_i64(buf, DType::Float32, 16777217);  // rounds to nearest even
  EXPECT_EQ(ir::read_f64(buf, DType::Float32), 16777216.0);
  ir::write_f64(buf, DType::Float32, 1e300);  // past float's range: inf, as torch's cast
  EXPECT_EQ(ir::read_f64(buf, DType::Float32), INFINITY);
  ir::write_f64(buf, DType::Float64, -INFINITY);
  EXPECT_EQ(ir::read_i64(buf, DType::Float64), kI64Min);  // a float element read as int64
  // Unaligned pointers are fine.
  std::byte wide[16] = {};
  ir::write_i64(wide + 1, DType::Int64, -5);
  EXPECT_EQ(ir::read_i64(wide + 1, DType::Int64), -5);
}
