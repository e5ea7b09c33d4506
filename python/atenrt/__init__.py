"""atenrt Python side: export torch modules to `.pt2` archives for the atenrt compiler, and
compile and run them (atenrt.compile, atenrt.load_engine; see runtime.py and docs/python.md).

The runtime needs neither torch nor, until first called, its compiled module `_atenrt`; the
exporter needs torch.
"""
from .errors import ExportError
from .runtime import (AtenrtError, CompileReport, Engine, Error, ExecutionContext, FormatError, InputError,
                      TensorSpec, UnsupportedError, compile, dry_run, load_engine)

try:
    from .export import LAYOUTS, export, save
except ModuleNotFoundError as _e:  # torch absent: the runtime still works, the exporter says why not
    if not (_e.name or "").startswith("torch"):
        raise
    _torch_missing = str(_e)
    LAYOUTS = ()

    def export(*args, **kwargs):
        raise ImportError(f"atenrt.export needs PyTorch ({_torch_missing})")

    def save(*args, **kwargs):
        raise ImportError(f"atenrt.save needs PyTorch ({_torch_missing})")

__all__ = ["save", "export", "ExportError", "LAYOUTS",
           "compile", "dry_run", "load_engine", "Engine", "ExecutionContext", "TensorSpec", "CompileReport",
           "AtenrtError", "Error", "FormatError", "UnsupportedError", "InputError"]
