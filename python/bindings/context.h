// The Python ExecutionContext: an atenrt::ExecutionContext plus one staging
// tensor per input (numpy memory cannot back an atenrt::Tensor, so inputs are
// copied once) and a mutex, so that a context shared by Python threads runs
// them one at a time instead of corrupting its buffers.
#pragma once

#include <pybind11/pybind11.h>

#include <mutex>
#include <vector>

#include "atenrt/atenrt.h"

namespace atenrt::python {

class Context {
 public:
  explicit Context(const Engine& engine);

  // Inputs in the engine's order; returns fresh numpy arrays (copies: the
  // context's outputs are overwritten by its next run). Runs without the GIL.
  pybind11::list run(const pybind11::sequence& inputs);

  const Engine& engine() const { return engine_; }

  // ExecutionContext::set_profiling / profile(); the profile as a dict
  // {"runs": n, "steps": [{"name", "kind", "implementation", "precision",
  // "flops", "total_ms", "last_start_ms", "last_ms"}, ...]}.
  void set_profiling(bool on);
  pybind11::dict profile();

 private:
  Engine engine_;
  ExecutionContext context_;
  std::vector<Tensor> staging_;
  std::mutex mutex_;
};

}  // namespace atenrt::python
