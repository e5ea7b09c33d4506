"""Compile `.pt2` archives and run the engines from Python, without PyTorch.

    import numpy as np
    import atenrt

    engine = atenrt.compile("model.pt2", precision="bf16")
    print(engine.inputs)                      # (TensorSpec(name='x', dtype='float32', shape=(1, 3, 224, 224)),)
    (y,) = engine.run(np.zeros((1, 3, 224, 224), np.float32))
    engine.save("model.atrt")                 # later: atenrt.load_engine("model.atrt")

    ctx = engine.create_context()             # one per thread for parallel runs
    outputs = ctx.run([x])                    # or ctx.run({"x": x})

The work is done by the compiled module `_atenrt` (python/bindings, built by CMake into
<build>/python). This file imports without it (and without numpy) so that `import atenrt` works
where only the exporter is wanted; calling into the runtime then raises ImportError saying how to
build and find the module. The module is looked for, in order: in the folder named by the
environment variable ATENRT_PYTHON_MODULE_DIR, inside the atenrt package, then as a top-level
`_atenrt` on sys.path.

Threads: an Engine is immutable and may be shared. An ExecutionContext runs one call at a time
(concurrent calls on one context wait for each other); give each thread its own context to run in
parallel. Engine.run keeps one context per calling thread, so it is safe and parallel from any
number of threads. The GIL is released while an engine compiles, loads, saves and runs.
"""
import glob
import importlib.machinery
import importlib.util
import os
import sys
import threading
from collections.abc import Mapping
from typing import NamedTuple, Tuple

__all__ = [
    "compile", "dry_run", "load_engine", "Engine", "ExecutionContext", "TensorSpec", "CompileReport",
    "AtenrtError", "Error", "FormatError", "UnsupportedError", "InputError",
]


class AtenrtError(Exception):
    """Base of every error the atenrt runtime raises."""


class Error(AtenrtError, RuntimeError):
    """Any other atenrt failure (atenrt::Error)."""


class FormatError(AtenrtError, ValueError):
    """A `.pt2` archive or engine file is corrupt, hostile or of an unknown layout."""


class UnsupportedError(AtenrtError, NotImplementedError):
    """The graph is valid but uses something atenrt does not support; the message has the
    dry-run report (each unsupported node, its op overload and why). NotImplementedError, hence
    also a RuntimeError."""


class InputError(AtenrtError, ValueError):
    """Inputs given to run() do not match the engine: count, dtype or shape; names the input."""


_native_module = None
_native_lock = threading.Lock()


def _load_native():
    """The compiled module, imported once; ImportError with directions when it is missing."""
    global _native_module
    with _native_lock:
        if _native_module is None:
            module = _import_native()
            module._set_error_classes(error=Error, format=FormatError, unsupported=UnsupportedError,
                                      input=InputError)
            _native_module = module
    return _native_module


def _import_native():
    tried = []
    folder = os.environ.get("ATENRT_PYTHON_MODULE_DIR")
    if folder:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            for path in sorted(glob.glob(os.path.join(glob.escape(folder), "_atenrt" + suffix))):
                spec = importlib.util.spec_from_file_location("_atenrt", path)
                module = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(module)
                sys.modules.setdefault("_atenrt", module)
                return module
        tried.append(f"ATENRT_PYTHON_MODULE_DIR={folder} (no _atenrt{importlib.machinery.EXTENSION_SUFFIXES[0]})")
    for name in ("atenrt._atenrt", "_atenrt"):
        try:
            return importlib.import_module(name)
        except ImportError as e:
            if e.name not in (name, name.rpartition(".")[2]):
                raise  # the module is there but cannot load (a missing shared library...)
            tried.append(name)
    raise ImportError(
        "atenrt's compiled runtime module `_atenrt` was not found (tried: " + ", ".join(tried) + "). "
        "Build it with CMake (ATENRT_PYTHON=ON, the default; it lands in <build>/python) and put that "
        "folder on PYTHONPATH or in ATENRT_PYTHON_MODULE_DIR; see docs/python.md.", name="_atenrt")


class TensorSpec(NamedTuple):
    """An engine input or output: name, dtype ("float32", "int64", "bool", ...), shape."""
    name: str
    dtype: str
    shape: Tuple[int, ...]

    def __str__(self):
        return f"{self.name}: {self.dtype}[{', '.join(map(str, self.shape))}]"


class CompileReport(NamedTuple):
    """What compile() did: the dry-run (partition) report, the lowering summary, the fusions the
    builder made, the op counts and the compile time."""
    partition: str
    lowering: str
    fusions: Tuple[str, ...]
    total_ops: int
    supported_ops: int
    compile_ms: float


def _seq(value, what):
    if isinstance(value, str):
        return [value]
    try:
        return [str(v) for v in value]
    except TypeError:
        raise TypeError(f"{what} must be a string or a sequence of strings, got {type(value).__name__}") from None


def _settings(native, precision="fp32", min_block_size=5, torch_executed_ops=(), require_full_compilation=False,
              optimization_level=3, num_threads=0, lowering=True, disabled_passes=(),
              disabled_decompositions=(), disabled_decomposition_groups=(), use_fast_partitioner=True,
              assume_dynamic_shape_support=False):
    s = native.CompileSettings()
    s.precision = str(precision)
    s.min_block_size = int(min_block_size)
    s.torch_executed_ops = _seq(torch_executed_ops, "torch_executed_ops")
    s.require_full_compilation = bool(require_full_compilation)
    if int(optimization_level) not in (0, 1, 2, 3):
        raise ValueError(f"optimization_level must be 0, 1, 2 or 3, got {optimization_level!r}")
    s.optimization_level = int(optimization_level)
    if int(num_threads) < 0:
        raise ValueError(f"num_threads must be >= 0 (0: the runtime's default), got {num_threads!r}")
    s.num_threads = int(num_threads)
    s.lowering = bool(lowering)
    s.disabled_passes = _seq(disabled_passes, "disabled_passes")
    s.disabled_decompositions = _seq(disabled_decompositions, "disabled_decompositions")
    s.disabled_decomposition_groups = _seq(disabled_decomposition_groups, "disabled_decomposition_groups")
    s.use_fast_partitioner = bool(use_fast_partitioner)
    s.assume_dynamic_shape_support = bool(assume_dynamic_shape_support)
    return s


def compile(path, *, precision="fp32", min_block_size=5, torch_executed_ops=(), require_full_compilation=False,
            optimization_level=3, num_threads=0, lowering=True, disabled_passes=(), disabled_decompositions=(),
            disabled_decomposition_groups=(), use_fast_partitioner=True, assume_dynamic_shape_support=False):
    """Compile the torch.export archive `path` into an Engine.

    precision: "fp32" or "bf16" (bf16 compute where the CPU has it; inputs and outputs keep their
        dtypes). min_block_size, torch_executed_ops ("aten.relu.default" or "aten.relu"),
        require_full_compilation, use_fast_partitioner: partitioning, as in Torch-TensorRT; atenrt
        cannot fall back to PyTorch, so a graph with unsupported nodes raises UnsupportedError with
        the dry-run report. lowering: run decompositions and graph passes; disabled_passes,
        disabled_decompositions (op overloads), disabled_decomposition_groups switch some off.
        optimization_level: 0 none, 1 constant/batch-norm folding, 2 + post-op fusion, 3 (default)
        + blocked layouts and weight pre-packing. num_threads: threads per run (0: default).

    Raises FormatError (bad archive), UnsupportedError, Error.
    """
    native = _load_native()
    settings = _settings(native, precision, min_block_size, torch_executed_ops, require_full_compilation,
                         optimization_level, num_threads, lowering, disabled_passes, disabled_decompositions,
                         disabled_decomposition_groups, use_fast_partitioner, assume_dynamic_shape_support)
    engine, report = native.compile(os.fspath(path), settings)
    return Engine(engine, CompileReport(report.partition, report.lowering, tuple(report.fusions),
                                        report.total_ops, report.supported_ops, report.compile_ms))


def dry_run(path, **settings):
    """Import, lower and partition `path` without building; returns the partition report (which
    nodes are supported, and why not for the others). Takes compile()'s settings; never raises for
    unsupported nodes (FormatError for a bad archive)."""
    native = _load_native()
    return native.dry_run(os.fspath(path), _settings(native, **settings)).partition


def load_engine(path):
    """Load an engine file written by Engine.save (or the CLI). Raises FormatError when corrupt."""
    return Engine(_load_native().load_engine(os.fspath(path)))


def _specs(native_specs):
    return tuple(TensorSpec(name, dtype, tuple(shape)) for name, dtype, shape in native_specs)


class Engine:
    """An immutable compiled engine; safe to share across threads."""

    def __init__(self, native_engine, report=None):
        self._engine = native_engine
        self.report = report  # CompileReport when made by compile(); None when loaded
        self.inputs = _specs(native_engine.inputs)
        self.outputs = _specs(native_engine.outputs)
        self._local = threading.local()

    def describe(self):
        """Steps with their kernels, fusions and layouts, and the memory plan, as text."""
        return self._engine.describe()

    @property
    def activation_bytes(self):
        """Peak activation memory of the plan, per context."""
        return self._engine.activation_bytes

    @property
    def weight_bytes(self):
        return self._engine.weight_bytes

    def save(self, path):
        """Write the engine to `path` (versioned, checksummed); load it with atenrt.load_engine."""
        self._engine.save(os.fspath(path))

    def create_context(self):
        """A new ExecutionContext (its own activation memory). Use one per thread."""
        return ExecutionContext(self)

    def run(self, *inputs):
        """Run with one context per calling thread (made on first use); returns a list of arrays."""
        ctx = getattr(self._local, "context", None)
        if ctx is None:
            ctx = self._local.context = self.create_context()
        return ctx.run(inputs)

    def __repr__(self):
        ins = ", ".join(map(str, self.inputs))
        outs = ", ".join(map(str, self.outputs))
        return f"<atenrt.Engine ({ins}) -> ({outs})>"


class ExecutionContext:
    """Runs an Engine. Inputs are copied in; outputs are fresh numpy arrays. One call at a time:
    concurrent run() calls on the same context are serialized."""

    def __init__(self, engine):
        if not isinstance(engine, Engine):
            raise TypeError(f"ExecutionContext needs an atenrt.Engine, got {type(engine).__name__}")
        self.engine = engine
        self._context = engine._engine.create_context()

    def run(self, inputs):
        """inputs: a sequence in engine.inputs order, or a mapping from input name to array.

        numpy arrays must have the input's dtype and shape exactly (InputError names the input
        otherwise); non-contiguous arrays are accepted. Python scalars and lists are converted to
        the input's dtype when that loses no kind (float data for an int input is an error).
        bfloat16 inputs take float32 arrays and bfloat16 outputs come back as float32, since numpy
        has no bfloat16. Returns a list of numpy arrays in engine.outputs order.
        """
        specs = self.engine.inputs
        if isinstance(inputs, Mapping):
            inputs = _order_by_name(inputs, specs)
        elif not isinstance(inputs, (list, tuple)):
            raise TypeError(f"run() takes a list or tuple of arrays (or a dict by input name), "
                            f"got {type(inputs).__name__}")
        # A wrong count is reported by the module, with the engine's inputs.
        arrays = [_as_array(x, specs[i]) if i < len(specs) else x for i, x in enumerate(inputs)]
        return self._context.run(arrays)


def _order_by_name(named, specs):
    names = [s.name for s in specs]
    unknown = [k for k in named if k not in names]
    if unknown:
        raise InputError(f"engine has no input named {unknown[0]!r}; its inputs are {', '.join(map(str, specs))}")
    missing = [n for n in names if n not in named]
    if missing:
        raise InputError(f"input '{missing[0]}' is missing")
    return [named[n] for n in names]


def _as_array(value, spec):
    import numpy as np
    if isinstance(value, np.ndarray):
        return value  # made contiguous (a copy) by the module when it is not
    try:
        arr = np.asarray(value)
    except (ValueError, TypeError) as e:
        raise InputError(f"input '{spec.name}': cannot make an array of {spec.dtype}{list(spec.shape)} "
                         f"from a {type(value).__name__}: {e}") from None
    if not hasattr(value, "__array__") and not hasattr(value, "__array_interface__"):
        # Scalars and (nested) lists have no dtype of their own: take the input's when no kind is lost.
        want = np.dtype("float32" if spec.dtype == "bfloat16" else spec.dtype)
        if arr.dtype != want and np.can_cast(arr.dtype, want, casting="same_kind"):
            arr = arr.astype(want)
    return arr
