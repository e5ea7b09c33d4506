"""The reports atenrt gives back: what the partitioner made of a graph (DryRunReport) and what
compile did (CompileReport, `engine.report`). Plain data with a short repr; `to_text()` and
`to_json()` for people and machines. Needs neither torch nor numpy."""
import json
from typing import NamedTuple, Optional, Tuple

__all__ = ["DryRunReport", "CompileReport", "Segment", "UnsupportedNode", "StepSpec"]


class UnsupportedNode(NamedTuple):
    """A node no converter takes: its name, op overload, and the validator's reason."""
    node: str
    op: str
    reason: str


class Segment(NamedTuple):
    """A run of nodes the partitioner keeps together. target: "engine" or "fallback" (would need
    PyTorch, which atenrt does not have at run time). inputs leave weights out; weight_inputs
    counts them. supported_nodes: in a fallback segment, nodes atenrt could convert but whose block
    is below min_block_size. fallback_why: in a fallback segment, each node and why it runs there
    ("inv (aten.linalg_inv_ex.default): no converter ...", "... listed in torch_executed_ops",
    "... in a block of 2 compute ops, below min_block_size 5")."""
    target: str
    nodes: int
    compute_ops: int
    inputs: Tuple[str, ...]
    weight_inputs: int
    outputs: Tuple[str, ...]
    supported_nodes: int
    fallback_why: Tuple[str, ...] = ()


class StepSpec(NamedTuple):
    """One step of an engine: its layer, kernel, compute precision, output layout and fused layers."""
    name: str
    kind: str
    implementation: str
    precision: str
    layout: str
    fused: Tuple[str, ...]


class DryRunReport:
    """Which nodes atenrt supports and how the graph would be cut (atenrt.dry_run, and
    `engine.report.dry_run` after compile)."""

    def __init__(self, data, text):
        self._data = data
        self._text = text
        self.total_ops = data["total_ops"]
        self.supported_ops = data["supported_ops"]
        self.fully_supported = data["fully_supported"]
        self.engine_segments = data["engine_segments"]
        self.fallback_segments = data["fallback_segments"]
        self.fallback_nodes = data["fallback_nodes"]
        self.fallback_supported_nodes = data["fallback_supported_nodes"]
        self.min_block_size = data["min_block_size"]
        self.suggested_min_block_size = data["suggested_min_block_size"]
        self.segments = tuple(Segment(s["target"], s["nodes"], s["compute_ops"], tuple(s["inputs"]),
                                      s["weight_inputs"], tuple(s["outputs"]), s["supported_nodes"],
                                      tuple(s.get("fallback_why", ())))
                              for s in data["segments"])
        self.unsupported = tuple(UnsupportedNode(u["node"], u["op"], u["reason"]) for u in data["unsupported"])
        # Nodes that must run in the fallback but that it refuses: compiling fails naming them.
        self.refused = tuple(UnsupportedNode(u["node"], u["op"], u["reason"]) for u in data.get("refused", ()))

    @property
    def coverage(self):
        """Supported operators as a fraction (1.0 when the graph is empty)."""
        return self.supported_ops / self.total_ops if self.total_ops else 1.0

    def to_text(self):
        return self._text

    def to_json(self):
        return json.dumps(self._data, indent=2)

    def to_dict(self):
        return json.loads(json.dumps(self._data))

    def __str__(self):
        return self._text

    def __repr__(self):
        extra = f", {len(self.unsupported)} unsupported" if self.unsupported else ""
        hint = (f", suggested min_block_size={self.suggested_min_block_size}"
                if self.suggested_min_block_size is not None else "")
        return (f"<atenrt.DryRunReport {self.supported_ops}/{self.total_ops} operators supported, "
                f"{self.engine_segments} engine segment(s), {self.fallback_segments} fallback{extra}{hint}>")


class CompileReport:
    """What made an engine. After compile(): the dry run, the lowering summary, the builder's
    fusions, op counts and compile time. After load(): what the engine file tells (precision,
    steps, fusions); the compile-only parts are None."""

    def __init__(self, *, steps, precision, num_threads, source, dry_run=None, lowering=None, fusions=None,
                 compile_ms=None):
        self.dry_run: Optional[DryRunReport] = dry_run
        self.lowering: Optional[str] = lowering
        self.steps: Tuple[StepSpec, ...] = tuple(steps)
        self.precision: str = precision
        self.num_threads: int = num_threads
        self.source: str = source  # "compiled" or "loaded from <path>"
        if fusions is None:
            fusions = tuple(f for s in self.steps for f in s.fused)
        self.fusions: Tuple[str, ...] = tuple(fusions)
        self.compile_ms: Optional[float] = compile_ms

    @property
    def partition(self):
        """The dry-run report as text (None for a loaded engine)."""
        return self.dry_run.to_text() if self.dry_run else None

    @property
    def total_ops(self):
        return self.dry_run.total_ops if self.dry_run else None

    @property
    def supported_ops(self):
        return self.dry_run.supported_ops if self.dry_run else None

    def to_dict(self):
        return {
            "source": self.source, "precision": self.precision, "num_threads": self.num_threads,
            "compile_ms": self.compile_ms, "fusions": list(self.fusions),
            "steps": [s._asdict() for s in self.steps],
            "dry_run": self.dry_run.to_dict() if self.dry_run else None,
            "lowering": self.lowering,
        }

    def to_json(self):
        return json.dumps(self.to_dict(), indent=2)

    def to_text(self):
        lines = [f"{self.source}: precision {self.precision}, {len(self.steps)} steps, {len(self.fusions)} fusions"
                 + (f", compiled in {self.compile_ms:.0f} ms" if self.compile_ms is not None else "")]
        if self.dry_run:
            lines += ["", self.dry_run.to_text().rstrip()]
        if self.lowering:
            lines += ["", self.lowering.rstrip()]
        return "\n".join(lines) + "\n"

    def __repr__(self):
        ops = f"{self.supported_ops}/{self.total_ops} ops, " if self.dry_run else ""
        ms = f", {self.compile_ms:.0f} ms" if self.compile_ms is not None else ""
        return (f"<atenrt.CompileReport {self.source}: {ops}{len(self.steps)} steps, {len(self.fusions)} fusions, "
                f"{self.precision}{ms}>")
