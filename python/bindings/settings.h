// The settings table (include/atenrt/settings.h) for Python.
#pragma once

#include <pybind11/pybind11.h>

#include "atenrt/settings.h"

namespace atenrt::python {

// settings_table(), nearest_name(), validate().
void register_settings(pybind11::module_& m);
// CompileSettings.set(name, value) and .get(name), checked by the table.
void register_settings_methods(pybind11::class_<CompileSettings>& cls);

}  // namespace atenrt::python
