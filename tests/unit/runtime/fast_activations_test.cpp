// Our vectorized GELU-tanh (runtime/cpu/own/fast_activations.h) against
// torch 1.13's gelu(approximate='tanh') (values printed by torch, below) and
// against the exact formula in long double over a sweep of float bit
// patterns; special values exactly as torch; lengths that leave vector
// remainders, in place and not.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "runtime/cpu/own/fast_activations.h"

namespace atenrt::runtime::cpu::own {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// x / (1 + e^(-2u)) = 0.5·x·(1 + tanh(u)), without tanh's cancellation near -1.
long double exact(float xf) {
  const long double x = xf;
  const long double k = std::sqrt(2.0L / 3.14159265358979323846264338327950288L);
  return x / (1.0L + std::exp(-2.0L * k * (x + 0.044715L * x * x * x)));
}

// |y - exact| in units of the last place of the exact value (a normal float).
double ulps(float y, long double e) {
  int exponent = 0;
  std::frexp(static_cast<double>(e), &exponent);
  return static_cast<double>(std::fabs(static_cast<long double>(y) - e)) / std::ldexp(1.0, exponent - 24);
}

float gelu_one(float x) {
  float y = 0.f;
  gelu_tanh(&x, &y, 1);
  return y;
}

// Checks y against the exact value: 4 ulp where it is a normal float (3.46
// is the worst seen over every 7th float, at x ~ -3), below
// that within 16 of the smallest subnormals (the exp underflows gradually).
void expect_close_to_exact(float x, float y) {
  const long double e = exact(x);
  if (std::fabs(e) >= std::numeric_limits<float>::min()) {
    EXPECT_LE(ulps(y, e), 4.0) << "x = " << x << " y = " << y << " exact = " << static_cast<double>(e);
  } else {
    EXPECT_LE(std::fabs(static_cast<long double>(y) - e), 16 * std::numeric_limits<float>::denorm_min())
        << "x = " << x << " y = " << y;
  }
}

TEST(FastGeluTanh, MatchesTorch) {
  // {x, torch.nn.functional.gelu(x, approximate='tanh')} from torch 1.13 (CPU).
  // torch forms 0.5·x·(1 + tanh(u)): its own error is up to ~|x|·2^-24
  // (1 + tanh cancels for x < 0, and is exactly 0 below x ~ -4.7).
  const float table[][2] = {
      {-0x1.8000000000000p+2f, -0x0.0p+0f}, {-0x1.79999a0000000p+2f, -0x0.0p+0f}, {-0x1.7333340000000p+2f, -0x0.0p+0f},
      {-0x1.6ccccc0000000p+2f, -0x0.0p+0f}, {-0x1.6666660000000p+2f, -0x0.0p+0f}, {-0x1.6000000000000p+2f, -0x0.0p+0f},
      {-0x1.59999a0000000p+2f, -0x0.0p+0f}, {-0x1.5333340000000p+2f, -0x0.0p+0f}, {-0x1.4ccccc0000000p+2f, -0x0.0p+0f},
      {-0x1.4666660000000p+2f, -0x0.0p+0f}, {-0x1.4000000000000p+2f, -0x1.4000000000000p-22f}, {-0x1.39999a0000000p+2f, -0x1.d666680000000p-22f},
      {-0x1.3333340000000p+2f, -0x1.ccccce0000000p-21f}, {-0x1.2ccccc0000000p+2f, -0x1.9d99980000000p-20f}, {-0x1.2666660000000p+2f, -0x1.8266660000000p-19f},
      {-0x1.2000000000000p+2f, -0x1.5600000000000p-18f}, {-0x1.19999a0000000p+2f, -0x1.2f999a0000000p-17f}, {-0x1.1333340000000p+2f, -0x1.0426680000000p-16f},
      {-0x1.0ccccc0000000p+2f, -0x1.b4cccc0000000p-16f}, {-0x1.0666660000000p+2f, -0x1.6ad99a0000000p-15f}, {-0x1.0000000000000p+2f, -0x1.2680000000000p-14f},
      {-0x1.f333340000000p+1f, -0x1.d670000000000p-14f}, {-0x1.e666660000000p+1f, -0x1.7150000000000p-13f}, {-0x1.d9999a0000000p+1f, -0x1.1d04000000000p-12f},
      {-0x1.cccccc0000000p+1f, -0x1.b0accc0000000p-12f}, {-0x1.c000000000000p+1f, -0x1.430a000000000p-11f}, {-0x1.b333340000000p+1f, -0x1.daf0000000000p-11f},
      {-0x1.a666660000000p+1f, -0x1.57bdcc0000000p-10f}, {-0x1.99999a0000000p+1f, -0x1.ea199a0000000p-10f}, {-0x1.8ccccc0000000p+1f, -0x1.5845000000000p-9f},
      {-0x1.8000000000000p+1f, -0x1.dcc4000000000p-9f}, {-0x1.7333340000000p+1f, -0x1.457f280000000p-8f}, {-0x1.6666660000000p+1f, -0x1.b65d320000000p-8f},
      {-0x1.59999a0000000p+1f, -0x1.233a6e0000000p-7f}, {-0x1.4ccccc0000000p+1f, -0x1.7de0000000000p-7f}, {-0x1.4000000000000p+1f, -0x1.ee48400000000p-7f},
      {-0x1.3333340000000p+1f, -0x1.3bd5000000000p-6f}, {-0x1.2666660000000p+1f, -0x1.8e92e60000000p-6f}, {-0x1.19999a0000000p+1f, -0x1.f0c99a0000000p-6f},
      {-0x1.0ccccc0000000p+1f, -0x1.31d0c80000000p-5f}, {-0x1.0000000000000p+1f, -0x1.73ef800000000p-5f}, {-0x1.e666660000000p+0f, -0x1.bedd1a0000000p-5f},
      {-0x1.cccccc0000000p+0f, -0x1.092d500000000p-4f}, {-0x1.b333340000000p+0f, -0x1.36dcb80000000p-4f}, {-0x1.99999a0000000p+0f, -0x1.67e30e0000000p-4f},
      {-0x1.8000000000000p+0f, -0x1.9b5ad80000000p-4f}, {-0x1.6666660000000p+0f, -0x1.d00b340000000p-4f}, {-0x1.4ccccc0000000p+0f, -0x1.0231800000000p-3f},
      {-0x1.3333340000000p+0f, -0x1.1b3b900000000p-3f}, {-0x1.19999a0000000p+0f, -0x1.32028c0000000p-3f}, {-0x1.0000000000000p+0f, -0x1.453d200000000p-3f},
      {-0x1.cccccc0000000p-1f, -0x1.5380040000000p-3f}, {-0x1.99999a0000000p-1f, -0x1.5b46a00000000p-3f}, {-0x1.6666660000000p-1f, -0x1.5afe0a0000000p-3f},
      {-0x1.3333340000000p-1f, -0x1.5111d40000000p-3f}, {-0x1.0000000000000p-1f, -0x1.3bfa4c0000000p-3f}, {-0x1.99999a0000000p-2f, -0x1.1a4b3e0000000p-3f},
      {-0x1.3333340000000p-2f, -0x1.d5854e0000000p-4f}, {-0x1.99999a0000000p-3f, -0x1.58ac2c0000000p-4f}, {-0x1.99999a0000000p-4f, -0x1.78f92a0000000p-5f},
      {0x0.0p+0f, 0x0.0p+0f}, {0x1.99999a0000000p-4f, 0x1.ba3a0a0000000p-5f}, {0x1.99999a0000000p-3f, 0x1.da87060000000p-4f},
      {0x1.3333340000000p-2f, 0x1.7ba3c20000000p-3f}, {0x1.99999a0000000p-2f, 0x1.0c73fc0000000p-2f}, {0x1.0000000000000p-1f, 0x1.6202da0000000p-2f},
      {0x1.3333340000000p-1f, 0x1.bddd7e0000000p-2f}, {0x1.6666660000000p-1f, 0x1.0fa6e40000000p-1f}, {0x1.99999a0000000p-1f, 0x1.42c7f20000000p-1f},
      {0x1.cccccc0000000p-1f, 0x1.77eccc0000000p-1f}, {0x1.0000000000000p+0f, 0x1.aeb0b80000000p-1f}, {0x1.19999a0000000p+0f, 0x1.e6b2900000000p-1f},
      {0x1.3333340000000p+0f, 0x1.0fcbc20000000p+0f}, {0x1.4ccccc0000000p+0f, 0x1.2c869c0000000p+0f}, {0x1.6666660000000p+0f, 0x1.4965b20000000p+0f},
      {0x1.8000000000000p+0f, 0x1.664a520000000p+0f}, {0x1.99999a0000000p+0f, 0x1.831b6a0000000p+0f}, {0x1.b333340000000p+0f, 0x1.9fc5680000000p+0f},
      {0x1.cccccc0000000p+0f, 0x1.bc39f80000000p+0f}, {0x1.e666660000000p+0f, 0x1.d86f7e0000000p+0f}, {0x1.0000000000000p+1f, 0x1.f460840000000p+0f},
      {0x1.0ccccc0000000p+1f, 0x1.0805880000000p+1f}, {0x1.19999a0000000p+1f, 0x1.15b8060000000p+1f}, {0x1.2666660000000p+1f, 0x1.2349400000000p+1f},
      {0x1.3333340000000p+1f, 0x1.30bb8a0000000p+1f}, {0x1.4000000000000p+1f, 0x1.3e11b80000000p+1f}, {0x1.4ccccc0000000p+1f, 0x1.4b4eec0000000p+1f},
      {0x1.59999a0000000p+1f, 0x1.58765e0000000p+1f}, {0x1.6666660000000p+1f, 0x1.658b380000000p+1f}, {0x1.7333340000000p+1f, 0x1.7290740000000p+1f},
      {0x1.8000000000000p+1f, 0x1.7f88d00000000p+1f}, {0x1.8ccccc0000000p+1f, 0x1.8c76ba0000000p+1f}, {0x1.99999a0000000p+1f, 0x1.995c560000000p+1f},
      {0x1.a666660000000p+1f, 0x1.a63b700000000p+1f}, {0x1.b333340000000p+1f, 0x1.b315840000000p+1f}, {0x1.c000000000000p+1f, 0x1.bfebce0000000p+1f},
      {0x1.cccccc0000000p+1f, 0x1.ccbf460000000p+1f}, {0x1.d9999a0000000p+1f, 0x1.d990b20000000p+1f}, {0x1.e666660000000p+1f, 0x1.e660a00000000p+1f},
      {0x1.f333340000000p+1f, 0x1.f32f880000000p+1f}, {0x1.0000000000000p+2f, 0x1.fffdb40000000p+1f}, {0x1.0666660000000p+2f, 0x1.0665b00000000p+2f},
      {0x1.0ccccc0000000p+2f, 0x1.0ccc5e0000000p+2f}, {0x1.1333340000000p+2f, 0x1.1332f40000000p+2f}, {0x1.19999a0000000p+2f, 0x1.1999740000000p+2f},
      {0x1.2000000000000p+2f, 0x1.1fffea0000000p+2f}, {0x1.2666660000000p+2f, 0x1.26665a0000000p+2f}, {0x1.2ccccc0000000p+2f, 0x1.2cccc40000000p+2f},
      {0x1.3333340000000p+2f, 0x1.3333300000000p+2f}, {0x1.39999a0000000p+2f, 0x1.3999980000000p+2f}, {0x1.4000000000000p+2f, 0x1.3ffffe0000000p+2f},
      {0x1.4666660000000p+2f, 0x1.4666660000000p+2f}, {0x1.4ccccc0000000p+2f, 0x1.4ccccc0000000p+2f}, {0x1.5333340000000p+2f, 0x1.5333340000000p+2f},
      {0x1.59999a0000000p+2f, 0x1.59999a0000000p+2f}, {0x1.6000000000000p+2f, 0x1.6000000000000p+2f}, {0x1.6666660000000p+2f, 0x1.6666660000000p+2f},
      {0x1.6ccccc0000000p+2f, 0x1.6ccccc0000000p+2f}, {0x1.7333340000000p+2f, 0x1.7333340000000p+2f}, {0x1.79999a0000000p+2f, 0x1.79999a0000000p+2f},
      {0x1.8000000000000p+2f, 0x1.8000000000000p+2f}, {-0x1.8000000000000p+3f, -0x0.0p+0f}, {-0x1.4000000000000p+3f, -0x0.0p+0f},
      {-0x1.2000000000000p+3f, -0x0.0p+0f}, {-0x1.0000000000000p+3f, -0x0.0p+0f}, {0x1.c000000000000p+2f, 0x1.c000000000000p+2f},
      {0x1.0000000000000p+3f, 0x1.0000000000000p+3f}, {0x1.4000000000000p+3f, 0x1.4000000000000p+3f}, {-0x1.0624de0000000p-11f, -0x1.060a180000000p-12f},
      {0x1.f751040000000p-16f, 0x1.f7541a0000000p-17f}, {-0x1.4a90ce0000000p-64f, -0x1.4a90ce0000000p-65f}, {0x1.b38fb80000000p-127f, 0x1.b38fb80000000p-128f},
      {-0x1.b38fb80000000p-127f, -0x1.b38fb80000000p-128f}, {0x1.6500000000000p-140f, 0x1.6500000000000p-141f}, {-0x1.6500000000000p-140f, -0x1.6500000000000p-141f},
      {0x1.6000000000000p+6f, 0x1.6000000000000p+6f}, {-0x1.6000000000000p+6f, -0x0.0p+0f}, {0x1.86a0000000000p+16f, 0x1.86a0000000000p+16f},
      {-0x1.86a0000000000p+16f, -0x0.0p+0f}, {0x1.5d3ef80000000p+41f, 0x1.5d3ef80000000p+41f}, {-0x1.5d3ef80000000p+41f, -0x0.0p+0f},
      {0x1.ff933c0000000p+127f, 0x1.ff933c0000000p+127f}, {-0x1.ff933c0000000p+127f, -0x0.0p+0f},   };
  for (const auto& [x, want] : table) {
    const float got = gelu_one(x);
    EXPECT_NEAR(got, want, std::ldexp(std::fabs(x), -22)) << "x = " << x;
    EXPECT_EQ(std::signbit(got), std::signbit(want)) << "x = " << x;
  }
}

TEST(FastGeluTanh, SpecialValuesAsTorch) {
  // torch: gelu(-inf) = 0.5·-inf·(1 + -1) = NaN; below x ~ -10 it gives -0;
  // 0.5·x rounds the smallest subnormals to ±0.
  EXPECT_TRUE(std::isnan(gelu_one(kNaN)));
  EXPECT_TRUE(std::isnan(gelu_one(-kNaN)));
  EXPECT_TRUE(std::isnan(gelu_one(-kInf)));
  EXPECT_EQ(gelu_one(kInf), kInf);
  const float zeros[][2] = {{0.f, 0.f}, {-0.f, -0.f}, {-1e30f, -0.f}, {-3.4e38f, -0.f}, {-20.f, -0.f},
                            {1.4e-45f, 0.f}, {-1.4e-45f, -0.f}};
  for (const auto& [x, want] : zeros) {
    const float got = gelu_one(x);
    EXPECT_EQ(got, 0.f) << "x = " << x;
    EXPECT_EQ(std::signbit(got), std::signbit(want)) << "x = " << x;
  }
  for (float x : {1e30f, 3.4e38f, 20.f, 1e-30f, -1e-30f}) expect_close_to_exact(x, gelu_one(x));
  EXPECT_EQ(gelu_one(1e30f), 1e30f);
  EXPECT_EQ(gelu_one(-1e-30f), -5e-31f);
}

TEST(FastGeluTanh, SweepOfFloatsWithinFourUlp) {
  // Every 2039th bit pattern: all binades of both signs, NaNs skipped.
  std::vector<float> x;
  for (std::uint64_t bits = 0; bits <= 0xFFFFFFFFull; bits += 2039) {
    float f;
    const auto b = static_cast<std::uint32_t>(bits);
    std::memcpy(&f, &b, sizeof f);
    if (std::isfinite(f)) x.push_back(f);
  }
  std::vector<float> y(x.size());
  gelu_tanh(x.data(), y.data(), static_cast<std::int64_t>(x.size()));
  double worst = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const long double e = exact(x[i]);
    if (std::fabs(e) >= std::numeric_limits<float>::min()) worst = std::max(worst, ulps(y[i], e));
    expect_close_to_exact(x[i], y[i]);
    if (::testing::Test::HasFailure()) break;  // one report, not two million
  }
  RecordProperty("max_ulp", std::to_string(worst));
}

TEST(FastGeluTanh, LengthsWithRemaindersInPlaceAndNot) {
  for (std::int64_t n : {0, 1, 3, 7, 8, 9, 15, 16, 17, 31, 33, 69, 1003}) {
    std::vector<float> x(n + 4), y(n + 4, kNaN);
    for (std::int64_t i = 0; i < n + 4; ++i) x[i] = static_cast<float>(std::sin(0.7 * i) * 8.0);
    const std::vector<float> x0 = x;
    gelu_tanh(x.data(), y.data(), n);
    for (std::int64_t i = 0; i < n; ++i) expect_close_to_exact(x[i], y[i]);
    for (std::int64_t i = n; i < n + 4; ++i) EXPECT_TRUE(std::isnan(y[i])) << "wrote past n = " << n;
    EXPECT_EQ(x, x0) << "input changed, n = " << n;
    gelu_tanh(x.data(), x.data(), n);  // in place
    for (std::int64_t i = 0; i < n; ++i) EXPECT_EQ(x[i], y[i]) << "in place differs at " << i << ", n = " << n;
    for (std::int64_t i = n; i < n + 4; ++i) EXPECT_EQ(x[i], x0[i]);
  }
}

}  // namespace
}  // namespace atenrt::runtime::cpu::own
