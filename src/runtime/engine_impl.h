// Internal: the compiled state of an Engine (shared, immutable once made).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "runtime/cpu/kernel.h"
#include "runtime/cpu/weight_packs.h"
#include "runtime/engine.h"
#include "ir/mapped_file.h"

namespace atenrt::runtime {

struct LoadedFile {
  std::shared_ptr<const void> owner;     // keeps the bytes alive (the mapping, or a copy)
  std::shared_ptr<ir::MappedFile> mapping;   // null for engines deserialized from memory
  std::map<int, cpu::StoredPack> packs;  // weights stored pre-packed, by tensor id
  std::uint32_t packing_key = 0;         // of the weights section (0: portable)
};

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
    int in_place_input = -1;   // the kernel's KernelChoice::in_place_input
    int in_place_of = -1;      // buffer whose range outputs[0] shares (-1: its own)
  };

  Program program;
  EngineOptions options;
  std::vector<Buffer> buffers;  // program tensors, then conversion buffers
  std::vector<ExecStep> plan;
  std::vector<TensorInfo> input_info, output_info;
  std::size_t scratch_bytes = 0;
  MemoryStats memory;
  std::vector<StepInfo> step_info;  // Engine::steps(), made once the plan is
  int kernel_threads = 1;  // what the kernels were made for (Engine::kernel_threads)

  // Weights (engine_weights.cpp): the pre-packed forms the kernels share,
  // which constants some kernel reads plain, and the file they came from.
  std::shared_ptr<cpu::WeightPacks> packs;  // set before compile() to share another engine's
  std::shared_ptr<const LoadedFile> file;
  std::vector<bool> read_plain;  // per program tensor
  std::string load_note;
  void begin_weights();
  void note_weight_uses(const Step& step, bool packing_kernel);
  // Frees a weight's plain bytes once every step that reads it has its
  // kernel and all of them read the pack: compiling holds each weight about
  // once, not plain and packed side by side.
  void drop_plain_if_packed(int id);
  void finish_weights();
  // Refuses to run when the mapped file was truncated (mapped_file.h).
  void check_file() const;

  void compile();

 private:
  // How a step may store its output (KernelRequest): blocked, in bf16, quantized.
  struct OutputForm {
    bool blocked = false;
    bool bf16 = false;
    std::optional<cpu::KernelRequest::QuantizedOutput> int8;
  };
  using Consumers = std::vector<std::vector<std::pair<int, std::size_t>>>;  // per tensor: (step, input index)
  std::vector<OutputForm> output_forms(const Consumers& consumers, const std::vector<int>& producer,
                                       const std::set<int>& output_ids) const;
  // Picks the step's kernel from the provider table, inserting ToPlain steps
  // for blocked inputs before a provider that reads plain only.
  void add_step(int s, const OutputForm& form);
  // Plans the arena: lifetimes from the plan, outputs run in place of the
  // inputs their kernels allow when those die there, then placement.
  void plan_arena();
};

}  // namespace atenrt::runtime
