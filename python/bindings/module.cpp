// _atenrt: the compiled half of atenrt's Python API. Kept thin and literal;
// python/atenrt/runtime.py is the documented face (argument handling, paths,
// docstrings, per-thread contexts).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "arrays.h"
#include "atenrt/atenrt.h"
#include "context.h"
#include "errors.h"

namespace py = pybind11;
using namespace atenrt;

namespace {

Precision parse_precision(const std::string& name) {
  if (name == "fp32" || name == "float32") return Precision::FP32;
  if (name == "bf16" || name == "bfloat16") return Precision::BF16;
  throw py::value_error("precision must be 'fp32' or 'bf16', got '" + name + "'");
}

py::tuple spec_tuple(const TensorSpec& s) {
  return py::make_tuple(s.name, std::string(dtype_name(s.dtype)), py::tuple(py::cast(s.dims)));
}

py::list spec_list(const std::vector<TensorSpec>& specs) {
  py::list out;
  for (const auto& s : specs) out.append(spec_tuple(s));
  return out;
}

}  // namespace

PYBIND11_MODULE(_atenrt, m) {
  m.doc() = "atenrt's compiled runtime; use it through the atenrt package (atenrt/runtime.py).";
  python::register_errors(m);

  py::class_<CompileSettings>(m, "CompileSettings")
      .def(py::init<>())
      .def_readwrite("min_block_size", &CompileSettings::min_block_size)
      .def_readwrite("torch_executed_ops", &CompileSettings::torch_executed_ops)
      .def_readwrite("require_full_compilation", &CompileSettings::require_full_compilation)
      .def_readwrite("use_fast_partitioner", &CompileSettings::use_fast_partitioner)
      .def_readwrite("assume_dynamic_shape_support", &CompileSettings::assume_dynamic_shape_support)
      .def_readwrite("lowering", &CompileSettings::lowering)
      .def_readwrite("disabled_decomposition_groups", &CompileSettings::disabled_decomposition_groups)
      .def_readwrite("disabled_decompositions", &CompileSettings::disabled_decompositions)
      .def_readwrite("disabled_passes", &CompileSettings::disabled_passes)
      .def_property(
          "precision",
          [](const CompileSettings& s) { return s.precision == Precision::BF16 ? "bf16" : "fp32"; },
          [](CompileSettings& s, const std::string& p) { s.precision = parse_precision(p); })
      .def_readwrite("optimization_level", &CompileSettings::optimization_level)
      .def_readwrite("num_threads", &CompileSettings::num_threads);

  py::class_<CompileReport>(m, "CompileReport")
      .def_readonly("partition", &CompileReport::partition)
      .def_readonly("lowering", &CompileReport::lowering)
      .def_readonly("fusions", &CompileReport::fusions)
      .def_readonly("total_ops", &CompileReport::total_ops)
      .def_readonly("supported_ops", &CompileReport::supported_ops)
      .def_readonly("compile_ms", &CompileReport::compile_ms);

  py::class_<Engine>(m, "Engine")
      .def_property_readonly("inputs", [](const Engine& e) { return spec_list(e.inputs()); })
      .def_property_readonly("outputs", [](const Engine& e) { return spec_list(e.outputs()); })
      .def("describe", &Engine::describe)
      .def_property_readonly("activation_bytes", &Engine::activation_bytes)
      .def_property_readonly("weight_bytes", &Engine::weight_bytes)
      .def("save", &Engine::save, py::arg("path"), py::call_guard<py::gil_scoped_release>())
      .def("create_context", [](const Engine& e) { return std::make_unique<python::Context>(e); });

  py::class_<python::Context>(m, "ExecutionContext")
      .def("run", &python::Context::run, py::arg("inputs"))
      .def_property_readonly("engine", &python::Context::engine);

  m.def(
      "compile",
      [](const std::string& path, const CompileSettings& settings) {
        CompileReport report;
        Engine engine = [&] {
          py::gil_scoped_release nogil;
          return compile(path, settings, &report);
        }();
        return py::make_tuple(std::move(engine), std::move(report));
      },
      py::arg("path"), py::arg("settings"));
  m.def(
      "dry_run", [](const std::string& path, const CompileSettings& settings) { return dry_run(path, settings); },
      py::arg("path"), py::arg("settings"), py::call_guard<py::gil_scoped_release>());
  m.def(
      "load_engine", [](const std::string& path) { return Engine::load(path); }, py::arg("path"),
      py::call_guard<py::gil_scoped_release>());
}
