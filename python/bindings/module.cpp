// _atenrt: the compiled half of atenrt's Python API. Kept thin and literal;
// python/atenrt/runtime.py is the documented face (argument handling, paths,
// docstrings, per-thread contexts).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "arrays.h"
#include "atenrt/atenrt.h"
#include "atenrt/extension.h"
#include "atenrt/log.h"
#include "context.h"
#include "errors.h"
#include "settings.h"

namespace py = pybind11;
using namespace atenrt;

namespace {

// (name, dtype, shape, min, opt, max): the last three are None for a static spec.
py::tuple spec_tuple(const TensorSpec& s) {
  auto dims = [](const std::vector<std::int64_t>& d) -> py::object { return py::tuple(py::cast(d)); };
  const py::object none = py::none();
  return py::make_tuple(s.name, std::string(dtype_name(s.dtype)), dims(s.dims),
                        s.is_dynamic() ? dims(s.min_dims) : none, s.is_dynamic() ? dims(s.opt_dims) : none,
                        s.is_dynamic() ? dims(s.max_dims) : none);
}

py::list spec_list(const std::vector<TensorSpec>& specs) {
  py::list out;
  for (const auto& s : specs) out.append(spec_tuple(s));
  return out;
}

LogLevel log_level_named(const std::string& name) {
  for (auto level : {LogLevel::Debug, LogLevel::Info, LogLevel::Warning, LogLevel::Error}) {
    if (log_level_name(level) == name) return level;
  }
  throw SettingsError("min_level must be one of debug, info, warning, error, not '" + name + "'");
}

// The library's log callback as a Python callable(level, message). It may be
// called from any thread (compiles run with the GIL released), so it takes the
// GIL; an exception it raises is reported as unraisable, never thrown into the
// library. The callable is dropped under the GIL, and not at all once the
// interpreter is gone (atenrt/runtime.py resets the callback at exit).
void set_python_log_callback(const py::object& fn, const std::string& min_level) {
  const LogLevel level = log_level_named(min_level);
  if (fn.is_none()) {
    set_log_callback({}, level);  // silence
    return;
  }
  if (!PyCallable_Check(fn.ptr())) throw py::type_error("set_log_callback: callback must be callable or None");
  std::shared_ptr<py::object> held(new py::object(fn), [](py::object* o) {
    if (!Py_IsInitialized()) return;  // leaked: nothing can be released any more
    py::gil_scoped_acquire gil;
    delete o;
  });
  set_log_callback(
      [held](LogLevel l, std::string_view message) {
        if (!Py_IsInitialized()) return;
        py::gil_scoped_acquire gil;
        try {
          (*held)(std::string(log_level_name(l)), std::string(message));
        } catch (py::error_already_set& e) {
          e.discard_as_unraisable("atenrt log callback");
        }
      },
      level);
}

}  // namespace

PYBIND11_MODULE(_atenrt, m) {
  m.doc() = "atenrt's compiled runtime; use it through the atenrt package (atenrt/runtime.py).";
  python::register_errors(m);

  py::class_<CompileSettings> settings(m, "CompileSettings");
  settings.def(py::init<>());
  python::register_settings_methods(settings);
  python::register_settings(m);

  m.def("build_info", [] {
    const auto& b = build_info();
    py::dict d;
    d["version"] = b.version;
    d["onednn_version"] = b.onednn_version;
    d["build_type"] = b.build_type;
    d["compiler"] = b.compiler;
    d["options"] = b.options;
    d["cpu_isa"] = b.cpu_isa;
    d["precisions"] = b.precisions;
    return d;
  });

  m.def("set_log_callback", &set_python_log_callback, py::arg("callback"), py::arg("min_level") = "info");
  m.def("reset_log_callback", [] { reset_log_callback(); });

  // Plugins (include/atenrt/extension.h): converters added to this module's registry.
  const auto plugin_dict = [](const PluginInfo& p) {
    py::dict d;
    d["path"] = p.path;
    d["name"] = p.name;
    d["converters"] = p.converters;
    d["kernels"] = p.kernels;
    return d;
  };
  m.def("load_plugin", [plugin_dict](const std::string& path) { return plugin_dict(load_plugin(path)); },
        py::arg("path"));
  m.def("loaded_plugins", [plugin_dict] {
    py::list out;
    for (const auto& p : loaded_plugins()) out.append(plugin_dict(p));
    return out;
  });

  py::class_<CompileReport>(m, "CompileReport")
      .def_readonly("partition", &CompileReport::partition)
      .def_property_readonly("dry_run_json", [](const CompileReport& r) { return r.dry_run.to_json(); })
      .def_readonly("lowering", &CompileReport::lowering)
      .def_readonly("fusions", &CompileReport::fusions)
      .def_readonly("warnings", &CompileReport::warnings)
      .def_readonly("total_ops", &CompileReport::total_ops)
      .def_readonly("supported_ops", &CompileReport::supported_ops)
      .def_readonly("compile_ms", &CompileReport::compile_ms);

  py::class_<Engine>(m, "Engine")
      .def_property_readonly("inputs", [](const Engine& e) { return spec_list(e.inputs()); })
      .def_property_readonly("outputs", [](const Engine& e) { return spec_list(e.outputs()); })
      .def("describe", &Engine::describe)
      .def_property_readonly("activation_bytes", &Engine::activation_bytes)
      .def_property_readonly("weight_bytes", &Engine::weight_bytes)
      .def_property_readonly("steps",
                             [](const Engine& e) {
                               py::list out;
                               for (const auto& s : e.steps()) {
                                 out.append(py::make_tuple(s.name, s.kind, s.implementation, s.precision, s.layout,
                                                           py::tuple(py::cast(s.fused))));
                               }
                               return out;
                             })
      .def_property_readonly("precision", &Engine::precision)
      .def_property_readonly("num_threads", &Engine::num_threads)
      .def_property_readonly("effective_threads", &Engine::effective_threads)
      .def("built_settings", &Engine::built_settings)
      .def_property_readonly("fallback_ops", &Engine::fallback_ops)
      .def_property_readonly("segments_summary", &Engine::segments_summary)
      .def("with_load_settings", &Engine::with_load_settings, py::arg("settings"))
      .def("save", &Engine::save, py::arg("path"), py::call_guard<py::gil_scoped_release>())
      // bytes: a file's metadata is untrusted and need not be UTF-8.
      .def_property_readonly("metadata", [](const Engine& e) { return py::bytes(e.metadata()); })
      .def("with_metadata", &Engine::with_metadata, py::arg("text"))
      .def("create_context", [](const Engine& e) { return std::make_unique<python::Context>(e); });

  py::class_<python::Context>(m, "ExecutionContext")
      .def("run", &python::Context::run, py::arg("inputs"))
      .def("set_profiling", &python::Context::set_profiling, py::arg("on"))
      .def("profile", &python::Context::profile)
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
      "load_engine",
      [](const std::string& path, const CompileSettings& settings) { return Engine::load(path, settings); },
      py::arg("path"), py::arg("settings") = CompileSettings{}, py::call_guard<py::gil_scoped_release>());
}
