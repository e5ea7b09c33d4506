"""The benchmarked models, randomly initialised (no weight downloads here), and their inputs.

Call `build_model(name)` after `torch.manual_seed(seed)`: weights and input come from that seed.
"""
import math

import torch
import torch.nn.functional as F
import torchvision
from torch import nn


class EncoderLayer(nn.Module):
    """Post-norm transformer encoder layer, the math of nn.TransformerEncoderLayer (ReLU, eval).

    Written in plain PyTorch rather than with nn.TransformerEncoderLayer: in eval mode under no_grad
    that module takes a fused fast path (aten::_transformer_encoder_layer_fwd) that ONNX export
    cannot handle, and every engine should run the same math.
    """

    def __init__(self, d_model, heads, ff):
        super().__init__()
        self.heads = heads
        self.scale = 1.0 / math.sqrt(d_model // heads)  # a constant, not traced from shapes
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.norm1 = nn.LayerNorm(d_model)
        self.ff1 = nn.Linear(d_model, ff)
        self.ff2 = nn.Linear(ff, d_model)
        self.norm2 = nn.LayerNorm(d_model)

    def forward(self, x):
        b, s, d = x.shape
        h = self.heads
        q, k, v = self.qkv(x).reshape(b, s, 3, h, d // h).permute(2, 0, 3, 1, 4).unbind(0)
        att = torch.softmax((q @ k.transpose(-2, -1)) * self.scale, dim=-1)
        y = (att @ v).transpose(1, 2).reshape(b, s, d)
        x = self.norm1(x + self.proj(y))
        return self.norm2(x + self.ff2(F.relu(self.ff1(x))))


class Encoder(nn.Module):
    def __init__(self, layers=4, d_model=256, heads=4, ff=1024):
        super().__init__()
        self.layers = nn.ModuleList(EncoderLayer(d_model, heads, ff) for _ in range(layers))

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class DecoderLayer(nn.Module):
    """Pre-norm GPT-style block: causal self-attention, then a GELU (tanh) MLP, each residual.

    The causal mask is a constant additive -inf above the diagonal (a buffer, so every engine
    sees the same constant), the form GPT-2 exports take.
    """

    def __init__(self, d_model, heads, ff, seq):
        super().__init__()
        self.heads = heads
        self.scale = 1.0 / math.sqrt(d_model // heads)
        self.norm1 = nn.LayerNorm(d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.ff1 = nn.Linear(d_model, ff)
        self.ff2 = nn.Linear(ff, d_model)
        self.register_buffer("mask", torch.full((seq, seq), float("-inf")).triu(1))

    def forward(self, x):
        b, s, d = x.shape
        h = self.heads
        q, k, v = self.qkv(self.norm1(x)).reshape(b, s, 3, h, d // h).permute(2, 0, 3, 1, 4).unbind(0)
        att = torch.softmax((q @ k.transpose(-2, -1)) * self.scale + self.mask, dim=-1)
        x = x + self.proj((att @ v).transpose(1, 2).reshape(b, s, d))
        return x + self.ff2(F.gelu(self.ff1(self.norm2(x)), approximate="tanh"))


class Decoder(nn.Module):
    def __init__(self, layers=4, d_model=256, heads=4, ff=1024, seq=128):
        super().__init__()
        self.layers = nn.ModuleList(DecoderLayer(d_model, heads, ff, seq) for _ in range(layers))
        self.norm = nn.LayerNorm(d_model)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.norm(x)


def _image_input():
    return torch.randn(1, 3, 224, 224)


# name -> (constructor, input maker); batch 1 everywhere.
MODELS = {
    "resnet18": (lambda: torchvision.models.resnet18(weights=None), _image_input),
    "resnet50": (lambda: torchvision.models.resnet50(weights=None), _image_input),
    "mobilenet_v2": (lambda: torchvision.models.mobilenet_v2(weights=None), _image_input),
    "efficientnet_b0": (lambda: torchvision.models.efficientnet_b0(weights=None), _image_input),
    "encoder": (lambda: Encoder(layers=4, d_model=256, heads=4, ff=1024), lambda: torch.randn(1, 128, 256)),
    "decoder": (lambda: Decoder(layers=4, d_model=256, heads=4, ff=1024, seq=128), lambda: torch.randn(1, 128, 256)),
}


TORCHVISION_PREFIX = "tv:"


def torchvision_model(name):
    """(constructor, input maker) for "tv:NAME", a torchvision classification, segmentation or video
    builder ('tv:densenet169', 'tv:swin_t', 'tv:deeplabv3_mobilenet_v3_large', 'tv:r3d_18'), without
    pretrained weights: models the benchmark's own six do not cover, timed the same way. Video models
    take [1, 3, 8, 112, 112] (s3d [1, 3, 16, 224, 224]), inception_v3 299x299, the rest 224x224.
    Raises KeyError for other names (detection and optical flow take structured inputs)."""
    from torchvision import models
    tv = name[len(TORCHVISION_PREFIX):] if name.startswith(TORCHVISION_PREFIX) else None
    families = {"classification": models, "segmentation": models.segmentation, "video": models.video}
    family = next((f for f, module in families.items() if tv in models.list_models(module=module)), None)
    if family is None:
        raise KeyError(name)
    builder = models.get_model_builder(tv)
    kwargs = {"weights": None}
    if family == "segmentation":
        kwargs["weights_backbone"] = None
    if tv in ("googlenet", "inception_v3"):
        kwargs.update(aux_logits=False, init_weights=True)
    if family == "video":
        shape = (1, 3, 16, 224, 224) if tv == "s3d" else (1, 3, 8, 112, 112)
    else:
        side = 299 if tv == "inception_v3" else 224
        shape = (1, 3, side, side)
    return (lambda: builder(**kwargs)), (lambda: torch.randn(*shape))


def calibrate_batchnorm(model, example, batch=4):
    """Set BatchNorm running statistics from one random batch, as training would.

    Freshly initialised statistics (mean 0, var 1) let activations shrink or grow layer after
    layer: MobileNetV2's logits come out near 1e-9, which makes error and top-1 checks meaningless
    and risks denormals, whose cost differs between engines.
    """
    norms = [m for m in model.modules() if isinstance(m, nn.modules.batchnorm._BatchNorm)]
    if not norms:
        return
    for m in norms:
        m.reset_running_stats()
        m.momentum = None  # cumulative average: one batch sets the statistics outright
    model.train()
    with torch.no_grad():
        model(torch.randn(batch, *example.shape[1:]))
    for m in norms:
        m.momentum = 0.1
    model.eval()


def build_model(name):
    """Return (model in eval mode, example input) for `name` from the current torch seed."""
    make_model, make_input = MODELS[name] if name in MODELS else torchvision_model(name)
    model = make_model()
    x = make_input()
    calibrate_batchnorm(model, x)
    return model.eval(), x
