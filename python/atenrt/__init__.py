"""atenrt Python side: export torch modules to `.pt2` archives for the atenrt compiler, and
compile and run them (atenrt.compile, atenrt.load_engine; see runtime.py and docs/python.md).

The runtime needs neither torch nor, until first called, its compiled module `_atenrt`; the
exporter needs torch.
"""
from . import debug
from .errors import ExportError
from .inputs import Input
from .reports import CompileReport, DryRunReport, Segment, StepSpec, UnsupportedNode
from .runtime import (AtenrtError, Engine, Error, ExecutionContext, FormatError, InputError, SettingsError,
                      TensorSpec, UnsupportedError, compile, dry_run, load, load_engine, load_plugin, loaded_plugins,
                      reset_log_callback, set_log_callback, settings_table)

# The exporter (save, export, Dim, LAYOUTS) needs torch, and importing torch costs a serving
# process over a second and ~150 MB: it is imported on first use, so `import atenrt` for the
# runtime alone never loads torch.
_EXPORTER_NAMES = ("save", "export", "Dim", "LAYOUTS")


def _exporter(name):
    try:
        import importlib
        # By name: `from . import export` would ask this module's __getattr__ for it first.
        _export_module = importlib.import_module(__name__ + ".export")
        _dim = importlib.import_module(__name__ + "._dynamic").Dim
        found = {"save": _export_module.save, "export": _export_module.export, "Dim": _dim,
                 "LAYOUTS": _export_module.LAYOUTS}
    except ModuleNotFoundError as e:  # torch absent: the runtime still works, the exporter says why not
        if not (e.name or "").startswith("torch"):
            raise
        missing = str(e)

        def needs_torch(what):
            def refuse(*args, **kwargs):
                raise ImportError(f"atenrt.{what} needs PyTorch ({missing})")
            return refuse

        found = {"save": needs_torch("save"), "export": needs_torch("export"), "Dim": needs_torch("Dim"),
                 "LAYOUTS": ()}
    globals().update(found)
    return found[name]


__all__ = ["save", "export", "ExportError", "LAYOUTS", "Dim", "debug",
           "compile", "dry_run", "load", "load_engine", "load_plugin", "loaded_plugins", "set_log_callback", "reset_log_callback", "Input", "DryRunReport", "Segment", "StepSpec",
           "UnsupportedNode", "__version__", "build_info", "Engine", "ExecutionContext", "TensorSpec", "CompileReport",
           "AtenrtError", "Error", "FormatError", "UnsupportedError", "InputError", "SettingsError",
           "settings_table"]


def build_info():
    """The version, the oneDNN version and how the compiled module was built (as `atenrt --version`)."""
    from .runtime import _load_native
    return dict(_load_native().build_info())


def __getattr__(name):
    # __version__ comes from the compiled module (CMake's project version, set in one place).
    if name == "__version__":
        return build_info()["version"]
    if name in _EXPORTER_NAMES:
        return _exporter(name)
    raise AttributeError(f"module 'atenrt' has no attribute {name!r}")
