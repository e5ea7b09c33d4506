"""Writes every converter case of cases.py to OUTDIR/<name>/ as model.pt2
(exported with atenrt.export), inputs.npz and outputs.npz (PyTorch eager),
plus OUTDIR/cases.json: the manifest the C++ harness reads ({"filter": the
NAME_SUBSTRING or null, "table_size": cases in the table, "cases": [...]}).

Refuses (exit 1, naming each) a case whose reference cannot tell a working
converter from a broken one, unless the case says why with `trivial=`:
an output with zero spread (every element the same), a float output whose
max|ref| is below 100 x atol (an all-zero engine passes), or an output equal to
one of the inputs within the case's tolerance (a dropped node passes).

Usage: /usr/bin/python3 tests/converters/make_cases.py OUTDIR [NAME_SUBSTRING]"""
import json
import os
import sys
import zlib

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, HERE)

import importlib  # noqa: E402
atenrt_export = importlib.import_module("atenrt.export")
import cases  # noqa: E402


def flatten(out):
    if isinstance(out, torch.Tensor):
        return [out]
    if out is None:   # an output not computed (native MHA's weights without need_weights)
        return []
    items = []
    for o in out:
        items.extend(flatten(o))
    return items


def to_numpy(t):
    t = t.detach().contiguous()
    if t.dtype == torch.bfloat16:
        t = t.float()
    return t.numpy()


DTYPE_NAMES = {torch.float32: "float32", torch.float64: "float64", torch.float16: "float16", torch.bfloat16: "bfloat16",
               torch.int64: "int64", torch.int32: "int32", torch.int16: "int16", torch.int8: "int8",
               torch.uint8: "uint8", torch.bool: "bool"}


def _close(a, b, rtol, atol):
    a, b = a.double(), b.double()
    both_nan = torch.isnan(a) & torch.isnan(b)
    return bool((both_nan | (a == b) | ((a - b).abs() <= atol + rtol * b.abs())).all())


def vacuity(outputs, inputs, rtol, atol):
    """Why these reference outputs could not catch a wrong converter ("" when they can)."""
    for i, out in enumerate(outputs):
        o = out.detach()
        if o.numel() == 0:
            return f"output {i} is empty"
        first = o.reshape(-1)[0]
        same = o == first
        if o.is_floating_point():
            same = same | (torch.isnan(o) & torch.isnan(first))
        if o.numel() > 1 and bool(same.all()):
            return f"output {i} has zero spread (every element is {first.item()})"
        finite = o[torch.isfinite(o)] if o.is_floating_point() else None
        if finite is not None and finite.numel() and float(finite.abs().max()) < 100 * atol:
            return f"output {i}: max|ref| = {float(finite.abs().max()):.3g} is below 100 x atol ({100 * atol:.3g})"
        for k, x in enumerate(inputs):
            if isinstance(x, torch.Tensor) and x.shape == o.shape and x.is_floating_point() == o.is_floating_point() \
                    and _close(o, x, rtol, atol):
                return f"output {i} equals input {k} within tolerance"
    return ""


def encode(value, gen, inputs):
    """A Python argument as JSON for the harness; tensors go to `inputs`."""
    if isinstance(value, cases.T):
        inputs.append(value.make(gen))
        return {"kind": "tensor", "input": len(inputs) - 1}
    if value is None:
        return {"kind": "none"}
    if isinstance(value, bool):
        return {"kind": "bool", "value": value}
    if isinstance(value, int):
        return {"kind": "int", "value": value}
    if isinstance(value, float):
        return {"kind": "float", "value": value}
    if isinstance(value, str):
        return {"kind": "str", "value": value}
    if isinstance(value, torch.dtype):
        return {"kind": "dtype", "value": DTYPE_NAMES[value]}
    if isinstance(value, (list, tuple)):
        if all(isinstance(v, cases.T) for v in value):
            return {"kind": "tensors", "inputs": [encode(v, gen, inputs)["input"] for v in value]}
        if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return {"kind": "ints", "value": list(value)}
        return {"kind": "floats", "value": [float(v) for v in value]}
    raise TypeError(f"cannot encode {value!r}")


def materialize(arg, inputs):
    kind = arg["kind"]
    if kind == "tensor":
        return inputs[arg["input"]].clone()
    if kind == "tensors":
        return [inputs[i].clone() for i in arg["inputs"]]
    if kind == "none":
        return None
    if kind == "dtype":
        return {v: k for k, v in DTYPE_NAMES.items()}[arg["value"]]
    return arg["value"]


def op_target(op):
    return str(op.__module__).replace("torch._ops.", "") + "." + op.__name__


def write_op_case(c, outdir):
    """One node: schema-named arguments, inputs, PyTorch's outputs. A case for an overload torch
    1.13 lacks names its target and arguments and computes the outputs with `reference`."""
    gen = torch.Generator().manual_seed(zlib.crc32(c.name.encode()))
    inputs = []
    names = c.arg_names or [a.name for a in c.op._schema.arguments]
    target = c.target or op_target(c.op)
    args = []
    for i, v in enumerate(c.args):
        args.append(dict(encode(v, gen, inputs), name=names[i]))
    for k, v in c.kwargs.items():
        args.append(dict(encode(v, gen, inputs), name=k))
    entry = dict(name=c.name, family=c.family, refused=c.refused, rtol=c.rtol, atol=c.atol, check=c.check,
                 trivial=c.trivial, op=dict(target=target, args=args), ops=[target])
    cdir = os.path.join(outdir, c.name)
    os.makedirs(cdir, exist_ok=True)
    call_args = [materialize(a, inputs) for a in args[:len(c.args)]]
    call_kwargs = {a["name"]: materialize(a, inputs) for a in args[len(c.args):]}
    try:
        with torch.no_grad():
            out = (c.reference or c.op)(*call_args, **call_kwargs)
    except Exception as e:
        if c.refused is None:
            raise
        out = []
    if out is None:   # a refusal's reference computes nothing
        out = []
    returns = "list" if isinstance(out, list) else "tuple" if isinstance(out, tuple) else "single"
    outs = flatten(out) if not isinstance(out, torch.Tensor) else [out]
    node_outputs = c.node_outputs or len(outs)
    if c.used_outputs is not None:   # the node has more outputs; only these are read
        outs = outs[:c.used_outputs]
        returns = "tuple"
    if c.refused is None and c.check == "values":
        entry["vacuous"] = vacuity(outs, inputs, c.rtol, c.atol)
    entry["op"]["returns"] = returns
    entry["op"]["node_outputs"] = node_outputs
    entry["op"]["outputs"] = [dict(dtype=DTYPE_NAMES[t.dtype], shape=list(t.shape)) for t in outs]
    np.savez(os.path.join(cdir, "inputs.npz"), *[to_numpy(x) for x in inputs])
    np.savez(os.path.join(cdir, "outputs.npz"), *[to_numpy(x) for x in outs])
    return entry


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    outdir = sys.argv[1]
    only = sys.argv[2] if len(sys.argv) > 2 else None
    os.makedirs(outdir, exist_ok=True)
    manifest = []
    for c in cases.CASES:
        if only and only not in c.name:
            continue
        gen = torch.Generator().manual_seed(zlib.crc32(c.name.encode()))
        inputs = [t.make(gen) for t in c.inputs]
        entry = dict(name=c.name, family=c.family, refused=c.refused, rtol=c.rtol, atol=c.atol, check=c.check,
                     trivial=c.trivial)
        cdir = os.path.join(outdir, c.name)
        os.makedirs(cdir, exist_ok=True)
        try:
            c.module.eval()
            with torch.no_grad():
                expected = flatten(c.module(*[x.clone() for x in inputs]))
            exported = atenrt_export.save(c.module, inputs, os.path.join(cdir, "model.pt2"))
            entry["ops"] = sorted({node["target"].replace("torch.ops.", "") for _, node in exported.call_nodes()})
        except Exception as e:  # reported by the harness as an export failure, not a converter failure
            entry["export_error"] = f"{type(e).__name__}: {e}"
            manifest.append(entry)
            print(f"{c.name}: export failed: {entry['export_error']}", file=sys.stderr)
            continue
        if c.refused is None and c.check == "values":
            entry["vacuous"] = vacuity(expected, inputs, c.rtol, c.atol)
        np.savez(os.path.join(cdir, "inputs.npz"), *[to_numpy(x) for x in inputs])
        np.savez(os.path.join(cdir, "outputs.npz"), *[to_numpy(x) for x in expected])
        manifest.append(entry)
    for c in cases.OP_CASES:
        if only and only not in c.name:
            continue
        manifest.append(write_op_case(c, outdir))
    vacuous = [e for e in manifest if e.get("vacuous") and not e.get("trivial")]
    needless = [e for e in manifest if e.get("trivial") and not e.get("vacuous")]
    for e in vacuous:
        print(f"{e['name']}: vacuous reference: {e['vacuous']} (fix the inputs, or say why with trivial=)",
              file=sys.stderr)
    for e in needless:
        print(f"{e['name']}: says trivial= but its reference is not: drop the reason", file=sys.stderr)
    with open(os.path.join(outdir, "cases.json"), "w") as f:
        json.dump(dict(filter=only, table_size=len(cases.CASES) + len(cases.OP_CASES), cases=manifest), f, indent=1)
    trivial = sum(1 for e in manifest if e.get("trivial"))
    print(f"wrote {len(manifest)} cases to {outdir} ({trivial} trivial by design, each saying why)")
    if vacuous or needless:
        sys.exit(f"{len(vacuous)} case(s) with a vacuous reference, {len(needless)} with a needless trivial=")


if __name__ == "__main__":
    main()
