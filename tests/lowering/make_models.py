#!/usr/bin/python3
"""Exports tiny modules with python/atenrt/export.py (torch 1.13 make_fx) for the
lowering tests: OUTDIR/<model>/model.pt2, in0.bin ..., out0.bin ... and meta.json
(input/output dtypes and shapes, ops that must be gone after lowering).
Usage: /usr/bin/python3 tests/lowering/make_models.py OUTDIR"""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import atenrt  # noqa: E402


class MlpBlock(torch.nn.Module):
    """Linear (t + addmm), LayerNorm, SiLU, Hardswish, var, log_softmax."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 6)
        self.norm = torch.nn.LayerNorm(6)

    def forward(self, x):
        h = torch.nn.functional.silu(self.norm(self.fc(x)))
        h = torch.nn.functional.hardswish(h) + h.var(dim=1, keepdim=True)
        return torch.log_softmax(h, dim=-1)


class GroupNormMish(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.gn = torch.nn.GroupNorm(2, 4)

    def forward(self, x):
        y = torch.nn.functional.mish(self.gn(x))
        return torch.logsumexp(y, dim=2), y.flip(1).std(dim=(1, 2))


MODELS = {
    "mlp_block": (MlpBlock, [(3, 4)], ["aten.addmm.default", "aten.t.default", "aten.native_layer_norm.default",
                                       "aten.silu.default", "aten.hardswish.default", "aten._log_softmax.default",
                                       "aten.detach.default"]),
    "group_norm_mish": (GroupNormMish, [(2, 4, 5)], ["aten.native_group_norm.default", "aten.mish.default",
                                                     "aten.logsumexp.default", "aten.flip.default"]),
}


def main():
    out = sys.argv[1]
    torch.manual_seed(0)
    for name, (cls, shapes, gone) in MODELS.items():
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        module = cls().eval()
        with torch.no_grad():
            for p in module.parameters():  # non-trivial affine parameters
                p.add_(torch.randn(p.shape) * 0.1)
        inputs = tuple(torch.randn(s) for s in shapes)
        atenrt.save(module, inputs, os.path.join(d, "model.pt2"))
        with torch.no_grad():
            result = module(*inputs)
        results = list(result) if isinstance(result, tuple) else [result]
        for i, t in enumerate(inputs):
            t.numpy().tofile(os.path.join(d, "in%d.bin" % i))
        for i, t in enumerate(results):
            t.numpy().tofile(os.path.join(d, "out%d.bin" % i))
        meta = {"inputs": [list(t.shape) for t in inputs], "outputs": [list(t.shape) for t in results],
                "gone_ops": gone}
        with open(os.path.join(d, "meta.json"), "w") as f:
            json.dump(meta, f)
    with open(os.path.join(out, "index.txt"), "w") as f:
        f.write("\n".join(MODELS) + "\n")


if __name__ == "__main__":
    main()
