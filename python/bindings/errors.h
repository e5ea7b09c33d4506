// atenrt's C++ errors as Python exceptions. The Python classes live in
// atenrt/runtime.py (so that `except atenrt.FormatError` works even where the
// module is not built); runtime.py hands them over once, at import.
#pragma once

#include <pybind11/pybind11.h>

namespace atenrt::python {

// Installs the translator: FormatError, UnsupportedError, InputError,
// SettingsError and any other atenrt::Error become the classes given to
// set_error_classes (until then: ValueError, NotImplementedError, ValueError,
// ValueError, RuntimeError).
void register_errors(pybind11::module_& m);

// Raises InputError (as translated) with `message`; for checks done here.
[[noreturn]] void input_error(const std::string& message);

}  // namespace atenrt::python
