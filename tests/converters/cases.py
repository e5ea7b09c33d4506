"""Converter cases: tiny modules exported with atenrt.export, run by PyTorch
eager for the expected outputs. make_cases.py writes them out;
tests/unit/conversion/converter_cases_test.cpp converts each (lowering off),
runs the network with the reference executor and compares.

A case is a module (or a function of its inputs), its inputs, and what is
expected: "ok" (numbers match: rel/abs 1e-4 for floats, exact for int/bool),
or a refusal whose reason contains a given text."""
import math
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

aten = torch.ops.aten
F32, I64, I32, BOOL = torch.float32, torch.int64, torch.int32, torch.bool


class T:
    """A seeded input: normal floats, small ints in [lo, hi), random bools, or given values;
    `steps`: floats on a grid of halves in [-2, 2], so that two inputs are sometimes equal."""

    def __init__(self, *shape, dtype=F32, lo=-5, hi=6, values=None, positive=False, steps=False):
        self.shape, self.dtype, self.lo, self.hi, self.values, self.positive = shape, dtype, lo, hi, values, positive
        self.steps = steps

    def make(self, gen):
        if self.values is not None:
            return torch.tensor(self.values, dtype=self.dtype)
        if self.dtype == BOOL:
            return torch.rand(self.shape, generator=gen) > 0.5
        if not self.dtype.is_floating_point:
            return torch.randint(self.lo, self.hi, self.shape, generator=gen, dtype=self.dtype)
        if self.steps:
            return (torch.randint(-4, 5, self.shape, generator=gen) / 2).to(self.dtype)
        x = torch.randn(self.shape, generator=gen)
        if self.positive:
            x = x.abs() + 0.1
        return x.to(self.dtype)


class Fn(nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *xs):
        return self.fn(*xs)


class Case:
    def __init__(self, name, family, module, inputs, refused=None, rtol=1e-4, atol=1e-4, check="values", trivial=None):
        self.name, self.family = name, family
        self.module = module if isinstance(module, nn.Module) else Fn(module)
        self.inputs, self.refused, self.rtol, self.atol, self.check = inputs, refused, rtol, atol, check
        self.trivial = trivial  # why a reference that cannot tell right from wrong is still worth a case


CASES = []


def case(name, family, module, *inputs, **kw):
    CASES.append(Case(name, family, module, list(inputs), **kw))


SPECIAL = [0.0, -0.0, 1.5, -2.5, float("inf"), float("-inf"), float("nan"), 3.0]

# ------------------------------------------------------------------ activation
for op, fn in [("relu", torch.relu), ("sigmoid", torch.sigmoid), ("tanh", torch.tanh), ("silu", F.silu),
               ("hardswish", F.hardswish), ("hardsigmoid", F.hardsigmoid), ("gelu", F.gelu), ("selu", F.selu),
               ("mish", F.mish), ("relu6", F.relu6), ("elu", F.elu), ("softplus", F.softplus)]:
    case(f"{op}_3x5", "activation", fn, T(3, 5))
    case(f"{op}_4d", "activation", fn, T(2, 3, 4, 5))
case("gelu_tanh", "activation", lambda x: F.gelu(x, approximate="tanh"), T(3, 7))
case("leaky_relu", "activation", lambda x: F.leaky_relu(x, 0.2), T(4, 5))
case("elu_alpha_scale", "activation", lambda x: aten.elu(x, 0.5, 2.0, 1.5), T(4, 5))
case("hardtanh", "activation", lambda x: F.hardtanh(x, -0.5, 0.75), T(4, 5))
case("softplus_beta", "activation", lambda x: F.softplus(x, beta=2.0, threshold=1.0), T(4, 5))
case("relu_int", "activation", torch.relu, T(3, 4, dtype=I64))
# NaN, ±inf and ±0 through every activation, pinned to PyTorch (the engine runs them too)
for op, fn in [("relu", torch.relu), ("sigmoid", torch.sigmoid), ("tanh", torch.tanh), ("silu", F.silu),
               ("hardswish", F.hardswish), ("hardsigmoid", F.hardsigmoid), ("gelu", F.gelu), ("selu", F.selu),
               ("mish", F.mish), ("relu6", F.relu6), ("elu", F.elu), ("softplus", F.softplus),
               ("gelu_tanh", lambda x: F.gelu(x, approximate="tanh")), ("leaky_relu", lambda x: F.leaky_relu(x, 0.2)),
               ("elu_alpha_scale", lambda x: aten.elu(x, 0.5, 2.0, 1.5)), ("hardtanh", lambda x: F.hardtanh(x, -0.5, 0.75)),
               ("softplus_beta", lambda x: F.softplus(x, beta=2.0, threshold=1.0))]:
    case(f"{op}_special", "activation", fn, T(values=SPECIAL))
# mish far below 0 is x * e^x (torch: relative error ~1e-7); oneDNN 2.6's mish cancels there (0 below -16)
case("mish_far_negative", "activation", F.mish, T(values=[-30 + 0.5 * i for i in range(41)]), atol=0.0)
case("prelu_channels", "activation", nn.PReLU(3), T(2, 3, 4, 4))
case("prelu_single", "activation", nn.PReLU(), T(2, 3, 4))
for dim in (-1, 0, 1):
    case(f"softmax_dim{dim}", "activation", lambda x, d=dim: torch.softmax(x, d), T(3, 4, 5))
    case(f"log_softmax_dim{dim}", "activation", lambda x, d=dim: torch.log_softmax(x, d), T(3, 4, 5))
# masked rows (torch.masked.log_softmax fills with -inf): one unmasked entry is exactly 0 (oneDNN's log(1) is -1.4e-6)
NINF = float("-inf")
for op, fn in [("log_softmax", torch.log_softmax), ("softmax", torch.softmax)]:
    case(f"{op}_one_unmasked", "activation", lambda x, f=fn: f(x, -1),
         T(values=[[NINF, 0.5, NINF, NINF], [1.0, NINF, 2.0, NINF], [NINF, NINF, NINF, -3.0], [0.0, -200.0, 1e-3, 5.0]]),
         atol=0.0)
    case(f"{op}_one_unmasked_dim0", "activation", lambda x, f=fn: f(x, 0),
         T(values=[[NINF, 0.5, 7.0], [2.0, NINF, NINF], [NINF, NINF, 1.0]]), atol=0.0)
case("softmax_inf", "activation", lambda x: torch.softmax(x, -1), T(values=[[0.0, float("-inf"), 1.0], [2.0, 3.0, float("-inf")]]))

# ------------------------------------------------------------------ elementwise
BIN = [("add", torch.add), ("sub", torch.sub), ("mul", torch.mul), ("div", torch.div), ("maximum", torch.maximum),
       ("minimum", torch.minimum), ("pow", torch.pow), ("atan2", torch.atan2), ("fmod", torch.fmod),
       ("remainder", torch.remainder), ("floor_divide", torch.floor_divide)]
for op, fn in BIN:
    pos = op in ("pow",)
    case(f"{op}_same", "elementwise", fn, T(3, 4, positive=pos), T(3, 4))
    case(f"{op}_broadcast", "elementwise", fn, T(2, 1, 4, positive=pos), T(3, 1))
for op, fn in [("add", torch.add), ("sub", torch.sub), ("mul", torch.mul), ("maximum", torch.maximum),
               ("minimum", torch.minimum), ("fmod", torch.fmod), ("remainder", torch.remainder),
               ("floor_divide", torch.floor_divide)]:
    hi_b = dict(lo=1, hi=6) if op in ("fmod", "remainder", "floor_divide") else {}  # divisors: no zero
    case(f"{op}_int", "elementwise", fn, T(3, 4, dtype=I64), T(3, 4, dtype=I64, **hi_b))
    case(f"{op}_int32_int64", "elementwise", fn, T(3, 4, dtype=I32), T(4, dtype=I64, **hi_b))
    case(f"{op}_int_float", "elementwise", fn, T(3, 4, dtype=I64), T(3, 4, positive=True))
case("div_int", "elementwise", torch.div, T(3, 4, dtype=I64), T(3, 4, dtype=I64, lo=1, hi=5))
case("div_trunc", "elementwise", lambda a, b: torch.div(a, b, rounding_mode="trunc"), T(3, 4), T(3, 4, positive=True))
case("div_floor", "elementwise", lambda a, b: torch.div(a, b, rounding_mode="floor"), T(3, 4), T(3, 4, positive=True))
case("div_trunc_int", "elementwise", lambda a, b: torch.div(a, b, rounding_mode="trunc"), T(3, 4, dtype=I64), T(3, 4, dtype=I64, lo=1, hi=4))
case("div_floor_scalar", "elementwise", lambda a: torch.div(a, 3, rounding_mode="floor"), T(3, 4, dtype=I64))
case("add_alpha", "elementwise", lambda a, b: torch.add(a, b, alpha=2.5), T(3, 4), T(3, 4))
case("sub_alpha_int", "elementwise", lambda a, b: torch.sub(a, b, alpha=3), T(3, 4, dtype=I64), T(3, 4, dtype=I64))
case("rsub_scalar", "elementwise", lambda a: 2.0 - a, T(3, 4))
case("add_scalar_float", "elementwise", lambda a: a + 1.5, T(3, 4))
case("add_scalar_int_on_int", "elementwise", lambda a: a + 2, T(3, 4, dtype=I32))
case("add_float_scalar_on_int", "elementwise", lambda a: a + 0.5, T(3, 4, dtype=I64))
case("mul_scalar_overload", "elementwise", lambda a: aten.mul.Scalar(a, 3), T(3, 4))
case("add_scalar_overload", "elementwise", lambda a: aten.add.Scalar(a, 3, 2), T(3, 4))
case("div_scalar_overload", "elementwise", lambda a: aten.div.Scalar(a, 4), T(3, 4, dtype=I64))
case("pow_scalar_exp", "elementwise", lambda a: a ** 2, T(3, 4))
case("pow_scalar_base", "elementwise", lambda a: 2.0 ** a, T(3, 4))
# __rpow__ with non-finite exponents and bases 0, negative, 1 and ±inf (NaN/inf placement as PyTorch)
for _name, _base in [("two", 2.0), ("zero", 0.0), ("neg", -2.0), ("one", 1.0), ("inf", float("inf")),
                     ("ninf", float("-inf")), ("nan", float("nan")), ("half", 0.5)]:
    case(f"rpow_{_name}_special", "elementwise", lambda a, b=_base: b ** a,
         T(values=SPECIAL + [-1.0, 2.0, 0.5, -0.5]),
         trivial="1 ** x is 1 for every x, NaN and inf included" if _base == 1.0 else None)
case("rpow_int_base_float_exp", "elementwise", lambda a: 3 ** a, T(values=SPECIAL))
case("rpow_float_base_int_exp", "elementwise", lambda a: 2.5 ** a, T(values=[-3, -1, 0, 1, 4], dtype=I64))
case("pow_special_both", "elementwise", torch.pow, T(values=SPECIAL * 8),
     T(values=[v for v in SPECIAL for _ in range(8)]))
case("pow_int", "elementwise", lambda a: a ** 2, T(3, 4, dtype=I64))
case("add_bool", "elementwise", torch.add, T(3, 4, dtype=BOOL), T(3, 4, dtype=BOOL))
case("mul_bool_float", "elementwise", torch.mul, T(3, 4, dtype=BOOL), T(3, 4))
case("add_zero_dim_double", "elementwise", lambda a: a + torch.tensor(1.5, dtype=torch.float64), T(3, 4))
case("add_special", "elementwise", torch.add, T(values=SPECIAL), T(values=SPECIAL[::-1]))
case("maximum_nan", "elementwise", torch.maximum, T(values=SPECIAL), T(values=[1.0] * 8))
for op, fn in [("eq", torch.eq), ("ne", torch.ne), ("lt", torch.lt), ("le", torch.le), ("gt", torch.gt), ("ge", torch.ge)]:
    case(f"{op}_tensor", "elementwise", fn, T(3, 4, dtype=I64, lo=0, hi=3), T(3, 4, dtype=I64, lo=0, hi=3))
    case(f"{op}_broadcast_float", "elementwise", fn, T(2, 3, 1, steps=True), T(4, steps=True))
    case(f"{op}_scalar", "elementwise", lambda a, f=fn: f(a, 0.5), T(3, 4, steps=True))
    case(f"{op}_int_vs_float", "elementwise", fn, T(values=[[0, 1, 2, -1], [2, 2, 0, 1], [-2, 1, 0, 3]], dtype=I64),
         T(values=[[0.0, 1.5, 2.0, -1.0], [1.0, 2.5, 0.0, 1.0], [-2.0, 0.5, -1.0, 3.0]]))
    case(f"{op}_nan", "elementwise", fn, T(values=SPECIAL), T(values=[1.5] * 8))
for op, fn in [("logical_and", torch.logical_and), ("logical_or", torch.logical_or), ("logical_xor", torch.logical_xor)]:
    case(f"{op}_bool", "elementwise", fn, T(3, 4, dtype=BOOL), T(3, 4, dtype=BOOL))
    case(f"{op}_float_int", "elementwise", fn, T(3, 4, dtype=I64, lo=0, hi=2), T(3, 4, steps=True))
for op, fn in [("bitwise_and", torch.bitwise_and), ("bitwise_or", torch.bitwise_or), ("bitwise_xor", torch.bitwise_xor)]:
    case(f"{op}_bool", "elementwise", fn, T(3, 4, dtype=BOOL), T(1, 4, dtype=BOOL))
    case(f"{op}_int", "elementwise", fn, T(3, 4, dtype=I64, lo=-9, hi=9), T(3, 4, dtype=I64, lo=-9, hi=9))
    case(f"{op}_uint8_int32", "elementwise", fn, T(3, 4, dtype=torch.uint8, lo=0, hi=255), T(4, dtype=I32, lo=-300, hi=300))
    case(f"{op}_int8_bool", "elementwise", fn, T(3, 4, dtype=torch.int8, lo=-128, hi=127), T(3, 4, dtype=BOOL))
case("clamp_both", "elementwise", lambda x: torch.clamp(x, -0.5, 0.5), T(4, 5))
case("clamp_min", "elementwise", lambda x: torch.clamp(x, min=0.1), T(4, 5))
case("clamp_max_int", "elementwise", lambda x: torch.clamp(x, max=2), T(4, 5, dtype=I64))
case("clamp_int_float_bound", "elementwise", lambda x: torch.clamp(x, min=0.5), T(4, 5, dtype=I64))
case("clamp_tensor", "elementwise", lambda x, lo, hi: torch.clamp(x, lo, hi), T(4, 5), T(5), T(4, 1, positive=True))
case("clamp_nan", "elementwise", lambda x: torch.clamp(x, -1.0, 1.0), T(values=SPECIAL))
case("clip", "elementwise", lambda x: torch.clip(x, -1, 1), T(4, 5))
case("clip_special", "elementwise", lambda x: torch.clip(x, -1, 1), T(values=SPECIAL))
case("clamp_min_special", "elementwise", lambda x: torch.clamp(x, min=0.5), T(values=SPECIAL))

# ------------------------------------------------------------------ unary
UNARY = ["abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "erf", "exp", "expm1",
         "floor", "log", "log10", "log1p", "log2", "neg", "reciprocal", "round", "rsqrt", "sign", "sin", "sinh",
         "sqrt", "tan", "trunc", "isnan", "isinf", "logical_not", "square"]
for op in UNARY:
    fn = getattr(torch, op)
    domain = {"acos": dict(values=[-0.9, -0.3, 0.0, 0.4, 0.99, 0.5]), "asin": dict(values=[-0.9, -0.3, 0.0, 0.4, 0.99, 0.5]),
              "atanh": dict(values=[-0.9, -0.3, 0.0, 0.4, 0.9, 0.5]), "acosh": dict(values=[1.0, 1.5, 2.0, 10.0, 3.3, 1.01])}
    if op in domain:
        case(f"{op}_f32", "unary", fn, T(**domain[op]))
    elif op in ("isnan", "isinf", "logical_not"):  # random normals are never NaN, inf or 0
        case(f"{op}_f32", "unary", fn, T(values=[[0.0, 1.5, float("nan"), -2.0], [float("inf"), -0.0, 3.0, float("-inf")]]))
    elif op in ("log", "log10", "log2", "sqrt", "rsqrt"):
        case(f"{op}_f32", "unary", fn, T(3, 4, positive=True))
    else:
        case(f"{op}_f32", "unary", fn, T(3, 4))
    # in-domain values too: the special values alone give NaN or 0 for these
    case(f"{op}_special", "unary", fn, T(values=SPECIAL + ([0.5, -0.75] if op in ("asin", "atanh") else [])))
    if op in ("ceil", "floor", "round", "trunc"):
        case(f"{op}_int", "unary", fn, T(2, 5, dtype=I64, lo=-3, hi=4),
             trivial="the identity on integers by design: checks that integer input keeps its dtype")
    elif op in ("isnan", "isinf"):
        case(f"{op}_int", "unary", fn, T(2, 5, dtype=I64, lo=-3, hi=4),
             trivial="an integer is never NaN or inf: all False by design, checks the integer path's dtype")
    elif op == "acos":
        case(f"{op}_int", "unary", fn, T(2, 5, dtype=I64, lo=-1, hi=2))
    elif op not in ("logical_not",):
        case(f"{op}_int", "unary", fn, T(2, 5, dtype=I64, lo=-3, hi=4) if op in ("abs", "sign", "neg", "square") else
             T(2, 5, dtype=I64, lo=1, hi=4))
case("round_half_even", "unary", torch.round, T(values=[0.5, 1.5, 2.5, -0.5, -1.5, 2.4, 2.6]))
case("logical_not_bool", "unary", torch.logical_not, T(3, 4, dtype=BOOL))
# torch 1.13 passes True as int 1: the result is int64.
case("bitwise_and_scalar_int", "elementwise", lambda a: aten.bitwise_and.Scalar(a, True), T(3, 4, dtype=BOOL),
     trivial="torch 1.13 types the bool as the int 1 or 0, so the values stay 0/1: the int64 result dtype is the point")
case("bitwise_not_bool", "unary", torch.bitwise_not, T(3, 4, dtype=BOOL))
case("bitwise_not_int", "unary", torch.bitwise_not, T(3, 4, dtype=I64, lo=-9, hi=9))
case("bitwise_not_uint8", "unary", torch.bitwise_not, T(3, 4, dtype=torch.uint8, lo=0, hi=255))
case("bitwise_not_int8", "unary", torch.bitwise_not, T(3, 4, dtype=torch.int8, lo=-128, hi=127))
case("abs_int32", "unary", torch.abs, T(2, 5, dtype=I32))
case("neg_int", "unary", torch.neg, T(2, 5, dtype=I64))

# ------------------------------------------------------------------ math (elementwise composites)
NF = SPECIAL + [-1.0, 0.5, 2.0, -0.25]  # NaN, ±inf, ±0 and ordinary values
case("logaddexp", "math", torch.logaddexp, T(3, 4), T(4))
case("logaddexp_special", "math", torch.logaddexp, T(values=NF * 12), T(values=[v for v in NF for _ in range(12)]))
case("logaddexp2", "math", torch.logaddexp2, T(3, 4), T(3, 1))
case("logaddexp2_special", "math", torch.logaddexp2, T(values=NF * 12), T(values=[v for v in NF for _ in range(12)]))
case("xlogy", "math", torch.xlogy, T(3, 4), T(3, 4, positive=True))
case("xlogy_special", "math", torch.xlogy, T(values=NF * 12), T(values=[v for v in NF for _ in range(12)]))
case("xlogy_scalar_self", "math", lambda y: torch.xlogy(2.0, y), T(3, 4, positive=True))
case("xlogy_scalar_other", "math", lambda x: torch.xlogy(x, 3.0), T(3, 4))
case("xlogy_int", "math", torch.xlogy, T(3, 4, dtype=I64, lo=0, hi=4), T(3, 4, dtype=I64, lo=1, hi=5))
case("xlog1py", "math", torch.special.xlog1py, T(values=NF * 12), T(values=[v for v in NF for _ in range(12)]))
case("xlog1py_scalars", "math", lambda x, y: torch.special.xlog1py(x, 0.5) + torch.special.xlog1py(1.5, y), T(3, 4), T(3, 4, positive=True))
case("hypot", "math", torch.hypot, T(3, 4), T(1, 4))
case("copysign", "math", torch.copysign, T(values=NF * 12), T(values=[v for v in NF for _ in range(12)]))
case("copysign_scalar", "math", lambda x: torch.copysign(x, -1.0), T(3, 4))
case("fmax", "math", torch.fmax, T(values=NF * 12), T(values=[v for v in NF for _ in range(12)]))
case("fmin", "math", torch.fmin, T(values=NF * 12), T(values=[v for v in NF for _ in range(12)]))
case("fmax_int", "math", torch.fmax, T(3, 4, dtype=I64), T(4, dtype=I64))
case("heaviside", "math", torch.heaviside, T(values=NF), T(values=[0.5] * len(NF)))
case("heaviside_int", "math", torch.heaviside, T(3, 4, dtype=I64, lo=-2, hi=3), T(4, dtype=I64))
for _op, _fn in [("deg2rad", torch.deg2rad), ("rad2deg", torch.rad2deg), ("exp2", torch.exp2), ("erfc", torch.erfc),
                 ("frac", torch.frac), ("sinc", torch.sinc), ("entr", torch.special.entr), ("logit", torch.logit),
                 ("signbit", torch.signbit), ("isposinf", torch.isposinf), ("isneginf", torch.isneginf),
                 ("sgn", torch.sgn), ("nan_to_num", torch.nan_to_num), ("hardshrink", F.hardshrink),
                 ("softshrink", F.softshrink), ("log_sigmoid", F.logsigmoid)]:
    case(f"{_op}_special", "math", _fn, T(values=NF + [0.3, 0.9, -3.5, 7.25]))
case("deg2rad_int", "math", torch.deg2rad, T(3, 4, dtype=I64))
# special functions (unary layers with reference formulas)
_GAMMA_AT = [0.0, -0.0, -1.0, -2.5, 1e-8, 0.5, 1.0, 2.5, 7.3, 30.0, float("inf"), float("-inf"), float("nan")]
case("lgamma", "math", torch.lgamma, T(values=_GAMMA_AT))
case("digamma", "math", torch.digamma, T(values=_GAMMA_AT))
case("polygamma_0", "math", lambda x: torch.polygamma(0, x), T(3, 4, positive=True))
# torch.special functions as layers of their own (impl/special)
_BESSEL_AT = [0.0, -0.0, 1e-6, 0.3, -0.7, 1.9, 2.0, 2.5, -5.0, 8.0, 12.5, -16.9, 17.5, 24.0, 31.0, -45.0, 120.0,
              float("inf"), float("-inf"), float("nan")]
_POSITIVE_AT = [v for v in _BESSEL_AT if not v < 0]
for _op, _fn, _at in [("i0e_edges", torch.special.i0e, _BESSEL_AT), ("i1", torch.special.i1, _BESSEL_AT),
                      ("i1e", torch.special.i1e, _BESSEL_AT), ("bessel_j0", torch.special.bessel_j0, _BESSEL_AT),
                      ("bessel_j1", torch.special.bessel_j1, _BESSEL_AT), ("bessel_y0", torch.special.bessel_y0, _BESSEL_AT),
                      ("bessel_y1", torch.special.bessel_y1, _BESSEL_AT),
                      ("modified_bessel_i0", torch.special.modified_bessel_i0, _BESSEL_AT[:-5]),
                      ("modified_bessel_i1", torch.special.modified_bessel_i1, _BESSEL_AT[:-5]),
                      ("modified_bessel_k0", torch.special.modified_bessel_k0, _BESSEL_AT),
                      ("modified_bessel_k1", torch.special.modified_bessel_k1, _BESSEL_AT),
                      ("scaled_modified_bessel_k0", torch.special.scaled_modified_bessel_k0, _BESSEL_AT),
                      ("scaled_modified_bessel_k1", torch.special.scaled_modified_bessel_k1, _BESSEL_AT),
                      ("spherical_bessel_j0", torch.special.spherical_bessel_j0, _BESSEL_AT),
                      ("airy_ai", torch.special.airy_ai, [v for v in _BESSEL_AT if v > -40] + [-9.5, 3.5]),
                      ("erfcx", torch.special.erfcx, _BESSEL_AT + [-26.0, 26.5, 1e4])]:
    case(_op, "special", _fn, T(values=_at))
case("bessel_j0_int", "special", torch.special.bessel_j0, T(3, 4, dtype=I64))
case("polygamma_1", "special", lambda x: torch.polygamma(1, x), T(values=_GAMMA_AT))
case("polygamma_2", "special", lambda x: torch.polygamma(2, x), T(values=[0.0, -1.0, -2.5, 1e-3, 0.5, 1.0, 2.5, 7.3, 30.0]))
case("polygamma_4_float64", "special", lambda x: torch.polygamma(4, x), T(3, 4, positive=True, dtype=torch.float64))
case("zeta", "special", torch.special.zeta, T(values=[1.0, 0.5, 2.0, 2.0, 2.0, 3.0, 2.5, 4.0, 7.0, 40.0]),
     T(values=[1.0, 1.0, 0.0, -1.0, -1.5, -2.5, -1.5, 0.3, 12.0, 1.5]))
case("zeta_self_scalar", "special", lambda q: aten.special_zeta.self_scalar(3.0, q), T(3, 4, positive=True))
case("zeta_other_scalar", "special", lambda x: aten.special_zeta.other_scalar(x, 2.0), T(3, 4, positive=True) )
case("igamma", "special", torch.igamma, T(values=[0.5, 1.0, 2.0, 5.0, 30.0, 0.0, 0.0, 3.0, float("inf"), 1.0, -1.0]),
     T(values=[0.3, 1.0, 5.0, 2.0, 29.0, 1.0, 0.0, 0.0, 3.0, float("inf"), 1.0]))
case("igammac", "special", torch.igammac, T(values=[0.5, 1.0, 2.0, 5.0, 30.0, 0.0, 0.0, 3.0, float("inf"), 1.0, -1.0]),
     T(values=[0.3, 1.0, 5.0, 2.0, 29.0, 1.0, 0.0, 0.0, 3.0, float("inf"), 1.0]))
case("nextafter", "special", torch.nextafter, T(values=[0.0, 0.0, 1.0, 1.0, -1.0, float("inf"), 3.0, float("nan")]),
     T(values=[1.0, -1.0, 2.0, 0.0, -2.0, 0.0, 3.0, 1.0]), rtol=0.0, atol=0.0)
case("nextafter_float64", "special", torch.nextafter, T(3, 4, dtype=torch.float64), T(4, dtype=torch.float64), rtol=0.0, atol=0.0)
case("frexp", "special", torch.frexp, T(values=[0.0, -0.0, 1e-40, 0.75, -3.0, 1024.0, float("inf"), float("nan")]))
# index-driven updates (impl/index_ops)
case("index_add", "indexing", lambda x, i, src: x.index_add(1, i, src, alpha=2.5), T(3, 5), T(values=[4, 0, 4], dtype=I64), T(3, 3))
case("index_add_0d", "indexing", lambda x, i, src: x.index_add(0, i, src), T(values=1.5), T(values=0, dtype=I64), T(values=2.0))
case("index_fill", "indexing", lambda x, i: x.index_fill(0, i, -2.0), T(4, 3), T(values=[1, -1], dtype=I64))
case("index_fill_tensor", "indexing", lambda x, i, v: x.index_fill(1, i, v), T(2, 4), T(values=[0, 2], dtype=I64), T(values=7.0))
case("index_fill_int", "indexing", lambda x, i: x.index_fill(1, i, 3), T(2, 4, dtype=I64), T(values=[3], dtype=I64))
case("put", "indexing", lambda x, i, src: x.put(i, src), T(3, 4), T(values=[0, -1, 5], dtype=I64), T(3))
case("put_accumulate", "indexing", lambda x, i, src: x.put(i, src, accumulate=True), T(3, 4), T(values=[[2, 2], [11, 0]], dtype=I64), T(2, 2))
case("masked_scatter", "indexing", lambda x, m, src: x.masked_scatter(m, src), T(3, 4), T(4, dtype=BOOL), T(5, 4))
case("masked_scatter_int", "indexing", lambda x, m, src: x.masked_scatter(m, src), T(2, 3, dtype=I64), T(2, 3, dtype=BOOL), T(6, dtype=I64))
# diagonals, blocks and quarter turns (impl/diagonal_ops)
for _k in (-1, 0, 1, 2, 3, 6):
    case(f"rot90_{_k}".replace("-", "m"), "shape", lambda x, k=_k: torch.rot90(x, k, [1, -1]), T(2, 3, 4),
         trivial="k % 4 == 0 keeps the tensor: the case checks that branch" if _k % 4 == 0 else None)
case("diag_embed", "shape", torch.diag_embed, T(2, 3))
case("diag_embed_offset", "shape", lambda x: torch.diag_embed(x, 2, 0, 2), T(2, 3))
case("diag_embed_negative", "shape", lambda x: torch.diag_embed(x, -1, -1, 0), T(4, 2, dtype=I64))
case("diagonal_scatter", "shape", lambda x, src: torch.diagonal_scatter(x, src), T(3, 4), T(3))
case("diagonal_scatter_offset", "shape", lambda x, src: torch.diagonal_scatter(x, src, 1, 2, 0), T(3, 2, 4), T(2, 2))
case("diagonal_scatter_negative", "shape", lambda x, src: torch.diagonal_scatter(x, src, -2, 0, 1), T(5, 3), T(3))
case("block_diag", "shape", torch.block_diag, T(2, 3), T(values=4.0), T(3), T(values=[[1, 2]], dtype=I64))
case("block_diag_one", "shape", torch.block_diag, T(2, 2), trivial="one 2-d block is its own block_diag")
# composites of reductions, scans and matmuls (impl/math_composites)
case("angle", "math", torch.angle, T(values=NF + [3.0, -7.0]))
case("angle_int", "math", torch.angle, T(3, 4, dtype=I64))
case("renorm", "math", lambda x: torch.renorm(x, 2, 0, 1.5), T(3, 4, 2))
case("renorm_p1", "math", lambda x: torch.renorm(x, 1, 1, 2.0), T(3, 4))
case("renorm_inf", "math", lambda x: torch.renorm(x, float("inf"), -1, 0.5), T(3, 4))
case("renorm_p3", "math", lambda x: torch.renorm(x, 3, 0, 1.0), T(3, 4))
case("logcumsumexp", "math", lambda x: torch.logcumsumexp(x, 1), T(3, 6))
case("logcumsumexp_wide", "math", lambda x: torch.logcumsumexp(x, 0),
     T(values=[[-200.0, 1.0], [0.0, float("-inf")], [float("inf"), 3.0], [1.0, float("nan")]]))
case("euclidean_dist", "math", lambda a, b: aten._euclidean_dist(a, b), T(2, 4, 3), T(2, 5, 3))
case("pdist_one_row", "other", lambda x: F.pdist(x), T(1, 3), trivial="one row has no pairs: the empty result is the point")
# max pooling with its indices used (impl/pool_indices)
case("max_pool2d_indices", "pool", lambda x: F.max_pool2d(x, 3, 2, 1, return_indices=True), T(2, 3, 7, 6))
case("max_pool2d_indices_ceil_dilation", "pool", lambda x: F.max_pool2d(x, 2, 2, 0, 2, ceil_mode=True, return_indices=True),
     T(1, 2, 7, 8))
case("max_pool1d_indices", "pool", lambda x: F.max_pool1d(x, 3, 2, 1, return_indices=True), T(2, 3, 9))
case("max_pool3d_indices", "pool", lambda x: F.max_pool3d(x, 2, return_indices=True), T(1, 2, 4, 4, 5))
case("max_pool2d_indices_ties", "pool", lambda x: F.max_pool2d(x, 2, 1, return_indices=True), T(1, 1, 4, 4, steps=True))
case("adaptive_max_pool2d_indices", "pool", lambda x: F.adaptive_max_pool2d(x, (3, 2), return_indices=True), T(2, 3, 7, 5))
case("adaptive_max_pool1d_indices", "pool", lambda x: F.adaptive_max_pool1d(x, 4, return_indices=True), T(3, 10))
case("adaptive_max_pool3d_indices", "pool", lambda x: F.adaptive_max_pool3d(x, 2, return_indices=True), T(1, 2, 3, 5, 4))
case("cummax", "math", lambda x: torch.cummax(x, 1), T(3, 9))
case("cummin_ties_nan", "math", lambda x: torch.cummin(x, 0),
     T(values=[[1.0, 2.0], [1.0, float("nan")], [0.5, 1.0], [0.5, float("nan")], [2.0, -1.0]]))
case("cummax_int", "math", lambda x: torch.cummax(x, -1), T(2, 6, dtype=I64, lo=-2, hi=3))
case("cummax_bool", "math", lambda x: torch.cummax(x, 0), T(values=[False, True, False, True, False]))
case("cummin_0d", "math", lambda x: torch.cummin(x, 0), T(values=3.0), trivial="a 0-d cummin is its input, at index 0")
case("unfold_im2col", "pool", lambda x: F.unfold(x, (2, 3), dilation=(2, 1), padding=(1, 0), stride=(1, 2)), T(2, 3, 6, 7))
case("unfold_im2col_unbatched", "pool", lambda x: F.unfold(x, 2), T(2, 4, 4))
case("histc", "math", lambda x: torch.histc(x, 7, -1.5, 2.0), T(5, 8))
case("histc_data_range", "math", lambda x: torch.histc(x, 4), T(values=[0.5, 1.0, 1.5, 2.0, 3.0, 3.0]))
case("histc_one_value", "math", lambda x: torch.histc(x, 3), T(values=[2.0, 2.0]))
# order statistics (impl/order_stats)
_WITH_NAN = T(values=[[3.0, 1.0, 2.0, 5.0], [float("nan"), 1.0, 0.0, float("nan")], [2.0, 2.0, float("nan"), -1.0]])
case("median", "reduce", torch.median, T(3, 5))
case("median_nan", "reduce", torch.median, _WITH_NAN)
case("median_dim", "reduce", lambda x: torch.median(x, 1), T(3, 6))
case("median_dim_nan_keepdim", "reduce", lambda x: torch.median(x, -1, keepdim=True), _WITH_NAN)
case("median_int", "reduce", lambda x: torch.median(x, 0), T(5, 3, dtype=I64))
case("nanmedian", "reduce", torch.nanmedian, _WITH_NAN)
case("nanmedian_dim", "reduce", lambda x: torch.nanmedian(x, 1), _WITH_NAN)
case("nanmedian_all_nan", "reduce", lambda x: torch.nanmedian(x, 1), T(values=[[float("nan"), 1.0, 3.0], [float("nan")] * 3]))
case("kthvalue", "reduce", lambda x: torch.kthvalue(x, 2, 1), T(4, 6))
case("kthvalue_keepdim", "reduce", lambda x: torch.kthvalue(x, 3, 0, True), T(4, 2))
case("kthvalue_0d", "reduce", lambda x: torch.kthvalue(x, 1), T(values=2.5), trivial="a 0-d kthvalue is its input, at index 0")
# margin losses (impl/margin_loss)
case("multi_margin_loss", "loss", lambda x, y: F.multi_margin_loss(x, y), T(4, 5), T(values=[0, 4, 2, 2], dtype=I64))
case("multi_margin_loss_p2_weight", "loss", lambda x, y, w: F.multi_margin_loss(x, y, p=2, margin=0.7, weight=w, reduction="sum"),
     T(3, 4), T(values=[1, 0, 3], dtype=I64), T(4, positive=True))
case("multi_margin_loss_none_1d", "loss", lambda x, y: F.multi_margin_loss(x, y, reduction="none"), T(5), T(values=[3], dtype=I64))
case("multilabel_margin_loss", "loss", lambda x, y: F.multilabel_margin_loss(x, y), T(3, 4),
     T(values=[[3, 0, -1, 1], [0, 1, 2, 3], [-1, 2, 0, 0]], dtype=I64))
case("multilabel_margin_loss_none_1d", "loss", lambda x, y: F.multilabel_margin_loss(x, y, reduction="none"), T(4),
     T(values=[2, 1, -1, 0], dtype=I64))
case("bilinear", "math", lambda a, b, w, bias: F.bilinear(a, b, w, bias), T(4, 3), T(4, 5), T(2, 3, 5), T(2))
case("bilinear_batched", "math", lambda a, b, w: F.bilinear(a, b, w), T(2, 3, 4), T(2, 3, 2), T(5, 4, 2))
case("kthvalue_int_refused", "reduce", lambda x: torch.kthvalue(x, 2, 1), T(3, 5, dtype=I64), refused="which of equal values")
case("index_add_bool_refused", "indexing", lambda x, i, src: x.index_add(0, i, src), T(3, dtype=BOOL), T(values=[1], dtype=I64),
     T(1, dtype=BOOL), refused="bool tensor")
case("put_accumulate_bool_refused", "indexing", lambda x, i, src: x.put(i, src, accumulate=True), T(3, dtype=BOOL),
     T(values=[1], dtype=I64), T(1, dtype=BOOL), refused="bool tensor")
case("put_bool", "indexing", lambda x, i, src: x.put(i, src), T(values=[True, False, True]), T(values=[1, 0], dtype=I64),
     T(values=[True, False]))
case("renorm_half", "math", lambda x: torch.renorm(x, 2, 0, 1.0), T(3, 4, dtype=torch.float16), rtol=1e-3, atol=1e-3)
case("polygamma_1_bfloat16", "special", lambda x: torch.polygamma(1, x.bfloat16()).float(), T(values=[-2.5, -1.0, 0.5, 3.0]),
     rtol=1e-2, atol=1e-2)
_POLY_X = [-1.0, 0.0, 1.0, 0.5, -0.3, 0.9, 1.7, -2.2]
_POLY_N = [float(n) for n in (0, 1, 2, 3, 5, 7, 9, 12)]
for _op in ["chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w",
            "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
            "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
            "laguerre_polynomial_l", "legendre_polynomial_p"]:
    _fn = getattr(torch.special, _op)
    case(_op, "special", _fn, T(values=[[x] for x in _POLY_X]), T(values=_POLY_N + [-1.0]))
case("erfinv", "math", torch.erfinv, T(values=[-1.0, -0.999, -0.5, 0.0, 0.3, 0.9999, 1.0, 1.5, float("nan")]))
case("i0", "math", torch.i0, T(values=[-3.0, 0.0, 0.5, 10.0, 50.0, float("inf"), float("nan")]))
case("i0e", "math", torch.special.i0e, T(values=[-3.0, 0.0, 0.5, 10.0, 50.0, float("nan")]))
case("mvlgamma", "math", lambda x: torch.mvlgamma(x, 3), T(values=[1.5, 2.0, 3.7, 10.0]))
case("log_ndtr", "math", torch.special.log_ndtr, T(values=[-10.0, -3.0, 0.0, 2.0, 8.0, float("inf"), float("-inf")]))
case("ndtri", "math", torch.special.ndtri, T(values=[0.0, 0.01, 0.3, 0.5, 0.97, 1.0]))
case("lgamma_int", "math", torch.lgamma, T(3, 4, dtype=I64, lo=1, hi=9))
case("erfc_tail", "math", torch.erfc, T(values=[-9.0, -3.0, -0.7, -0.5, 0.0, 0.49, 0.5, 1.0, 3.0, 6.0, 9.0]),
     rtol=1e-5, atol=0.0)
case("erfc_int", "math", torch.erfc, T(values=[3, 4, 5], dtype=I64), atol=0.0)
case("exp2_int", "math", torch.exp2, T(3, 4, dtype=I64))
case("signbit_int", "math", torch.signbit, T(3, 4, dtype=I64))
case("isposinf_int", "math", torch.isposinf, T(3, 4, dtype=I64), trivial="integers are never infinite")
case("logit_eps", "math", lambda x: torch.logit(x, eps=0.1), T(values=[0.0, 0.05, 0.5, 0.95, 1.0, float("nan")]))
case("nan_to_num_values", "math", lambda x: torch.nan_to_num(x, nan=1.5, posinf=9.0, neginf=-7.0), T(values=NF))
case("nan_to_num_float64", "math", torch.nan_to_num, T(values=NF, dtype=torch.float64))
case("hardshrink_lambda", "math", lambda x: F.hardshrink(x, 1.2), T(3, 5))
case("softshrink_lambda", "math", lambda x: F.softshrink(x, 0.25), T(3, 5))
case("threshold", "math", lambda x: F.threshold(x, 0.3, -2.0), T(values=NF + [0.3, 0.31]))
case("threshold_int", "math", lambda x: F.threshold(x, 1, 7), T(3, 4, dtype=I64))
case("log_sigmoid_4d", "math", F.logsigmoid, T(2, 3, 4, 5))
for _d in (2, 0, -1):
    case(f"round_decimals_{_d}", "math", lambda x, d=_d: torch.round(x * 50, decimals=d), T(3, 5))
case("lerp_tensor_weight", "math", torch.lerp, T(3, 4), T(3, 4), T(values=[0.0, 0.25, 0.5, 1.5]))
case("lerp_scalar_weight", "math", lambda a, b: torch.lerp(a, b, 0.75), T(3, 4), T(4))
case("clamp_min_tensor", "math", lambda x, m: torch.clamp_min(x, m), T(values=NF), T(values=[0.0] * len(NF)))
case("clamp_max_tensor", "math", lambda x, m: torch.clamp_max(x, m), T(3, 4), T(4))

# ------------------------------------------------------------------ indexing, losses, more reductions
case("take", "indexing", torch.take, T(3, 4), T(values=[[0, -1, 5], [11, 3, -12]], dtype=I64))
case("take_empty", "indexing", lambda x, i: torch.take(x, i) + 1, T(3, 4), T(values=[], dtype=I64),
     trivial="an empty index takes nothing; the case pins the empty result")
case("unfold", "indexing", lambda x: x.unfold(1, 3, 2), T(2, 7, 3))
case("unfold_last", "indexing", lambda x: x.unfold(-1, 2, 1), T(3, 4))
case("unfold_0d", "indexing", lambda x: x.unfold(0, 1, 1) * 2, T())
_g = torch.Generator().manual_seed(0)
_IDX2 = F.max_pool2d(torch.randn(1, 2, 4, 6, generator=_g), 2, return_indices=True)[1].tolist()
_IDX3 = F.max_pool3d(torch.randn(1, 2, 4, 4, 2, generator=_g), 2, return_indices=True)[1].tolist()
case("max_unpool2d", "indexing", lambda x, i: F.max_unpool2d(x, i, 2), T(1, 2, 2, 3), T(values=_IDX2, dtype=I64))
case("max_unpool3d", "indexing", lambda x, i: F.max_unpool3d(x, i, 2), T(1, 2, 2, 2, 1), T(values=_IDX3, dtype=I64))
for _r in ("sum", "prod", "mean", "amax", "amin"):
    for _inc in (True, False):
        case(f"scatter_reduce_{_r}_{int(_inc)}", "indexing",
             lambda x, i, u, r=_r, inc=_inc: x.scatter_reduce(1, i, u, r, include_self=inc),
             T(3, 5), T(values=[[0, 1, 1], [4, 4, 4], [2, 0, 2]], dtype=I64), T(3, 3))
case("scatter_reduce_mean_int", "indexing", lambda x, i, u: x.scatter_reduce(0, i, u, "mean"),
     T(5, dtype=I64), T(values=[0, 0, 3], dtype=I64), T(3, dtype=I64))
case("scatter_reduce_0d", "indexing", lambda x, i, u: x.scatter_reduce(0, i, u, "sum"), T(), T(values=0, dtype=I64), T())
case("scatter_reduce_amax_nan", "indexing", lambda x, i, u: x.scatter_reduce(0, i, u, "amax"),
     T(values=[1.0, float("nan"), 2.0, 3.0, 0.0]), T(values=[0, 0, 3, 2], dtype=I64), T(values=[5.0, float("nan"), -1.0, 7.0]))
case("scatter_reduce_amin_int", "indexing", lambda x, i, u: x.scatter_reduce(0, i, u, "amin", include_self=False),
     T(5, dtype=I64), T(values=[0, 0, 3], dtype=I64), T(3, dtype=I64))
for _r in ("prod", "mean", "amax", "amin"):
    case(f"index_reduce_{_r}", "indexing", lambda x, i, u, r=_r: x.index_reduce(1, i, u, r, include_self=False),
         T(3, 5), T(values=[4, 0, 4], dtype=I64), T(3, 3))
case("index_reduce_self", "indexing", lambda x, i, u: x.index_reduce(0, i, u, "amax"), T(4, 2), T(values=[1, 1], dtype=I64), T(2, 2))
case("narrow_copy", "indexing", lambda x: torch.narrow_copy(x, 1, 1, 2), T(3, 4))
case("zero", "indexing", lambda x: aten.zero(x) + x, T(3, 4), trivial="zero(x) + x is x")
case("nansum", "reduce", lambda x: torch.nansum(x, 1), T(values=[[1.0, float("nan"), 2.0], [float("nan")] * 3]))
case("nansum_all_int", "reduce", torch.nansum, T(3, 4, dtype=I64))
case("nanmean", "reduce", lambda x: torch.nanmean(x, 0, keepdim=True), T(values=[[1.0, float("nan"), 2.0], [3.0, 5.0, float("nan")]]))
case("count_nonzero", "reduce", lambda x: torch.count_nonzero(x, 1), T(3, 4, dtype=I64, lo=-1, hi=2))
case("count_nonzero_all", "reduce", torch.count_nonzero, T(values=[[0.0, 1.0], [0.0, -2.0]]))
case("count_nonzero_dims", "reduce", lambda x: torch.count_nonzero(x, (0, 2)), T(2, 3, 4, dtype=BOOL))
case("aminmax", "reduce", lambda x: list(torch.aminmax(x, dim=1, keepdim=True)), T(3, 4))
case("aminmax_all", "reduce", lambda x: list(torch.aminmax(x)), T(3, 4, dtype=I64))
case("dist", "reduce", lambda a, b: torch.dist(a, b, 3), T(3, 4), T(4))
case("vdot", "matmul", torch.vdot, T(6), T(6))
case("addr", "matmul", lambda s, a, b: torch.addr(s, a, b, beta=0.5, alpha=2.0), T(3, 4), T(3), T(4))
case("addr_beta0_int", "matmul", lambda s, a, b: torch.addr(s, a, b, beta=0), T(3, 4, dtype=I64), T(3, dtype=I64), T(4, dtype=I64))
case("mse_loss", "loss", lambda a, b: F.mse_loss(a, b), T(3, 4), T(3, 4))
case("mse_loss_none", "loss", lambda a, b: F.mse_loss(a, b, reduction="none"), T(3, 4), T(3, 4))
case("smooth_l1_loss", "loss", lambda a, b: F.smooth_l1_loss(a, b, reduction="sum", beta=0.7), T(3, 4), T(3, 4))
case("smooth_l1_loss_beta0", "loss", lambda a, b: F.smooth_l1_loss(a, b, beta=0.0), T(3, 4), T(3, 4))
case("huber_loss", "loss", lambda a, b: F.huber_loss(a, b, delta=0.6), T(3, 4), T(3, 4))
case("soft_margin_loss", "loss", F.soft_margin_loss, T(3, 4), T(values=[[1.0, -1.0, 1.0, -1.0]] * 3))
case("bce", "loss", lambda p, y, w: F.binary_cross_entropy(p, y, w), T(values=[[0.0, 0.3, 1.0], [0.9, 0.5, 0.01]]),
     T(values=[[0.0, 1.0, 1.0], [1.0, 0.0, 0.5]]), T(3, positive=True))
case("bce_logits", "loss", lambda z, y, pw: F.binary_cross_entropy_with_logits(z, y, pos_weight=pw, reduction="none"),
     T(3, 4), T(values=[[0.0, 1.0, 1.0, 0.5]] * 3), T(4, positive=True))
case("bce_logits_bf16_refused", "loss", lambda z, y: F.binary_cross_entropy_with_logits(z.bfloat16(), y.bfloat16()),
     T(3, 4), T(3, 4), refused="intermediate roundings")
case("nll_loss", "loss", lambda x, t: F.nll_loss(x, t), T(4, 5), T(values=[0, 4, 2, 1], dtype=I64))
case("nll_loss_weight_ignore", "loss", lambda x, t, w: F.nll_loss(x, t, w, ignore_index=2), T(4, 5),
     T(values=[0, 4, 2, 1], dtype=I64), T(5, positive=True))
case("nll_loss_none", "loss", lambda x, t: F.nll_loss(x, t, reduction="none"), T(4, 5), T(values=[0, 4, 2, 1], dtype=I64))
case("nll_loss_sum_1d", "loss", lambda x, t: F.nll_loss(x, t, reduction="sum"), T(5), T(values=3, dtype=I64))
case("nll_loss2d", "loss", lambda x, t: F.nll_loss(x, t), T(2, 3, 4, 4), T(values=[[[0, 1, 2, 1]] * 4] * 2, dtype=I64))
case("cross_entropy", "loss", lambda x, t: F.cross_entropy(x, t), T(4, 5), T(values=[0, 4, 2, 1], dtype=I64))

# ------------------------------------------------------------------ normalization
bn = nn.BatchNorm2d(3).eval()
with torch.no_grad():
    bn.running_mean.copy_(torch.tensor([0.1, -0.2, 0.3]))
    bn.running_var.copy_(torch.tensor([0.5, 1.5, 2.0]))
    bn.weight.copy_(torch.tensor([1.0, 0.5, 2.0]))
    bn.bias.copy_(torch.tensor([0.0, 0.1, -0.1]))
case("batch_norm_2d", "normalization", bn, T(2, 3, 4, 4))


def _with_stats(bn, seed):
    """Running statistics (and affine parameters) away from the identity: a fresh batch norm in
    eval mode returns its input, so a dropped batch norm would pass."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        bn.running_mean.copy_(torch.randn(bn.num_features, generator=g) * 0.5)
        bn.running_var.copy_(torch.rand(bn.num_features, generator=g) * 2 + 0.25)
        if bn.affine:
            bn.weight.copy_(torch.rand(bn.num_features, generator=g) + 0.5)
            bn.bias.copy_(torch.randn(bn.num_features, generator=g) * 0.3)
    return bn.eval()


case("batch_norm_1d", "normalization", _with_stats(nn.BatchNorm1d(4), 1), T(3, 4, 5))
case("batch_norm_no_affine", "normalization", _with_stats(nn.BatchNorm2d(3, affine=False), 2), T(2, 3, 4, 4))
case("batch_norm_train_stats", "normalization", lambda x: F.batch_norm(x, None, None, training=True), T(4, 3, 5))
case("layer_norm_last", "normalization", nn.LayerNorm(8), T(2, 3, 8))
case("layer_norm_two", "normalization", nn.LayerNorm([3, 8]), T(2, 3, 8))
case("layer_norm_no_affine", "normalization", nn.LayerNorm(8, elementwise_affine=False), T(4, 8))
case("layer_norm_special", "normalization", nn.LayerNorm(4),
     T(values=[[1.5, float("inf"), 2.0, -1.0], [float("nan"), 1.0, 2.0, -2.0], [1.0, 2.0, 3.0, 4.0], [float("-inf"), 0.0, 1.0, 2.0]]))
case("batch_norm_special", "normalization", bn, T(values=[[[[1.0, float("nan")], [float("inf"), -2.0]]] * 3]))
case("group_norm_special", "normalization", nn.GroupNorm(2, 4), T(values=[[[1.0, float("inf")], [2.0, 0.5], [0.5, 1.0], [3.0, -1.0]]]))
case("prelu_special", "activation", nn.PReLU(2, init=0.3), T(values=[[SPECIAL[:4], SPECIAL[4:]]]))
case("group_norm", "normalization", nn.GroupNorm(2, 4), T(2, 4, 3, 3))
case("group_norm_1d", "normalization", nn.GroupNorm(3, 6), T(2, 6, 5))
case("instance_norm", "normalization", nn.InstanceNorm2d(3), T(2, 3, 4, 4))
# Statistics outputs used, and a negative epsilon (PyTorch computes rsqrt(var + eps) as written: NaN
# where var + eps < 0); both take the converters built from reductions.
case("native_layer_norm_stats", "normalization",
     lambda x, w, b: aten.native_layer_norm(x, [3, 4], w, b, 1e-5), T(2, 3, 4), T(3, 4), T(3, 4))
case("native_layer_norm_negative_eps", "normalization",
     lambda x: aten.native_layer_norm(x, [4], None, None, -0.5), T(3, 4))
case("layer_norm_negative_eps", "normalization", lambda x: F.layer_norm(x, [5], eps=-0.3), T(4, 5))
# Rows that barely vary. One element: the exact result is beta, PyTorch's is beta + gamma * the rounding
# error of x*rstd (its kernel computes fma(x, rstd, -rstd*mean)); our kernels follow its arithmetic, so the
# bar is near-exact (without a bias the output is that rounding alone). A mean of 30 with spread 0.1:
# E[x^2] - E[x]^2 would lose the variance to cancellation (PyTorch's own fp32 result is good to ~2e-5).
_ONE = [[8.2429], [-5.3081], [3.0771], [-8.9163], [6.1245], [-1.6652]]
_LARGE_MEAN = (30 + 0.1 * torch.randn(4, 16, generator=torch.Generator().manual_seed(15))).tolist()
case("layer_norm_one_element_rows", "normalization", lambda x, w, b: F.layer_norm(x, [1], w, b),
     T(values=_ONE), T(values=[3.0688]), T(values=[0.0107]), rtol=1e-6, atol=0)
case("native_layer_norm_one_element_rows_stats", "normalization",
     lambda x, w: aten.native_layer_norm(x, [1], w, None, 1e-5), T(values=_ONE), T(values=[-2.5]), rtol=1e-6, atol=0,
     trivial="a one-element row's mean is the element itself")
case("layer_norm_large_mean", "normalization", nn.LayerNorm(16), T(values=_LARGE_MEAN))
case("native_layer_norm_large_mean_stats", "normalization",
     lambda x: aten.native_layer_norm(x, [16], None, None, 1e-5), T(values=_LARGE_MEAN))
case("native_group_norm_stats", "normalization",
     lambda x, w, b: aten.native_group_norm(x, w, b, 2, 4, 6, 2, 1e-5), T(2, 4, 3, 2), T(4), T(4))
case("group_norm_negative_eps", "normalization", lambda x: F.group_norm(x, 2, eps=-0.4), T(2, 4, 5))
case("weight_norm_interface_dim0", "normalization", lambda v, g: list(aten._weight_norm_interface(v, g, 0)),
     T(4, 3, 5), T(4, 1, 1, positive=True))
case("weight_norm_interface_dim2", "normalization", lambda v, g: list(aten._weight_norm_interface(v, g, 2)),
     T(4, 3, 5), T(1, 1, 5, positive=True))
case("weight_norm_all_dims", "normalization", lambda v, g: torch._weight_norm(v, g, -1), T(4, 3), T(positive=True))
case("weight_norm_conv_module", "normalization", nn.utils.weight_norm(nn.Conv1d(4, 6, 3), dim=2), T(2, 4, 9))
case("native_batch_norm_inference_stats_refused", "normalization",
     lambda x, m, v: [t * 1 for t in aten.native_batch_norm(x, None, None, m, v, False, 0.1, 1e-5)],
     T(2, 3, 4), T(3), T(3, positive=True), refused="saved mean/invstd are read in inference")
case("native_batch_norm_train_stats", "normalization",
     lambda x, w, b: list(aten.native_batch_norm(x, w, b, None, None, True, 0.1, 1e-5)), T(4, 3, 5), T(3), T(3))
# bfloat16 inputs: the statistics in float32, as the graph declares them, and the result computed in
# float32 and rounded once to bfloat16. torch 1.13's eager kernels return the statistics rounded to
# bfloat16 and round the result after each vector step (x*rstd, + shift, * gamma, + beta), hence a
# tolerance of 2 bfloat16 steps at |y| ~ 1. Each was refused before ("converter produced
# bfloat16[...] but the graph says float32[...]").
_BF16_TOL = dict(rtol=1.6e-2, atol=1.6e-2)
# float32 statistics vs torch's, which come rounded to bfloat16 and a few bfloat16 steps off the
# float32 mean; their inputs are shifted to mean ~3, std ~0.5 so that both statistics are ~1 or more
# (the results are checked on unshifted inputs: torch's bfloat16 rounding of the mean grows with
# |mean| / std there).
_BF16_STATS_TOL = dict(rtol=1.6e-2, atol=1e-2)
_LN_W, _GN_W = T(values=[2.0, -3.0, 1.5, 2.5, -1.0]), T(values=[2.0, -3.0, 1.5, 2.5])


def _bf16_norm(fn, outputs, shift=False):
    return lambda x, w, b: [t.float() for t in fn((x * 0.5 + 3 if shift else x).bfloat16(), w.bfloat16(),
                                                  b.bfloat16())][outputs]


_LN = lambda x, w, b: aten.native_layer_norm(x, [5], w, b, 1e-5)  # noqa: E731
_GN = lambda x, w, b: aten.native_group_norm(x, w, b, 2, 4, 6, 2, 1e-5)  # noqa: E731
_BN = lambda x, w, b: aten.native_batch_norm(x, w[:3], b[:3], None, None, True, 0.1, 1e-5)  # noqa: E731
for _name, _fn, _x, _w, _b in [("native_layer_norm", _LN, T(3, 4, 5), _LN_W, T(5)),
                               ("native_group_norm", _GN, T(2, 4, 3, 2), _GN_W, T(4)),
                               ("native_batch_norm_train", _BN, T(4, 3, 5), _GN_W, T(4))]:
    case(f"{_name}_bf16", "normalization", _bf16_norm(_fn, slice(0, 1)), _x, _w, _b, **_BF16_TOL)
    case(f"{_name}_bf16_stats", "normalization", _bf16_norm(_fn, slice(1, 3), shift=True), _x, _w, _b, **_BF16_STATS_TOL)
case("layer_norm_bf16", "normalization", lambda x, w, b: F.layer_norm(x.bfloat16(), [5], w.bfloat16(), b.bfloat16()).float(),
     T(3, 4, 5), _LN_W, T(5), **_BF16_TOL)

# ------------------------------------------------------------------ conv
case("conv2d", "conv", nn.Conv2d(3, 4, 3), T(1, 3, 8, 8))
case("conv2d_stride_pad", "conv", nn.Conv2d(3, 4, 3, stride=2, padding=1), T(2, 3, 9, 9))
case("conv2d_groups_dil", "conv", nn.Conv2d(4, 4, 3, groups=2, dilation=2, padding=2, bias=False), T(1, 4, 8, 8))
case("conv2d_depthwise", "conv", nn.Conv2d(4, 4, 3, groups=4, padding=1), T(1, 4, 6, 6))
case("conv1d", "conv", nn.Conv1d(3, 5, 3, padding=1), T(2, 3, 10))
case("conv3d", "conv", nn.Conv3d(2, 3, 2), T(1, 2, 4, 4, 4))
case("conv_transpose2d", "conv", nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1, output_padding=1), T(1, 3, 5, 5))
case("conv_transpose1d", "conv", nn.ConvTranspose1d(2, 3, 4, stride=2), T(1, 2, 6))

# ------------------------------------------------------------------ pool
case("max_pool2d", "pool", nn.MaxPool2d(2), T(1, 3, 8, 8))
case("max_pool2d_pad_stride", "pool", nn.MaxPool2d(3, stride=2, padding=1), T(2, 3, 9, 9))
case("max_pool2d_ceil", "pool", nn.MaxPool2d(3, stride=2, ceil_mode=True), T(1, 2, 8, 8))
case("max_pool2d_dilation", "pool", nn.MaxPool2d(2, dilation=2), T(1, 2, 8, 8))
case("max_pool1d", "pool", nn.MaxPool1d(2), T(2, 3, 8))
case("max_pool3d", "pool", nn.MaxPool3d(2), T(1, 2, 4, 4, 4))
case("avg_pool2d", "pool", nn.AvgPool2d(2), T(1, 3, 8, 8))
case("avg_pool2d_pad_exclude", "pool", nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False), T(1, 3, 9, 9))
case("avg_pool2d_ceil", "pool", nn.AvgPool2d(3, stride=2, ceil_mode=True), T(1, 2, 8, 8))
case("avg_pool2d_divisor", "pool", nn.AvgPool2d(2, divisor_override=3), T(1, 2, 6, 6))
case("avg_pool1d", "pool", nn.AvgPool1d(3, stride=2), T(2, 3, 9))
case("avg_pool3d", "pool", nn.AvgPool3d(2), T(1, 2, 4, 4, 4))
case("adaptive_avg_pool2d_1", "pool", nn.AdaptiveAvgPool2d(1), T(2, 3, 7, 7))
case("adaptive_avg_pool2d_3x2", "pool", nn.AdaptiveAvgPool2d((3, 2)), T(1, 3, 7, 5))
case("adaptive_avg_pool1d", "pool", nn.AdaptiveAvgPool1d(3), T(2, 3, 7))
case("adaptive_avg_pool3d", "pool", nn.AdaptiveAvgPool3d(2), T(1, 2, 5, 4, 3))
case("adaptive_max_pool2d", "pool", nn.AdaptiveMaxPool2d(2), T(1, 3, 7, 7))
NAN, INF = float("nan"), float("inf")
POOL_SPECIAL = [[[[1.0, NAN, 2.0, 0.5], [-1.0, 3.0, -INF, -2.0], [INF, 0.0, -0.5, -3.0], [2.5, -1.5, -INF, -INF]]]]
case("max_pool2d_special", "pool", nn.MaxPool2d(2), T(values=POOL_SPECIAL))
case("max_pool2d_special_overlap", "pool", nn.MaxPool2d(3, stride=1, padding=1), T(values=POOL_SPECIAL))
case("avg_pool2d_special", "pool", nn.AvgPool2d(2), T(values=POOL_SPECIAL))
case("adaptive_avg_pool2d_special", "pool", nn.AdaptiveAvgPool2d(1), T(values=POOL_SPECIAL))

# ------------------------------------------------------------------ matmul
case("linear", "matmul", nn.Linear(4, 3), T(5, 4))
case("linear_3d", "matmul", nn.Linear(4, 3), T(2, 5, 4))
case("linear_nobias", "matmul", nn.Linear(4, 3, bias=False), T(5, 4))
case("mm", "matmul", torch.mm, T(3, 4), T(4, 5))
case("bmm", "matmul", torch.bmm, T(2, 3, 4), T(2, 4, 5))
case("matmul_broadcast", "matmul", torch.matmul, T(2, 1, 3, 4), T(3, 4, 2))
case("matmul_vec", "matmul", torch.matmul, T(3, 4), T(4))
case("matmul_vec_mat", "matmul", torch.matmul, T(4), T(2, 4, 3))
case("mv", "matmul", torch.mv, T(3, 4), T(4))
case("dot", "matmul", torch.dot, T(6), T(6))
case("addmm", "matmul", lambda b, x, y: torch.addmm(b, x, y, beta=0.5, alpha=2.0), T(3), T(2, 4), T(4, 3))
case("addmm_beta0", "matmul", lambda b, x, y: torch.addmm(b, x, y, beta=0), T(2, 3), T(2, 4), T(4, 3))
case("baddbmm", "matmul", lambda b, x, y: torch.baddbmm(b, x, y, alpha=0.5), T(2, 3, 5), T(2, 3, 4), T(2, 4, 5))
case("t", "matmul", lambda x: x.t() * 1.0, T(3, 4))

# ------------------------------------------------------------------ reduce
for op, fn in [("sum", torch.sum), ("mean", torch.mean), ("amax", torch.amax), ("amin", torch.amin)]:
    case(f"{op}_dim", "reduce", lambda x, f=fn: f(x, 1), T(3, 4, 5))
    case(f"{op}_neg_dims_keep", "reduce", lambda x, f=fn: f(x, (-1, 0), keepdim=True), T(3, 4, 5))
for op, fn in [("sum", torch.sum), ("mean", torch.mean), ("max", torch.max), ("min", torch.min)]:
    case(f"{op}_all", "reduce", fn, T(3, 4))
# factors near 1: a product of twelve normals is ~1e-4, below any useful tolerance
case("prod_all", "reduce", torch.prod, T(values=[[1.5, -0.8, 1.2, 0.9], [1.1, 2.0, -0.7, 1.3], [0.6, 1.4, -1.6, 1.05]]))
case("sum_int", "reduce", lambda x: torch.sum(x, 0), T(3, 4, dtype=I32))
case("sum_bool", "reduce", torch.sum, T(3, 4, dtype=BOOL))
case("sum_dtype", "reduce", lambda x: torch.sum(x, 1, dtype=torch.float64), T(3, 4))
case("prod_dim_int", "reduce", lambda x: torch.prod(x, -1), T(3, 4, dtype=I64, lo=1, hi=3))
case("max_dim", "reduce", lambda x: torch.max(x, 1), T(3, 5))
case("min_dim_keep", "reduce", lambda x: torch.min(x, -1, keepdim=True), T(3, 5))
case("max_dim_values_only", "reduce", lambda x: torch.max(x, 0)[0], T(4, 3))
case("argmax", "reduce", lambda x: torch.argmax(x, 1), T(3, 5))
case("argmin_keep", "reduce", lambda x: torch.argmin(x, 0, keepdim=True), T(3, 5))
case("argmax_flat", "reduce", torch.argmax, T(3, 5))
case("any_all", "reduce", torch.any, T(3, 4, dtype=BOOL))
ROWS_NONE_SOME_ALL = [[False] * 4, [False, True, False, False], [True] * 4]
case("any_dim", "reduce", lambda x: torch.any(x, 1), T(values=ROWS_NONE_SOME_ALL, dtype=BOOL))
case("any_dim_float", "reduce", lambda x: torch.any(x > 0.5, 0), T(3, 4))
case("all_dim", "reduce", lambda x: torch.all(x, 1), T(values=ROWS_NONE_SOME_ALL, dtype=BOOL))
case("cumsum", "reduce", lambda x: torch.cumsum(x, 1), T(3, 4))
case("cumsum_int", "reduce", lambda x: torch.cumsum(x, 0), T(3, 4, dtype=I32))
case("cumprod", "reduce", lambda x: torch.cumprod(x, -1), T(3, 4))
case("var_dim", "reduce", lambda x: torch.var(x, 1), T(3, 6))
case("std_unbiased_false", "reduce", lambda x: torch.std(x, -1, unbiased=False, keepdim=True), T(3, 6))
# float16/bfloat16 var/std: computed in float32 and rounded once, as torch computes them (OpInfo's
# float16 var, var_mean: 2 float16 steps off when every step rounded).
case("var_float16_rounds_once", "reduce", lambda x: torch.var(x.half() * 8, 1).float(), T(5, 37))
case("std_bfloat16_rounds_once", "reduce", lambda x: torch.std(x.bfloat16() * 8, 0, unbiased=False).float(), T(37, 5))
case("norm", "reduce", lambda x: torch.linalg.vector_norm(x, 2, dim=1), T(3, 6))
case("norm_scalar", "reduce", lambda x: aten.norm.Scalar(x, 3), T(3, 6))
case("norm_dim_keepdim", "reduce", lambda x: aten.norm.ScalarOpt_dim(x, None, [1], True), T(3, 6, 2))
case("norm_dtype", "reduce", lambda x: aten.norm.ScalarOpt_dtype(x, 1, dtype=torch.float64), T(3, 4))
case("norm_dim_dtype", "reduce", lambda x: aten.norm.ScalarOpt_dim_dtype(x, float("inf"), [0, -1], False, dtype=torch.float64), T(3, 4, 2))
case("mean_special", "reduce", lambda x: torch.mean(x), T(values=[1.0, float("inf"), 2.0]))
REDUCE_SPECIAL = [[1.5, INF, 2.0, -1.0], [0.0, INF, 1.0, 3.0], [NAN, 1.0, 2.0, -2.0], [-INF, -1.0, 2.0, 0.5], [INF, -INF, 1.0, 2.0]]
case("prod_dim_special", "reduce", lambda x: torch.prod(x, -1), T(values=REDUCE_SPECIAL))
case("sum_dim_special", "reduce", lambda x: torch.sum(x, -1), T(values=REDUCE_SPECIAL))
case("amax_dim_special", "reduce", lambda x: torch.amax(x, -1), T(values=REDUCE_SPECIAL))
case("amin_dim_special", "reduce", lambda x: torch.amin(x, -1), T(values=REDUCE_SPECIAL))
case("max_dim_special", "reduce", lambda x: torch.max(x, -1), T(values=REDUCE_SPECIAL))
case("argmax_special", "reduce", lambda x: torch.argmax(x, -1), T(values=REDUCE_SPECIAL))
case("cumsum_special", "reduce", lambda x: torch.cumsum(x, -1), T(values=REDUCE_SPECIAL))
case("softmax_special", "activation", lambda x: torch.softmax(x, -1), T(values=REDUCE_SPECIAL))
case("log_softmax_special", "activation", lambda x: torch.log_softmax(x, -1), T(values=REDUCE_SPECIAL))

# ------------------------------------------------------------------ shape
case("view", "shape", lambda x: x.view(4, 6) + 0, T(2, 3, 4))
case("view_infer", "shape", lambda x: x.view(-1, 4) + 0, T(2, 3, 4))
case("reshape", "shape", lambda x: x.reshape(3, 8), T(2, 3, 4))
case("reshape_int", "shape", lambda x: x.reshape(3, 8), T(2, 3, 4, dtype=I64))
case("flatten", "shape", lambda x: torch.flatten(x, 1), T(2, 3, 4))
case("permute", "shape", lambda x: x.permute(2, 0, 1) + 0, T(2, 3, 4))
case("permute_neg", "shape", lambda x: x.permute(-1, -3, -2).contiguous(), T(2, 3, 4))
case("transpose", "shape", lambda x: x.transpose(0, -1) * 1, T(2, 3, 4))
case("unsqueeze", "shape", lambda x: x.unsqueeze(-1) + 0, T(2, 3))
case("squeeze_all", "shape", lambda x: x.squeeze() + 0, T(2, 1, 3, 1))
case("squeeze_dim", "shape", lambda x: x.squeeze(1) + 0, T(2, 1, 3))
case("expand", "shape", lambda x: x.expand(2, 3, 4) + 0, T(3, 1))
case("expand_neg1", "shape", lambda x: x.expand(2, -1, 4) + 0, T(1, 3, 1))
case("expand_bool", "shape", lambda x: x.expand(2, 3, 4).clone(), T(3, 1, dtype=BOOL))
case("repeat", "shape", lambda x: x.repeat(2, 1, 3), T(3, 2))
case("tile", "shape", lambda x: torch.tile(x, (2,)), T(3, 2))
case("pixel_shuffle", "shape", nn.PixelShuffle(2), T(1, 8, 3, 3))
case("pixel_unshuffle", "shape", nn.PixelUnshuffle(2), T(1, 2, 4, 6))
case("unflatten", "shape", lambda x: x.unflatten(1, (2, 3)) + 0, T(2, 6))

# ------------------------------------------------------------------ slice
case("slice", "slice", lambda x: x[:, 1:3] + 0, T(3, 5))
case("slice_step_neg_bounds", "slice", lambda x: x[-3:, ::2] + 0, T(5, 6))
case("slice_int", "slice", lambda x: x[1:] + 0, T(4, 3, dtype=I64))
case("narrow", "slice", lambda x: x.narrow(1, 1, 2) + 0, T(3, 5))
case("split", "slice", lambda x: [t + 0 for t in torch.split(x, 2, 1)], T(3, 5))
case("split_sizes", "slice", lambda x: [t * 1 for t in torch.split(x, [1, 3], 0)], T(4, 2))
case("chunk", "slice", lambda x: [t * 1 for t in torch.chunk(x, 3, -1)], T(2, 7))
case("unbind", "slice", lambda x: [t * 1 for t in torch.unbind(x, 1)], T(2, 3))
case("cat", "slice", lambda a, b: torch.cat([a, b], 1), T(2, 3), T(2, 4))
case("cat_neg_dim_promote", "slice", lambda a, b: torch.cat([a, b], -2), T(2, 3, dtype=I64), T(1, 3))
case("cat_bool", "slice", lambda a, b: torch.cat([a, b]), T(2, 3, dtype=BOOL), T(1, 3, dtype=BOOL))
case("stack", "slice", lambda a, b: torch.stack([a, b], 1), T(2, 3), T(2, 3))
case("constant_pad", "slice", lambda x: F.pad(x, (1, 2, 0, 1), value=0.5), T(1, 2, 3, 4))
case("constant_pad_negative", "slice", lambda x: F.pad(x, (-1, 1)), T(2, 5))
case("reflection_pad2d", "slice", lambda x: F.pad(x, (1, 2, 2, 1), mode="reflect"), T(1, 2, 4, 4))
case("reflection_pad1d", "slice", lambda x: F.pad(x, (2, 1), mode="reflect"), T(1, 2, 5))
case("replication_pad2d", "slice", lambda x: F.pad(x, (1, 2, 2, 1), mode="replicate"), T(1, 2, 4, 4))
case("replication_pad3d", "slice", lambda x: F.pad(x, (1, 0, 0, 1, 1, 1), mode="replicate"), T(1, 1, 3, 3, 3))
case("circular_pad", "slice", lambda x: F.pad(x, (1, 2, 1, 0), mode="circular"), T(1, 2, 4, 4))
case("flip", "slice", lambda x: torch.flip(x, (0, -1)), T(3, 4))
case("roll", "slice", lambda x: torch.roll(x, (1, -2), (0, 1)), T(3, 4))
case("roll_flat", "slice", lambda x: torch.roll(x, 3), T(3, 4))
case("slice_scatter", "slice", lambda x, y: torch.slice_scatter(x, y, 1, 1, 5, 2), T(3, 6), T(3, 2))
case("select_scatter", "slice", lambda x, y: torch.select_scatter(x, y, 0, -1), T(3, 4), T(4))
case("diagonal", "slice", lambda x: torch.diagonal(x, 1) * 1, T(4, 5))
case("diagonal_neg_3d", "slice", lambda x: torch.diagonal(x, -1, 0, 2) * 1, T(4, 2, 5))
case("tril", "select", lambda x: torch.tril(x), T(4, 5))
case("triu_diag", "select", lambda x: torch.triu(x, -1), T(2, 4, 3, dtype=I64))
case("as_strided", "slice", lambda x: torch.as_strided(x, (3, 3), (1, 2), 1) * 1, T(12))

# ------------------------------------------------------------------ select / indexing
case("select", "select", lambda x: x[:, 2] + 0, T(3, 4))
case("select_neg", "select", lambda x: x[-1] + 0, T(3, 4, dtype=I64))
case("index_select", "select", lambda x, i: torch.index_select(x, 1, i), T(3, 5), T(values=[4, 0, 2, 2], dtype=I64))
case("gather", "select", lambda x, i: torch.gather(x, 1, i), T(3, 4), T(3, 2, dtype=I64, lo=0, hi=4))
case("scatter_src", "select", lambda x, i, s: torch.scatter(x, 1, i, s), T(3, 5), T(values=[[0, 1], [2, 3], [4, 0]], dtype=I64), T(3, 2))
case("scatter_value", "select", lambda x, i: torch.scatter(x, 0, i, 2.5), T(3, 4), T(values=[[0, 1, 2, 0]], dtype=I64))
case("scatter_add", "select", lambda x, i, s: torch.scatter_add(x, 1, i, s), T(2, 4), T(values=[[0, 0, 1], [3, 3, 3]], dtype=I64), T(2, 3))
case("where", "select", torch.where, T(3, 4, dtype=BOOL), T(3, 4), T(3, 4))
case("where_broadcast_promote", "select", torch.where, T(3, 1, dtype=BOOL), T(4, dtype=I64), T(3, 4))
case("where_scalar", "select", lambda c, x: torch.where(c, x, 0.0), T(3, 4, dtype=BOOL), T(3, 4))
case("masked_fill", "select", lambda x, m: x.masked_fill(m, -1.0), T(3, 4), T(3, 4, dtype=BOOL))
case("masked_fill_inf", "select", lambda x, m: x.masked_fill(m, float("-inf")), T(3, 4), T(1, 4, dtype=BOOL))
case("index_one", "select", lambda x, i: x[i], T(5, 3), T(values=[[0, 4], [-1, 2]], dtype=I64))
case("index_middle", "select", lambda x, i: x[:, i], T(2, 5, 3), T(values=[1, 3, -1], dtype=I64))
case("index_two", "select", lambda x, i, j: x[i, j], T(4, 5), T(values=[0, 3], dtype=I64), T(values=[1, -1], dtype=I64))
case("index_split", "select", lambda x, i, j: x[i, :, j], T(4, 2, 5), T(values=[0, 3], dtype=I64), T(values=[1, 4], dtype=I64))
case("index_put", "select", lambda x, i, v: torch.index_put(x, (i,), v), T(5, 3), T(values=[0, 3], dtype=I64), T(2, 3))
case("index_put_accumulate", "select", lambda x, i, v: torch.index_put(x, (i,), v, accumulate=True), T(5, 3), T(values=[1, 1, 4], dtype=I64), T(3, 3))
case("index_put_two", "select", lambda x, i, j, v: torch.index_put(x, (i, j), v), T(4, 5), T(values=[0, 3], dtype=I64), T(values=[1, 2], dtype=I64), T(2))
# x[mask] = values with one row per masked element (torch checks the count; so does the engine, when it runs).
MASK_ROWS = [[True, False, True, False], [False, False, True, True], [False, True, False, False]]
case("index_put_mask_rows", "select", lambda x, m, v: torch.index_put(x, (m,), v), T(3, 4), T(values=MASK_ROWS, dtype=BOOL), T(5))
case("index_put_mask_rows_accumulate", "select", lambda x, m, v: torch.index_put(x, (m,), v, accumulate=True), T(4, 3),
     T(values=[True, False, True, True], dtype=BOOL), T(3, 3))
case("index_put_mask_rows_broadcast", "select", lambda x, m, v: torch.index_put(x, (m,), v), T(4, 3),
     T(values=[True, False, True, True], dtype=BOOL), T(3, 1))
case("index_put_mask_rows_int", "select", lambda x, m, v: torch.index_put(x, (m,), v), T(3, 4, dtype=I64),
     T(values=MASK_ROWS, dtype=BOOL), T(5, dtype=I64))


def _put_rows_inner(x, m, v):
    y = x.clone()
    y[:, m] = v
    return y


case("index_put_mask_rows_inner", "select", _put_rows_inner, T(2, 4, 3), T(values=[True, False, True, True], dtype=BOOL), T(2, 3, 3))
case("index_copy", "select", lambda x, i, s: torch.index_copy(x, 1, i, s), T(3, 5), T(values=[4, 0], dtype=I64), T(3, 2))
# 0-d self / index / source (OpInfo's index_copy samples; a 0-d self crashed the converter)
# 0-d self / index (OpInfo's gather and scatter samples), an empty uint8 index
case("gather_0d_self", "select", lambda x, i: torch.gather(x, 0, i), T(), T(values=[0], dtype=I64))
case("gather_empty_uint8_index", "select", lambda x, i: torch.gather(x, 0, i) + 1, T(5), T(values=[], dtype=torch.uint8),
     trivial="an empty result; the case pins that a uint8 index is taken")
case("scatter_0d", "select", lambda x, i, u: torch.scatter(x, 0, i, u), T(), T(values=0, dtype=I64), T(),
     trivial="a 0-d self is replaced by the 0-d source")
case("scatter_add_0d", "select", lambda x, i, u: torch.scatter_add(x, 0, i, u), T(), T(values=0, dtype=I64), T())
case("scatter_value_0d_multiply", "select", lambda x, i: torch.scatter(x, 0, i, 2.5, reduce="multiply"), T(), T(values=0, dtype=I64))
case("index_copy_0d", "select", lambda x, i, s: torch.index_copy(x, 0, i, s), T(), T(values=[0], dtype=I64), T(),
     trivial="on a 0-d self the result is the source itself")
case("index_copy_0d_index", "select", lambda x, i, s: torch.index_copy(x, 0, i, s), T(5), T(values=3, dtype=I64), T(1))
case("index_copy_scalar_source", "select", lambda x, i, s: torch.index_copy(x, -1, i, s), T(4), T(values=[2], dtype=I64), T())

# ------------------------------------------------------------------ embedding
case("embedding", "embedding", nn.Embedding(10, 4), T(2, 3, dtype=I64, lo=0, hi=10))
case("embedding_padding_idx", "embedding", nn.Embedding(10, 4, padding_idx=0), T(5, dtype=I64, lo=0, hi=10))
case("embedding_sparse", "embedding", nn.Embedding(10, 4, sparse=True), T(5, dtype=I64, lo=0, hi=10))
# A complex dtype is refused by the registry for every op, at compile time (was a failure mid-conversion)
case("to_complex_refused", "other", lambda x: torch.view_as_real(x.to(torch.complex64)) * 2, T(3, 4),
     refused="complex64, which atenrt engines do not support")
case("embedding_scale_grad_by_freq", "embedding", nn.Embedding(10, 4, scale_grad_by_freq=True), T(5, dtype=I64, lo=0, hi=10))
case("embedding_bag_2d_sum", "embedding", nn.EmbeddingBag(10, 3, mode="sum"), T(2, 4, dtype=I64, lo=0, hi=10))
case("embedding_bag_2d_max", "embedding", nn.EmbeddingBag(10, 3, mode="max"), T(2, 4, dtype=I64, lo=0, hi=10))


class BagWithOffsets(nn.Module):
    def __init__(self):
        super().__init__()
        self.bag = nn.EmbeddingBag(10, 3, mode="mean")
        self.register_buffer("offsets", torch.tensor([0, 2, 2, 5]))

    def forward(self, idx):
        return self.bag(idx, self.offsets)


case("embedding_bag_offsets_mean", "embedding", BagWithOffsets(), T(6, dtype=I64, lo=0, hi=10))
case("embedding_bag_input_offsets_refused", "embedding", nn.EmbeddingBag(10, 3), T(6, dtype=I64, lo=0, hi=10),
     T(values=[0, 3], dtype=I64), refused="offsets must be a constant")

# ------------------------------------------------------------------ attention
class SelfAttention(nn.Module):
    def __init__(self, need_weights):
        super().__init__()
        self.mha = nn.MultiheadAttention(8, 2, batch_first=True)
        self.need_weights = need_weights

    def forward(self, q, k):
        out, w = self.mha(q, k, k, need_weights=self.need_weights)
        return w if self.need_weights else out


case("multihead_attention", "attention", SelfAttention(False), T(2, 5, 8), T(2, 5, 8))
case("multihead_attention_weights", "attention", SelfAttention(True), T(2, 5, 8), T(2, 4, 8))
enc = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, batch_first=True).eval()
case("transformer_encoder_layer", "attention", enc, T(2, 5, 8), atol=2e-4)


def manual_attention(q, k, v):
    s = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.shape[-1])
    mask = torch.ones(q.shape[-2], k.shape[-2]).tril().bool()
    return torch.matmul(torch.softmax(s.masked_fill(~mask, float("-inf")), -1), v)


case("causal_attention_manual", "attention", manual_attention, T(2, 2, 4, 8), T(2, 2, 4, 8), T(2, 2, 4, 8))

# ------------------------------------------------------------------ other
IDENTITY = "the identity by design (inference): checks that the node converts and keeps its input"
FILL = "a fill is constant by design: its value, shape and dtype are what is checked"
case("to_int", "other", lambda x: x.to(torch.int32), T(3, 4))
case("to_float_from_bool", "other", lambda x: x.to(torch.float32), T(3, 4, dtype=BOOL))
case("to_bool", "other", lambda x: x.to(torch.bool), T(values=[0.0, 0.5, -1.0, float("nan")]))
case("to_double", "other", lambda x: x.double(), T(3, 4), trivial="a cast keeps the values: the output dtype is what is checked")
case("clone", "other", lambda x: x.clone(), T(3, 4), trivial=IDENTITY)
case("arange", "other", lambda x: x + torch.arange(4), T(3, 4))
case("arange_float", "other", lambda x: x * torch.arange(0.5, 2.5, 0.5), T(2, 4))
case("arange_start_step_int", "other", lambda x: x + torch.arange(1, 10, 3), T(3, dtype=I64))
case("full", "other", lambda x: x + torch.full((3, 4), 2.5), T(3, 4))
# dtype explicit: torch 1.13's trace of full((4,), 7) drops the inferred int64
# (the graph says float32 while eager gives int64; reported to the exporter).
case("full_int", "other", lambda x: x + torch.full((4,), 7, dtype=I64), T(3, 4, dtype=I64))
case("zeros_like", "other", lambda x: torch.zeros_like(x) + 2 * x, T(3, 4))
case("ones_like_int", "other", lambda x: torch.ones_like(x), T(3, 4, dtype=I64), trivial=FILL)
case("full_like", "other", lambda x: torch.full_like(x, 3.5), T(3, 4), trivial=FILL)
case("scalar_tensor", "other", lambda x: x * torch.scalar_tensor(3), T(3, 4))
case("new_zeros", "other", lambda x: x.new_zeros((2, 3)), T(3, 4), trivial=FILL)
case("dropout_eval", "other", nn.Dropout(0.5).eval(), T(3, 4), trivial=IDENTITY)
case("topk", "other", lambda x: torch.topk(x, 2, 1), T(3, 5))
case("topk_smallest", "other", lambda x: torch.topk(x, 3, 0, largest=False), T(5, 3))
case("sort", "other", lambda x: torch.sort(x, -1), T(3, 5))
case("sort_desc", "other", lambda x: torch.sort(x, 0, descending=True), T(4, 3))
# Equal values in torch's CPU order (network::TopKTies): topk's nth_element + sort (64k > n) and
# partial_sort (64k <= n) paths, sorted=False, sort's std::sort (n > 16: introsort, not stable) and
# sort(stable=True); OpInfo's integer topk/sort/argsort samples.
def _row_offsets(x):  # rows of different ranges, so that the values of ties differ between rows
    return x + 10 * torch.arange(x.shape[0]).reshape(-1, 1).to(x.dtype)


case("topk_ties_int", "other", lambda x: torch.topk(_row_offsets(x), 3, 1), T(6, 40, dtype=I64, lo=0, hi=3))
case("topk_ties_partial_sort", "other", lambda x: torch.topk(_row_offsets(x), 2, 1, largest=False),
     T(4, 200, dtype=I64, lo=0, hi=4))
case("topk_ties_unsorted", "other", lambda x: torch.topk(x, 5, 0, sorted=False), T(30, 4, dtype=I32, lo=0, hi=3))
case("topk_ties_float", "other", lambda x: torch.topk(x, 7, 1), T(3, 50, steps=True))
case("sort_ties_int", "other", lambda x: torch.sort(x, 1), T(3, 100, dtype=I64, lo=0, hi=5))
case("sort_ties_desc_float", "other", lambda x: torch.sort(x, 0, descending=True), T(60, 2, steps=True))
case("sort_ties_stable", "other", lambda x: torch.sort(x, dim=1, stable=True, descending=True), T(3, 100, dtype=I64, lo=0, hi=5))
case("argsort_ties_bool", "other", lambda x: torch.argsort(x.to(torch.uint8), 1), T(2, 64, dtype=BOOL))
case("upsample_nearest2d", "other", nn.Upsample(scale_factor=2, mode="nearest"), T(1, 2, 3, 4))
case("upsample_nearest2d_size", "other", nn.Upsample(size=(5, 7), mode="nearest"), T(1, 2, 3, 4))
case("upsample_bilinear2d", "other", nn.Upsample(scale_factor=2, mode="bilinear"), T(1, 2, 3, 4))
case("upsample_bilinear2d_align", "other", nn.Upsample(size=(5, 7), mode="bilinear", align_corners=True), T(1, 2, 3, 4))
case("upsample_bicubic2d", "other", nn.Upsample(scale_factor=2, mode="bicubic"), T(1, 2, 3, 4))
case("upsample_linear1d", "other", nn.Upsample(scale_factor=3, mode="linear"), T(1, 2, 4))
case("upsample_nearest1d", "other", nn.Upsample(scale_factor=2, mode="nearest"), T(1, 2, 4))
case("upsample_trilinear3d", "other", nn.Upsample(scale_factor=2, mode="trilinear"), T(1, 1, 2, 3, 2))
case("upsample_nearest3d", "other", nn.Upsample(scale_factor=2, mode="nearest"), T(1, 1, 2, 3, 2))
case("cross", "other", lambda a, b: torch.linalg.cross(a, b), T(4, 3), T(4, 3))
case("cross_dim0_broadcast", "other", lambda a, b: torch.linalg.cross(a, b, dim=0), T(3, 4), T(3, 1))
case("cdist", "other", lambda a, b: aten._cdist_forward(a, b, 2.0, 2), T(2, 4, 3), T(2, 5, 3))
case("cdist_p1", "other", lambda a, b: aten._cdist_forward(a, b, 1.0, 2), T(4, 3), T(5, 3))
case("pdist", "other", lambda a: F.pdist(a), T(5, 3))
case("grid_sample_bilinear", "other", lambda x, g: F.grid_sample(x, g, align_corners=False), T(1, 2, 4, 5), T(1, 3, 2, 2))
case("grid_sample_nearest_border", "other", lambda x, g: F.grid_sample(x, g, mode="nearest", padding_mode="border", align_corners=True), T(2, 1, 4, 4), T(2, 3, 3, 2))
# Coordinates outside the image, huge and non-finite (RAFT's flow grids): PyTorch's zeros padding gives
# 0 (NaN where a weight is non-finite), border padding clamps with max(NaN, 0) = 0.
_GRID_SPECIAL = [float("nan"), float("inf"), float("-inf"), 1e20, -1e20, 5.0, -3.0, 0.3]
for _mode, _pad, _ac in [("bilinear", "zeros", False), ("bilinear", "zeros", True), ("bilinear", "border", False),
                         ("bilinear", "border", True), ("nearest", "zeros", False), ("nearest", "border", True)]:
    case(f"grid_sample_{_mode}_{_pad}_{int(_ac)}_special", "other",
         lambda x, g, m=_mode, p=_pad, a=_ac: F.grid_sample(x, g, mode=m, padding_mode=p, align_corners=a),
         T(1, 2, 4, 5), T(values=[[[[v, 0.1] for v in _GRID_SPECIAL], [[-0.4, v] for v in _GRID_SPECIAL]]]))
case("grid_sample_reflection_refused", "other", lambda x, g: F.grid_sample(x, g, padding_mode="reflection", align_corners=False), T(1, 1, 4, 4), T(1, 2, 2, 2), refused="padding_mode 2")
case("rand_shape", "other", lambda x: x + torch.rand(3, 4), T(3, 4), check="shape")

# ------------------------------------------------------------------ small models
case("conv_bn_relu_pool_fc", "model", nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4).eval(), nn.ReLU(),
                                                   nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 2)).eval(), T(2, 3, 6, 6))


def _torchvision(name, **kw):
    """A torchvision model with batch-norm statistics measured on random 64x64 images (the model
    tests' calibration): fresh statistics let activations vanish (mobilenet_v2's logits were 1e-9)."""
    import torchvision
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models"))
    from models import _calibrate_batchnorm
    torch.manual_seed(0)
    return _calibrate_batchnorm(getattr(torchvision.models, name)(**kw), 64).eval()


case("resnet18", "model", _torchvision("resnet18"), T(1, 3, 64, 64))
case("mobilenet_v2", "model", _torchvision("mobilenet_v2"), T(1, 3, 64, 64))
case("transformer_encoder_2layers", "model",
     nn.TransformerEncoder(nn.TransformerEncoderLayer(16, 4, 32, dropout=0.0, batch_first=True), 2).eval(),
     T(2, 6, 16))

# ------------------------------------------------------------------ direct overload calls
# Calling the overload itself records it in the trace (composite ops still
# decompose; the manifest's "ops" says what was recorded).
case("d_bitwise_or_scalar_tensor", "elementwise", lambda a: aten.bitwise_or.Tensor(a, torch.tensor(True)), T(3, 4, dtype=BOOL),
     trivial="or with True is all True by design: checks the 0-dim tensor operand")
case("d_clamp_min", "elementwise", lambda a: aten.clamp_min(a, 0.25), T(3, 4))
case("d_clamp_max", "elementwise", lambda a: aten.clamp_max(a, 0.25), T(3, 4))
case("d_clip_tensor", "elementwise", lambda a, b: aten.clip.Tensor(a, b), T(3, 4), T(4))
case("d_div_scalar_mode", "elementwise", lambda a: aten.div.Scalar_mode(a, 2, rounding_mode="floor"), T(3, 4, dtype=I64))
case("d_floor_divide_scalar", "elementwise", lambda a: aten.floor_divide.Scalar(a, 3), T(3, 4, dtype=I64))
case("d_fmod_scalar", "elementwise", lambda a: aten.fmod.Scalar(a, 1.5), T(3, 4))
case("d_remainder_scalar", "elementwise", lambda a: aten.remainder.Scalar(a, -1.5), T(3, 4))
case("d_remainder_scalar_tensor", "elementwise", lambda a: aten.remainder.Scalar_Tensor(7, a), T(3, 4, dtype=I64, lo=1, hi=5))
case("d_pow_scalar", "elementwise", lambda a: aten.pow.Scalar(2, a), T(3, 4, dtype=I64, lo=0, hi=5))
case("d_rsub_tensor", "elementwise", lambda a, b: aten.rsub.Tensor(a, b, alpha=2), T(3, 4), T(3, 4))
case("d_sub_scalar", "elementwise", lambda a: aten.sub.Scalar(a, 1, 3), T(3, 4, dtype=I64))
case("d_true_divide", "elementwise", lambda a, b: aten.true_divide.Tensor(a, b), T(3, 4, dtype=I64), T(3, 4, dtype=I64, lo=1, hi=4))
case("d_max_other", "reduce", lambda a, b: aten.max.other(a, b), T(3, 4), T(4))
case("d_min_other", "reduce", lambda a, b: aten.min.other(a, b), T(3, 4, dtype=I64), T(3, 1, dtype=I64))
case("d_all", "reduce", lambda a: aten.all(a), T(3, 4, dtype=BOOL))
case("d_var_dim", "reduce", lambda a: aten.var.dim(a, [1], True, True), T(3, 5))
case("d_std_dim", "reduce", lambda a: aten.std.dim(a, [0], False), T(3, 5))
case("d_relu6", "activation", lambda a: aten.relu6(a), T(3, 4))
case("d_selu", "activation", lambda a: aten.selu(a), T(3, 4))
case("d_softmax_int", "activation", lambda a: aten.softmax.int(a, 1), T(3, 4))
case("d_log_softmax_int", "activation", lambda a: aten.log_softmax.int(a, -1), T(3, 4))
case("d_square", "unary", lambda a: aten.square(a), T(3, 4, dtype=I64))
case("d_fix", "unary", lambda a: aten.fix(a), T(3, 4))
case("d_masked_fill_tensor", "select", lambda a, m: aten.masked_fill.Tensor(a, m, torch.tensor(2.0)), T(3, 4), T(3, 4, dtype=BOOL))
case("d_where_scalar_other", "select", lambda c, a: aten.where.ScalarOther(c, a, 1.5), T(3, 4, dtype=BOOL), T(3, 4))
case("d_where_scalar_self", "select", lambda c, a: aten.where.ScalarSelf(c, 2, a), T(3, 4, dtype=BOOL), T(3, 4, dtype=I64))
case("d_scatter_reduce_add", "select", lambda x, i, s: aten.scatter.reduce(x, 1, i, s, reduce="add"), T(2, 4), T(values=[[0, 0, 1], [3, 3, 3]], dtype=I64), T(2, 3))
case("d_scatter_value_reduce_mul", "select", lambda x, i: aten.scatter.value_reduce(x, 1, i, 2.0, reduce="multiply"), T(2, 4), T(values=[[0, 0], [3, 1]], dtype=I64))
case("d_index_put_hacked", "select", lambda x, i, v: aten.index_put.hacked_twin(x, [i], v), T(5, 3), T(values=[0, 3], dtype=I64), T(3))
case("d_index_hacked", "select", lambda x, i: aten.index.Tensor_hacked_twin(x, [i]), T(5, 3), T(values=[4, 1], dtype=I64))
case("d_flatten", "shape", lambda a: aten.flatten.using_ints(a, 0, 1), T(2, 3, 4))
case("d_reshape", "shape", lambda a: aten.reshape(a, [4, -1]), T(2, 3, 4))
case("d_unsafe_view", "shape", lambda a: aten._unsafe_view(a, [6, 4]), T(2, 3, 4))
case("d_reshape_alias", "shape", lambda a: aten._reshape_alias(a, [6, 4], [4, 1]), T(2, 3, 4))
case("d_view_copy", "shape", lambda a: aten.view_copy(a, [24]), T(2, 3, 4))
case("d_expand_copy", "shape", lambda a: aten.expand_copy(a, [2, 3, 4]), T(3, 1))
case("d_tile", "shape", lambda a: aten.tile(a, [2, 2]), T(2, 3))
case("d_unflatten", "shape", lambda a: aten.unflatten.int(a, -1, [2, 2]), T(3, 4))
case("d_narrow", "slice", lambda a: aten.narrow(a, -1, -3, 2), T(3, 5))
case("d_chunk", "slice", lambda a: aten.chunk(a, 2, 0), T(5, 2))
case("d_split_sizes", "slice", lambda a: aten.split.sizes(a, [2, 3], 1), T(2, 5))
case("d_unsafe_split", "slice", lambda a: aten.unsafe_split.Tensor(a, 2, 0), T(5, 2))
case("d_pad_reflect", "slice", lambda a: aten.pad(a, [1, 1], "reflect"), T(2, 3, 4))
case("d_reflection_pad3d", "slice", lambda a: aten.reflection_pad3d(a, [1, 1, 1, 0, 0, 1]), T(1, 1, 3, 3, 3))
case("d_replication_pad1d", "slice", lambda a: aten.replication_pad1d(a, [2, 1]), T(1, 2, 4))
case("d_pad_circular", "slice", lambda a: aten._pad_circular(a, [1, 2]), T(1, 2, 4))
case("d_max_pool2d", "pool", lambda a: aten.max_pool2d(a, [2, 2]), T(1, 2, 6, 6))
case("d_max_pool1d", "pool", lambda a: aten.max_pool1d(a, [3], [2]), T(1, 2, 7))
case("d_adaptive_avg_pool2d", "pool", lambda a: aten.adaptive_avg_pool2d(a, [2, 3]), T(1, 2, 5, 7))
case("d_adaptive_avg_pool1d", "pool", lambda a: aten.adaptive_avg_pool1d(a, [3]), T(1, 2, 7))
case("d_adaptive_max_pool1d", "pool", lambda a: aten.adaptive_max_pool1d(a, [3])[0], T(1, 2, 7))
case("d_avg_pool1d", "pool", lambda a: aten.avg_pool1d(a, [2]), T(1, 2, 6))
case("d_matmul", "matmul", lambda a, b: aten.matmul(a, b), T(2, 3, 4), T(4, 5))
case("d_addmv", "matmul", lambda b, m, v: aten.addmv(b, m, v, beta=2, alpha=0.5), T(3), T(3, 4), T(4))
case("d_linear", "matmul", lambda x, w, b: aten.linear(x, w, b), T(2, 4), T(3, 4), T(3))
case("d_conv2d", "conv", lambda x, w: aten.conv2d(x, w, None, [1], [1]), T(1, 2, 5, 5), T(3, 2, 3, 3))
case("d_batch_norm", "normalization", lambda x, m, v: aten.batch_norm(x, None, None, m, v, False, 0.1, 1e-5, False), T(2, 3, 4), T(3), T(3, positive=True))
case("d_layer_norm", "normalization", lambda x: aten.layer_norm(x, [4]), T(3, 4))
case("d_group_norm", "normalization", lambda x: aten.group_norm(x, 2), T(2, 4, 3))
case("d_native_dropout", "other", lambda x: aten.native_dropout(x, 0.5, False)[0], T(3, 4), trivial=IDENTITY)
case("d_dropout", "other", lambda x: aten.dropout(x, 0.3, False), T(3, 4), trivial=IDENTITY)
case("d_to_dtype", "other", lambda x: aten.to.dtype(x, torch.int64), T(3, 4))
case("d_copy", "other", lambda x, y: aten.copy(x, y), T(3, 4), T(4, dtype=I64))
case("d_fill_scalar", "other", lambda x: aten.fill.Scalar(x, 1.5), T(3, 4), trivial=FILL)
case("d_fill_tensor", "other", lambda x, v: aten.fill.Tensor(x, v), T(3, 4), T(values=2.5), trivial=FILL)
case("d_zeros", "other", lambda x: 2 * x + aten.zeros([3, 4]), T(3, 4))
case("d_new_ones", "other", lambda x: aten.new_ones(x, [2, 2]), T(3, 4, dtype=I32), trivial=FILL)
case("d_new_full", "other", lambda x: aten.new_full(x, [2], 3.5), T(3, 4), trivial=FILL)
case("d_empty_like_shape", "other", lambda x: aten.empty_like(x), T(3, 4), check="shape")
case("d_arange_start", "other", lambda x: x + aten.arange.start(2, 6), T(4, dtype=I64))
case("d_sort_stable", "other", lambda x: aten.sort.stable(x, stable=True, dim=0), T(5, 3))
case("d_upsample_nearest2d", "other", lambda x: aten.upsample_nearest2d(x, [4, 6]), T(1, 2, 2, 3))
case("d_upsample_bilinear2d", "other", lambda x: aten.upsample_bilinear2d(x, [4, 6], False), T(1, 2, 2, 3))
case("d_upsample_nearest_exact", "other", lambda x: aten._upsample_nearest_exact2d.vec(x, [5, 4], None), T(1, 2, 2, 3))
case("d_randn_shape", "other", lambda x: x + aten.randn([3, 4]), T(3, 4), check="shape")
case("d_randperm_shape", "other", lambda x: x + aten.randperm(4), T(4, dtype=I64), check="shape")
case("d_grid_sampler", "other", lambda x, g: aten.grid_sampler(x, g, 0, 0, False), T(1, 2, 4, 5), T(1, 3, 2, 2))


# ------------------------------------------------------------------ single-op cases
# Overloads a trace never records (composite ops decompose under make_fx):
# make_cases.py writes the call as one node (schema argument names from the
# op), the harness builds that one-node graph.
class OpCase:
    """`op`: the OpOverload, or for one torch 1.13 lacks its target string ("aten._safe_softmax.default")
    with `arg_names` (schema order) and `reference`, a function of the same arguments computing the
    outputs with torch 1.13 ops. `used_outputs`: only the first ones are read (the node has
    `node_outputs` in all)."""

    def __init__(self, name, family, op, args, kwargs=None, refused=None, rtol=1e-4, atol=1e-4, trivial=None,
                 check="values", arg_names=None, reference=None, used_outputs=None, node_outputs=None):
        self.name, self.family, self.args, self.kwargs = name, family, args, kwargs or {}
        self.op, self.target = (None, op) if isinstance(op, str) else (op, None)
        self.refused, self.rtol, self.atol, self.trivial, self.check = refused, rtol, atol, trivial, check
        self.arg_names, self.reference, self.used_outputs, self.node_outputs = arg_names, reference, used_outputs, node_outputs
        assert self.op is not None or (arg_names and reference), f"{name}: a target string needs arg_names and reference"


OP_CASES = []
OPCASE_OPTIONS = ("refused", "rtol", "atol", "trivial", "check", "arg_names", "reference", "used_outputs", "node_outputs")


def opcase(name, family, op, *args, **kwargs):
    extra = {k: kwargs.pop(k) for k in OPCASE_OPTIONS if k in kwargs}
    OP_CASES.append(OpCase(name, family, op, list(args), kwargs, **extra))


# Linear algebra (LinearAlgebra layers on LAPACK): their own table, tests/converters/cases_linalg.py.
import cases_linalg  # noqa: E402,F401


opcase("o_relu6", "activation", aten.relu6.default, T(3, 4) )
opcase("o_selu", "activation", aten.selu.default, T(3, 4))
opcase("o_softmax_int", "activation", aten.softmax.int, T(3, 4), 0)
opcase("o_log_softmax_int_dtype", "activation", aten.log_softmax.int, T(3, 4), -1, torch.float64)
opcase("o_clip", "elementwise", aten.clip.default, T(3, 4), -0.5, 0.5)
opcase("o_clip_tensor", "elementwise", aten.clip.Tensor, T(3, 4), T(4), None)
opcase("o_floor_divide_scalar", "elementwise", aten.floor_divide.Scalar, T(3, 4), 0.75)
opcase("o_true_divide", "elementwise", aten.true_divide.Tensor, T(3, 4, dtype=I64), T(4, dtype=I64, lo=1, hi=4))
# torch 1.13 types a bool Scalar as int here: the result is int64.
opcase("o_bitwise_and_scalar_tensor", "elementwise", aten.bitwise_and.Scalar_Tensor, True, T(3, 4, dtype=BOOL),
       trivial="torch 1.13 types the bool as the int 1 or 0, so the values stay 0/1: the int64 result dtype is the point")
opcase("o_bitwise_or_scalar", "elementwise", aten.bitwise_or.Scalar, T(3, 4, dtype=BOOL), False,
       trivial="torch 1.13 types the bool as the int 1 or 0, so the values stay 0/1: the int64 result dtype is the point")
opcase("o_bitwise_xor_scalar_tensor", "elementwise", aten.bitwise_xor.Scalar_Tensor, True, T(3, 4, dtype=BOOL))
opcase("o_fix", "unary", aten.fix.default, T(3, 4))
opcase("o_square", "unary", aten.square.default, T(3, 4))
opcase("o_max_other", "reduce", aten.max.other, T(3, 4), T(4))
opcase("o_min_other", "reduce", aten.min.other, T(3, 4), T(3, 1))
opcase("o_var_dim", "reduce", aten.var.dim, T(3, 5), [1], True, True)
opcase("o_var_default", "reduce", aten.var.default, T(3, 5), False)
opcase("o_std_dim", "reduce", aten.std.dim, T(3, 5), [0], False, False)
opcase("o_std_default", "reduce", aten.std.default, T(3, 5))
opcase("o_where_scalar", "select", aten.where.Scalar, T(3, 4, dtype=BOOL), 1.5, 2)
opcase("o_where_scalar_other", "select", aten.where.ScalarOther, T(3, 4, dtype=BOOL), T(3, 4, dtype=I64), 7)
opcase("o_where_scalar_self", "select", aten.where.ScalarSelf, T(3, 4, dtype=BOOL), 0.5, T(3, 4))
opcase("o_reshape", "shape", aten.reshape.default, T(2, 3, 4), [4, -1])
opcase("o_flatten", "shape", aten.flatten.using_ints, T(2, 3, 4), 1, 2)
opcase("o_tile", "shape", aten.tile.default, T(2, 3), [2, 1, 2])
opcase("o_unflatten", "shape", aten.unflatten.int, T(3, 4), 1, [2, 2])
opcase("o_narrow", "slice", aten.narrow.default, T(3, 5), 1, -3, 2)
opcase("o_chunk", "slice", aten.chunk.default, T(5, 2), 2, 0)
opcase("o_split_sizes", "slice", aten.split.sizes, T(2, 5), [2, 3], 1)
opcase("o_split_default", "slice", aten.split.default, T(5, 2), [4, 1])
opcase("o_pad_replicate", "slice", aten.pad.default, T(1, 2, 4), [2, 1], "replicate")
opcase("o_pad_constant", "slice", aten.pad.default, T(2, 3), [1, 1, 2, 0], "constant", 1.5)
opcase("o_pad_circular", "slice", aten._pad_circular.default, T(1, 2, 4), [1, 2])
opcase("o_concat", "slice", aten.concat.default, [T(2, 3), T(2, 2)], 1)
opcase("o_max_pool2d", "pool", aten.max_pool2d.default, T(1, 2, 6, 6), [3, 3], [2, 2], [1, 1])
opcase("o_max_pool1d", "pool", aten.max_pool1d.default, T(1, 2, 7), [3], [2])
opcase("o_max_pool3d", "pool", aten.max_pool3d.default, T(1, 1, 4, 4, 4), [2, 2, 2])
opcase("o_max_pool1d_with_indices", "pool", aten.max_pool1d_with_indices.default, T(1, 2, 7), [2])
opcase("o_max_pool1d_with_indices_values", "pool", aten.max_pool1d_with_indices.default, T(1, 2, 7), [2], used_outputs=1)
opcase("o_adaptive_avg_pool2d", "pool", aten.adaptive_avg_pool2d.default, T(1, 2, 5, 7), [2, 3])
opcase("o_adaptive_avg_pool1d", "pool", aten.adaptive_avg_pool1d.default, T(1, 2, 7), [3])
opcase("o_adaptive_avg_pool3d", "pool", aten.adaptive_avg_pool3d.default, T(1, 1, 4, 5, 3), [2, 2, 2])
opcase("o_avg_pool1d", "pool", aten.avg_pool1d.default, T(1, 2, 7), [3], [2], [1], False, False)
opcase("o_matmul", "matmul", aten.matmul.default, T(2, 3, 4), T(4, 5))
opcase("o_linear", "matmul", aten.linear.default, T(2, 5, 4), T(3, 4), T(3))
opcase("o_linear_nobias", "matmul", aten.linear.default, T(5, 4), T(3, 4))
opcase("o_conv1d", "conv", aten.conv1d.default, T(1, 2, 7), T(3, 2, 3), T(3), [2], [1])
opcase("o_conv2d", "conv", aten.conv2d.default, T(1, 2, 5, 5), T(4, 1, 3, 3), None, [1, 1], [1, 1], [1, 1], 2)
opcase("o_conv3d", "conv", aten.conv3d.default, T(1, 2, 4, 4, 4), T(3, 2, 2, 2, 2))
opcase("o_conv_transpose1d", "conv", aten.conv_transpose1d.default, T(1, 2, 5), T(2, 3, 3), T(3), [2])
opcase("o_conv_transpose2d", "conv", aten.conv_transpose2d.input, T(1, 2, 3, 3), T(2, 2, 3, 3), None, [2, 2], [1, 1], [1, 1])
opcase("o_conv_transpose3d", "conv", aten.conv_transpose3d.input, T(1, 2, 2, 2, 2), T(2, 1, 2, 2, 2))
opcase("o_conv_unbatched", "conv", aten.conv2d.default, T(2, 5, 5), T(3, 2, 3, 3))
opcase("o_batch_norm", "normalization", aten.batch_norm.default, T(2, 3, 4), T(3), T(3), T(3), T(3, positive=True), False, 0.1, 1e-5, False)
opcase("o_layer_norm", "normalization", aten.layer_norm.default, T(3, 4), [4], T(4), T(4))
opcase("o_group_norm", "normalization", aten.group_norm.default, T(2, 4, 3), 2)
opcase("o_nanmean", "reduce", aten.nanmean.default, T(values=[[1.0, float("nan"), 2.0], [3.0, 5.0, float("nan")]]), [1], True)
opcase("o_layer_norm_negative_eps", "normalization", aten.layer_norm.default, T(3, 4), [4], T(4), T(4), -0.3)
opcase("o_group_norm_negative_eps", "normalization", aten.group_norm.default, T(2, 4, 3), 2, T(4), T(4), -0.2)
opcase("o_weight_norm", "normalization", aten._weight_norm.default, T(6, 2, 3), T(6, 1, 1, positive=True), 0)
opcase("o_instance_norm", "normalization", aten.instance_norm.default, T(2, 3, 4, 4), T(3), T(3), None, None, True, 0.1, 1e-5, False)
opcase("o_to_dtype", "other", aten.to.dtype, T(3, 4), torch.int32)
opcase("o_dropout", "other", aten.dropout.default, T(3, 4), 0.5, False, trivial=IDENTITY)
opcase("o_dropout_train_refused", "other", aten.dropout.default, T(3, 4), 0.5, True, refused="training mode is random")
opcase("o_native_dropout", "other", aten.native_dropout.default, T(3, 4), 0.5, False, trivial=IDENTITY)
opcase("o_copy", "other", aten.copy.default, T(3, 4), T(4, dtype=I64))
opcase("o_upsample_nearest1d", "other", aten.upsample_nearest1d.default, T(1, 2, 3), [7])
opcase("o_upsample_linear1d", "other", aten.upsample_linear1d.default, T(1, 2, 3), [7], True)
opcase("o_upsample_bicubic2d", "other", aten.upsample_bicubic2d.default, T(1, 1, 3, 3), [5, 4], False)
opcase("o_upsample_nearest3d", "other", aten.upsample_nearest3d.default, T(1, 1, 2, 2, 2), [3, 4, 2])
opcase("o_upsample_trilinear3d", "other", aten.upsample_trilinear3d.default, T(1, 1, 2, 2, 2), [3, 4, 2], False)
opcase("o_sort_stable", "other", aten.sort.stable, T(5, 3), stable=True, dim=0, descending=True)
opcase("o_grid_sampler", "other", aten.grid_sampler.default, T(1, 2, 4, 5), T(1, 3, 2, 2), 1, 0, True)
opcase("o_embedding_bag_padding_idx_refused", "embedding", aten.embedding_bag.padding_idx, T(6, 3), T(values=[1, 2, 0, 4], dtype=I64),
       T(values=[0, 2], dtype=I64), False, 0, False, None, False, 0, refused="padding_idx")
opcase("o_atan2_out_refused", "elementwise", aten.atan2.out, T(3), T(3), out=T(3), refused="preallocated 'out' tensor")


# ------------------------------------------------------------------ overloads no trace of torch 1.13 records
# torch >= 2.0 spellings (SDPA and its CPU/flash/efficient/cudnn forms, _safe_softmax,
# _native_batch_norm_legit, any.dims, squeeze.dims, ...), outputs computed with 1.13 ops.
def _attention(q, k, v, mask=None, causal=False, scale=None):
    s = torch.matmul(q, k.transpose(-2, -1)) * (scale if scale is not None else 1 / math.sqrt(q.shape[-1]))
    if causal:
        s = s.masked_fill(~torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool).tril(), float("-inf"))
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf")) if mask.dtype == torch.bool else s + mask
    return torch.matmul(torch.softmax(s, -1), v)


QKV = [T(2, 3, 5, 8), T(2, 3, 6, 8), T(2, 3, 6, 8)]
QKV_SQUARE = [T(2, 3, 6, 8), T(2, 3, 6, 8), T(2, 3, 6, 8)]
SDPA_ARGS = ["query", "key", "value", "attn_mask", "dropout_p", "is_causal"]
opcase("o_sdpa_mask_scale", "attention", "aten.scaled_dot_product_attention.default", *QKV, T(5, 6), 0.0, False, scale=0.3,
       arg_names=SDPA_ARGS, reference=lambda q, k, v, m, p, c, scale=None: _attention(q, k, v, m, c, scale))
opcase("o_sdpa_causal", "attention", "aten.scaled_dot_product_attention.default", *QKV_SQUARE, None, 0.0, True,
       arg_names=SDPA_ARGS, reference=lambda q, k, v, m, p, c: _attention(q, k, v, m, c))
opcase("o_sdpa_bool_mask", "attention", "aten.scaled_dot_product_attention.default", *QKV,
       T(values=[[True] * 6, [True, False] * 3, [False] * 5 + [True], [True] * 3 + [False] * 3, [True] * 6]), 0.0, False,
       arg_names=SDPA_ARGS, reference=lambda q, k, v, m, p, c: _attention(q, k, v, m, c))
opcase("o_sdpa_dropout_refused", "attention", "aten.scaled_dot_product_attention.default", *QKV, None, 0.1, False,
       arg_names=SDPA_ARGS, reference=lambda *a: None, refused="dropout_p > 0")
# what torch 2.x emits on CPU
opcase("o_sdpa_flash_for_cpu", "attention", "aten._scaled_dot_product_flash_attention_for_cpu.default", *QKV_SQUARE, 0.0, True,
       attn_mask=None, scale=0.25, arg_names=["query", "key", "value", "dropout_p", "is_causal"],
       reference=lambda q, k, v, p, c, attn_mask=None, scale=None: _attention(q, k, v, attn_mask, c, scale),
       used_outputs=1, node_outputs=2)
opcase("o_sdpa_flash_for_cpu_mask", "attention", "aten._scaled_dot_product_flash_attention_for_cpu.default", *QKV, 0.0, False,
       attn_mask=T(2, 1, 5, 6), arg_names=["query", "key", "value", "dropout_p", "is_causal"],
       reference=lambda q, k, v, p, c, attn_mask=None: _attention(q, k, v, attn_mask, c), used_outputs=1, node_outputs=2)
opcase("o_sdpa_flash", "attention", "aten._scaled_dot_product_flash_attention.default", *QKV, 0.0, False, False,
       arg_names=["query", "key", "value", "dropout_p", "is_causal", "return_debug_mask"],
       reference=lambda q, k, v, p, c, d: _attention(q, k, v, None, c), used_outputs=1, node_outputs=9)
opcase("o_sdpa_efficient", "attention", "aten._scaled_dot_product_efficient_attention.default", *QKV, T(2, 3, 5, 6), False,
       0.0, False, arg_names=["query", "key", "value", "attn_bias", "compute_log_sumexp", "dropout_p", "is_causal"],
       reference=lambda q, k, v, b, lse, p, c: _attention(q, k, v, b, c), used_outputs=1, node_outputs=4)
opcase("o_sdpa_cudnn", "attention", "aten._scaled_dot_product_cudnn_attention.default", *QKV_SQUARE, None, False, 0.0, True,
       False, scale=0.5, arg_names=["query", "key", "value", "attn_bias", "compute_log_sumexp", "dropout_p", "is_causal",
                                    "return_debug_mask"],
       reference=lambda q, k, v, b, lse, p, c, d, scale=None: _attention(q, k, v, b, c, scale), used_outputs=1, node_outputs=9)
opcase("o_safe_softmax", "activation", "aten._safe_softmax.default",
       T(values=[[0.0, float("-inf"), 1.0], [float("-inf")] * 3, [2.0, 3.0, float("-inf")]]), 1, arg_names=["self", "dim"],
       reference=lambda x, d: torch.where((x == float("-inf")).all(d, keepdim=True), torch.zeros(()), torch.softmax(x, d)))
opcase("o_prelu_kernel", "activation", "aten._prelu_kernel.default", T(2, 3, 4), T(3, 1), arg_names=["self", "weight"],
       reference=lambda x, w: torch.where(x >= 0, x, x * w))
BN_ARGS = ["input", "weight", "bias", "running_mean", "running_var", "training", "momentum", "eps"]
opcase("o_native_batch_norm_legit", "normalization", "aten._native_batch_norm_legit.default", T(2, 3, 4), T(3), T(3), T(3),
       T(3, positive=True), False, 0.1, 1e-5, arg_names=BN_ARGS, used_outputs=1, node_outputs=3,
       reference=lambda x, w, b, m, v, t, mom, eps: F.batch_norm(x, m, v, w, b, t, mom, eps))
opcase("o_native_batch_norm_legit_train", "normalization", "aten._native_batch_norm_legit.default", T(4, 3, 5), T(3), T(3),
       T(3), T(3, positive=True), True, 0.1, 1e-5, arg_names=BN_ARGS, used_outputs=1, node_outputs=3,
       reference=lambda x, w, b, m, v, t, mom, eps: F.batch_norm(x, None, None, w, b, True, mom, eps))
# Training-mode batch norm after run_decompositions(): batch statistics, and the running statistics
# updated as torch does (momentum, unbiased variance) as outputs 3 and 4; torch 1.13's native_batch_norm
# with training=True (which updates the running tensors in place) is the oracle.
def _bn_functional(x, w, b, m, v, t, mom, eps):
    m, v = m.clone(), v.clone()
    out, mean, invstd = aten.native_batch_norm(x, w, b, m, v, t, mom, eps)
    return (out, mean, invstd, m, v)


opcase("o_native_batch_norm_legit_functional_train", "normalization", "aten._native_batch_norm_legit_functional.default",
       T(4, 3, 5, 2), T(3), T(3), T(3), T(3, positive=True), True, 0.3, 1e-5, arg_names=BN_ARGS, reference=_bn_functional)
opcase("o_native_batch_norm_legit_functional_train_no_affine", "normalization",
       "aten._native_batch_norm_legit_functional.default", T(3, 2, 4), None, None, T(2), T(2, positive=True), True, 0.1,
       1e-3, arg_names=BN_ARGS, reference=_bn_functional)
opcase("o_native_batch_norm_legit_functional_eval", "normalization", "aten._native_batch_norm_legit_functional.default",
       T(2, 3, 4), T(3), T(3), T(3), T(3, positive=True), False, 0.1, 1e-5, arg_names=BN_ARGS, used_outputs=1,
       node_outputs=5, reference=_bn_functional)
opcase("o_native_batch_norm_legit_no_stats", "normalization", "aten._native_batch_norm_legit.no_stats", T(4, 3, 5), T(3),
       T(3), True, 0.1, 1e-5, arg_names=["input", "weight", "bias", "training", "momentum", "eps"], used_outputs=1,
       node_outputs=3, reference=lambda x, w, b, t, mom, eps: F.batch_norm(x, None, None, w, b, True, mom, eps))
opcase("o_native_batch_norm_legit_no_training", "normalization", "aten._native_batch_norm_legit_no_training.default",
       T(2, 3, 4, 4), T(3), T(3), T(3), T(3, positive=True), 0.1, 1e-5,
       arg_names=["input", "weight", "bias", "running_mean", "running_var", "momentum", "eps"], used_outputs=1,
       node_outputs=3, reference=lambda x, w, b, m, v, mom, eps: F.batch_norm(x, m, v, w, b, False, mom, eps))
opcase("o_any_dims", "reduce", "aten.any.dims", T(values=[[[False, False], [False, True]], [[False, False], [False, False]]], dtype=BOOL),
       [1, -1], False, arg_names=["self", "dim", "keepdim"], reference=lambda x, d, k: x.any(2).any(1))
opcase("o_squeeze_dims", "shape", "aten.squeeze.dims", T(2, 1, 3, 1), [1, -1], arg_names=["self", "dim"],
       reference=lambda x, d: x.squeeze(-1).squeeze(1))
opcase("o_reshape_copy", "shape", "aten._reshape_copy.default", T(2, 3, 4), [4, -1], arg_names=["self", "size"],
       reference=lambda x, s: x.reshape(s))
# overloads torch 1.13 has but never records in a trace
opcase("o_adaptive_max_pool1d", "pool", aten.adaptive_max_pool1d.default, T(1, 2, 7), [3], used_outputs=1)
opcase("o_adaptive_max_pool3d", "pool", aten.adaptive_max_pool3d.default, T(1, 2, 5, 4, 3), [2, 2, 2], used_outputs=1)
opcase("o_adaptive_max_pool1d_indices", "pool", aten.adaptive_max_pool1d.default, T(1, 2, 7), [3])
opcase("o_contiguous", "shape", aten.contiguous.default, T(3, 4), trivial=IDENTITY)
opcase("o_alias", "shape", aten.alias.default, T(3, 4), trivial=IDENTITY)
opcase("o_detach", "other", aten.detach.default, T(3, 4), trivial=IDENTITY)
opcase("o_lift_fresh", "other", aten.lift_fresh.default, T(3, 4), trivial=IDENTITY)
opcase("o_lift_fresh_copy", "other", aten.lift_fresh_copy.default, T(3, 4), trivial=IDENTITY)
opcase("o_reshape_alias", "shape", aten._reshape_alias.default, T(2, 3, 4), [6, 4], [4, 1])
opcase("o_unsafe_view", "shape", aten._unsafe_view.default, T(2, 3, 4), [4, 6])
opcase("o_to_dtype_layout", "other", aten.to.dtype_layout, T(3, 4), dtype=torch.int32)
opcase("o_empty_memory_format", "other", aten.empty.memory_format, [2, 3], dtype=torch.float32, check="shape")
opcase("o_index_hacked_twin", "select", aten.index.Tensor_hacked_twin, T(5, 3), [T(values=[4, 1, -2], dtype=I64)])
opcase("o_index_put_hacked_twin", "select", aten.index_put.hacked_twin, T(5, 3), [T(values=[0, 3], dtype=I64)], T(3))
opcase("o_index_put_hacked_twin_accumulate", "select", aten.index_put.hacked_twin, T(5, 3), [T(values=[1, 1, 4], dtype=I64)],
       T(3, 3), True)
opcase("o_bitwise_or_scalar_tensor", "elementwise", aten.bitwise_or.Scalar_Tensor, 6, T(3, 4, dtype=I32, lo=-9, hi=9))
opcase("o_bitwise_xor_scalar", "elementwise", aten.bitwise_xor.Scalar, T(3, 4, dtype=I64, lo=-9, hi=9), -3)
opcase("o_bitwise_and_float_refused", "elementwise", aten.bitwise_and.Tensor, T(3, 4), T(3, 4),
       refused="bitwise ops take integer or bool tensors")
# Data-dependent output shapes (docs/dynamic-shapes.md): one-node archives, since torch 1.13's
# tracer cannot record these ops (DynamicOutputShapeException); the node's recorded size is the
# example's, the engine counts it at run time.
NZ = [[0.0, 1.5, 0.0, -2.0], [float("nan"), 0.0, -0.0, 3.0], [0.0, 0.0, 0.0, 0.0]]
opcase("o_nonzero", "select", aten.nonzero.default, T(values=NZ))
opcase("o_nonzero_int", "select", aten.nonzero.default, T(2, 3, 4, dtype=I64, lo=-1, hi=2))
opcase("o_nonzero_bool_all", "select", aten.nonzero.default, T(values=[[True, True], [True, True]], dtype=BOOL))
opcase("o_nonzero_none", "select", aten.nonzero.default, T(values=[[0, 0, 0]], dtype=I32),
       trivial="no element is non-zero: the [0, 2] result and what follows it sized 0 are the point")
opcase("o_nonzero_1d", "select", aten.nonzero.default, T(values=[0.0, 2.0, 0.0, 1.0]))
opcase("o_argwhere", "select", aten.argwhere.default, T(values=NZ))
U = [[3, 1, 2], [3, 1, 5], [0, 2, 2]]
opcase("o_unique2", "select", aten._unique2.default, T(values=U, dtype=I64), True, True, True)
opcase("o_unique2_values", "select", aten._unique2.default, T(4, 5, steps=True), True, False, False, used_outputs=1, node_outputs=3)
opcase("o_unique2_bool", "select", aten._unique2.default, T(3, 4, dtype=BOOL), True, True, True,
       trivial="sorted bools: the inverse is the input as 0/1 by nature; values and counts are the point")
opcase("o_unique2_one", "select", aten._unique2.default, T(values=[[2.5, 2.5], [2.5, 2.5]]), True, True, True,
       trivial="every element equal: one value, an all-zero inverse and the count 4 are the point")
opcase("o_unique2_counts_only", "select", aten._unique2.default, T(values=[2.0, 1.0, 2.0, 7.0]), True, False, True)
opcase("o_unique_dim_flags_off", "select", aten.unique_dim.default, T(values=[[1, 2], [1, 2], [0, 5]], dtype=I64), 0, True, False, False)
opcase("o_unique", "select", aten._unique.default, T(values=U, dtype=I32), True, True)
opcase("o_unique_dim", "select", aten.unique_dim.default, T(values=[[1, 2], [1, 2], [0, 5], [1, 0]], dtype=I64), 0, True, True, True)
opcase("o_unique_dim1", "select", aten.unique_dim.default, T(values=[[1, 2, 1], [3, 4, 3]]), 1, True, True, True)
opcase("o_unique_consecutive", "select", aten.unique_consecutive.default, T(values=[1, 1, 2, 2, 3, 1, 1, 2], dtype=I64), True, True, None)
opcase("o_unique_consecutive_dim", "select", aten.unique_consecutive.default, T(values=[[1, 1, 2], [0, 0, 2]], dtype=I64), True, True, 1)
opcase("o_unique_dim_consecutive", "select", aten.unique_dim_consecutive.default, T(values=[[1, 2], [1, 2], [0, 5], [1, 2]]), 0, True, True)
# torch 1.13's CPU orders: sorted=False is the iteration order of its hash set
# (not ascending), NaN: each its own value with inverse 0 and count 0, of 0.0
# and -0.0 the first kept; over a dim always sorted (std::sort with NaN rows).
NANS = [1.0, float("nan"), 2.0, float("nan"), 1.0, -0.0, 0.0, float("nan")]
opcase("o_unique2_unsorted", "select", aten._unique2.default, T(values=[3, 1, 2, 3, 1, 5, 0, 2, 100, -4, 7, 7], dtype=I64), False, True, True)
opcase("o_unique2_unsorted_many", "select", aten._unique2.default, T(300, dtype=I64, lo=-80, hi=80), False, True, True)
opcase("o_unique2_unsorted_floats", "select", aten._unique2.default, T(6, 7, steps=True), False, True, True)
opcase("o_unique2_unsorted_many_floats", "select", aten._unique2.default, T(257), False, True, True, used_outputs=2, node_outputs=3)
opcase("o_unique2_sorted_many", "select", aten._unique2.default, T(17, 19, dtype=I32, lo=-300, hi=300), True, True, True)
opcase("o_unique2_nan_sorted", "select", aten._unique2.default, T(values=NANS), True, True, True)
opcase("o_unique2_nan_unsorted", "select", aten._unique2.default, T(values=NANS), False, True, True)
opcase("o_unique2_nan_f64", "select", aten._unique2.default, T(values=NANS + [float("nan"), 3.0], dtype=torch.float64), True, False, True)
opcase("o_unique2_int8", "select", aten._unique2.default, T(5, 6, dtype=torch.int8, lo=-128, hi=127), False, True, True)
opcase("o_unique2_uint8", "select", aten._unique2.default, T(40, dtype=torch.uint8, lo=0, hi=255), False, True, True)
opcase("o_unique2_int16", "select", aten._unique2.default, T(40, dtype=torch.int16, lo=-20, hi=20), False, True, True)
opcase("o_unique2_bool_unsorted", "select", aten._unique2.default, T(values=[False, True, True, False, True], dtype=BOOL), False, True, True,
       trivial="torch 1.13 counts bools (false, then true) whatever sorted says, so the inverse is the input; the order and counts are the point")
opcase("o_unique2_bool_true_only", "select", aten._unique2.default, T(values=[True, True, True], dtype=BOOL), False, False, True,
       trivial="only true: one value, the inverse all 0 and the count 3 are the point")
opcase("o_unique2_f16_refused", "select", aten._unique2.default, T(4, dtype=torch.float16), True, True, True, refused="float16")
opcase("o_unique2_empty", "select", aten._unique2.default, T(0, 3), True, True, True,
       trivial="an empty input: the [0] values, [0, 3] inverse and [0] counts are the point")
opcase("o_unique2_scalar", "select", aten._unique2.default, T(values=4.5), False, True, True)
opcase("o_unique_unsorted", "select", aten._unique.default, T(50, dtype=I64, lo=0, hi=30), False, True)
opcase("o_unique_dim_nan", "select", aten.unique_dim.default, T(values=[[1.0, float("nan")], [1.0, float("nan")], [0.0, 1.0], [-0.0, 1.0]]), 0, False, False, False)
opcase("o_unique_dim_3d", "select", aten.unique_dim.default, T(3, 5, 2, dtype=I64, lo=0, hi=2), 1, True, True, True)
opcase("o_unique_dim_last", "select", aten.unique_dim.default, T(2, 9, dtype=I64, lo=0, hi=2), -1, True, True, True)
opcase("o_unique_dim_many", "select", aten.unique_dim.default, T(120, 2, dtype=I64, lo=0, hi=4), 0, True, True, True)
opcase("o_unique_dim_empty", "select", aten.unique_dim.default, T(0, 3), 0, True, True, True,
       trivial="no rows: the [0, 3] values and empty inverse and counts are the point")
opcase("o_unique_dim_other_empty_refused", "select", aten.unique_dim.default, T(2, 0), 0, True, True, True, refused="another dim is 0")
opcase("o_unique_dim_two_empty_refused", "select", aten.unique_dim.default, T(0, 0), 1, True, True, True, refused="another dim is 0")
opcase("o_unique_consecutive_nan", "select", aten.unique_consecutive.default, T(values=[float("nan"), float("nan"), 1.0, 1.0, -0.0, 0.0, float("nan")]), True, True, None)
opcase("o_unique_consecutive_flags_off", "select", aten.unique_consecutive.default, T(values=[1, 1, 2, 2, 3, 1], dtype=I64), False, False, None,
       used_outputs=1, node_outputs=3)
opcase("o_unique_consecutive_dim0_1d", "select", aten.unique_consecutive.default, T(values=[4, 4, 2, 2, 4], dtype=I64), True, False, 0, used_outputs=2, node_outputs=3)
opcase("o_unique_consecutive_dim_last_1d", "select", aten.unique_consecutive.default, T(values=[4, 4, 2, 2, 4], dtype=I64), False, False, -1)
opcase("o_unique_consecutive_2d", "select", aten.unique_consecutive.default, T(4, 6, dtype=I64, lo=0, hi=2), True, True, None)
opcase("o_unique_consecutive_empty", "select", aten.unique_consecutive.default, T(0, 2), True, True, None,
       trivial="an empty input: the empty results are the point")
opcase("o_unique_dim_consecutive_3d", "select", aten.unique_dim_consecutive.default, T(2, 6, 2, dtype=I64, lo=0, hi=2), 1, True, True)
opcase("o_bincount_uint8", "select", aten.bincount.default, T(60, dtype=torch.uint8, lo=0, hi=40), None, 0)
opcase("o_bincount_many", "select", aten.bincount.default, T(500, dtype=I64, lo=0, hi=100), T(500), 150)
opcase("o_bincount_weights_int", "select", aten.bincount.default, T(values=[1, 3, 3, 0], dtype=I64), T(4, dtype=I64, lo=-9, hi=9), 0)
opcase("o_bincount_weights_f16", "select", aten.bincount.default, T(values=[1, 3, 3, 0], dtype=I32), T(4, dtype=torch.float16), 0)
opcase("o_bincount_empty_weights", "select", aten.bincount.default, T(values=[], dtype=I64), T(0), 4,
       trivial="an empty input with weights: torch 1.13's int64 zeros of minlength are the point")
opcase("o_repeat_interleave_i32", "select", aten.repeat_interleave.Tensor, T(values=[3, 0, 1, 2], dtype=I32))
opcase("o_repeat_interleave_many", "select", aten.repeat_interleave.Tensor, T(200, dtype=I64, lo=0, hi=5))
opcase("o_repeat_interleave_empty", "select", aten.repeat_interleave.Tensor, T(values=[], dtype=I64),
       trivial="no repeats: the empty result is the point")
opcase("o_repeat_interleave_int16_refused", "select", aten.repeat_interleave.Tensor, T(values=[1, 2], dtype=torch.int16), refused="int32 or int64")
opcase("o_repeat_interleave_output_size_refused", "select", aten.repeat_interleave.Tensor, T(values=[1, 2], dtype=I64), output_size=3,
       refused="output_size")
opcase("o_bincount", "select", aten.bincount.default, T(values=[1, 3, 3, 0, 7], dtype=I64), None, 0)
opcase("o_bincount_minlength", "select", aten.bincount.default, T(values=[1, 3, 3, 0], dtype=I32), None, 9)
opcase("o_bincount_weights", "select", aten.bincount.default, T(values=[1, 3, 3, 0], dtype=I64), T(4), 2)
opcase("o_bincount_weights_f64", "select", aten.bincount.default, T(values=[2, 0, 2], dtype=I64), T(3, dtype=torch.float64), 0)
opcase("o_bincount_empty", "select", aten.bincount.default, T(values=[], dtype=I64), None, 0,
       trivial="an empty input: the 0-size result is the point")
opcase("o_bincount_float_refused", "select", aten.bincount.default, T(values=[1.0]), None, 0, refused="1-d integer tensor")
opcase("o_bincount_bool_refused", "select", aten.bincount.default, T(values=[True], dtype=BOOL), None, 0, refused="1-d integer tensor")
opcase("o_repeat_interleave", "select", aten.repeat_interleave.Tensor, T(values=[2, 0, 3, 1], dtype=I64))
opcase("o_repeat_interleave_zero", "select", aten.repeat_interleave.Tensor, T(values=[0, 0], dtype=I64),
       trivial="every repeat is 0: the empty result is the point")
opcase("o_masked_select", "select", aten.masked_select.default, T(3, 4), T(values=[[True, False, True, True]], dtype=BOOL))
opcase("o_masked_select_none", "select", aten.masked_select.default, T(2, 3, dtype=I64), T(2, 3, dtype=BOOL, values=[[False] * 3] * 2),
       trivial="an all-false mask: the empty result is the point")
opcase("o_index_bool_mask", "select", aten.index.Tensor, T(3, 4, 2), [T(values=[[True, False, True, True], [False] * 4,
                                                                          [False, True, False, False]], dtype=BOOL)])
opcase("o_index_bool_mask_all", "select", aten.index.Tensor, T(3, 2), [T(values=[True, True, True], dtype=BOOL)],
       trivial="an all-true mask picks every row: the count equal to the dim is the point")
opcase("o_index_put_bool_scalar", "select", aten.index_put.default, T(3, 4), [T(3, 4, dtype=BOOL)], T(values=2.5))
opcase("o_index_put_bool_rows", "select", aten.index_put.default, T(3, 4), [T(values=[True, False, True], dtype=BOOL)], T(4))
opcase("o_index_put_bool_accumulate", "select", aten.index_put.default, T(3, 4, dtype=I64),
       [T(values=[False, True, True], dtype=BOOL)], T(1, 4, dtype=I64), True)
opcase("o_index_put_bool_per_element", "select", aten.index_put.default, T(3, 4),
       [T(values=[True, False, True], dtype=BOOL)], T(2, 4))
opcase("o_where_condition", "select", aten.where.default, T(3, 4, dtype=BOOL))
opcase("o_nonzero_numpy", "select", aten.nonzero_numpy.default, T(values=NZ))
opcase("o_where_condition_scalar_refused", "select", aten.where.default, T(values=True, dtype=BOOL), refused="0-d condition")
opcase("o_embedding_bag_offsets_input_refused", "embedding", aten.embedding_bag.default, T(6, 3),
       T(values=[1, 2, 0, 4], dtype=I64), T(values=[0, 2], dtype=I64), refused="offsets must be a constant")
opcase("o_embedding_bag_forward_only_refused", "embedding", aten._embedding_bag_forward_only.default, T(6, 3),
       T(values=[1, 2, 0, 4], dtype=I64), T(values=[0, 2], dtype=I64), refused="offsets must be a constant")
opcase("o_native_multi_head_attention", "attention", aten._native_multi_head_attention.default, T(2, 5, 8), T(2, 5, 8),
       T(2, 5, 8), 8, 2, T(24, 8), T(24), T(8, 8), T(8), None, False, used_outputs=1, node_outputs=2)
# nn.TransformerEncoderLayer's fast path (eval + no_grad), which training IR keeps; torch 1.13's own op is the oracle.
# src [2, 5, 8], 2 heads, feed-forward 16; then the masks torch's CPU kernel takes.
_ENC_W = [T(24, 8), T(24), T(8, 8), T(8)]
_ENC_N = [T(8), T(8), T(8), T(8), T(16, 8), T(16), T(8, 16), T(8)]
_KPM = T(values=[[False] * 5, [False, False, False, True, True]], dtype=BOOL)
_CAUSAL = [[j > i for j in range(5)] for i in range(5)]
opcase("o_transformer_encoder_layer", "attention", aten._transformer_encoder_layer_fwd.default, T(2, 5, 8), 8, 2,
       *_ENC_W, False, False, 1e-5, *_ENC_N)
opcase("o_transformer_encoder_layer_norm_first_gelu", "attention", aten._transformer_encoder_layer_fwd.default,
       T(2, 5, 8), 8, 2, *_ENC_W, True, True, 1e-5, *_ENC_N)
opcase("o_transformer_encoder_layer_key_padding", "attention", aten._transformer_encoder_layer_fwd.default,
       T(2, 5, 8), 8, 2, *_ENC_W, False, True, 1e-5, *_ENC_N, _KPM, 1)
opcase("o_transformer_encoder_layer_head_mask", "attention", aten._transformer_encoder_layer_fwd.default,
       T(2, 5, 8), 8, 2, *_ENC_W, True, False, 1e-5, *_ENC_N, T(values=[[_CAUSAL] * 2] * 2, dtype=BOOL), 2)
# An attention mask [L, L] (mask_type 0), which torch 1.13's CPU kernel refuses: checked against the same
# mask given per head (mask_type 2), the same math.
opcase("o_transformer_encoder_layer_attn_mask", "attention", aten._transformer_encoder_layer_fwd.default,
       T(2, 5, 8), 8, 2, *_ENC_W, False, False, 1e-5, *_ENC_N, T(values=_CAUSAL, dtype=BOOL), 0,
       reference=lambda *a: aten._transformer_encoder_layer_fwd(*a[:-2], a[-2].expand(2, 2, 5, 5).contiguous(), 2))
opcase("o_transformer_encoder_layer_nested_refused", "attention", aten._transformer_encoder_layer_fwd.default,
       T(5, 8), 8, 2, *_ENC_W, False, False, 1e-5, *_ENC_N, refused="src must be [batch, seq, embed]")
opcase("o_native_multi_head_attention_head_mask", "attention", aten._native_multi_head_attention.default, T(2, 5, 8),
       T(2, 5, 8), T(2, 5, 8), 8, 2, T(24, 8), T(24), T(8, 8), T(8), T(values=[[_CAUSAL] * 2] * 2, dtype=BOOL), False,
       True, 2, used_outputs=1, node_outputs=2)
opcase("o_resize", "shape", aten.resize_.default, T(2, 6), [3, 4])
# Recurrent layers as training-IR exports keep them (impl/recurrent unrolls them); torch 1.13's own op is the oracle.
opcase("o_lstm_input_2layer_bidirectional", "recurrent", aten.lstm.input, T(5, 2, 4), [T(4, 2, 3), T(4, 2, 3)],
       [T(12, 4), T(12, 3), T(12), T(12), T(12, 4), T(12, 3), T(12), T(12),
        T(12, 6), T(12, 3), T(12), T(12), T(12, 6), T(12, 3), T(12), T(12)], True, 2, 0.0, False, True, False)
opcase("o_lstm_input_batch_first_no_bias", "recurrent", aten.lstm.input, T(2, 4, 3), [T(1, 2, 5), T(1, 2, 5)],
       [T(20, 3), T(20, 5)], False, 1, 0.0, False, False, True)
opcase("o_gru_input_2layer_bidirectional", "recurrent", aten.gru.input, T(4, 3, 2), T(4, 3, 3),
       [T(9, 2), T(9, 3), T(9), T(9), T(9, 2), T(9, 3), T(9), T(9),
        T(9, 6), T(9, 3), T(9), T(9), T(9, 6), T(9, 3), T(9), T(9)], True, 2, 0.0, False, True, False)
opcase("o_gru_input_batch_first", "recurrent", aten.gru.input, T(2, 5, 4), T(1, 2, 3), [T(9, 4), T(9, 3), T(9), T(9)],
       True, 1, 0.0, False, False, True)
opcase("o_lstm_input_projection_refused", "recurrent", aten.lstm.input, T(3, 1, 2), [T(1, 1, 2), T(1, 1, 4)],
       [T(16, 2), T(16, 2), T(16), T(16), T(2, 4)], True, 1, 0.0, False, False, False, refused="projections")
opcase("o_prims_broadcast_in_dim", "shape", torch.ops.prims.broadcast_in_dim.default, T(3, 1), [2, 3, 4], [1, 2])
opcase("o_prims_convert_element_type", "other", torch.ops.prims.convert_element_type.default, T(3, 4), torch.int32)
opcase("o_prims_div", "elementwise", torch.ops.prims.div.default, T(3, 4), T(3, 4, positive=True))
opcase("o_prims_div_int", "elementwise", torch.ops.prims.div.default, T(3, 4, dtype=I64), T(3, 4, dtype=I64, lo=1, hi=4))
opcase("o_prims_sum", "reduce", torch.ops.prims.sum.default, T(3, 4, 5), [0, 2])

# ------------------------------------------------------------------ search (isin, bucketize, searchsorted)
NAN = float("nan")
opcase("o_search_isin", "search", aten.isin.Tensor_Tensor, T(3, 5, dtype=I64, lo=0, hi=8), T(values=[1, 3, 5, 9], dtype=I64))
opcase("o_search_isin_float_nan_invert", "search", aten.isin.Tensor_Tensor, T(values=[[0.5, NAN, 2.0], [-1.0, 3.0, 0.5]]),
       T(values=[[0.5, NAN], [3.0, 7.0]]), invert=True)
opcase("o_search_isin_int_in_float", "search", aten.isin.Tensor_Tensor, T(4, 3, dtype=I64, lo=0, hi=4), T(values=[1.0, 2.5]))
opcase("o_search_isin_empty_test", "search", aten.isin.Tensor_Tensor, T(2, 3), T(values=[]), invert=True,
       trivial="an empty test set: nothing is in it, so invert gives all True; shape and dtype are the point")
opcase("o_search_isin_tensor_scalar", "search", aten.isin.Tensor_Scalar, T(3, 4, dtype=I64, lo=0, hi=3), 2)
opcase("o_search_isin_scalar_tensor", "search", aten.isin.Scalar_Tensor, 3, T(5, dtype=I64, lo=0, hi=6))
opcase("o_search_bucketize", "search", aten.bucketize.Tensor, T(values=[[-1.0, 0.0, 0.5, 1.0], [2.0, 9.0, NAN, 1.5]]),
       T(values=[0.0, 1.0, 2.0]))
opcase("o_search_bucketize_right_int32", "search", aten.bucketize.Tensor, T(values=[-1.0, 0.0, 0.5, 1.0, 2.0, 9.0]),
       T(values=[0.0, 1.0, 2.0]), out_int32=True, right=True)
opcase("o_search_bucketize_int", "search", aten.bucketize.Tensor, T(3, 4, dtype=I64, lo=-2, hi=12), T(values=[0, 3, 3, 7], dtype=I64))
opcase("o_search_bucketize_scalar", "search", aten.bucketize.Scalar, 1.5, T(values=[0.0, 1.0, 2.0]))
opcase("o_search_bucketize_2d_refused", "search", aten.bucketize.Tensor, T(3), T(values=[[0.0, 1.0]]), refused="1-D")
opcase("o_search_searchsorted", "search", aten.searchsorted.Tensor, T(values=[0.0, 1.0, 1.0, 2.0]), T(2, 3, steps=True))
opcase("o_search_searchsorted_rows_side", "search", aten.searchsorted.Tensor,
       T(values=[[0.0, 1.0, 2.0], [-3.0, -1.0, 5.0]]), T(values=[[1.0, 2.5, NAN, -1.0], [-1.0, 6.0, 0.0, -5.0]]), side="right")
opcase("o_search_searchsorted_scalar_int32", "search", aten.searchsorted.Scalar, T(values=[1, 2, 2, 5], dtype=I64), 2,
       out_int32=True, right=True)
opcase("o_search_searchsorted_sorter", "search", aten.searchsorted.Tensor, T(values=[[2.0, 0.0, 1.0], [5.0, -1.0, 3.0]]),
       T(2, 4, steps=True), sorter=T(values=[[1, 2, 0], [1, 2, 0]], dtype=I64))
opcase("o_search_searchsorted_side_refused", "search", aten.searchsorted.Tensor, T(values=[0.0, 1.0]), T(3), side="middle",
       refused="side must be")

# Python's & | ^ on tensors (training IR keeps __and__/__or__/__xor__), as bitwise_*.
for op in ("and", "or", "xor"):
    opcase(f"o_dunder_{op}_tensor", "elementwise", getattr(aten, f"__{op}__").Tensor, T(3, 4, dtype=BOOL), T(4, dtype=BOOL))
    opcase(f"o_dunder_{op}_scalar", "elementwise", getattr(aten, f"__{op}__").Scalar, T(3, 4, dtype=I32, lo=-9, hi=9), 6)
    opcase(f"o_dunder_{op}_int", "elementwise", getattr(aten, f"__{op}__").Tensor, T(5, dtype=I64, lo=-20, hi=20),
           T(5, dtype=I64, lo=-20, hi=20))

# The Scalar overloads of the polynomials, which torch 1.13's eager dispatch cannot call with a
# Python number (its reference computes the Tensor form).
for _op in ["chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w",
            "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
            "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
            "laguerre_polynomial_l", "legendre_polynomial_p"]:
    _fn = getattr(torch.special, _op)
    opcase(f"o_{_op}_x_scalar", "special", f"aten.special_{_op}.x_scalar", 0.25, T(values=_POLY_N),
           arg_names=["x", "n"], reference=lambda x, n, f=_fn: f(torch.tensor(x), n))
    opcase(f"o_{_op}_n_scalar", "special", f"aten.special_{_op}.n_scalar", T(3, 4), 4,
           arg_names=["x", "n"], reference=lambda x, n, f=_fn: f(x, torch.tensor(float(n))))
# Bit shifts on every integer dtype, counts at and past the width and negative: torch 1.13 on x86
# masks the count to the width the shift runs in (31 for 8/16/32-bit dtypes, 63 for int64).
for dt, lo, hi in ((torch.int8, -128, 127), (torch.uint8, 0, 255), (torch.int16, -3000, 3000), (I32, -10**6, 10**6),
                   (I64, -10**12, 10**12)):
    name = str(dt).replace("torch.", "")
    counts = T(values=[[-70, -33, -1, 0, 1, 7], [8, 15, 16, 31, 32, 33], [63, 64, 65, 70, 100, 127]],
               dtype=dt) if dt != torch.uint8 else T(values=[[0, 1, 7, 8, 9, 15], [16, 31, 32, 33, 63, 64],
                                                            [65, 70, 100, 127, 200, 255]], dtype=dt)
    opcase(f"o_shift_left_{name}", "elementwise", aten.bitwise_left_shift.Tensor, T(3, 6, dtype=dt, lo=lo, hi=hi), counts)
    opcase(f"o_shift_right_{name}", "elementwise", aten.bitwise_right_shift.Tensor, T(3, 6, dtype=dt, lo=lo, hi=hi), counts)
    bits = torch.iinfo(dt).bits
    for count in (-1, 9, 33, 70, 1000):
        masked = count & (63 if bits == 64 else 31)
        # Every value shifted out is torch's answer here (a saturated or unmasked count differs).
        gone = dict(trivial=f"count {count} is {masked} after torch's mask: every {name} bit is shifted out, all 0")
        opcase(f"o_lshift_scalar_{name}_{count}".replace("-", "m"), "elementwise", aten.__lshift__.Scalar,
               T(2, 5, dtype=dt, lo=lo, hi=hi), count, **(gone if masked >= bits else {}))
        opcase(f"o_rshift_scalar_{name}_{count}".replace("-", "m"), "elementwise", aten.__rshift__.Scalar,
               T(2, 5, dtype=dt, lo=lo, hi=hi), count, **(gone if dt == torch.uint8 and masked >= 8 else {}))
opcase("o_lshift_tensor_broadcast", "elementwise", aten.__lshift__.Tensor, T(3, 4, dtype=I32, lo=-99, hi=99),
       T(values=[0, 5, 32, -3], dtype=I32))
opcase("o_rshift_tensor_promote", "elementwise", aten.__rshift__.Tensor, T(3, 4, dtype=torch.int8, lo=-128, hi=127),
       T(values=[1, 7, 40, -2], dtype=I64))
opcase("o_shift_left_tensor_scalar", "elementwise", aten.bitwise_left_shift.Tensor_Scalar, T(3, 4, dtype=torch.int16,
       lo=-99, hi=99), 37)
opcase("o_shift_right_tensor_scalar", "elementwise", aten.bitwise_right_shift.Tensor_Scalar, T(3, 4, dtype=I64,
       lo=-9999, hi=9999), 3)
opcase("o_shift_left_scalar_tensor", "elementwise", aten.bitwise_left_shift.Scalar_Tensor, 5,
       T(values=[0, 3, 31, 32, -1, 40], dtype=I32))
opcase("o_shift_right_scalar_tensor", "elementwise", aten.bitwise_right_shift.Scalar_Tensor, -100,
       T(values=[0, 3, 63, 64, -1, 70], dtype=I64))
opcase("o_shift_float_refused", "elementwise", aten.bitwise_left_shift.Tensor, T(3, 4), T(3, 4),
       refused="bit shifts take integer tensors")
opcase("o_shift_bool_refused", "elementwise", aten.__rshift__.Tensor, T(3, 4, dtype=BOOL), T(3, 4, dtype=BOOL),
       refused="bit shifts take integer tensors")
case("shift_operators", "elementwise", lambda a, b: (a << b) ^ (a >> 3), T(4, 5, dtype=I64, lo=-999, hi=999),
     T(4, 5, dtype=I64, lo=-80, hi=80))
