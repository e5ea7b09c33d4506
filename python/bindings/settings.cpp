// The settings table for Python: settings_table() describes every setting
// (python/atenrt/runtime.py derives its keywords and checks from it), and
// CompileSettings.set(name, value) converts a Python value by the setting's
// type and checks it (atenrt::set_setting).
#include "settings.h"

#include <pybind11/stl.h>

#include "atenrt/atenrt.h"

namespace py = pybind11;

namespace atenrt::python {
namespace {

py::object to_python(const SettingValue& v) {
  return std::visit([](const auto& x) -> py::object { return py::cast(x); }, v);
}

const char* phase_name(SettingPhase p) { return p == SettingPhase::Load ? "load" : "compile"; }

std::string where(const Setting& s) { return "setting '" + s.name + "'"; }

SettingValue from_python(const Setting& s, const py::handle& value) {
  switch (s.type) {
    case SettingType::Bool:
      if (!py::isinstance<py::bool_>(value)) {
        throw SettingsError(where(s) + " takes True or False, got " + std::string(py::str(value.get_type().attr("__name__"))));
      }
      return value.cast<bool>();
    case SettingType::Int:
      if (py::isinstance<py::bool_>(value) || !py::isinstance<py::int_>(value)) {
        throw SettingsError(where(s) + " takes an int, got " + std::string(py::str(value.get_type().attr("__name__"))));
      }
      return value.cast<std::int64_t>();
    case SettingType::Bytes:
      if (py::isinstance<py::str>(value)) return value.cast<std::string>();
      if (py::isinstance<py::bool_>(value) || !py::isinstance<py::int_>(value)) {
        throw SettingsError(where(s) + " takes a byte count (an int, or a string such as '512M' or '8G'), got " +
                            std::string(py::str(value.get_type().attr("__name__"))));
      }
      return value.cast<std::int64_t>();
    case SettingType::Path:
      // A str or any os.PathLike (pathlib.Path).
      try {
        return py::module_::import("os").attr("fspath")(value).cast<std::string>();
      } catch (const py::error_already_set&) {
        throw SettingsError(where(s) + " takes a path (str or os.PathLike), got " +
                            std::string(py::str(value.get_type().attr("__name__"))));
      } catch (const py::cast_error&) {
        throw SettingsError(where(s) + " takes a text path, not bytes");
      }
    case SettingType::Choice:
      if (!py::isinstance<py::str>(value)) {
        throw SettingsError(where(s) + " takes a string (" + s.range_text() + ")");
      }
      return value.cast<std::string>();
    case SettingType::NameList: {
      if (py::isinstance<py::str>(value)) return std::vector<std::string>{value.cast<std::string>()};
      std::vector<std::string> names;
      try {
        for (const auto& item : py::iter(value)) {
          if (!py::isinstance<py::str>(item)) throw py::type_error("");
          names.push_back(item.cast<std::string>());
        }
      } catch (const py::error_already_set&) {
        throw SettingsError(where(s) + " takes a string or a sequence of strings");
      } catch (const py::type_error&) {
        throw SettingsError(where(s) + " takes a string or a sequence of strings");
      }
      return names;
    }
    case SettingType::Shapes: {
      // "x:1x3x224x224,mask:1x77", or {"x": (1, 3, 224, 224), "mask": (1, 77)}.
      if (py::isinstance<py::str>(value)) return value.cast<std::string>();
      if (!py::isinstance<py::dict>(value)) {
        throw SettingsError(where(s) + " takes \"name:dims,...\" or a dict of input name to shape");
      }
      std::vector<std::pair<std::string, std::vector<std::int64_t>>> shapes;
      for (const auto& [k, v] : value.cast<py::dict>()) {
        if (!py::isinstance<py::str>(k)) throw SettingsError(where(s) + ": input names are strings");
        std::vector<std::int64_t> dims;
        try {
          for (const auto& d : py::iter(v)) {
            if (py::isinstance<py::bool_>(d) || !py::isinstance<py::int_>(d)) throw py::type_error("");
            dims.push_back(d.cast<std::int64_t>());
          }
        } catch (const std::exception&) {
          throw SettingsError(where(s) + ": the shape of '" + k.cast<std::string>() + "' is not a sequence of ints");
        }
        for (auto d : dims) {
          if (d < 0) throw SettingsError(where(s) + ": the shape of '" + k.cast<std::string>() + "' has a negative dim");
        }
        shapes.emplace_back(k.cast<std::string>(), std::move(dims));
      }
      return shapes_text(shapes);
    }
  }
  return false;
}

}  // namespace

void register_settings(py::module_& m) {
  m.def("settings_table", [] {
    py::list rows;
    for (const auto& s : settings_table()) {
      py::dict row;
      row["name"] = s.name;
      row["cli_flag"] = s.cli_flag;
      row["type"] = s.type_name();
      row["phase"] = phase_name(s.phase);
      row["default"] = to_python(s.default_value());
      row["range"] = s.range_text();
      row["choices"] = s.choices;
      row["help"] = s.help;
      rows.append(row);
    }
    return rows;
  });
  m.def("nearest_name", [](const std::string& name, const std::vector<std::string>& candidates) {
    return nearest_name(name, candidates);
  });
  m.def("validate", [](const CompileSettings& s) { validate(s); });
}

void register_settings_methods(py::class_<CompileSettings>& cls) {
  cls.def("set",
          [](CompileSettings& settings, const std::string& name, const py::handle& value) {
            const Setting* s = find_setting(name);
            if (!s) {
              set_setting(settings, name, false);  // throws SettingsError with the nearest name
              return;
            }
            set_setting(settings, s->name, from_python(*s, value));
          },
          py::arg("name"), py::arg("value"))
      .def("get", [](const CompileSettings& settings, const std::string& name) {
        return to_python(get_setting(settings, name));
      });
}

}  // namespace atenrt::python
