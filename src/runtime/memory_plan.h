// Liveness-based placement of activation buffers in one arena.
//
// Each buffer lives from the step that writes it to the last step that reads
// it (inclusive). Buffers whose lifetimes overlap get disjoint byte ranges;
// the rest may share. Placement is greedy by size (largest first, lowest
// offset that fits), which is close to optimal for chain-like networks.
#pragma once

#include <cstddef>
#include <vector>

namespace atenrt::runtime {

struct BufferRequest {
  std::size_t bytes = 0;
  int first_step = 0;  // writer
  int last_step = 0;   // last reader (>= first_step)
};

struct MemoryPlan {
  std::vector<std::size_t> offsets;  // per request, 64-byte aligned
  std::size_t arena_bytes = 0;       // peak
  std::size_t naive_bytes = 0;       // sum of all buffers (no reuse)
};

// reuse = false gives every buffer its own range (the naive plan).
MemoryPlan plan_memory(const std::vector<BufferRequest>& requests, bool reuse = true);

}  // namespace atenrt::runtime
