// libFuzzer target: any bytes given to the .pt2 reader must end in a loaded
// program or an atenrt::Error, never a crash, hang, leak or other exception.
#include <cstddef>
#include <cstdint>

#include "atenrt/errors.h"
#include "frontend/inspect.h"
#include "frontend/pt2_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  atenrt::frontend::ReadLimits limits;
  // Keep a hostile size claim from reaching libFuzzer's RSS limit.
  limits.max_entry_bytes = 64u << 20;
  limits.max_total_bytes = 256u << 20;
  try {
    auto ep = atenrt::frontend::load_pt2_from_memory(reinterpret_cast<const std::byte*>(data), size,
                                                     "fuzz.pt2", limits);
    // What loads must also be printable, and its weights readable.
    (void)atenrt::frontend::inspect_text(ep);
    for (const auto& [name, t] : ep.graph.weights) (void)t.to_bytes();
  } catch (const atenrt::Error&) {
  }
  return 0;
}
