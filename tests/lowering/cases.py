"""Decomposition cases: one ATen op call each, run by PyTorch for the expected
result. make_cases.py writes them out; tests/unit/lowering/decomposition_cases_test.cpp
builds a one-node graph per case, lowers it, checks the ops and the numbers."""
import torch

F32 = torch.float32


class T:
    """A random input tensor: normal by default, or uniform in [lo, hi)."""

    def __init__(self, *shape, dtype=F32, lo=None, hi=None):
        self.shape, self.dtype, self.lo, self.hi = shape, dtype, lo, hi

    def make(self, gen):
        if self.dtype == torch.bool:
            return torch.rand(self.shape, generator=gen) > 0.5
        if not self.dtype.is_floating_point:
            return torch.randint(-5, 6, self.shape, generator=gen, dtype=self.dtype)
        if self.lo is not None:
            return (torch.rand(self.shape, generator=gen) * (self.hi - self.lo) + self.lo).to(self.dtype)
        return torch.randn(self.shape, generator=gen).to(self.dtype)


class Case:
    def __init__(self, name, op, args, kwargs=None, expected=(), unexpected=None):
        self.name, self.op, self.args, self.kwargs = name, op, args, kwargs or {}
        self.expected = list(expected)
        self.unexpected = [op] if unexpected is None else list(unexpected)


MM, MUL, ADD, SUB, DIV = "aten.mm.default", "aten.mul.Tensor", "aten.add.Tensor", "aten.sub.Tensor", "aten.div.Tensor"
SUM, MEAN, AMAX, EXP, LOG = "aten.sum.dim_IntList", "aten.mean.dim", "aten.amax.default", "aten.exp.default", "aten.log.default"
WHERE, CLAMP, SQRT, RSQRT = "aten.where.self", "aten.clamp.default", "aten.sqrt.default", "aten.rsqrt.default"
VIEW, PERM, ISEL, SIG, TANH = "aten.view.default", "aten.permute.default", "aten.index_select.default", "aten.sigmoid.default", "aten.tanh.default"

CASES = [
    # linear_algebra
    Case("addmm_seed", "aten.addmm.default", [T(3), T(2, 4), T(4, 3)], dict(beta=0.5, alpha=2.0), [MM, MUL, ADD]),
    Case("addmm_default", "aten.addmm.default", [T(2, 3), T(2, 4), T(4, 3)], {}, [MM, ADD], ["aten.addmm.default", MUL]),
    Case("addmm_beta0", "aten.addmm.default", [T(2, 3), T(2, 4), T(4, 3)], dict(beta=0), [MM], ["aten.addmm.default", ADD]),
    Case("linear_2d", "aten.linear.default", [T(5, 4), T(3, 4), T(3)], {}, [MM, PERM, ADD]),
    Case("linear_3d_nobias", "aten.linear.default", [T(2, 5, 4), T(3, 4)], {}, [MM, VIEW], ["aten.linear.default", ADD]),
    Case("linear_1d", "aten.linear.default", [T(4), T(3, 4), T(3)], {}, [MM]),
    Case("mv", "aten.mv.default", [T(3, 4), T(4)], {}, [MM]),
    Case("addmv", "aten.addmv.default", [T(3), T(3, 4), T(4)], dict(beta=2.0, alpha=0.5), [MM, MUL, ADD]),
    Case("dot", "aten.dot.default", [T(6), T(6)], {}, [MUL, SUM]),
    Case("baddbmm", "aten.baddbmm.default", [T(2, 3, 5), T(2, 3, 4), T(2, 4, 5)], dict(beta=0.5, alpha=1.5), ["aten.bmm.default", MUL, ADD]),
    Case("addbmm", "aten.addbmm.default", [T(3, 5), T(2, 3, 4), T(2, 4, 5)], {}, ["aten.bmm.default", SUM, ADD]),
    # Integer tensors take beta/alpha as the kernels do, truncated (Scalar::to<int64_t>): 0.6 -> 0
    # drops self, 0.2 -> 0 zeroes the product (OpInfo's addbmm int samples); -2.7 -> -2.
    Case("addbmm_int64_fractions", "aten.addbmm.default", [T(3, 5, dtype=torch.int64), T(2, 3, 4, dtype=torch.int64),
         T(2, 4, 5, dtype=torch.int64)], dict(beta=1.6, alpha=-2.7), ["aten.bmm.default", SUM, MUL, ADD]),
    Case("addbmm_int64_below_one", "aten.addbmm.default", [T(3, 5, dtype=torch.int64), T(2, 3, 4, dtype=torch.int64),
         T(2, 4, 5, dtype=torch.int64)], dict(beta=0.6, alpha=0.2), ["aten.bmm.default", MUL], ["aten.addbmm.default", ADD]),
    Case("diag_vec", "aten.diag.default", [T(4)], {}, [WHERE]),
    Case("diag_vec_up", "aten.diag.default", [T(3)], dict(diagonal=1), [WHERE, "aten.cat.default"]),
    Case("diag_vec_down", "aten.diag.default", [T(3)], dict(diagonal=-2), [WHERE]),
    Case("diag_mat_up", "aten.diag.default", [T(4, 5)], dict(diagonal=1), [ISEL, VIEW]),
    Case("diag_mat_down", "aten.diag.default", [T(4, 5)], dict(diagonal=-1), [ISEL]),
    Case("trace", "aten.trace.default", [T(4, 3)], {}, [ISEL, SUM]),
    # activations
    Case("hardswish", "aten.hardswish.default", [T(4, 5, lo=-5, hi=5)], {}, [CLAMP, MUL]),
    Case("hardsigmoid", "aten.hardsigmoid.default", [T(4, 5, lo=-5, hi=5)], {}, [CLAMP, DIV]),
    Case("silu", "aten.silu.default", [T(3, 4)], {}, [SIG, MUL]),
    Case("mish", "aten.mish.default", [T(3, 8, lo=-30, hi=30)], {}, [TANH, "aten.log1p.default", WHERE]),
    Case("softplus", "aten.softplus.default", [T(3, 8, lo=-6, hi=6)], dict(beta=2.0, threshold=5.0), ["aten.log1p.default", WHERE]),
    Case("elu", "aten.elu.default", [T(3, 4)], dict(alpha=0.7), ["aten.expm1.default", WHERE]),
    Case("selu", "aten.selu.default", [T(3, 4)], {}, ["aten.expm1.default", WHERE]),
    Case("celu", "aten.celu.default", [T(3, 4)], dict(alpha=1.5), ["aten.expm1.default", WHERE]),
    Case("leaky_relu", "aten.leaky_relu.default", [T(3, 4)], dict(negative_slope=0.2), [WHERE, MUL]),
    Case("hardtanh", "aten.hardtanh.default", [T(3, 4)], dict(min_val=-0.5, max_val=0.8), [CLAMP]),
    Case("relu6", "aten.relu6.default", [T(3, 4, lo=-8, hi=8)], {}, [CLAMP]),
    Case("gelu", "aten.gelu.default", [T(3, 4)], {}, ["aten.erf.default", MUL]),
    Case("gelu_tanh", "aten.gelu.default", [T(3, 4)], dict(approximate="tanh"), [TANH, MUL]),
    Case("glu", "aten.glu.default", [T(3, 6)], dict(dim=1), ["aten.slice.Tensor", SIG, MUL]),
    Case("softmax_internal", "aten._softmax.default", [T(3, 5)], dict(dim=1, half_to_float=False), [AMAX, EXP, SUM, DIV]),
    Case("softmax_int", "aten.softmax.int", [T(3, 5)], dict(dim=0), [AMAX, EXP, SUM, DIV]),
    Case("log_softmax_internal", "aten._log_softmax.default", [T(2, 3, 5)], dict(dim=-1, half_to_float=False), [AMAX, EXP, LOG, SUB]),
    Case("log_softmax_int", "aten.log_softmax.int", [T(4, 5)], dict(dim=1), [AMAX, EXP, LOG, SUB]),
    # normalization
    Case("native_layer_norm", "aten.native_layer_norm.default", [T(2, 3, 4), [4], T(4), T(4), 1e-5], {}, [MEAN, RSQRT, MUL, ADD]),
    Case("layer_norm", "aten.layer_norm.default", [T(2, 3, 4), [3, 4]], {}, [MEAN, RSQRT]),
    Case("native_group_norm", "aten.native_group_norm.default", [T(2, 6, 3, 2), T(6), T(6), 2, 6, 6, 3, 1e-5], {}, [MEAN, RSQRT, VIEW]),
    Case("group_norm", "aten.group_norm.default", [T(2, 4, 5), 2, T(4), T(4)], {}, [MEAN, RSQRT, VIEW]),
    Case("instance_norm", "aten.instance_norm.default", [T(2, 3, 4, 4), T(3), T(3), None, None, True, 0.1, 1e-5, False], {}, [MEAN, RSQRT]),
    Case("instance_norm_running", "aten.instance_norm.default", [T(2, 3, 5), None, None, T(3), T(3, lo=0.5, hi=2), False, 0.1, 1e-5, False], {}, [RSQRT, SUB]),
    # reductions
    Case("var_correction", "aten.var.correction", [T(3, 4, 5), [1, 2]], dict(correction=0, keepdim=True), [MEAN, SUM, DIV]),
    Case("var_dim", "aten.var.dim", [T(3, 5), [1]], {}, [MEAN, SUM, DIV]),
    Case("var_all", "aten.var.default", [T(3, 5)], {}, [SUM, DIV]),
    Case("std_correction", "aten.std.correction", [T(3, 6), [1]], dict(correction=2), [SQRT]),
    Case("std_dim", "aten.std.dim", [T(4, 5), [0]], dict(unbiased=False, keepdim=True), [SQRT]),
    Case("std_all", "aten.std.default", [T(4, 5)], {}, [SQRT]),
    Case("var_mean_correction", "aten.var_mean.correction", [T(3, 4, 5), [0, 2]], dict(correction=1), [MEAN, "aten.squeeze.dims"]),
    Case("var_mean_dim", "aten.var_mean.dim", [T(3, 4), [1]], dict(keepdim=True), [MEAN]),
    Case("var_mean_all", "aten.var_mean.default", [T(3, 4)], {}, [MEAN]),
    # float16: in float32, rounded once (as torch), so the decomposition casts around it.
    Case("var_mean_float16", "aten.var_mean.dim", [T(5, 37, dtype=torch.float16), [1]], {}, [MEAN, "aten._to_copy.default"]),
    Case("std_bfloat16", "aten.std.dim", [T(37, 5, dtype=torch.bfloat16), [0]], dict(unbiased=False),
         ["aten.sqrt.default", "aten._to_copy.default"]),
    Case("std_mean_correction", "aten.std_mean.correction", [T(3, 4), [1]], dict(correction=1), [SQRT, MEAN]),
    Case("std_mean_dim", "aten.std_mean.dim", [T(3, 4), [0]], {}, [SQRT, MEAN]),
    Case("std_mean_all", "aten.std_mean.default", [T(3, 4)], {}, [SQRT, MEAN]),
    Case("logsumexp", "aten.logsumexp.default", [T(3, 4, 5), [1]], {}, [AMAX, EXP, LOG, "aten.isinf.default"]),
    Case("logsumexp_keepdim", "aten.logsumexp.default", [T(3, 4), [0, 1]], dict(keepdim=True), [AMAX, EXP, LOG]),
    Case("norm_scalar", "aten.norm.Scalar", [T(3, 4)], {}, [SQRT, SUM]),
    Case("norm_p1_dim", "aten.norm.ScalarOpt_dim", [T(3, 4), 1, [1]], {}, ["aten.abs.default", SUM]),
    Case("norm_inf_dim", "aten.norm.ScalarOpt_dim", [T(3, 4), float("inf"), [0]], dict(keepdim=True), ["aten.abs.default", AMAX]),
    Case("norm_p3_dim", "aten.norm.ScalarOpt_dim", [T(3, 4), 3, [1]], {}, ["aten.pow.Tensor_Scalar"]),
    Case("linalg_vector_norm", "aten.linalg_vector_norm.default", [T(3, 4, 5), 2, [1, 2]], {}, [SQRT, SUM]),
    Case("frobenius_norm", "aten.frobenius_norm.dim", [T(3, 4), [0, 1]], {}, [SQRT]),
    Case("cosine_similarity", "aten.cosine_similarity.default", [T(4, 6), T(4, 6)], dict(dim=1), [DIV, SUM, CLAMP]),
    # misc
    Case("addcmul", "aten.addcmul.default", [T(3, 4), T(3, 4), T(4)], dict(value=0.5), [MUL, ADD]),
    # value=-3.9 on int64 is -3 (the kernel's value.to<int64_t>()), OpInfo's addcmul int samples.
    Case("addcmul_int64_fraction", "aten.addcmul.default", [T(3, 4, dtype=torch.int64), T(3, 4, dtype=torch.int64),
         T(4, dtype=torch.int64)], dict(value=-3.9), [MUL, ADD]),
    Case("addcdiv", "aten.addcdiv.default", [T(3, 4), T(3, 4), T(3, 4, lo=0.5, hi=2)], dict(value=2.0), [DIV, MUL, ADD]),
    Case("rsub_scalar", "aten.rsub.Scalar", [T(3, 4), 2.5], dict(alpha=2), [MUL, ADD]),
    Case("rsub_scalar_int", "aten.rsub.Scalar", [T(3, 4, dtype=torch.int64), 7], {}, ["aten.neg.default", ADD]),
    Case("rsub_tensor", "aten.rsub.Tensor", [T(3, 4), T(4)], dict(alpha=3), [SUB, MUL]),
    Case("lerp_small", "aten.lerp.Scalar", [T(3, 4), T(3, 4), 0.3], {}, [SUB, MUL, ADD]),
    Case("lerp_large", "aten.lerp.Scalar", [T(3, 4), T(3, 4), 0.8], {}, [SUB, MUL]),
    Case("masked_fill_scalar", "aten.masked_fill.Scalar", [T(3, 4), T(3, 4, dtype=torch.bool), -1.5], {}, [WHERE]),
    Case("masked_fill_tensor", "aten.masked_fill.Tensor", [T(3, 4), T(4, dtype=torch.bool), T()], {}, [WHERE]),
    Case("clamp_min", "aten.clamp_min.default", [T(3, 4), 0.1], {}, [CLAMP]),
    Case("clamp_max", "aten.clamp_max.default", [T(3, 4), -0.1], {}, [CLAMP]),
    Case("square", "aten.square.default", [T(3, 4)], {}, [MUL]),
    Case("outer", "aten.outer.default", [T(3), T(4)], {}, [MUL, "aten.unsqueeze.default"]),
    Case("linspace", "aten.linspace.default", [-1.5, 2.0, 7], {}, [WHERE, MUL, ADD]),
    Case("zeros_like", "aten.zeros_like.default", [T(2, 3)], {}, [], ["aten.zeros_like.default"]),
    Case("ones_like", "aten.ones_like.default", [T(2, 3)], dict(dtype=torch.int64), [], ["aten.ones_like.default"]),
    Case("full_like", "aten.full_like.default", [T(2, 3), 4.25], {}, [], ["aten.full_like.default"]),
    Case("pixel_shuffle", "aten.pixel_shuffle.default", [T(1, 8, 2, 3), 2], {}, [VIEW, PERM, "aten.reshape.default"]),
    Case("pixel_unshuffle", "aten.pixel_unshuffle.default", [T(2, 2, 4, 6), 2], {}, [VIEW, PERM, "aten.reshape.default"]),
    Case("flip", "aten.flip.default", [T(3, 4, 5), [0, 2]], {}, [ISEL]),
    Case("tril", "aten.tril.default", [T(2, 4, 5)], dict(diagonal=1), [WHERE]),
    Case("triu", "aten.triu.default", [T(4, 4)], dict(diagonal=-1), [WHERE]),
    # views
    Case("t", "aten.t.default", [T(3, 4)], {}, [PERM]),
    Case("transpose", "aten.transpose.int", [T(2, 3, 4), 0, 2], {}, [PERM]),
    Case("flatten", "aten.flatten.using_ints", [T(2, 3, 4, 5), 1, 2], {}, [VIEW]),
    Case("unflatten", "aten.unflatten.int", [T(2, 12), 1, [3, -1]], {}, [VIEW]),
    Case("expand_as", "aten.expand_as.default", [T(3, 1), T(3, 4)], {}, ["aten.expand.default"]),
    Case("view_as", "aten.view_as.default", [T(3, 4), T(2, 6)], {}, [VIEW]),
    Case("reshape_as", "aten.reshape_as.default", [T(3, 4), T(12)], {}, ["aten.reshape.default"]),
    Case("type_as", "aten.type_as.default", [T(3, 4), T(2, dtype=torch.int64)], {}, ["aten._to_copy.default"]),
]
