"""The end-to-end model table: every model atenrt must compile and match PyTorch on (issue 6).

Each entry is a `ModelSpec`: a builder for the module (random init, fixed seed, eval mode, no
downloads), example inputs, and how its outputs are compared. `make_models.py` exports them;
`test_models.py` compiles and runs them with the atenrt CLI.

Comparison rules (stated once, used by test_models.py):
  fp32: np.allclose(out, ref, rtol=FP32_RTOL, atol=FP32_RTOL * max|ref|) per output.
  bf16: max|out - ref| <= max(BF16_TOL, BF16_EMULATION_FACTOR * e) * max|ref| per output, where e
        is the same error of PyTorch itself doing atenrt's bf16 arithmetic (convolution and linear
        operands rounded to bf16, fp32 elsewhere; make_models.py measures it). With batch-norm
        statistics calibrated to unit-scale activations, random deep nets amplify bf16 rounding
        beyond 2e-2 for any bf16 engine (mobilenet_v2: PyTorch's emulation is off by 5.8e-2), so
        2e-2 holds where the model allows it and "no worse than PyTorch's bf16, within a factor"
        where it does not; test_models.py reports both numbers.
        ImageNet-sized classifiers (`imagenet=True`) must also keep the top-1 class. Random weights
        often give near-ties (regnet_y_400mf on seed 0: top-2 logits 1.4e-5 of the scale apart),
        which no bf16 engine can resolve, so make_models.py draws the classifier's input with the
        first seed whose top-1/top-2 margin is >= max(TOP1_MARGIN, 2 e) * max|ref|; where no seed
        of ten gives that margin the top-1 check is dropped (it could not fail for the right reason).
        See BF16_MATCH and BF16_DIFFERS for the checks that bf16 was used.
A spec may loosen a bound only with `fp32_rtol` / `bf16_tol` and a comment saying why.
"""
import math
from dataclasses import dataclass, field
from typing import Callable, Dict, Optional, Sequence

import torch
import torch.nn as nn
import torch.nn.functional as F

FP32_RTOL = 1e-4
BF16_TOL = 2e-2
TOP1_MARGIN = 2e-2
BF16_EMULATION_FACTOR = 2.0
# bf16 must be the bf16 atenrt claims. Every model: its output must differ from fp32, max|out - ref|
# >= BF16_DIFFERS * max|emu - ref| (emu: PyTorch rounding where atenrt says it rounds; an engine that
# ignores --precision bf16 scores ~1e-4). Models marked bf16_exact must also be that emulation:
# max|out - emu| <= BF16_MATCH * max|emu - ref| (measured: bert_encoder 5e-5, gpt_decoder 0.02;
# an fp32 engine scores 1). The emulation's own fp32 sums depend on the BLAS
# PyTorch runs on, and a bf16 rounding point that a 1e-7 difference flips moves gpt_decoder's
# logits: with Debian's reference BLAS gpt_decoder scores 0.02, with OpenBLAS (what a fresh
# Debian 12 machine gets with libtorch-dev) 0.16; hence 0.25, still far from fp32's 1. Elsewhere atenrt's bf16 is not yet where the
# emulation rounds: 0.4-0.65 on the batch-norm CNNs (resnet18, mobilenet_v3_small), alexnet 0.57,
# swin_small 0.5, vit_small 1.0 (reported; until explained they are held to the bounds above only).
# squeezenet1_0 scored 0.04 until a bf16 convolution's result read by a mean or an elementwise op
# was stored in bf16 too (runtime/cpu/providers.h): its last convolution's output is rounded
# before the average pooling, a rounding point the emulation does not model (0.43 since).
BF16_MATCH = 0.25
BF16_DIFFERS = 0.25


@dataclass
class ModelSpec:
    name: str
    build: Callable[[], nn.Module]
    inputs: Callable[[int], Sequence[torch.Tensor]]   # example inputs drawn with a seed
    imagenet: bool = False            # 1000-class classifier: bf16 must keep the top-1 class
    quick: bool = False               # part of the --quick subset (small and fast)
    fp32_rtol: float = FP32_RTOL
    bf16_tol: float = BF16_TOL
    bf16_exact: bool = False          # atenrt's bf16 rounds exactly where bf16_emulation does
    skip: str = ""                    # known broken: the exact op, node and error; the test skips saying so
    # Step kinds allowed on oneDNN's reference kernels (correct, but 10-100x slower than its jit ones),
    # each with why; every other fp32 step must get an optimized kernel (see SLOW_KERNEL).
    slow_kernels_ok: Dict[str, str] = field(default_factory=dict)


def _images(size):
    """Inputs of an image model: one [1, 3, size, size] normal image drawn with the given seed."""
    return lambda seed: [torch.randn(1, 3, size, size, generator=torch.Generator().manual_seed(seed))]


def _calibrate_batchnorm(model, size, seed=1):
    """Give every batch norm statistics measured on random images, then a non-trivial affine part.

    Fresh batch norms are the identity in eval mode, which would hide folding mistakes, and random
    weights without normalization grow activations layer by layer (inception_v3 reaches 1e12).
    Measured statistics keep every layer's output near unit scale, as trained weights do."""
    bns = [m for m in model.modules() if isinstance(m, nn.modules.batchnorm._BatchNorm)]
    if not bns:
        return model
    gen = torch.Generator().manual_seed(seed)
    for m in bns:
        m.reset_running_stats()
        m.momentum = None                              # cumulative average over the batches
    model.train()
    with torch.no_grad():
        for _ in range(2):
            model(torch.randn(2, 3, size, size, generator=gen))
        for m in bns:
            m.momentum = 0.1
            if m.affine:
                n = m.weight.numel()
                m.weight.copy_(torch.rand(n, generator=gen) * 0.5 + 0.75)
                m.bias.copy_(torch.randn(n, generator=gen) * 0.1)
    return model.eval()


def _perturb_batchnorm(model, seed=1):
    """Mildly perturbed batch-norm statistics and affine parameters, not measured ones."""
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, nn.modules.batchnorm._BatchNorm):
                n = m.running_mean.numel()
                m.running_mean.copy_(torch.randn(n, generator=gen) * 0.1)
                m.running_var.copy_(torch.rand(n, generator=gen) * 0.5 + 0.75)
                m.weight.copy_(torch.rand(n, generator=gen) * 0.5 + 0.75)
                m.bias.copy_(torch.randn(n, generator=gen) * 0.1)
    return model


def _tv(name, size=224, calibrate=True, **kwargs):
    def build():
        import torchvision
        torch.manual_seed(0)
        model = getattr(torchvision.models, name)(weights=None, **kwargs)
        model = _calibrate_batchnorm(model, size) if calibrate else _perturb_batchnorm(model)
        return model.eval()
    return build


def _vit_small():
    from torchvision.models import VisionTransformer
    torch.manual_seed(0)
    # ViT-Tiny-like: same structure as vit_b_16 (conv patchify, class token, pre-LN encoder blocks
    # with nn.MultiheadAttention), 4 layers of width 192 instead of 12 of 768.
    model = VisionTransformer(image_size=224, patch_size=16, num_layers=4, num_heads=3, hidden_dim=192,
                              mlp_dim=768, num_classes=1000)
    # torchvision zeroes the head (all logits 0 would make every comparison vacuous)
    nn.init.normal_(model.heads.head.weight, std=0.02)
    nn.init.normal_(model.heads.head.bias, std=0.02)
    return model.eval()


def _swin_small():
    from torchvision.models.swin_transformer import SwinTransformer
    torch.manual_seed(0)
    # swin_t's structure (patch merging, shifted windows with roll + attention masks, relative
    # position bias) at half the width and depths 2-2-2-2 (swin_t: width 96, depths 2-2-6-2).
    return SwinTransformer(patch_size=[4, 4], embed_dim=48, depths=[2, 2, 2, 2], num_heads=[3, 6, 12, 24],
                           window_size=[7, 7], stochastic_depth_prob=0.0, num_classes=1000).eval()


def _segmentation():
    import torchvision

    class Seg(nn.Module):
        def __init__(self):
            super().__init__()
            torch.manual_seed(0)
            self.net = torchvision.models.segmentation.lraspp_mobilenet_v3_large(
                weights=None, weights_backbone=None, num_classes=21)

        def forward(self, x):
            return self.net(x)["out"]

    return _calibrate_batchnorm(Seg(), 224).eval()


# ---- plain-PyTorch transformers -------------------------------------------------------------

class _Attention(nn.Module):
    """Multi-head attention written out: q/k/v projections, matmul, scale, mask, softmax, matmul."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, mask):
        b, t, d = x.shape
        hd = d // self.heads
        q, k, v = self.qkv(x).split(d, dim=-1)
        q = q.reshape(b, t, self.heads, hd).transpose(1, 2)
        k = k.reshape(b, t, self.heads, hd).transpose(1, 2)
        v = v.reshape(b, t, self.heads, hd).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(hd)
        scores = scores + mask                         # additive: 0 keeps, -inf-like drops
        attn = torch.softmax(scores, dim=-1)
        out = torch.matmul(attn, v).transpose(1, 2).reshape(b, t, d)
        return self.proj(out)


class _Block(nn.Module):
    def __init__(self, dim, heads, pre_norm):
        super().__init__()
        self.pre_norm = pre_norm
        self.attn = _Attention(dim, heads)
        self.ln1 = nn.LayerNorm(dim)
        self.ln2 = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, 4 * dim)
        self.fc2 = nn.Linear(4 * dim, dim)

    def mlp(self, x):
        return self.fc2(F.gelu(self.fc1(x)))

    def forward(self, x, mask):
        if self.pre_norm:                              # GPT-2 style
            x = x + self.attn(self.ln1(x), mask)
            return x + self.mlp(self.ln2(x))
        x = self.ln1(x + self.attn(x, mask))           # BERT style (post-norm)
        return self.ln2(x + self.mlp(x))


class BertEncoder(nn.Module):
    """BERT-style encoder: token + position + segment embeddings, LayerNorm, post-norm blocks with
    a padding mask from the attention-mask input, tanh pooler over the first token."""

    def __init__(self, vocab=1000, dim=128, heads=4, layers=4, max_len=64):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.seg = nn.Embedding(2, dim)
        self.ln = nn.LayerNorm(dim)
        self.blocks = nn.ModuleList(_Block(dim, heads, pre_norm=False) for _ in range(layers))
        self.pool = nn.Linear(dim, dim)

    def forward(self, ids, segments, attention_mask):
        t = ids.shape[1]
        pos = torch.arange(t, device=ids.device).unsqueeze(0)
        x = self.ln(self.tok(ids) + self.pos(pos) + self.seg(segments))
        # [b, t] of 1 (keep) / 0 (padding) -> additive [b, 1, 1, t]
        mask = (1.0 - attention_mask.to(x.dtype))[:, None, None, :] * -10000.0
        for block in self.blocks:
            x = block(x, mask)
        return x, torch.tanh(self.pool(x[:, 0]))


class GptDecoder(nn.Module):
    """GPT-style decoder: token + learned position embeddings, pre-norm blocks with a causal mask,
    final LayerNorm, LM head tied to the token embedding."""

    def __init__(self, vocab=1000, dim=128, heads=4, layers=4, max_len=64):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.blocks = nn.ModuleList(_Block(dim, heads, pre_norm=True) for _ in range(layers))
        self.ln_f = nn.LayerNorm(dim)
        causal = torch.triu(torch.full((max_len, max_len), float("-inf")), diagonal=1)
        self.register_buffer("causal", causal, persistent=False)

    def forward(self, ids):
        t = ids.shape[1]
        pos = torch.arange(t, device=ids.device).unsqueeze(0)
        x = self.tok(ids) + self.pos(pos)
        mask = self.causal[:t, :t]
        for block in self.blocks:
            x = block(x, mask)
        return torch.matmul(self.ln_f(x), self.tok.weight.t())


def _bert():
    torch.manual_seed(0)
    return BertEncoder().eval()


def _gpt():
    torch.manual_seed(0)
    return GptDecoder().eval()


def _bert_inputs(seed=0):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, 1000, (1, 32), generator=g)
    segments = torch.cat([torch.zeros(1, 20, dtype=torch.int64), torch.ones(1, 12, dtype=torch.int64)], 1)
    attention_mask = torch.cat([torch.ones(1, 28, dtype=torch.int64), torch.zeros(1, 4, dtype=torch.int64)], 1)
    return [ids, segments, attention_mask]


def _gpt_inputs(seed=0):
    return [torch.randint(0, 1000, (1, 32), generator=torch.Generator().manual_seed(seed))]


MODELS = [
    ModelSpec("resnet18", _tv("resnet18"), _images(224), imagenet=True, quick=True),
    ModelSpec("resnext50_32x4d", _tv("resnext50_32x4d"), _images(224), imagenet=True),
    ModelSpec("wide_resnet50_2", _tv("wide_resnet50_2"), _images(224), imagenet=True),
    ModelSpec("mobilenet_v2", _tv("mobilenet_v2"), _images(224), imagenet=True, quick=True),
    ModelSpec("mobilenet_v3_small", _tv("mobilenet_v3_small"), _images(224), imagenet=True, quick=True),
    ModelSpec("efficientnet_b0", _tv("efficientnet_b0"), _images(224), imagenet=True),
    # Calibrated statistics grow its 40-block residual stream to 6e3, where PyTorch's own fp32
    # differs from fp64 by 1.7e-3 (no fp32 engine could meet 1e-4): perturbed statistics instead.
    ModelSpec("efficientnet_v2_s", _tv("efficientnet_v2_s", calibrate=False), _images(224), imagenet=True),
    ModelSpec("regnet_y_400mf", _tv("regnet_y_400mf"), _images(224), imagenet=True),
    ModelSpec("shufflenet_v2_x0_5", _tv("shufflenet_v2_x0_5"), _images(224), imagenet=True, quick=True),
    ModelSpec("squeezenet1_0", _tv("squeezenet1_0"), _images(224), imagenet=True, quick=True),
    ModelSpec("densenet121", _tv("densenet121"), _images(224), imagenet=True),
    ModelSpec("googlenet", _tv("googlenet", aux_logits=False, init_weights=True), _images(224), imagenet=True),
    ModelSpec("inception_v3", _tv("inception_v3", size=299, aux_logits=False, init_weights=True), _images(299),
              imagenet=True),
    ModelSpec("mnasnet0_5", _tv("mnasnet0_5"), _images(224), imagenet=True, quick=True),
    ModelSpec("convnext_tiny", _tv("convnext_tiny"), _images(224), imagenet=True),
    ModelSpec("vgg11", _tv("vgg11"), _images(224), imagenet=True),
    ModelSpec("alexnet", _tv("alexnet"), _images(224), imagenet=True),
    ModelSpec("vit_small", _vit_small, _images(224), imagenet=True),
    ModelSpec("swin_small", _swin_small, _images(224), imagenet=True),
    ModelSpec("bert_encoder", _bert, _bert_inputs, quick=True, bf16_exact=True),
    ModelSpec("gpt_decoder", _gpt, _gpt_inputs, quick=True, bf16_exact=True),
    ModelSpec("lraspp_mobilenet_v3_large", _segmentation, _images(224)),
]

BY_NAME = {m.name: m for m in MODELS}

# The input seeds make_models.py's search picks with Debian's torch 1.13 and torchvision 0.14
# (printed as "seed N"): it starts from them instead of searching ten seeds with the bf16
# emulation each time (minutes of CI on 2 cores). A pinned seed that is not decisive (another
# torch) makes it search the others, except for NO_DECISIVE_SEED's; `make_models.py --search-seeds`
# always searches (run it after changing a model or torch, and update these). A classifier missing
# here is searched.
SEARCHED_SEEDS = {
    "resnet18": 0, "resnext50_32x4d": 5, "wide_resnet50_2": 1, "mobilenet_v2": 2, "mobilenet_v3_small": 0,
    "efficientnet_b0": 4, "efficientnet_v2_s": 0, "regnet_y_400mf": 3, "shufflenet_v2_x0_5": 8,
    "squeezenet1_0": 0, "densenet121": 0, "googlenet": 2, "inception_v3": 0, "mnasnet0_5": 2,
    "convnext_tiny": 0, "vgg11": 0, "alexnet": 0, "vit_small": 0, "swin_small": 0,
}
# Pinned seeds for which no seed of ten is decisive (the top-1 check is dropped for them): with
# these the search would run all ten again to find the same best.
NO_DECISIVE_SEED = {"resnext50_32x4d", "mobilenet_v2", "efficientnet_b0", "shufflenet_v2_x0_5"}


def select(only: Optional[Sequence[str]] = None, quick: bool = False):
    if only:
        unknown = [n for n in only if n not in BY_NAME]
        if unknown:
            raise KeyError(f"unknown model(s) {', '.join(unknown)}; known: {', '.join(BY_NAME)}")
        return [BY_NAME[n] for n in only]
    return [m for m in MODELS if m.quick or not quick]
