#!/usr/bin/python3
"""Export the atenrt reader fixtures: real torch-written `.pt2` archives plus what a reader must find.

Usage:  /usr/bin/python3 tests/tools/make_fixtures.py OUTDIR [--quick] [--only NAME ...]
        (--quick skips the torchvision models; torch 1.13 + torchvision 0.14 needed.)

For every model NAME, OUTDIR receives:

  NAME.pt2.pt2          "pt2" layout: torch >= 2.9 PT2 archive (root folder = file stem, i.e.
                        "NAME.pt2"), models/model.json, data/weights/weight_N raw storage bytes +
                        model_weights_config.json, data/constants/tensor_N + model_constants_config.json.
                        Written by torch._C.PyTorchFileWriter: 64-byte aligned payloads ("FB" extra
                        field padding), data descriptors (local CRC/sizes 0), ZIP64 end records.
  NAME.pt2-pickle.pt2   torch 2.8 layout: same archive, data/weights/model.pt and
                        data/constants/model.pt are nested torch.save zips (pickle protocol 2).
  NAME.legacy.pt2       torch 2.1-2.7 layout: flat Python zipfile, ZIP_STORED, no root folder:
                        serialized_exported_program.json, serialized_state_dict.pt,
                        serialized_constants.pt, serialized_example_inputs.pt, version ("8.7").
  NAME.legacy_s5.pt2, NAME.legacy_s4.pt2, NAME.legacy_s2.pt2, NAME.legacy_s1.pt2, NAME.legacy_s8_2.pt2
                        (small models only) the legacy layout in older JSON schemas, synthesized
                        from their published definitions (atenrt/_schema_versions.py): 5.3 (torch
                        2.3-2.4, serialized_*.pt), 4.1 (nightlies, $type/$value unions,
                        serialized_*.json), 2 (torch 2.2: all-members unions, serialized_*.json),
                        1 (torch 2.1: flat signature, one serialized_state_dict.json; lifted
                        constants become buffers) and 8.2 (torch 2.6: `as_none: []`).
  NAME.expected.json    what a correct reader must find (same for every layout; schema 1 reads
                        tensor constants as buffers and schemas 1-2 have no `persistent` flag):
      {"nodes": [{"name": node name,
                  "target": op overload without "torch.ops." (e.g. "aten.convolution.default";
                            Python callables as "operator.getitem"),
                  "inputs": [{"name": schema arg name, "value": Argument}]   ALL schema arguments in
                            schema order, defaults filled in (the archives omit default-valued ones),
                  "outputs": [Argument]   exactly as in the archive's node "outputs"}],
       "inputs":  graph.inputs (list of Argument),
       "outputs": graph.outputs (list of Argument),
       "signature": {"input_specs": [...], "output_specs": [...]}   as in the archive,
       "weights": {name: {"dtype": "float32"|"float16"|"bfloat16"|"float64"|"int64"|"int32"|
                                   "int16"|"int8"|"uint8"|"bool",
                          "sizes": [int],
                          "fnv1a64": 16 lowercase hex digits, FNV-1a 64-bit hash of the tensor's
                                     elements in row-major (contiguous) order, each element as its
                                     little-endian bytes (bool = one byte 0/1)}}}
      `weights` has every lifted tensor: parameters and buffers (persistent or not) by fqn, and
      lifted constants by tensor_constant_name, i.e. every target named in signature.input_specs.
      An Argument is the torch.export JSON union: {"as_tensor": {"name": n}}, {"as_tensors": [{"name"}]},
      {"as_int": 1}, {"as_ints": [..]}, {"as_float": 1.0}, {"as_floats": [..]}, {"as_bool": b},
      {"as_bools": [..]}, {"as_none": true}, {"as_string": s}, {"as_scalar_type": serde ScalarType},
      {"as_layout": 7}, {"as_memory_format": serde MemoryFormat}, {"as_device": {"type", "index"}},
      {"as_optional_tensors": [{"as_tensor": ..} | {"as_none": true}]}. Enum values use the serde
      numbering (pt2_format.md §3.6), also for defaults that the schema text prints as c10 integers
      (e.g. `MemoryFormat memory_format=0` is {"as_memory_format": 1}). Non-finite floats are the
      strings "Infinity", "-Infinity", "NaN".
  NAME.inputs.npz       numpy.savez of the example inputs, positional (arr_0, arr_1, ...).
  NAME.outputs.npz      PyTorch eager outputs, flattened in graph.outputs order (arr_0, ...).

Models: tiny_cnn (conv-bn-relu-linear), transformer (embedding + matmul/softmax attention +
LayerNorm + GELU), dtypes (weights of every dtype above), strided (transposed parameter, buffer
slicing a parameter, two offset views of one buffer, non-persistent buffer, lifted constants),
int_bool (integer and boolean computation), resnet18, mobilenet_v2 (torchvision, random init,
fixed seed, perturbed batch-norm statistics). All weights come from fixed seeds.
"""
import argparse
import json
import math
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils._pytree as pytree

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, HERE)

import atenrt  # noqa: E402
from atenrt._archive import SCHEMA_VERSIONS  # noqa: E402
from atenrt._serialize import full_arguments  # noqa: E402
from fnv import fnv1a64_hex  # noqa: E402

DTYPE_NAMES = {torch.float32: "float32", torch.float16: "float16", torch.bfloat16: "bfloat16",
               torch.float64: "float64", torch.int64: "int64", torch.int32: "int32",
               torch.int16: "int16", torch.int8: "int8", torch.uint8: "uint8", torch.bool: "bool"}


# ----------------------------------------------------------------------------------------- models

class TinyCnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        y = F.relu(self.bn(self.conv(x)))
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(y, 1), 1))


class EncoderBlock(nn.Module):
    """Pre-norm transformer encoder block written with plain ops (no nn.MultiheadAttention)."""

    def __init__(self, vocab=100, dim=64, heads=4, seq=16):
        super().__init__()
        self.heads = heads
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.randn(1, seq, dim) * 0.02)
        self.ln1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.ln2 = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, 4 * dim)
        self.fc2 = nn.Linear(4 * dim, dim)
        self.ln_f = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab)
        self.register_buffer("causal", torch.tril(torch.ones(seq, seq, dtype=torch.bool)), persistent=False)

    def forward(self, tokens):
        b, s = tokens.shape
        x = self.embed(tokens) + self.pos[:, :s]
        h = self.ln1(x)
        q, k, v = self.qkv(h).split(h.shape[-1], dim=-1)
        q, k, v = (t.reshape(b, s, self.heads, -1).transpose(1, 2) for t in (q, k, v))
        att = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.shape[-1])
        att = att.masked_fill(~self.causal[:s, :s], float("-inf"))
        att = torch.softmax(att, dim=-1)
        y = torch.matmul(att, v).transpose(1, 2).reshape(b, s, -1)
        x = x + self.proj(y)
        x = x + self.fc2(F.gelu(self.fc1(self.ln2(x))))
        return self.head(self.ln_f(x))


class AllDtypes(nn.Module):
    def __init__(self):
        super().__init__()
        self.w32 = nn.Parameter(torch.randn(4, 8))
        self.w16 = nn.Parameter(torch.randn(4, 8).half())
        self.wbf16 = nn.Parameter(torch.randn(4, 8).bfloat16())
        self.w64 = nn.Parameter(torch.randn(4, 8).double())
        self.register_buffer("i64", torch.randint(-1000, 1000, (4, 8), dtype=torch.int64))
        self.register_buffer("i32", torch.randint(-1000, 1000, (4, 8), dtype=torch.int32))
        self.register_buffer("i16", torch.randint(-1000, 1000, (4, 8), dtype=torch.int16))
        self.register_buffer("i8", torch.randint(-128, 128, (4, 8), dtype=torch.int8))
        self.register_buffer("u8", torch.randint(0, 256, (4, 8), dtype=torch.uint8))
        self.register_buffer("mask", torch.rand(4, 8) > 0.5)

    def forward(self, x):
        y = x * self.w32 + self.w16.float() + self.wbf16.float() + self.w64.float()
        ints = self.i64 + self.i32 + self.i16 + self.i8 + self.u8
        y = y + ints.float() * 0.001
        return torch.where(self.mask, y, -y), ints


class Strided(nn.Module):
    def __init__(self):
        super().__init__()
        self.wt = nn.Parameter(torch.randn(8, 6).t())                 # [6, 8], strides (1, 6)
        self.register_buffer("wt_rows", self.wt.data[1:3])             # aliases the parameter
        base = torch.randn(20)
        self.register_buffer("va", base[2:10].view(2, 4))             # offset 2
        self.register_buffer("vb", base[6:18:2])                      # offset 6, stride 2
        self.register_buffer("scale", torch.rand(8) + 0.5, persistent=False)
        self.table = torch.linspace(-1, 1, 8)                          # plain attribute -> constant

    def forward(self, x):
        y = torch.matmul(x * self.vb, self.wt)                        # [3, 6] x [6, 8]
        y = y * self.scale + self.va.reshape(8) + self.table
        y = y + self.wt_rows.sum(0) + torch.tensor([0.5, -0.5, 0.25, -0.25, 1.0, -1.0, 2.0, -2.0])
        return y


class IntBool(nn.Module):
    def forward(self, x, f):
        a = x * 3 + 1
        b = torch.remainder(a, 5)
        c = b > 2
        d = c & (x < 7)
        e = torch.where(d, f, f * 2.0)
        s = d.sum(dim=1)
        return e, s, d, torch.argmax(x, dim=1), torch.div(x, 2, rounding_mode="floor"), (~d).to(torch.int32)


def _perturb_batchnorm(model, gen):
    """Random init leaves BN as identity (mean 0, var 1); perturb it so folding errors show."""
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            n = m.num_features
            with torch.no_grad():
                m.running_mean.copy_(torch.randn(n, generator=gen) * 0.1)
                m.running_var.copy_(torch.rand(n, generator=gen) + 0.5)
                m.weight.copy_(1.0 + torch.randn(n, generator=gen) * 0.1)
                m.bias.copy_(torch.randn(n, generator=gen) * 0.1)
    return model


def _torchvision(name):
    import torchvision
    return lambda: _perturb_batchnorm(getattr(torchvision.models, name)(), torch.Generator().manual_seed(1))


def _tiny():
    return _perturb_batchnorm(TinyCnn(), torch.Generator().manual_seed(1))


# name -> (factory, inputs factory, quick)
MODELS = {
    "tiny_cnn": (_tiny, lambda: (torch.randn(2, 3, 16, 16),), True),
    "transformer": (EncoderBlock, lambda: (torch.randint(0, 100, (2, 16)),), True),
    "dtypes": (AllDtypes, lambda: (torch.randn(4, 8),), True),
    "strided": (Strided, lambda: (torch.randn(3, 6),), True),
    "int_bool": (IntBool, lambda: (torch.randint(-10, 10, (4, 5)), torch.randn(4, 5)), True),
    "resnet18": (_torchvision("resnet18"), lambda: (torch.randn(1, 3, 224, 224),), False),
    "mobilenet_v2": (_torchvision("mobilenet_v2"), lambda: (torch.randn(1, 3, 224, 224),), False),
}


# Fixture variant -> (layout, schema version). The first three are what torch 2.6-2.11 wrote;
# the legacy_s* ones are older schemas in the legacy zip (see the module docstring).
FORMATS = {
    "pt2": ("pt2", SCHEMA_VERSIONS["pt2"]),
    "pt2-pickle": ("pt2-pickle", SCHEMA_VERSIONS["pt2-pickle"]),
    "legacy": ("legacy", SCHEMA_VERSIONS["legacy"]),
    "legacy_s8_2": ("legacy", (8, 2)),
    "legacy_s5": ("legacy", (5, 3)),
    "legacy_s4": ("legacy", (4, 1)),
    "legacy_s2": ("legacy", (2, 0)),
    "legacy_s1": ("legacy", (1, 0)),
}
CURRENT_FORMATS = ("pt2", "pt2-pickle", "legacy")


# --------------------------------------------------------------------------------- expected.json

def tensor_digest(t):
    t = t.detach().contiguous()
    if t.dtype not in DTYPE_NAMES:
        raise ValueError(f"fixture tensor dtype {t.dtype} is outside the expected.json dtype list")
    raw = t.view(torch.int16) if t.dtype == torch.bfloat16 else t
    data = raw.numpy().astype(raw.numpy().dtype.newbyteorder("<"), copy=False).tobytes()
    return {"dtype": DTYPE_NAMES[t.dtype], "sizes": list(t.shape), "fnv1a64": fnv1a64_hex(data)}


def _expected_target(target):
    if target.startswith("torch.ops."):
        return target[len("torch.ops."):]
    if target.startswith("_operator."):
        return "operator." + target[len("_operator."):]
    return target


def expected(exported):
    nodes = []
    for fx_node, node in exported.call_nodes():
        if isinstance(fx_node.target, torch._ops.OpOverload):
            inputs = [{"name": a.name, "value": value} for a, _, value, _ in full_arguments(fx_node)]
        else:
            inputs = [{"name": i["name"], "value": i["arg"]} for i in node["inputs"]]
        nodes.append({"name": node["name"], "target": _expected_target(node["target"]),
                      "inputs": inputs, "outputs": node["outputs"]})
    graph = exported.program["graph_module"]["graph"]
    weights = {s.target: tensor_digest(s.tensor) for s in exported.traced.slots if s.kind != "user_input"}
    return {"nodes": nodes, "inputs": graph["inputs"], "outputs": graph["outputs"],
            "signature": exported.program["graph_module"]["signature"], "weights": weights}


def _npz(path, tensors):
    np.savez(path, *[t.detach().numpy() for t in tensors])


def make(name, outdir, formats=None):
    factory, inputs_factory, quick = MODELS[name]
    if formats is None:
        formats = FORMATS if quick else CURRENT_FORMATS
    torch.manual_seed(0)
    model = factory().eval()
    inputs = inputs_factory()
    with torch.no_grad():
        eager = pytree.tree_flatten(model(*inputs))[0]
    exported = atenrt.export(model, inputs)
    written = []
    for variant in formats:
        layout, version = FORMATS[variant]
        path = os.path.join(outdir, f"{name}.{variant}.pt2")
        exported.write(path, layout, version)
        written.append(path)
    exp_path = os.path.join(outdir, f"{name}.expected.json")
    with open(exp_path, "w") as f:
        json.dump(atenrt._schema.json_safe(expected(exported)), f, indent=1, allow_nan=False)
    _npz(os.path.join(outdir, f"{name}.inputs.npz"), inputs)
    _npz(os.path.join(outdir, f"{name}.outputs.npz"), eager)
    n_out = len(exported.program["graph_module"]["graph"]["outputs"])
    if n_out != len(eager):
        raise RuntimeError(f"{name}: {n_out} graph outputs but {len(eager)} eager outputs")
    return written + [exp_path, os.path.join(outdir, f"{name}.inputs.npz"),
                      os.path.join(outdir, f"{name}.outputs.npz")]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("outdir")
    parser.add_argument("--quick", action="store_true", help="small models only")
    parser.add_argument("--only", nargs="+", choices=sorted(MODELS), help="just these models")
    args = parser.parse_args(argv)
    os.makedirs(args.outdir, exist_ok=True)
    torch.set_num_threads(min(2, torch.get_num_threads()))
    names = args.only or [n for n, (_, _, quick) in MODELS.items() if quick or not args.quick]
    start = time.time()
    for name in names:
        t0 = time.time()
        for path in make(name, args.outdir):
            print(f"{path}  ({os.path.getsize(path)} bytes)")
        print(f"# {name}: {time.time() - t0:.1f}s", flush=True)
    print(f"# total {time.time() - start:.1f}s")


if __name__ == "__main__":
    main()
