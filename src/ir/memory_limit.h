// The memory a compile or run may plan for: by default the smaller of the
// machine's physical memory and the cgroup's limit (a container's share),
// settable per engine (EngineOptions::max_memory_bytes).
#pragma once

#include <cstdint>
#include <string>

namespace atenrt {

// Physical memory, lowered to the cgroup (v2 memory.max or v1
// memory.limit_in_bytes) limit when one is set.
std::uint64_t default_memory_limit();

// `limit` when non-zero, else default_memory_limit().
std::uint64_t resolve_memory_limit(std::uint64_t limit);

// "1.5 GiB (1610612736 bytes)" for messages.
std::string format_bytes(std::uint64_t bytes);

}  // namespace atenrt
