"""PyTorch's OpInfo database (torch 1.13's op_db) as atenrt test cases: one module per sample.

Every tensor of a sample (its input, args and kwargs, lists included) becomes an engine input, in
pytree order; everything else (ints, dim lists, dtypes, strings) is baked into the module, as a
traced program bakes it in. Imported by the runner's workers only (it imports torch and op_db).
"""
import sys
import types
import unittest

import torch
from torch.utils import _pytree as pytree


def _install_expecttest_shim():
    # common_utils imports `expecttest` (a PyPI package Debian does not ship) for its TestCase base
    # class and an ACCEPT flag; the sample generators need neither.
    if "expecttest" in sys.modules:
        return
    try:
        import expecttest  # noqa: F401
    except ImportError:
        shim = types.ModuleType("expecttest")
        shim.TestCase = unittest.TestCase
        shim.ACCEPT = False
        sys.modules["expecttest"] = shim


_install_expecttest_shim()
from torch.testing._internal.common_methods_invocations import op_db  # noqa: E402

# The dtypes atenrt engines take (python/atenrt/inputs.py), in table order.
DTYPES = {
    "float32": torch.float32, "float64": torch.float64, "bfloat16": torch.bfloat16, "float16": torch.float16,
    "int8": torch.int8, "int16": torch.int16, "int32": torch.int32, "int64": torch.int64,
    "uint8": torch.uint8, "bool": torch.bool,
}


def op_id(op):
    """The OpInfo's name as PyTorch's tests spell it: `name` or `name.variant`."""
    return f"{op.name}.{op.variant_test_name}" if op.variant_test_name else op.name


def all_ops():
    """{op id: OpInfo} for every entry of op_db, in op_db order."""
    return {op_id(op): op for op in op_db}


def supported_dtypes(op):
    """The engine dtypes `op` supports on the CPU, in table order."""
    have = op.supported_dtypes("cpu")
    return [name for name, dt in DTYPES.items() if dt in have]


def samples(op, dtype):
    """The op's samples for `dtype` on the CPU, without gradients."""
    return list(op.sample_inputs("cpu", DTYPES[dtype], requires_grad=False))


class SampleModule(torch.nn.Module):
    """Calls `fn(input, *args, **kwargs)` with the sample's tensors taken from forward's arguments."""

    def __init__(self, fn, spec, leaves):
        super().__init__()
        self.fn = fn
        self.spec = spec
        self.is_tensor = [isinstance(x, torch.Tensor) for x in leaves]
        self.fixed = [None if t else x for t, x in zip(self.is_tensor, leaves)]

    def forward(self, *tensors):
        it = iter(tensors)
        leaves = [next(it) if t else v for t, v in zip(self.is_tensor, self.fixed)]
        inp, args, kwargs = pytree.tree_unflatten(leaves, self.spec)
        return self.fn(inp, *args, **kwargs)


def sample_module(op, sample):
    """(module, flat input tensors) for one SampleInput."""
    leaves, spec = pytree.tree_flatten((sample.input, tuple(sample.args), dict(sample.kwargs)))
    return SampleModule(op.op, spec, leaves), [x for x in leaves if isinstance(x, torch.Tensor)]
