// Bit shifts at and past the dtype's width and by negative counts: the values
// torch 1.13 returned on x86 (measured with torch.bitwise_left_shift/
// right_shift on tensors of each dtype, and the same through << and >> with a
// Python int), pinned here for the one formula the reference executor and our
// own CPU kernels share. The converter cases (tests/converters/cases.py,
// o_shift_*) check the same against live PyTorch, through the engine too.
#include <gtest/gtest.h>

#include "reference/scalar_math.h"

namespace atenrt::reference::math {
namespace {

struct Pinned {
  std::int64_t a, count, left, right;
};

void expect_pinned(std::size_t bytes, std::initializer_list<Pinned> rows, std::int64_t (*wrap)(std::int64_t)) {
  for (const auto& r : rows) {
    SCOPED_TRACE(std::to_string(bytes) + " bytes: " + std::to_string(r.a) + " by " + std::to_string(r.count));
    EXPECT_EQ(wrap(shift(ElementwiseOp::ShiftLeft, r.a, r.count, bytes)), r.left);
    EXPECT_EQ(wrap(shift(ElementwiseOp::ShiftRight, r.a, r.count, bytes)), r.right);
  }
}

template <typename T>
std::int64_t as(std::int64_t v) { return static_cast<T>(v); }

TEST(ShiftValues, Int8MasksTheCountTo31) {
  expect_pinned(1, {{1, -1, 0, 0}, {-7, -1, 0, -1}, {100, 1, -56, 50}, {5, 7, -128, 0}, {-7, 7, -128, -1},
                    {1, 8, 0, 0}, {-7, 8, 0, -1}, {1, 70, 64, 0}, {100, 70, 0, 1}, {-7, 70, 64, -1},
                    {-7, -70, 0, -1}},
                &as<std::int8_t>);
}

TEST(ShiftValues, UInt8ShiftsZeroExtended) {
  // Counts are uint8 too: 255 (what -1 becomes) masks to 31.
  expect_pinned(1, {{200, 1, 144, 100}, {5, 7, 128, 0}, {200, 7, 0, 1}, {200, 8, 0, 0}, {1, 70, 64, 0},
                    {200, 70, 0, 3}, {100, 70, 0, 1}, {1, 255, 0, 0}},
                &as<std::uint8_t>);
}

TEST(ShiftValues, Int16MasksTheCountTo31) {
  expect_pinned(2, {{100, 1, 200, 50}, {5, 15, -32768, 0}, {-7, 16, 0, -1}, {1, 17, 0, 0}, {5, 70, 320, 0},
                    {-7, 70, -448, -1}, {100, 70, 6400, 1}, {-7, -1, 0, -1}, {1, -70, 0, 0}},
                &as<std::int16_t>);
}

TEST(ShiftValues, Int32WrapsTheCountAtItsWidth) {
  expect_pinned(4, {{1, -1, -2147483648LL, 0}, {-7, -1, -2147483648LL, -1}, {5, 31, -2147483648LL, 0},
                    {-7, 32, -7, -7}, {100, 33, 200, 50}, {-7, 70, -448, -1}, {100, 70, 6400, 1},
                    {1, -70, 67108864, 0}, {100, -70, -1879048192, 0}},
                &as<std::int32_t>);
}

TEST(ShiftValues, Int64MasksTheCountTo63) {
  expect_pinned(8, {{1, -1, INT64_MIN, 0}, {-7, -1, INT64_MIN, -1}, {5, 63, INT64_MIN, 0}, {-7, 64, -7, -7},
                    {100, 65, 200, 50}, {100, 70, 6400, 1}, {1, -70, 288230376151711744LL, 0},
                    {-7, -70, -2017612633061982208LL, -1}, {100, -70, -8070450532247928832LL, 0}},
                &as<std::int64_t>);
}

}  // namespace
}  // namespace atenrt::reference::math
