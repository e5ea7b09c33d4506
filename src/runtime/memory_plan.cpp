#include "runtime/memory_plan.h"

#include <algorithm>
#include <numeric>

#include "atenrt/errors.h"
#include "ir/checked_math.h"

namespace atenrt::runtime {

namespace {
std::size_t align64(std::size_t n) { return checked::align_up<Error>(n, 64, "memory plan: buffer bytes"); }
std::size_t sum(std::size_t a, std::size_t b) { return checked::add<Error>(a, b, "memory plan: arena bytes"); }
}  // namespace

MemoryPlan plan_memory(const std::vector<BufferRequest>& requests, bool reuse) {
  MemoryPlan plan;
  plan.offsets.assign(requests.size(), 0);
  for (const auto& r : requests) plan.naive_bytes = sum(plan.naive_bytes, align64(r.bytes));
  if (!reuse) {
    std::size_t at = 0;
    for (std::size_t i = 0; i < requests.size(); ++i) {
      plan.offsets[i] = at;
      at = sum(at, align64(requests[i].bytes));
    }
    plan.arena_bytes = at;
    return plan;
  }
  std::vector<std::size_t> order(requests.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return requests[a].bytes > requests[b].bytes;
  });
  std::vector<std::size_t> placed;
  for (std::size_t i : order) {
    const auto& r = requests[i];
    const std::size_t size = align64(r.bytes);
    // Ranges taken by placed buffers alive at the same time, by offset.
    std::vector<std::pair<std::size_t, std::size_t>> busy;
    for (std::size_t j : placed) {
      const auto& o = requests[j];
      if (o.first_step <= r.last_step && r.first_step <= o.last_step) {
        busy.push_back({plan.offsets[j], sum(plan.offsets[j], align64(o.bytes))});
      }
    }
    std::sort(busy.begin(), busy.end());
    std::size_t at = 0;
    for (const auto& [begin, end] : busy) {
      if (sum(at, size) <= begin) break;
      at = std::max(at, end);
    }
    plan.offsets[i] = at;
    plan.arena_bytes = std::max(plan.arena_bytes, sum(at, size));
    placed.push_back(i);
  }
  return plan;
}

}  // namespace atenrt::runtime
