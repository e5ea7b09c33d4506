#include "runtime/memory_plan.h"

#include <gtest/gtest.h>

namespace atenrt::runtime {
namespace {

bool overlap(const MemoryPlan& p, const std::vector<BufferRequest>& r, std::size_t i, std::size_t j) {
  const bool live = r[i].first_step <= r[j].last_step && r[j].first_step <= r[i].last_step;
  const bool bytes = p.offsets[i] < p.offsets[j] + r[j].bytes && p.offsets[j] < p.offsets[i] + r[i].bytes;
  return live && bytes;
}

TEST(MemoryPlan, ChainReusesBuffers) {
  // a chain: each buffer read only by the next step
  std::vector<BufferRequest> r;
  for (int s = 0; s < 10; ++s) r.push_back({1000, s, s + 1});
  const auto plan = plan_memory(r);
  EXPECT_EQ(plan.naive_bytes, 10u * 1024u);
  EXPECT_EQ(plan.arena_bytes, 2u * 1024u);
  for (std::size_t i = 0; i < r.size(); ++i) {
    EXPECT_EQ(plan.offsets[i] % 64, 0u);
    for (std::size_t j = i + 1; j < r.size(); ++j) EXPECT_FALSE(overlap(plan, r, i, j)) << i << " " << j;
  }
}

TEST(MemoryPlan, LiveBuffersNeverOverlap) {
  std::vector<BufferRequest> r;
  unsigned seed = 7;
  for (int i = 0; i < 200; ++i) {
    seed = seed * 1103515245u + 12345u;
    const int first = static_cast<int>(seed % 50);
    const int len = static_cast<int>((seed >> 8) % 10);
    r.push_back({(seed >> 16) % 5000 + 1, first, first + len});
  }
  const auto plan = plan_memory(r);
  for (std::size_t i = 0; i < r.size(); ++i) {
    EXPECT_LE(plan.offsets[i] + r[i].bytes, plan.arena_bytes);
    for (std::size_t j = i + 1; j < r.size(); ++j) ASSERT_FALSE(overlap(plan, r, i, j)) << i << " " << j;
  }
  EXPECT_LE(plan.arena_bytes, plan.naive_bytes);
  const auto naive = plan_memory(r, false);
  EXPECT_EQ(naive.arena_bytes, naive.naive_bytes);
}

}  // namespace
}  // namespace atenrt::runtime
