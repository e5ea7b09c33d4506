#!/usr/bin/python3
"""Export the end-to-end models (tests/models/models.py) for test_models.py.

Usage:  /usr/bin/python3 tests/models/make_models.py OUTDIR [--only NAME ...] [--quick]
        (PYTHONPATH must reach python/atenrt; this script adds the checkout's python/ itself.)

For every model NAME, OUTDIR receives:
  NAME.pt2           the module exported with atenrt.save (torch.export schema, "pt2" layout)
  NAME.inputs.npz    numpy.savez of the example inputs, positional (arr_0, arr_1, ...); a classifier's
                     input is the first seed whose reference top-1 is decisive (models.py)
  NAME.outputs.npz   PyTorch eager fp32 outputs, flattened in user-output order (arr_0, ...)
A model whose files are all present and newer than models.py is not exported again.
"""
import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402
import torch  # noqa: E402

import atenrt  # noqa: E402
import models  # noqa: E402


def flatten(out):
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, (list, tuple)):
        return [t for o in out for t in flatten(o)]
    if isinstance(out, dict):
        return [t for o in out.values() for t in flatten(o)]
    raise TypeError(f"unsupported output type {type(out).__name__}")


def paths(outdir, name):
    base = os.path.join(outdir, name)
    return base + ".pt2", base + ".inputs.npz", base + ".outputs.npz"


def up_to_date(outdir, name):
    stamp = os.path.getmtime(os.path.join(HERE, "models.py"))
    return all(os.path.exists(p) and os.path.getmtime(p) >= stamp for p in paths(outdir, name))


def top1_margin(logits):
    """(top-1 minus top-2 logit) / max|logit|: how decisively the reference picks its class."""
    flat = logits.reshape(-1).double()
    top2 = torch.topk(flat, 2).values
    return float((top2[0] - top2[1]) / flat.abs().max().clamp_min(1e-30))


def pick_inputs(spec, module, max_seeds=10):
    """The example inputs and eager outputs: seed 0, or for a classifier the first seed whose
    reference top-1 is decisive (models.TOP1_MARGIN); returns (seed, inputs, outputs)."""
    best = None
    for seed in range(max_seeds if spec.imagenet else 1):
        inputs = list(spec.inputs(seed))
        with torch.no_grad():
            outputs = flatten(module(*inputs))
        margin = top1_margin(outputs[0]) if spec.imagenet else 0.0
        if best is None or margin > best[0]:
            best = (margin, seed, inputs, outputs)
        if not spec.imagenet or margin >= models.TOP1_MARGIN:
            break
    margin, seed, inputs, outputs = best
    if spec.imagenet and margin < models.TOP1_MARGIN:
        print(f"{spec.name}: no seed below {max_seeds} gives a top-1 margin >= {models.TOP1_MARGIN}; "
              f"using seed {seed} (margin {margin:.2g})", file=sys.stderr)
    return seed, inputs, outputs


def export_one(spec, outdir):
    """Export `spec` into outdir; returns (input seed, export seconds, eager seconds)."""
    pt2, inputs_npz, outputs_npz = paths(outdir, spec.name)
    torch.manual_seed(0)
    module = spec.build()
    start = time.perf_counter()
    seed, inputs, outputs = pick_inputs(spec, module)
    eager_s = time.perf_counter() - start
    with torch.no_grad():
        start = time.perf_counter()
        atenrt.save(module, inputs, pt2 + ".tmp")
        export_s = time.perf_counter() - start
    np.savez(inputs_npz, *[t.numpy() for t in inputs])
    np.savez(outputs_npz, *[t.detach().numpy() for t in outputs])
    os.replace(pt2 + ".tmp", pt2)   # last: a present .pt2 means a complete set
    return seed, export_s, eager_s


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("outdir")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="export only these models")
    parser.add_argument("--quick", action="store_true", help="only the small, fast models")
    parser.add_argument("--force", action="store_true", help="export even when the files are up to date")
    args = parser.parse_args(argv)
    os.makedirs(args.outdir, exist_ok=True)
    torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))
    total = time.perf_counter()
    for spec in models.select(args.only, args.quick):
        if not args.force and up_to_date(args.outdir, spec.name):
            print(f"{spec.name:28s} up to date", flush=True)
            continue
        seed, export_s, eager_s = export_one(spec, args.outdir)
        size = os.path.getsize(paths(args.outdir, spec.name)[0]) / 2**20
        print(f"{spec.name:28s} seed {seed}  eager {eager_s:6.1f} s  export {export_s:6.1f} s  {size:7.1f} MiB",
              flush=True)
    print(f"total {time.perf_counter() - total:.1f} s")


if __name__ == "__main__":
    main()
