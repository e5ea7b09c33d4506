#!/usr/bin/python3
"""Export the end-to-end models (tests/models/models.py) for test_models.py.

Usage:  /usr/bin/python3 tests/models/make_models.py OUTDIR [--only NAME ...] [--quick]
        (PYTHONPATH must reach python/atenrt; this script adds the checkout's python/ itself.)

For every model NAME, OUTDIR receives:
  NAME.pt2           the module exported with atenrt.save (torch.export schema, "pt2" layout)
  NAME.inputs.npz    numpy.savez of the example inputs, positional (arr_0, arr_1, ...); a classifier's
                     input is the first seed whose reference top-1 is decisive (models.py)
  NAME.meta.json     {"seed": input seed, "torch_bf16_emulation_error": max|emu - ref| / max|ref| of
                     PyTorch doing atenrt's bf16 arithmetic (bf16_emulation below), "top1_slack": top-1
                     margin / the needed margin}
  NAME.bf16_emulation.npz  the emulation's outputs
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
import torch.nn.functional as F  # noqa: E402
from torch.overrides import TorchFunctionMode  # noqa: E402

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


def emulation_path(outdir, name):
    return os.path.join(outdir, name + ".bf16_emulation.npz")


def up_to_date(outdir, name):
    stamp = max(os.path.getmtime(os.path.join(HERE, f)) for f in ("models.py", "make_models.py"))
    files = list(paths(outdir, name)) + [meta_path(outdir, name), emulation_path(outdir, name)]
    return all(os.path.exists(p) and os.path.getmtime(p) >= stamp for p in files)


def top1_margin(logits):
    """(top-1 minus top-2 logit) / max|logit|: how decisively the reference picks its class."""
    flat = logits.reshape(-1).double()
    top2 = torch.topk(flat, 2).values
    return float((top2[0] - top2[1]) / flat.abs().max().clamp_min(1e-30))


def _bf16(t):
    return t.to(torch.bfloat16).to(t.dtype) if isinstance(t, torch.Tensor) and t.is_floating_point() else t


_CONV = {F.conv1d, F.conv2d, F.conv3d, F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d, F.linear}
_MATMUL = {torch.matmul, torch.Tensor.matmul, torch.Tensor.__matmul__, torch.bmm, torch.Tensor.bmm, torch.mm,
           torch.Tensor.mm}
_ADD_MATMUL = {torch.addmm, torch.Tensor.addmm, torch.baddbmm, torch.Tensor.baddbmm}  # (input, a, b): a and b


class _Bf16Operands(TorchFunctionMode):
    """Rounds the operands of every convolution, linear and matrix product to bf16 (products and
    sums stay fp32): what atenrt's bf16 precision does on the conv/deconv/matmul steps."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if func in _CONV:
            args = (_bf16(args[0]), _bf16(args[1])) + tuple(args[2:])
        elif func in _MATMUL:
            args = tuple(_bf16(a) for a in args)
        elif func in _ADD_MATMUL:
            args = (args[0], _bf16(args[1]), _bf16(args[2])) + tuple(args[3:])
        return func(*args, **(kwargs or {}))


def bf16_emulation(module):
    """PyTorch doing atenrt's bf16 arithmetic with the same rounding points: a batch norm reading a
    convolution's output is folded into it (in double, as the builder does) and the folded weights
    are rounded; the operands of every convolution, linear and matrix product are rounded to bf16.
    Folding is done by forward hooks, so any model works (no tracing). Where atenrt rounds exactly
    here (models.ModelSpec.bf16_exact) its bf16 output is within a few % of this one's error."""
    emu = copy.deepcopy(module)
    produced = {}   # id(conv output) -> (conv, its input, the output itself: keeps the id unique)

    def conv_hook(conv, args, out):
        produced[id(out)] = (conv, args[0], out)

    def bn_hook(bn, args, out):
        src = produced.get(id(args[0]))
        if src is None or src[2] is not args[0] or bn.training or bn.running_var is None:
            return None
        conv, x, _ = src
        scale = (bn.weight.double() if bn.affine else 1.0) / torch.sqrt(bn.running_var.double() + bn.eps)
        w = (conv.weight.double() * scale.reshape(-1, *[1] * (conv.weight.dim() - 1))).float()
        bias = conv.bias.double() if conv.bias is not None else torch.zeros_like(scale)
        b = ((bias - bn.running_mean.double()) * scale + (bn.bias.double() if bn.affine else 0.0)).float()
        return conv._conv_forward(x, w, b)

    for m in emu.modules():
        if isinstance(m, (nn.Conv1d, nn.Conv2d, nn.Conv3d)):
            m.register_forward_hook(conv_hook)
        elif isinstance(m, nn.modules.batchnorm._BatchNorm):
            m.register_forward_hook(bn_hook)

    def run(*inputs):
        try:
            with _Bf16Operands():
                return emu(*inputs)
        finally:
            produced.clear()
    return run


def rel_error(got, want):
    return max(float((g.double() - w.double()).abs().max() / w.double().abs().max().clamp_min(1e-30))
               for g, w in zip(got, want))


def pick_inputs(spec, module, max_seeds=10, search=False):
    """The example inputs, eager outputs and bf16 emulation (outputs, error): seed 0, or
    for a classifier the first seed whose reference top-1 is decisive at bf16 resolution (margin >=
    max(TOP1_MARGIN, 2 x emulated bf16 error)); also returns that slack (margin / needed).
    Unless `search`, a classifier tries its seed in models.SEARCHED_SEEDS first, and a seed pinned
    in models.NO_DECISIVE_SEED is taken as the search's best without running the other nine."""
    emu = bf16_emulation(module)
    seeds = list(range(max_seeds if spec.imagenet else 1))
    pinned = None if search or not spec.imagenet else models.SEARCHED_SEEDS.get(spec.name)
    if pinned is not None:
        seeds = [pinned] + [s for s in seeds if s != pinned]
    best = None
    for seed in seeds:
        inputs = list(spec.inputs(seed))
        with torch.no_grad():
            outputs = flatten(module(*inputs))
            emulated = flatten(emu(*inputs))
        emu_err = rel_error(emulated, outputs)
        need = max(models.TOP1_MARGIN, 2 * emu_err)
        slack = top1_margin(outputs[0]) / need if spec.imagenet else 1.0
        if best is None or slack > best[0]:
            best = (slack, seed, inputs, outputs, emulated, emu_err)
        if slack >= 1.0 or (seed == pinned and spec.name in models.NO_DECISIVE_SEED):
            break
    slack, seed, inputs, outputs, emulated, emu_err = best
    if slack < 1.0:
        print(f"{spec.name}: no seed below {max_seeds} gives a decisive top-1; using seed {seed} "
              f"(margin {slack:.2f} of the needed): the top-1 check is dropped for it", file=sys.stderr)
    return seed, inputs, outputs, dict(outputs=emulated, error=emu_err, top1_slack=slack)


def export_one(spec, outdir, search_seeds=False):
    """Export `spec` into outdir; returns (input seed, export seconds, eager seconds)."""
    pt2, inputs_npz, outputs_npz = paths(outdir, spec.name)
    torch.manual_seed(0)
    module = spec.build()
    start = time.perf_counter()
    seed, inputs, outputs, emu = pick_inputs(spec, module, search=search_seeds)
    eager_s = time.perf_counter() - start
    with torch.no_grad():
        start = time.perf_counter()
        atenrt.save(module, inputs, pt2 + ".tmp")
        export_s = time.perf_counter() - start
    np.savez(inputs_npz, *[t.numpy() for t in inputs])
    np.savez(outputs_npz, *[t.detach().numpy() for t in outputs])
    np.savez(emulation_path(outdir, spec.name), *[t.detach().numpy() for t in emu["outputs"]])
    with open(meta_path(outdir, spec.name), "w") as f:
        json.dump({"seed": seed, "torch_bf16_emulation_error": emu["error"], "top1_slack": emu["top1_slack"]}, f)
    os.replace(pt2 + ".tmp", pt2)   # last: a present .pt2 means a complete set
    return seed, export_s, eager_s


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("outdir")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="export only these models")
    parser.add_argument("--quick", action="store_true", help="only the small, fast models")
    parser.add_argument("--force", action="store_true", help="export even when the files are up to date")
    parser.add_argument("--search-seeds", action="store_true",
                        help="search every classifier's input seed instead of starting from models.SEARCHED_SEEDS")
    args = parser.parse_args(argv)
    os.makedirs(args.outdir, exist_ok=True)
    torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))
    total = time.perf_counter()
    for spec in models.select(args.only, args.quick):
        if not args.force and up_to_date(args.outdir, spec.name):
            print(f"{spec.name:28s} up to date", flush=True)
            continue
        seed, export_s, eager_s = export_one(spec, args.outdir, args.search_seeds)
        size = os.path.getsize(paths(args.outdir, spec.name)[0]) / 2**20
        print(f"{spec.name:28s} seed {seed}  eager {eager_s:6.1f} s  export {export_s:6.1f} s  {size:7.1f} MiB",
              flush=True)
    print(f"total {time.perf_counter() - total:.1f} s")


if __name__ == "__main__":
    main()
