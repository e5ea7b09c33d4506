// libFuzzer target: any bytes given to the engine-file loader, with every
// checksum fixed up first (so mutations reach the parsers behind them), must
// end in a loaded engine or an atenrt::Error, never a crash, hang, leak or
// other exception. What loads is also run once on zero inputs (a dynamic
// engine at its opt shape; a staged one, seeds data_dependent.atrt and
// item_sizes.atrt, through its opt plan with the host steps). A plugin kernel
// is registered, as a loaded plugin's would be, so that plugin layers (seed
// plugin_layer.atrt) reach their attribute parsing, shape inference and kernel.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "atenrt/errors.h"
#include "builder/dynamic_engine.h"
#include "builder/dynamic_segment.h"
#include "builder/stages.h"
#include "affine_plugin_kernel.h"
#include "engine_resign.h"
#include "runtime/engine.h"
#include "runtime/hybrid.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::byte> bytes(reinterpret_cast<const std::byte*>(data), reinterpret_cast<const std::byte*>(data) + size);
  atenrt::testing::resign_engine_file(bytes);
  atenrt::testing::register_affine_kernel();
  std::optional<atenrt::runtime::Engine> plain;
  try {
    // A hybrid program's file (torch-segments section): decoded and validated;
    // the fuzz build has no libtorch plugin, so it then stops at preparing the ops.
    if (atenrt::runtime::HybridEngine::is_hybrid_file(bytes)) {
      (void)atenrt::runtime::HybridEngine::deserialize(
          bytes, "", [](std::span<const std::byte> b) { return atenrt::builder::DynamicSegment::load(b); });
      return 0;
    }
    // A dynamic-shape engine's file (ranges section): rebuilt and its opt
    // shape specialized under a 64 MiB memory limit, then run below.
    std::shared_ptr<const atenrt::builder::DynamicEngine> dynamic;
    if (atenrt::builder::DynamicEngine::is_dynamic_file(bytes)) {
      auto owner = std::make_shared<std::vector<std::byte>>(bytes);
      dynamic = atenrt::builder::DynamicEngine::deserialize(*owner, owner, 64u << 20);
    }
    const auto& engine = dynamic ? dynamic->opt_engine() : plain.emplace(atenrt::runtime::Engine::deserialize(bytes));
    // Keep a hostile (valid) shape from reaching libFuzzer's RSS limit.
    const auto m = engine.memory();
    std::size_t input_bytes = 0;
    for (const auto& in : engine.inputs()) {
      input_bytes += static_cast<std::size_t>(atenrt::numel_of(in.dims)) * atenrt::element_size(in.dtype);
    }
    if (m.arena_bytes + m.scratch_bytes + m.output_bytes + input_bytes > (64u << 20)) return 0;
    if (dynamic && dynamic->data_dependent()) {
      // Staged (data-dependent layers, sizes from values): the opt plan, whose
      // prefix is the engine checked above, run on zeros with its host steps
      // (their outputs are checked against the 64 MiB limit).
      std::vector<atenrt::Tensor> inputs;
      std::vector<atenrt::network::Dims> dims;
      for (const auto& r : dynamic->ranges()) {
        dims.push_back(r.opt());
        inputs.emplace_back(r.dtype, dims.back());
      }
      atenrt::builder::StagedContext staged(1);
      (void)staged.run(*dynamic->plan_for(dims), inputs);
      return 0;
    }
    auto ctx = engine.create_context();
    std::vector<atenrt::Tensor> inputs;
    for (const auto& in : engine.inputs()) inputs.emplace_back(in.dtype, in.dims);
    (void)ctx.run(inputs);
  } catch (const atenrt::Error&) {
  }
  return 0;
}
