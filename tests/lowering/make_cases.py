#!/usr/bin/python3
"""Writes the decomposition cases of cases.py to OUTDIR/<case>/ (case.json and
raw little-endian tensors), computing the expected outputs with PyTorch.
Usage: /usr/bin/python3 tests/lowering/make_cases.py OUTDIR"""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import CASES, T  # noqa: E402

DTYPES = {torch.float32: "float32", torch.float64: "float64", torch.float16: "float16", torch.bfloat16: "bfloat16",
          torch.int64: "int64", torch.int32: "int32", torch.bool: "bool"}


def resolve(op_name):
    ns, name, overload = op_name.split(".")
    return getattr(getattr(getattr(torch.ops, ns), name), overload)


def save_tensor(t, path):
    t = t.detach().contiguous()
    if t.dtype == torch.bfloat16:  # numpy has no bfloat16: its bits, as int16
        t = t.view(torch.int16)
    t.numpy().tofile(path)


def encode(value, tensors, outdir, gen):
    if isinstance(value, T):
        t = value.make(gen)
        name = "in%d" % len(tensors)
        save_tensor(t, os.path.join(outdir, name + ".bin"))
        tensors.append({"name": name, "dtype": DTYPES[t.dtype], "sizes": list(t.shape), "file": name + ".bin"})
        return t, {"kind": "tensor", "value": name}
    if value is None:
        return None, {"kind": "none"}
    if isinstance(value, bool):
        return value, {"kind": "bool", "value": value}
    if isinstance(value, int):
        return value, {"kind": "int", "value": value}
    if isinstance(value, float):
        return value, {"kind": "float", "value": value if value not in (float("inf"), float("-inf")) else str(value)}
    if isinstance(value, str):
        return value, {"kind": "str", "value": value}
    if isinstance(value, torch.dtype):
        return value, {"kind": "dtype", "value": DTYPES[value]}
    if isinstance(value, (list, tuple)) and all(isinstance(v, int) for v in value):
        return list(value), {"kind": "ints", "value": list(value)}
    raise TypeError("cannot encode %r" % (value,))


def write_case(case, outdir):
    os.makedirs(outdir, exist_ok=True)
    gen = torch.Generator().manual_seed(1234)
    op = resolve(case.op)
    schema_args = op._schema.arguments
    inputs, args, call_args, call_kwargs = [], [], [], {}
    for i, v in enumerate(case.args):
        pv, enc = encode(v, inputs, outdir, gen)
        enc["name"] = schema_args[i].name
        args.append(enc)
        call_args.append(pv)
    for k, v in case.kwargs.items():
        pv, enc = encode(v, inputs, outdir, gen)
        enc["name"] = k
        args.append(enc)
        call_kwargs[k] = pv
    with torch.no_grad():
        result = op(*call_args, **call_kwargs)
    results = list(result) if isinstance(result, (tuple, list)) else [result]
    outputs = []
    for i, r in enumerate(results):
        name = "out%d" % i
        save_tensor(r, os.path.join(outdir, name + ".bin"))
        outputs.append({"name": name, "dtype": DTYPES[r.dtype], "sizes": list(r.shape), "file": name + ".bin"})
    spec = {"name": case.name, "op": case.op, "args": args, "inputs": inputs, "outputs": outputs,
            "expected_ops": case.expected, "unexpected_ops": case.unexpected}
    with open(os.path.join(outdir, "case.json"), "w") as f:
        json.dump(spec, f, indent=1)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_cases.py OUTDIR")
    out = sys.argv[1]
    for case in CASES:
        write_case(case, os.path.join(out, case.name))
    with open(os.path.join(out, "index.txt"), "w") as f:
        f.write("\n".join(c.name for c in CASES) + "\n")
    print("wrote %d cases to %s" % (len(CASES), out))


if __name__ == "__main__":
    main()
