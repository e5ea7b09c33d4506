#include "errors.h"

#include <string>

#include "atenrt/errors.h"

namespace py = pybind11;

namespace atenrt::python {
namespace {

// Borrowed forever: the classes outlive every call, and dropping them at
// interpreter shutdown would run Python code after finalization.
struct ErrorClasses {
  PyObject* error = PyExc_RuntimeError;
  PyObject* format = PyExc_ValueError;
  PyObject* unsupported = PyExc_NotImplementedError;
  PyObject* input = PyExc_ValueError;
  PyObject* settings = PyExc_ValueError;
};
ErrorClasses& classes() {
  static ErrorClasses c;
  return c;
}

PyObject* checked_class(const py::object& cls, const char* what) {
  if (!PyType_Check(cls.ptr()) || !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls.ptr()),
                                                    reinterpret_cast<PyTypeObject*>(PyExc_Exception))) {
    throw py::type_error(std::string("_set_error_classes: ") + what + " must be an Exception subclass");
  }
  return cls.inc_ref().ptr();
}

}  // namespace

void input_error(const std::string& message) { throw InputError(message); }

void register_errors(py::module_& m) {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const FormatError& e) {
      PyErr_SetString(classes().format, e.what());
    } catch (const UnsupportedError& e) {
      PyErr_SetString(classes().unsupported, e.what());
    } catch (const InputError& e) {
      PyErr_SetString(classes().input, e.what());
    } catch (const SettingsError& e) {
      PyErr_SetString(classes().settings, e.what());
    } catch (const Error& e) {
      PyErr_SetString(classes().error, e.what());
    }
  });
  m.def(
      "_set_error_classes",
      [](py::object error, py::object format, py::object unsupported, py::object input, py::object settings) {
        ErrorClasses c;
        c.error = checked_class(error, "error");
        c.format = checked_class(format, "format");
        c.unsupported = checked_class(unsupported, "unsupported");
        c.input = checked_class(input, "input");
        c.settings = checked_class(settings, "settings");
        classes() = c;
      },
      py::arg("error"), py::arg("format"), py::arg("unsupported"), py::arg("input"), py::arg("settings"),
      "Sets the Python classes raised for atenrt::Error, FormatError, UnsupportedError, InputError, "
      "SettingsError.");
}

}  // namespace atenrt::python
