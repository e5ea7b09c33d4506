// libFuzzer target past the reader: whatever the .pt2 reader accepts goes
// through lowering, partitioning, conversion and the builder, and a built
// engine runs once on zeros. Every step must end in a result or an
// atenrt::Error, never a crash, hang, leak or other exception. Seeds:
// tests/fuzz/pipeline_corpus (small exported modules and the finds kept).
#include <cstddef>
#include <cstdint>
#include <vector>
#include <algorithm>

#include "api/pipeline.h"
#include "atenrt/errors.h"
#include "frontend/pt2_reader.h"

namespace {

// Graphs that claim huge tensors would only measure libFuzzer's memory limit.
constexpr std::int64_t kMaxElements = std::int64_t{1} << 22;

bool small_enough(const atenrt::ir::Graph& g) {
  std::int64_t total = 0;
  for (const auto& [name, meta] : g.tensor_values) {
    std::int64_t n = 1;
    for (const auto& d : meta.sizes) {
      const std::int64_t v = d.value.value_or(1);
      if (v < 0 || v > kMaxElements) return false;
      n *= std::max<std::int64_t>(v, 1);
      if (n > kMaxElements) return false;
    }
    total += n;
    if (total > 8 * kMaxElements) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  atenrt::frontend::ReadLimits limits;
  limits.max_entry_bytes = 16u << 20;
  limits.max_total_bytes = 64u << 20;
  try {
    auto program = atenrt::frontend::load_pt2_from_memory(reinterpret_cast<const std::byte*>(data), size,
                                                          "fuzz.pt2", limits);
    if (!small_enough(program.graph) || program.graph.nodes.size() > 512) return 0;
    atenrt::CompileSettings settings;
    settings.min_block_size = 1;
    atenrt::Engine engine = atenrt::api::compile_program(std::move(program), settings);
    std::vector<atenrt::Tensor> inputs;
    for (const auto& spec : engine.inputs()) {
      std::vector<std::int64_t> sizes;
      bool fixed = true;
      for (auto d : spec.dims) {
        fixed = fixed && d >= 0;
        sizes.push_back(d);
      }
      if (!fixed) return 0;
      inputs.emplace_back(spec.dtype, sizes);
    }
    auto ctx = engine.create_context();
    (void)ctx.run(inputs);
  } catch (const atenrt::Error&) {
  }
  return 0;
}
