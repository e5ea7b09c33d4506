// Internal: the compiled state of an Engine (shared, immutable once made).
#pragma once

#include <memory>
#include <vector>

#include "runtime/cpu/kernel.h"
#include "runtime/engine.h"

namespace atenrt::runtime {

struct Engine::Impl {
  enum class Where { Arena, Input, Output, Constant };
  struct Buffer {
    const ProgramTensor* tensor = nullptr;
    Where where = Where::Arena;
    std::size_t offset = 0;  // Arena
    cpu::Layout layout;
    int index = 0;  // Input/Output position
  };
  struct ExecStep {
    // Layer: runs program.steps[step]. ToPlain: reorders a blocked input of
    // program.steps[step] into a plain buffer for a provider that reads plain only.
    enum class Kind { Layer, ToPlain };
    Kind kind = Kind::Layer;
    int step = 0;  // index into program.steps
    std::unique_ptr<cpu::Kernel> kernel;
    std::vector<int> inputs;   // buffer ids
    std::vector<int> outputs;  // buffer ids
  };

  Program program;
  EngineOptions options;
  std::vector<Buffer> buffers;  // program tensors, then conversion buffers
  std::vector<ExecStep> plan;
  std::vector<TensorInfo> input_info, output_info;
  std::size_t scratch_bytes = 0;
  MemoryStats memory;

  void compile();

 private:
  // Picks the step's kernel from the provider table, inserting ToPlain steps
  // for blocked inputs before a provider that reads plain only.
  void add_step(int s, const std::vector<bool>& blocked_output);
};

}  // namespace atenrt::runtime
