"""atenrt Python side: export torch modules to `.pt2` archives for the atenrt compiler, and
compile and run them (atenrt.compile, atenrt.load_engine; see runtime.py and docs/python.md).

The runtime needs neither torch nor, until first called, its compiled module `_atenrt`; the
exporter needs torch.
"""
from .errors import ExportError
from .inputs import Input
from .reports import CompileReport, DryRunReport, Segment, StepSpec, UnsupportedNode
from .runtime import (AtenrtError, Engine, Error, ExecutionContext, FormatError, InputError, SettingsError,
                      TensorSpec, UnsupportedError, compile, dry_run, load, load_engine, load_plugin, loaded_plugins,
                      reset_log_callback, set_log_callback, settings_table)

try:
    from .export import LAYOUTS, export, save
    from ._dynamic import Dim
except ModuleNotFoundError as _e:  # torch absent: the runtime still works, the exporter says why not
    if not (_e.name or "").startswith("torch"):
        raise
    _torch_missing = str(_e)
    LAYOUTS = ()

    def export(*args, **kwargs):
        raise ImportError(f"atenrt.export needs PyTorch ({_torch_missing})")

    def save(*args, **kwargs):
        raise ImportError(f"atenrt.save needs PyTorch ({_torch_missing})")

    def Dim(*args, **kwargs):
        raise ImportError(f"atenrt.Dim needs PyTorch ({_torch_missing})")

__all__ = ["save", "export", "ExportError", "LAYOUTS", "Dim",
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
    raise AttributeError(f"module 'atenrt' has no attribute {name!r}")
