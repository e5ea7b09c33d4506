// Hybrid programs: engine segments (each a runtime::Engine) and torch
// segments (ATen operators run by the libtorch fallback plugin), in graph
// order, passing tensors through numbered slots. A graph that atenrt converts
// whole never becomes one: it stays a plain Engine and never loads libtorch.
//
// A HybridEngine is immutable and shared by threads like an Engine; each
// thread runs it through its own HybridContext.
//
// Dynamic shapes: a program with dynamic inputs holds their ranges; a value
// crossing segments then has -1 for a dim that varies, and an engine segment
// that reads such values (or whose own outputs depend on the data) is a
// ShapedSegment: the builder's dynamic engine, behind the interface below,
// since the runtime room cannot hold what the builder makes.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "atenrt/tensor.h"
#include "ir/sym_expr.h"
#include "runtime/engine.h"
#include "runtime/shape_range.h"
#include "runtime/torch_abi.h"

namespace atenrt::runtime {

// Engine::load's error for a hybrid program's file contains this text: the
// public loader then reads it as a hybrid program.
inline constexpr const char* kHybridFileMarker = "holds a hybrid program";

// Bounds on what a hybrid program hands libtorch (checked at compile and at
// load): a value crossing segments, and an integer argument.
inline constexpr unsigned __int128 kMaxSlotBytes = static_cast<unsigned __int128>(1) << 36;  // 64 GiB
inline constexpr std::int64_t kMaxArgInt = std::int64_t{1} << 40;

// One thread's runs of a ShapedSegment (ExecutionContext's contract).
class ShapedSegmentContext {
 public:
  virtual ~ShapedSegmentContext() = default;
  // Checks the input dims against the segment's ranges (InputError).
  virtual const std::vector<Tensor>& run(const std::vector<Tensor>& inputs) = 0;
  virtual void set_num_threads(int num_threads) = 0;
  virtual void set_profiling(bool on) = 0;
  // The steps of the shape run last (its engine's steps()).
  virtual StepTimes profile() const = 0;
  virtual const Engine* last_engine() const = 0;
};

// An engine segment that takes a range of input shapes. Immutable, shared
// by threads.
class ShapedSegment {
 public:
  virtual ~ShapedSegment() = default;
  virtual const std::vector<InputRange>& ranges() const = 0;
  // Dims -1 where they vary with the inputs or the data.
  virtual std::vector<TensorInfo> outputs() const = 0;
  // The engine built at compile time for the opt shapes (its steps stand
  // for the segment's in reports).
  virtual const Engine& opt_engine() const = 0;
  // The opt engine's memory with the weights the segment holds now (those of
  // every shape it made).
  virtual MemoryStats memory() const { return opt_engine().memory(); }
  virtual std::unique_ptr<ShapedSegmentContext> make_context() const = 0;
  // A complete engine file of its own (with a Ranges section).
  virtual std::vector<std::byte> serialize() const = 0;
};

// Reads a ShapedSegment's file; given by the layer that can make one
// (the public Engine::load). FormatError when the bytes do not hold one.
using ShapedSegmentLoader = std::function<std::shared_ptr<const ShapedSegment>(std::span<const std::byte>)>;

// A value that crosses a segment boundary, or that a torch segment uses.
struct Slot {
  std::string name;  // the graph's value name
  DType dtype = DType::Float32;
  Dims dims;         // -1 where the size varies (dynamic programs only)
  // Made and read only inside one torch segment: it stays a torch tensor,
  // of any dtype (complex too), never checked against dtype and dims.
  bool torch_only = false;
};

// One ATen operator of a torch segment: `call.args` name the operator's
// tensors by position; `inputs` gives the slot of each, `outputs` the slot
// each returned tensor goes to (-1: a result nothing reads).
// An integer argument (or one element of an int list) that is a size the
// run knows: an expression of the program inputs' size symbols ("2*s0"),
// evaluated per run and the operator prepared for those values.
struct SymArg {
  std::uint32_t arg = 0;       // index into call.args
  std::int64_t element = -1;   // -1: an Int argument; else the IntList element
  std::string expr;
};

struct TorchNode {
  torch_abi::OpCall call;
  std::vector<int> inputs;
  std::vector<int> outputs;
  std::vector<SymArg> sym_args;  // dynamic programs only
};

struct HybridStage {
  enum class Kind : std::uint8_t { Engine, Torch };
  Kind kind = Kind::Engine;
  // Engine: the segment's engine (static), or its shaped segment (dynamic
  // shapes, data-dependent sizes); its inputs and outputs in its own order.
  std::shared_ptr<const Engine> engine;
  std::shared_ptr<const ShapedSegment> shaped;
  std::vector<int> inputs;
  std::vector<int> outputs;
  // Torch: its operators, in graph order.
  std::vector<TorchNode> nodes;
};

struct HybridProgram {
  std::vector<Slot> slots;
  std::vector<int> inputs;   // the program's inputs and outputs, by slot
  std::vector<int> outputs;
  // Weights that torch nodes read, by slot (engine segments hold their own).
  std::vector<std::pair<int, Tensor>> constants;
  std::vector<HybridStage> stages;
  // Dynamic programs: the range of each input, in `inputs` order (empty:
  // every slot is static).
  std::vector<InputRange> input_ranges;

  // Slots and stages consistent: every slot written once before it is read,
  // ids in range, engine signatures equal to their slots. Throws FormatError.
  void validate() const;
  // "aten.linalg_inv_ex.default, aten.eye.default": the ops its torch segments run.
  std::vector<std::string> torch_ops() const;
};

class HybridContext;

class HybridEngine {
 public:
  // Loads the fallback plugin and prepares every torch node (resolving each
  // operator and its arguments). Throws UnsupportedError naming the ops when
  // the plugin is not available, or the node and argument it refuses.
  explicit HybridEngine(HybridProgram program);

  const HybridProgram& program() const { return program_; }
  const std::vector<TensorInfo>& inputs() const { return inputs_; }
  const std::vector<TensorInfo>& outputs() const { return outputs_; }
  const torch_abi::Api& plugin() const { return *plugin_; }

  // Engine files with a torch-segments section (docs/engine-format.md).
  std::vector<std::byte> serialize(const std::string& metadata = {}) const;
  void save(const std::string& path, const std::string& metadata = {}) const;
  // `shaped` reads the shaped segments a dynamic program holds (without
  // one, such a file is a FormatError); `num_threads` (> 0) is the count the
  // static segments' kernels are made for (Engine::load), as `shaped` should
  // make its own.
  static HybridEngine deserialize(std::span<const std::byte> file, const std::string& where,
                                  const ShapedSegmentLoader& shaped = {}, int num_threads = 0);
  static HybridEngine load(const std::string& path, const ShapedSegmentLoader& shaped = {}, int num_threads = 0);
  // Whether an engine file holds a hybrid program (checked container).
  static bool is_hybrid_file(std::span<const std::byte> file);

 private:
  friend class HybridContext;
  HybridProgram program_;
  std::vector<TensorInfo> inputs_, outputs_;
  const torch_abi::Api* plugin_ = nullptr;
  // Per stage, per node: the plugin's prepared operator (torch stages only).
  std::vector<std::vector<std::shared_ptr<const torch_abi::PreparedOp>>> prepared_;
  // Per stage, per node: its run-time sizes parsed once (validate() checked them).
  std::vector<std::vector<std::vector<ir::SymExpr>>> sizes_;
};

class HybridContext {
 public:
  explicit HybridContext(std::shared_ptr<const HybridEngine> engine);
  ~HybridContext();
  // Same contract as ExecutionContext::run.
  const std::vector<Tensor>& run(const std::vector<Tensor>& inputs);
  // Threads for the engines' runs and for libtorch (process-global in
  // libtorch: set before each torch segment when it differs).
  void set_num_threads(int num_threads);
  // Per-step timing as ExecutionContext's: the engine segments' steps and
  // each torch node, in the order the API's Engine::steps() lists them.
  void set_profiling(bool on);
  StepTimes profile() const;

 private:
  const torch_abi::PreparedOp& sized_op(std::size_t stage, std::size_t index,
                                       const std::map<std::string, std::int64_t>& bindings);
  static constexpr std::size_t kSizedOpsPerNode = 16;

  std::shared_ptr<const HybridEngine> engine_;
  bool profiling_ = false;
  std::int64_t runs_ = 0;
  std::vector<double> stage_start_ms_;  // per stage, in the last run
  std::vector<StepTimes> torch_times_;  // per stage (torch stages: one entry per node)
  std::vector<std::unique_ptr<ExecutionContext>> contexts_;  // per stage (static engine stages)
  std::vector<std::unique_ptr<ShapedSegmentContext>> shaped_;  // per stage (shaped stages)
  std::vector<Tensor> values_;
  std::vector<std::shared_ptr<const void>> torch_values_;  // torch_only slots
  // Torch nodes with run-time sizes: prepared per distinct values (per
  // stage, per node; bounded), on this context only.
  std::map<std::pair<std::size_t, std::size_t>,
           std::map<std::vector<std::int64_t>, std::shared_ptr<const torch_abi::PreparedOp>>>
      sized_;
  std::vector<Tensor> outputs_;
  int num_threads_ = 0;
};

}  // namespace atenrt::runtime
