// atenrt's C++ API: compile a torch.export .pt2 archive into an Engine and run
// it. See README.md for the command-line face of the same calls.
//
//   atenrt::CompileSettings settings;
//   settings.precision = atenrt::Precision::BF16;
//   atenrt::Engine engine = atenrt::compile("resnet50.pt2", settings);
//   atenrt::ExecutionContext ctx = engine.create_context();   // one per thread
//   const std::vector<atenrt::Tensor>& out = ctx.run({input});
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "atenrt/dtype.h"
#include "atenrt/errors.h"
#include "atenrt/tensor.h"

namespace atenrt {

namespace runtime {
class Engine;
class ExecutionContext;
}  // namespace runtime

enum class Precision { FP32, BF16 };

// Settings follow Torch-TensorRT's CompilationSettings where they make sense
// on this engine.
struct CompileSettings {
  // Partitioning. atenrt has no PyTorch to run unsupported segments, so a
  // graph with unsupported nodes fails to compile with the dry-run report.
  std::int64_t min_block_size = 5;
  std::vector<std::string> torch_executed_ops;  // "aten.relu.default" or "aten.relu"
  bool require_full_compilation = false;
  bool use_fast_partitioner = true;
  bool assume_dynamic_shape_support = false;

  // Lowering: decompositions and graph passes.
  bool lowering = true;
  std::vector<std::string> disabled_decomposition_groups;
  std::vector<std::string> disabled_decompositions;  // by op overload
  std::vector<std::string> disabled_passes;          // by pass name

  // Builder and runtime.
  Precision precision = Precision::FP32;
  // 0: no network optimization; 1: constant and batch-norm folding;
  // 2: + post-op fusion; 3 (default): + blocked layouts and weight pre-packing.
  int optimization_level = 3;
  int num_threads = 0;  // 0: the runtime's default
};

struct TensorSpec {
  std::string name;
  DType dtype = DType::Float32;
  std::vector<std::int64_t> dims;
  std::string to_string() const;  // "x: float32[1, 3, 224, 224]"
};

// What compile() did, for reports and the CLI.
struct CompileReport {
  std::string partition;   // the dry-run report
  std::string lowering;    // decompositions and passes that ran
  std::vector<std::string> fusions;
  std::int64_t total_ops = 0;
  std::int64_t supported_ops = 0;
  double compile_ms = 0.0;
};

class ExecutionContext;

// An immutable compiled engine; cheap to copy, safe to share across threads.
class Engine {
 public:
  const std::vector<TensorSpec>& inputs() const;
  const std::vector<TensorSpec>& outputs() const;
  ExecutionContext create_context() const;

  // Steps with their kernels and fusions, and the memory plan, as text.
  std::string describe() const;
  std::size_t activation_bytes() const;  // the memory plan's peak
  std::size_t weight_bytes() const;

  void save(const std::string& path) const;
  static Engine load(const std::string& path);

  explicit Engine(std::shared_ptr<const runtime::Engine> engine);
  const runtime::Engine& internal() const { return *engine_; }

 private:
  std::shared_ptr<const runtime::Engine> engine_;
  std::vector<TensorSpec> inputs_;
  std::vector<TensorSpec> outputs_;
};

// Runs an Engine; use one per thread. Outputs are owned by the context and
// overwritten by the next run.
class ExecutionContext {
 public:
  explicit ExecutionContext(const Engine& engine);
  ~ExecutionContext();
  ExecutionContext(ExecutionContext&&) noexcept;
  ExecutionContext& operator=(ExecutionContext&&) noexcept;

  // Inputs in the engine's order; wrong count, dtype or shape is an
  // InputError naming the input and what it expects.
  const std::vector<Tensor>& run(const std::vector<Tensor>& inputs);

 private:
  std::unique_ptr<runtime::ExecutionContext> context_;
  Engine engine_;
};

// Imports, lowers, partitions, converts and builds. Throws FormatError for a
// bad archive, UnsupportedError (with the partition report) for graphs it
// cannot compile.
Engine compile(const std::string& pt2_path, const CompileSettings& settings = {},
               CompileReport* report = nullptr);

// Imports, lowers and partitions only; never throws for unsupported nodes.
CompileReport dry_run(const std::string& pt2_path, const CompileSettings& settings = {});

}  // namespace atenrt
