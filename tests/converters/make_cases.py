"""Writes every converter case of cases.py to OUTDIR/<name>/ as model.pt2
(exported with atenrt.export), inputs.npz and outputs.npz (PyTorch eager),
plus OUTDIR/cases.json: the manifest the C++ harness reads.

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
    items = []
    for o in out:
        items.extend(flatten(o))
    return items


def to_numpy(t):
    t = t.detach().contiguous()
    if t.dtype == torch.bfloat16:
        t = t.float()
    return t.numpy()


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
        entry = dict(name=c.name, family=c.family, refused=c.refused, rtol=c.rtol, atol=c.atol, check=c.check)
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
        np.savez(os.path.join(cdir, "inputs.npz"), *[to_numpy(x) for x in inputs])
        np.savez(os.path.join(cdir, "outputs.npz"), *[to_numpy(x) for x in expected])
        manifest.append(entry)
    with open(os.path.join(outdir, "cases.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    print(f"wrote {len(manifest)} cases to {outdir}")


if __name__ == "__main__":
    main()
