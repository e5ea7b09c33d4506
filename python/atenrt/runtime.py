"""Compile `.pt2` archives and run the engines from Python, without PyTorch.

    import numpy as np
    import atenrt

    engine = atenrt.compile("model.pt2", precision="bf16")
    print(engine.inputs)                      # (TensorSpec(name='x', dtype='float32', shape=(1, 3, 224, 224), min_shape=None, ...),)
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
import atexit
import glob
import json
import operator
import importlib.machinery
import importlib.util
import os
import sys
import threading
from collections.abc import Mapping
from typing import NamedTuple, Optional, Tuple

from .inputs import Input
from .reports import CompileReport, DryRunReport, StepSpec

__all__ = [
    "compile", "dry_run", "load", "load_engine", "Engine", "ExecutionContext", "TensorSpec", "CompileReport",
    "AtenrtError", "Error", "FormatError", "UnsupportedError", "InputError", "SettingsError", "settings_table",
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


class SettingsError(AtenrtError, ValueError):
    """A setting is out of range or names an op, pass, decomposition or group atenrt does not know
    (the message suggests the nearest), or a compile-time setting was given for a built engine."""


_native_module = None
_native_lock = threading.Lock()


def _load_native():
    """The compiled module, imported once; ImportError with directions when it is missing."""
    global _native_module
    with _native_lock:
        if _native_module is None:
            module = _import_native()
            module._set_error_classes(error=Error, format=FormatError, unsupported=UnsupportedError,
                                      input=InputError, settings=SettingsError)
            # A Python log callback must not outlive the interpreter.
            atexit.register(module.reset_log_callback)
            _native_module = module
    return _native_module


def _prefer_short_openmp_spins():
    """GOMP_SPINCOUNT=10000 unless the user chose a policy or OpenMP is already loaded.

    libgomp's default spins for milliseconds, which stalls runs 3-8x whenever another process
    holds a core; sleeping at once (OMP_WAIT_POLICY=passive) costs each step a 20-80 us wake-up on
    an idle machine. A short spin (about 0.3 ms here) keeps both small; the CLI asks for the same
    (tools/atenrt_main.cpp has the measurements). libgomp reads it once, when it loads: with the
    compiled module, unless torch loaded it first.
    """
    if "OMP_WAIT_POLICY" in os.environ or "GOMP_SPINCOUNT" in os.environ:
        return
    try:
        with open("/proc/self/maps") as maps:
            if "libgomp" in maps.read():
                return
    except OSError:
        return
    os.environ["GOMP_SPINCOUNT"] = "10000"


def _import_native():
    _prefer_short_openmp_spins()
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
    """An engine input or output: name, dtype ("float32", "int64", "bool", ...), shape. A dynamic
    input (docs/dynamic-shapes.md) has -1 in shape for its dynamic dims and the range it takes in
    min_shape, opt_shape and max_shape (None for static specs and for outputs)."""
    name: str
    dtype: str
    shape: Tuple[int, ...]
    min_shape: Optional[Tuple[int, ...]] = None
    opt_shape: Optional[Tuple[int, ...]] = None
    max_shape: Optional[Tuple[int, ...]] = None

    def __str__(self):
        text = f"{self.name}: {self.dtype}[{', '.join(map(str, self.shape))}]"
        if self.min_shape is not None:
            def dims(d):
                return "x".join(map(str, d)) or "scalar"
            text += f" ({dims(self.min_shape)} to {dims(self.max_shape)}, opt {dims(self.opt_shape)})"
        return text


def settings_table():
    """Every setting: a list of dicts with name, cli_flag, type, phase ("compile" or "load"), default,
    range, choices and help. compile(), dry_run() and load() take these names as keywords; the CLI's
    flags and its --help come from the same table (include/atenrt/settings.h)."""
    return list(_load_native().settings_table())


def _settings(native, settings, phases=("compile", "load")):
    """A native CompileSettings from keyword settings, each checked by the table: an unknown
    keyword is a TypeError naming the nearest setting; a bad value is a SettingsError."""
    table = {row["name"]: row for row in native.settings_table()}
    s = native.CompileSettings()
    for key, value in settings.items():
        row = table.get(key)
        if row is None or row["phase"] not in phases:
            allowed = [name for name, r in table.items() if r["phase"] in phases]
            near = native.nearest_name(key, allowed)
            hint = f"; did you mean {near!r}?" if near else ""
            raise TypeError(f"unknown setting {key!r}{hint} (settings: {', '.join(allowed)})")
        s.set(key, _setting_value(row, value))
    native.validate(s)
    return s


def _setting_value(row, value):
    """Python and numpy scalars as the setting's type takes them (no silent conversion of kind)."""
    kind = row["type"]
    if kind == "bool" and type(value).__name__ == "bool_":
        return bool(value)
    if kind in ("int", "bytes") and not isinstance(value, (bool, str)) and hasattr(value, "__index__"):
        return operator.index(value)
    return value


def compile(obj, inputs=None, kwarg_inputs=None, **settings):
    """Compile `obj` into an Engine: an nn.Module (exported with atenrt's exporter on `inputs`), a
    torch.export.ExportedProgram (torch >= 2.1), or the path of a `.pt2` archive.

    inputs: example tensors or atenrt.Input(shape=..., dtype=...), by position (alone or in lists,
        tuples and dicts, as forward() takes them). Needed for a module; for a path or an
        ExportedProgram they are checked against what the engine takes.
    kwarg_inputs: {name: the same} for forward()'s keyword arguments (a module only); the engine's
        inputs for them are named after them.
    The engine is callable: engine(*args, **kwargs) takes what the module took and returns torch
    tensors in the module's output structure; the structure is saved with the engine, so
    atenrt.load(path) returns the same.

    Settings (see settings_table() and docs/python.md): precision ("fp32" or "bf16": bf16 compute
    where the CPU has it; inputs and outputs keep their dtypes), optimization_level (0-3),
    min_block_size, torch_executed_ops ("aten.relu.default" or "aten.relu"),
    require_full_compilation, use_fast_partitioner, assume_dynamic_shape_support, lowering,
    disabled_passes, disabled_decompositions, disabled_decomposition_groups, num_threads, max_memory
    (bytes, or a string such as "8G"; 0: the smaller of physical memory and the cgroup limit). Nodes no
    converter takes (and torch_executed_ops, and supported blocks below min_block_size) run in the
    libtorch fallback when atenrt was built with it (engine.fallback_ops lists them);
    require_full_compilation=True, or a build without it, raises UnsupportedError with the
    dry-run report instead.

    Raises TypeError (unknown setting), SettingsError (a value out of range, an unknown op or pass
    name; the message suggests the nearest), FormatError (bad archive), UnsupportedError, Error.
    """
    if isinstance(obj, (str, bytes, os.PathLike)):
        if kwarg_inputs:
            raise TypeError("kwarg_inputs are for an nn.Module; a .pt2 archive's inputs are given by position "
                            "(inputs=[...]) or by name (engine(**tensors))")
        settings = _with_input_ranges(inputs, settings, lambda: _archive_user_inputs(obj))
        from ._progress import progress
        shown = repr(os.fsdecode(obj))[1:-1]  # a path's odd bytes escaped
        with progress(f"compiling {shown}", f"compiled {shown}"):
            engine = _compile_path(obj, settings)
        if inputs is not None:
            from .torch_api import check_inputs
            check_inputs(engine, inputs)
        return engine
    if not type(obj).__module__.startswith("torch") and not _is_torch_module(obj):
        raise TypeError(f"atenrt.compile takes an nn.Module, a torch.export.ExportedProgram or a .pt2 path, "
                        f"got {type(obj).__name__}")
    _settings(_load_native(), settings)  # bad settings fail before the export, not after
    from .torch_api import compile_torch
    return compile_torch(obj, inputs, kwarg_inputs, _compile_path, settings)


def _with_input_ranges(inputs, settings, names):
    """atenrt.Input(min_shape=, opt_shape=, max_shape=) in `inputs` as the min_shapes/opt_shapes/
    max_shapes settings, by the Input's name or else the graph's input name at its position
    (`names()` lists them)."""
    if inputs is None:
        return settings
    listed = [inputs] if isinstance(inputs, Input) else list(inputs) if isinstance(inputs, (list, tuple)) else []
    ranged = [(i, x) for i, x in enumerate(listed) if isinstance(x, Input) and not x.is_static]
    if not ranged:
        return settings
    clash = [k for k in ("min_shapes", "opt_shapes", "max_shapes", "shapes") if k in settings]
    if clash:
        raise SettingsError(f"give input ranges either as atenrt.Input(min_shape=...) or as {clash[0]}=, not both")
    graph_names = None
    parts = {"min_shapes": {}, "opt_shapes": {}, "max_shapes": {}}
    for i, x in ranged:
        name = x.name
        if name is None:
            graph_names = graph_names if graph_names is not None else names()
            if i >= len(graph_names):
                raise SettingsError(f"atenrt.Input at position {i} has no name and the graph has only "
                                    f"{len(graph_names)} inputs ({', '.join(graph_names)})")
            name = graph_names[i]
        parts["min_shapes"][name] = x.min_shape
        parts["opt_shapes"][name] = x.opt_shape
        parts["max_shapes"][name] = x.max_shape
    return {**settings, **parts}


def _archive_user_inputs(path):
    """The user input names of a .pt2 archive, in order (its graph signature)."""
    import zipfile
    try:
        with zipfile.ZipFile(os.fspath(path)) as z:
            member = next((n for n in z.namelist() if n.endswith("models/model.json")
                           or n.endswith("serialized_exported_program.json")), None)
            program = json.loads(z.read(member)) if member else None
    except (OSError, zipfile.BadZipFile, ValueError) as e:
        raise FormatError(f"{os.fspath(path)}: cannot read the graph's input names ({e}); name each "
                          f"atenrt.Input (name=...)") from None
    names = []
    try:
        for spec in program["graph_module"]["signature"]["input_specs"]:
            user = spec.get("user_input") if isinstance(spec, dict) else None
            if user is not None:
                arg = user.get("arg", {})
                names.append(arg.get("as_tensor", {}).get("name") or arg.get("name", ""))
    except (KeyError, TypeError, AttributeError):
        raise FormatError(f"{os.fspath(path)}: cannot read the graph's input names; name each atenrt.Input "
                          f"(name=...)") from None
    return names


def _is_torch_module(obj):
    return any(c.__module__ == "torch.nn.modules.module" and c.__name__ == "Module" for c in type(obj).__mro__)


def _compile_path(path, settings):
    native = _load_native()
    native_settings = _settings(native, settings)
    engine, report = native.compile(os.fspath(path), native_settings)
    return Engine(engine, _compile_report(engine, report))


def _dry_run_report(native_report):
    return DryRunReport(json.loads(native_report.dry_run_json), native_report.partition)


def _steps(native_engine):
    return tuple(StepSpec(name, kind, impl, precision, layout, tuple(fused))
                 for name, kind, impl, precision, layout, fused in native_engine.steps)


def _compile_report(native_engine, native_report):
    return CompileReport(steps=_steps(native_engine), precision=native_engine.precision,
                         num_threads=native_engine.num_threads, source="compiled",
                         dry_run=_dry_run_report(native_report), lowering=native_report.lowering,
                         fusions=tuple(native_report.fusions), compile_ms=native_report.compile_ms)


def dry_run(path, **settings):
    """Import, lower and partition `path` without building; returns a DryRunReport (coverage,
    segments, each unsupported node with its validator's reason; str() or to_text() for the text,
    to_json() for machines). Takes compile()'s settings; never raises for unsupported nodes
    (FormatError for a bad archive)."""
    native = _load_native()
    return _dry_run_report(native.dry_run(os.fspath(path), _settings(native, settings)))


def load(path, **settings):
    """Load an engine file written by Engine.save (or the CLI). Takes the load-time settings
    (num_threads, max_memory); a compile-time one is a SettingsError naming what the engine was built with.
    Raises FormatError when the file is corrupt."""
    from . import _structure
    native = _load_native()
    engine = native.load_engine(os.fspath(path), _settings(native, settings))
    loaded = Engine(engine, CompileReport(steps=_steps(engine), precision=engine.precision,
                                          num_threads=engine.num_threads, source=f"loaded from {os.fspath(path)}"))
    try:
        structure = _structure.decode(engine.metadata, len(loaded.inputs), len(loaded.outputs))
    except _structure.MetadataError as e:
        raise FormatError(f"'{os.fspath(path)}': engine file: {e}") from None
    loaded._output_structure, loaded._arg_structures, loaded._kwarg_structures = structure
    return loaded


load_engine = load  # the earlier name


def set_log_callback(callback, min_level="info"):
    """Route the library's messages (compile summaries, loaded engine files and plugins, warnings)
    to `callback(level, message)`, level one of "debug", "info", "warning", "error"; messages below
    `min_level` are not made. It may be called from any thread; an exception it raises is reported
    as unraisable and otherwise ignored. None silences the library; reset_log_callback() restores
    the default (warnings and errors to stderr)."""
    _load_native().set_log_callback(callback, min_level)


def reset_log_callback():
    """Back to the default log: warnings and errors to stderr as "atenrt: warning: ..."."""
    _load_native().reset_log_callback()


def load_plugin(path):
    """Load a plugin (a shared library built against include/atenrt/extension.h; see
    docs/plugins.md) into this process: its converters join the registry for every later compile
    and dry run, and its kernels run the plugin layers of engines compiled or loaded later.
    Returns {"path", "name", "converters", "kernels"}; a file loaded already is not loaded again.
    Raises FormatError naming the file when it is missing, not a plugin, built for another extension
    ABI version, or registers a bad converter (SettingsError for one that ATENRT_PLUGINS names, which
    load first)."""
    return dict(_load_native().load_plugin(os.fspath(path)))


def loaded_plugins():
    """The plugins loaded in this process, in load order, as load_plugin returns them."""
    return [dict(p) for p in _load_native().loaded_plugins()]


def _specs(native_specs):
    return tuple(TensorSpec(*spec) for spec in native_specs)


class Engine:
    """An immutable compiled engine; safe to share across threads."""

    def __init__(self, native_engine, report):
        self._engine = native_engine
        self.report = report  # CompileReport: compile's full report, or what a loaded file tells
        # The module's output structure and its arguments' (_structure.py), when known: set by
        # compile for a module, read back from the file's metadata by load.
        self._output_structure = None
        self._arg_structures = None    # a structure per positional argument
        self._kwarg_structures = None  # {keyword argument name: structure}
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

    def _set_structure(self, outputs, args=None, kwargs=None):
        """Keep the module's output and argument structures, in this engine and in its file."""
        from . import _structure
        if outputs is not None and _structure.leaves(outputs) != len(self.outputs):
            outputs = None  # the export flattened differently: keep the engine's flat outputs
        if args is not None and (any(a is None for a in args) or any(k is None for k in kwargs.values()) or
                                 sum(map(_structure.leaves, args)) + sum(map(_structure.leaves, kwargs.values()))
                                 != len(self.inputs)):
            args = kwargs = None
        self._output_structure, self._arg_structures, self._kwarg_structures = outputs, args, kwargs
        if outputs is not None or args is not None:
            self._engine = self._engine.with_metadata(_structure.encode(outputs, args, kwargs))

    def save(self, path):
        """Write the engine to `path` (versioned, checksummed, with the module's input and output
        structure when compiled from a module); load it with atenrt.load."""
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

    @property
    def precision(self):
        """"bf16" when any step computes in bf16, else "fp32"."""
        return self._engine.precision

    @property
    def num_threads(self):
        """Threads per run as set (0: the runtime's default); load(path, num_threads=N) changes it."""
        return self._engine.num_threads

    @property
    def steps(self):
        """The engine's steps: kernel, precision, layout and fused layers of each."""
        return _steps(self._engine)

    @property
    def fallback_ops(self):
        """The ATen ops that run in the libtorch fallback ("aten.eye.default"); empty when every
        node is compiled into one engine."""
        return tuple(self._engine.fallback_ops)

    @property
    def segments(self):
        """"2 engine segments, 1 torch segment (3 ops in libtorch 1.13.0)" for a hybrid engine, else ""."""
        return self._engine.segments_summary

    def __call__(self, *args, **kwargs):
        """Run on torch tensors (or numpy arrays) as the module took them: by position and keyword,
        nested in lists, tuples and dicts (an engine compiled from a module, also after save and
        load), or else by position or by input name. With torch tensors: requires_grad is ignored,
        non-contiguous tensors are made contiguous, and the result is torch tensors. Outputs come in
        the module's output structure (tuple, dict, list...; without one: one tensor, or a tuple)."""
        from . import _structure
        args = self._flat_arguments(args, kwargs)
        is_torch = [type(a).__module__.startswith("torch") for a in args]
        if any(is_torch):
            from . import torch_api
            arrays = [torch_api.to_array(a, spec) if t else a
                      for a, t, spec in zip(args, is_torch, self.inputs)] + list(args[len(self.inputs):])
            outputs = torch_api.to_torch(self.run(*arrays), self)
        else:
            outputs = self.run(*args)
        if self._output_structure is not None:
            return _structure.unflatten(outputs, self._output_structure)
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def _flat_arguments(self, args, kwargs):
        """The engine's inputs, in order, from a call's arguments."""
        from . import _structure
        names = [s.name for s in self.inputs]
        # Every engine input by name (engine(x=..., mask=...)) binds by name, as for any engine.
        if self._arg_structures is not None and not (kwargs and not args and set(kwargs) == set(names)):
            if len(args) > len(self._arg_structures):
                raise InputError(f"{len(args)} positional arguments given, the module took "
                                f"{len(self._arg_structures)}")
            unknown = [k for k in kwargs if k not in self._kwarg_structures]
            if unknown:
                took = ", ".join(self._kwarg_structures) or "none"
                raise InputError(f"unexpected keyword argument {unknown[0]!r} (the module was compiled with: {took})")
            missing = len(self._arg_structures) - len(args)
            if missing:
                raise InputError(f"{missing} positional argument(s) missing: the module was compiled with "
                                f"{len(self._arg_structures)}")
            absent = [k for k in self._kwarg_structures if k not in kwargs]
            if absent:
                raise InputError(f"keyword argument {absent[0]!r} is missing (the module was compiled with it)")

            def is_leaf(x):
                return not isinstance(x, (list, tuple, dict))
            flat = []
            try:
                for i, (a, s) in enumerate(zip(args, self._arg_structures)):
                    flat += _structure.flatten(a, s, f"argument {i}", is_leaf)
                for k, s in self._kwarg_structures.items():
                    flat += _structure.flatten(kwargs[k], s, f"argument {k!r}", is_leaf)
            except TypeError as e:
                raise InputError(str(e)) from None
            return flat
        if kwargs:
            if args:
                raise TypeError("give inputs by position or by name, not both")
            args = _order_by_name(kwargs, self.inputs)
        if any(isinstance(a, (list, tuple, dict)) for a in args):
            from . import torch_api  # nested inputs: flattened as the exporter bound them
            args = torch_api.flatten(args)
        return list(args)

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

    def set_profiling(self, on=True):
        """Time every step of the following runs (off by default: it reads the clock around every
        step). Turning it on clears what was recorded."""
        self._context.set_profiling(bool(on))

    def profile(self):
        """Where the time of the runs since set_profiling(True) went: {"runs": n, "steps": [...]},
        each step a dict with name, kind, implementation, precision, flops (per run: 2 x the
        multiply-adds of a convolution or matmul, else 0), total_ms (over the runs), and
        last_start_ms / last_ms (in the last run). A dynamic engine reports the shape that ran
        last; a hybrid engine lists its torch nodes among the steps."""
        return self._context.profile()


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
