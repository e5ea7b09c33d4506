"""Runs on a machine with a modern torch (the device machine: torch 2.11): exports small models
with torch.export and saves real archives, their inputs and torch's outputs, for atenrt's
real-archive tests. Writes under $OUT/real/."""
import json, os, sys, traceback
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

OUT = os.path.join(os.environ.get("OUT", "/tmp/out"), "real")
os.makedirs(OUT, exist_ok=True)
torch.manual_seed(0)
manifest = {"torch": torch.__version__, "models": {}}
try:
    from torch._export.serde.schema import SCHEMA_VERSION
    manifest["schema_version"] = list(SCHEMA_VERSION)
except Exception as e:  # noqa
    manifest["schema_version"] = str(e)


class Cnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.fc = nn.Linear(8 * 4 * 4, 10)
    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn(self.conv(x))), 2)
        return self.fc(torch.flatten(x, 1))


class InPlace(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(16, 16)
        self.b = nn.Linear(16, 8)
    def forward(self, x):
        y = self.a(x)
        y.relu_()
        y.add_(x)
        y.mul_(0.5)
        z = F.hardtanh_(self.b(y))
        return z, y.sum(dim=-1)


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.mha = nn.MultiheadAttention(32, 4, batch_first=True)
        self.ln = nn.LayerNorm(32)
        self.ff = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 32))
    def forward(self, x):
        a, _ = self.mha(x, x, x, need_weights=False)
        x = self.ln(x + a)
        return x + self.ff(x)


class Sdpa(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(32, 96)
    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(x).split(32, dim=-1)
        q, k, v = (u.view(b, t, 4, 8).transpose(1, 2) for u in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return y.transpose(1, 2).reshape(b, t, c)


class Recurrent(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(8, 16, num_layers=2, batch_first=True)
        self.gru = nn.GRU(16, 8, batch_first=True)
    def forward(self, x):
        y, _ = self.lstm(x)
        z, h = self.gru(y)
        return z, h


class Ops(nn.Module):
    def forward(self, x, idx):
        a = torch.nan_to_num(x / (x - x.mean()), nan=0.0, posinf=5.0, neginf=-5.0)
        b = torch.logit(torch.sigmoid(x), eps=1e-6)
        c = torch.isin(idx, torch.tensor([1, 3, 5]))
        d = torch.bucketize(x, torch.tensor([-1.0, 0.0, 1.0]))
        e = (x > 0) | (x < -1)
        f = torch.where(e, x, torch.zeros_like(x)).cumsum(-1)
        g = torch.topk(x, 3, dim=-1).values
        h = idx << 2
        i = idx >> 1
        j = x.masked_fill(c.unsqueeze(-1).expand_as(x) if c.dim() == 1 else c, 1.5)
        return a, b, c, d, e, f, g, h, i, j


class Buffers(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("count", torch.zeros(4))
        self.lin = nn.Linear(4, 4)
    def forward(self, x):
        self.count.add_(1)
        return self.lin(x) + self.count


class Cond(nn.Module):
    def forward(self, x):
        return torch.cond(x.sum() > 0, lambda t: t.sin(), lambda t: t.cos(), (x,))


class DynCnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)
        self.fc = nn.Linear(4, 5)
    def forward(self, x):
        y = F.relu(self.conv(x)).mean(dim=(2, 3))
        torch._check(x.shape[0] <= 16)
        return self.fc(y) * x.shape[0]


class DynSeq(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(50, 16)
        self.lin = nn.Linear(16, 16)
    def forward(self, tokens):
        h = self.emb(tokens)
        n = tokens.shape[1]
        pos = torch.arange(n, dtype=torch.float32).unsqueeze(-1) / n
        return self.lin(h + pos).softmax(-1)


def flat_outputs(out):
    leaves, _ = torch.utils._pytree.tree_flatten(out)
    return [t for t in leaves if isinstance(t, torch.Tensor)]


def to_np(t):
    t = t.detach()
    if t.dtype == torch.bfloat16:
        t = t.float()
    return t.numpy()


def save_case(name, module, args, variants=("training", "decomposed"), dynamic_shapes=None, extra_inputs=(), train=False):
    module = module.train() if train else module.eval()
    for variant in variants:
        key = f"{name}.{variant}"
        entry = {"variant": variant, "dynamic": dynamic_shapes is not None}
        try:
            torch.manual_seed(1)
            ep = torch.export.export(module, args, dynamic_shapes=dynamic_shapes)
            if variant == "decomposed":
                ep = ep.run_decompositions()
            path = os.path.join(OUT, key + ".pt2")
            torch.export.save(ep, path)
            entry["ops"] = sorted({str(n.target) for n in ep.graph.nodes if n.op == "call_function"})
            entry["signature_outputs"] = [str(o.kind) + ":" + str(getattr(o, "target", "")) for o in ep.graph_signature.output_specs]
            sets = [args] + list(extra_inputs)
            for i, inputs in enumerate(sets):
                with torch.no_grad():
                    # a fresh copy of the module's state for stateful modules: the archive's outputs are
                    # those of one call from the exported state
                    out = ep.module()(*inputs)
                np.savez(os.path.join(OUT, f"{key}.inputs{i}.npz"), **{f"arg{j}": to_np(a) for j, a in enumerate(inputs)})
                np.savez(os.path.join(OUT, f"{key}.outputs{i}.npz"), **{f"out{j}": to_np(t) for j, t in enumerate(flat_outputs(out))})
            entry["input_sets"] = len(sets)
            entry["ok"] = True
        except Exception as e:  # noqa
            entry["ok"] = False
            entry["error"] = f"{type(e).__name__}: {e}"[:2000]
            entry["trace"] = traceback.format_exc()[-3000:]
        manifest["models"][key] = entry
        print(key, "ok" if entry.get("ok") else entry["error"][:200], flush=True)


r = torch.randn
save_case("cnn", Cnn(), (r(2, 3, 8, 8),))
save_case("cnn_train", Cnn(), (r(2, 3, 8, 8),), variants=("training",), train=True)
save_case("inplace", InPlace(), (r(3, 16),))
save_case("attention", Attention(), (r(2, 6, 32),))
save_case("sdpa", Sdpa(), (r(2, 7, 32),))
save_case("recurrent", Recurrent(), (r(2, 5, 8),))
save_case("ops", Ops(), (r(4, 6), torch.tensor([0, 1, 2, 3, 5, 7])[:4]))
save_case("buffers", Buffers(), (r(2, 4),))
save_case("cond", Cond(), (r(3, 4),), variants=("training",))
enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(32, 4, 64, batch_first=True), 2)
save_case("encoder", enc, (r(2, 5, 32),))
B = torch.export.Dim("batch", min=1, max=16)
save_case("dyn_cnn", DynCnn(), (r(4, 3, 10, 10),), dynamic_shapes={"x": {0: B}},
          extra_inputs=[(r(1, 3, 10, 10),), (r(9, 3, 10, 10),)])
T = torch.export.Dim("seq", min=2, max=64)
save_case("dyn_seq", DynSeq(), (torch.randint(0, 50, (2, 8)),), dynamic_shapes={"tokens": {1: T}},
          extra_inputs=[(torch.randint(0, 50, (2, 3)),), (torch.randint(0, 50, (2, 40)),)])
try:
    import torchvision
    m = torchvision.models.mobilenet_v3_small(num_classes=10)
    save_case("mobilenet_v3_small", m, (r(1, 3, 64, 64),))
except Exception as e:  # noqa
    manifest["torchvision"] = str(e)
with open(os.path.join(OUT, "manifest.json"), "w") as f:
    json.dump(manifest, f, indent=1)
print("done", sum(1 for m in manifest["models"].values() if m.get("ok")), "of", len(manifest["models"]))
