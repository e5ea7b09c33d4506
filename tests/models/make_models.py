#!/usr/bin/python3
"""Export the end-to-end models (tests/models/models.py) for test_models.py.

Usage:  /usr/bin/python3 tests/models/make_models.py OUTDIR [--only NAME ...] [--quick]
        (PYTHONPATH must reach python/atenrt; this script adds the checkout's python/ itself.)

For every model NAME, OUTDIR receives:
  NAME.pt2           the module exported with atenrt.save (torch.export schema, "pt2" layout)
  NAME.inputs.npz    numpy.savez of the example inputs, positional (arr_0, arr_1, ...); a classifier's
                     input is the first seed whose reference top-1 is decisive (models.py)
  NAME.meta.json     {"seed": input seed, "torch_bf16_emulation_error": max|emu - ref| / max|ref| of
                     PyTorch doing atenrt's bf16 arithmetic (bf16_emulation below)}
  NAME.outputs.npz   PyTorch eager fp32 outputs, flattened in user-output order (arr_0, ...)
A model whose files are all present and newer than models.py is not exported again.
"""
import argparse
import copy
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402

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


def meta_path(outdir, name):
    return os.path.join(outdir, name + ".meta.json")


def up_to_date(outdir, name):
    stamp = max(os.path.getmtime(os.path.join(HERE, f)) for f in ("models.py", "make_models.py"))
    files = list(paths(outdir, name)) + [meta_path(outdir, name)]
    return all(os.path.exists(p) and os.path.getmtime(p) >= stamp for p in files)


def top1_margin(logits):
    """(top-1 minus top-2 logit) / max|logit|: how decisively the reference picks its class."""
    flat = logits.reshape(-1).double()
    top2 = torch.topk(flat, 2).values
    return float((top2[0] - top2[1]) / flat.abs().max().clamp_min(1e-30))


def _bf16(t):
    return t.to(torch.bfloat16).to(t.dtype) if t.is_floating_point() else t


def bf16_emulation(module):
    """A copy of `module` doing what atenrt's bf16 precision does: convolution and linear inputs and
    weights rounded to bf16, arithmetic and everything else in fp32 (functional matmuls stay fp32,
    so the emulated error is if anything a little smaller than atenrt's)."""
    emu = copy.deepcopy(module)
    for m in emu.modules():
        if isinstance(m, (nn.Conv1d, nn.Conv2d, nn.Conv3d, nn.Linear)):
            with torch.no_grad():
                m.weight.copy_(_bf16(m.weight))
            m.register_forward_pre_hook(lambda _m, args: tuple(_bf16(a) for a in args))
    return emu


def rel_error(got, want):
    return max(float((g.double() - w.double()).abs().max() / w.double().abs().max().clamp_min(1e-30))
               for g, w in zip(got, want))


def pick_inputs(spec, module, max_seeds=10):
    """The example inputs, eager outputs and PyTorch's bf16-emulation error: seed 0, or for a
    classifier the first seed whose reference top-1 is decisive at bf16 resolution (margin >=
    max(TOP1_MARGIN, 2 x emulated bf16 error)); returns (seed, inputs, outputs, bf16 error)."""
    emu = bf16_emulation(module)
    best = None
    for seed in range(max_seeds if spec.imagenet else 1):
        inputs = list(spec.inputs(seed))
        with torch.no_grad():
            outputs = flatten(module(*inputs))
            emu_err = rel_error(flatten(emu(*inputs)), outputs)
        need = max(models.TOP1_MARGIN, 2 * emu_err)
        slack = top1_margin(outputs[0]) / need if spec.imagenet else 1.0
        if best is None or slack > best[0]:
            best = (slack, seed, inputs, outputs, emu_err)
        if slack >= 1.0:
            break
    slack, seed, inputs, outputs, emu_err = best
    if slack < 1.0:
        print(f"{spec.name}: no seed below {max_seeds} gives a decisive top-1; using seed {seed} "
              f"(margin {slack:.2f} of the needed)", file=sys.stderr)
    return seed, inputs, outputs, emu_err


def export_one(spec, outdir):
    """Export `spec` into outdir; returns (input seed, export seconds, eager seconds)."""
    pt2, inputs_npz, outputs_npz = paths(outdir, spec.name)
    torch.manual_seed(0)
    module = spec.build()
    start = time.perf_counter()
    seed, inputs, outputs, emu_err = pick_inputs(spec, module)
    eager_s = time.perf_counter() - start
    with torch.no_grad():
        start = time.perf_counter()
        atenrt.save(module, inputs, pt2 + ".tmp")
        export_s = time.perf_counter() - start
    np.savez(inputs_npz, *[t.numpy() for t in inputs])
    np.savez(outputs_npz, *[t.detach().numpy() for t in outputs])
    with open(meta_path(outdir, spec.name), "w") as f:
        json.dump({"seed": seed, "torch_bf16_emulation_error": emu_err}, f)
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
