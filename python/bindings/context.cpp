#include "context.h"

#include <string>

#include "arrays.h"
#include "errors.h"

namespace py = pybind11;

namespace atenrt::python {

Context::Context(const Engine& engine) : engine_(engine), context_(engine.create_context()) {
  for (const auto& spec : engine_.inputs()) staging_.emplace_back(spec.dtype, spec.is_dynamic() ? spec.opt_dims : spec.dims);
}

py::list Context::run(const py::sequence& inputs) {
  const auto& specs = engine_.inputs();
  const std::size_t count = py::len(inputs);
  if (count != specs.size()) {
    std::string names;
    for (const auto& s : specs) {
      if (!names.empty()) names += ", ";
      names += s.to_string();
    }
    input_error("engine expects " + std::to_string(specs.size()) + " inputs (" + names + "), got " +
                std::to_string(count));
  }
  std::vector<BoundInput> bound;
  bound.reserve(count);
  std::vector<std::vector<std::int64_t>> shapes;  // read with the GIL held
  for (std::size_t i = 0; i < count; ++i) {
    bound.push_back(bind_input(inputs[i], specs[i]));
    shapes.emplace_back(bound.back().array.shape(), bound.back().array.shape() + bound.back().array.ndim());
  }

  // Lock only once the GIL is released: a thread holding the GIL never waits
  // for the mutex, so re-taking the GIL below while holding it cannot deadlock.
  std::unique_lock<std::mutex> lock(mutex_, std::defer_lock);
  const std::vector<Tensor>* outputs = nullptr;
  {
    py::gil_scoped_release nogil;
    lock.lock();
    for (std::size_t i = 0; i < count; ++i) {
      // Dynamic inputs: the staging tensor takes this run's shape.
      if (staging_[i].sizes() != shapes[i]) staging_[i] = Tensor(specs[i].dtype, shapes[i]);
      copy_input(bound[i], staging_[i]);
    }
    outputs = &context_.run(staging_);
  }
  py::list result;
  for (const auto& t : *outputs) result.append(to_numpy(t));
  return result;
}

void Context::set_profiling(bool on) {
  std::lock_guard<std::mutex> lock(mutex_);  // not while a run holds it
  context_.set_profiling(on);
}

py::dict Context::profile() {
  Profile p;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    p = context_.profile();
  }
  py::list steps;
  for (const auto& t : p.steps) {
    py::dict d;
    d["name"] = t.step.name;
    d["kind"] = t.step.kind;
    d["implementation"] = t.step.implementation;
    d["precision"] = t.step.precision;
    d["flops"] = t.step.flops;
    d["total_ms"] = t.total_ms;
    d["last_start_ms"] = t.last_start_ms;
    d["last_ms"] = t.last_ms;
    steps.append(d);
  }
  py::dict out;
  out["runs"] = p.runs;
  out["steps"] = steps;
  return out;
}

}  // namespace atenrt::python
