"""One OpInfo sample through atenrt: export, dry run, compile, run, compare with PyTorch.

A sample ends in one of these statuses:
  pass            every output matches PyTorch (dtype and shape only where PyTorch leaves the
                  memory uninitialized: empty, empty_like, ...)
  wrong           an output differs (dtype, shape, NaN/inf placement or value beyond tolerance)
  error           atenrt raised after the dry run said every node is supported (mid-conversion or
                  run-time failure: a defect, never a refusal)
  refused         the dry run names unsupported nodes, with their validators' reasons
  export          torch 1.13's exporter (atenrt.save) cannot trace the sample
  skip            PyTorch itself raises on the sample, or it returns no tensor
  random-pass / random-wrong   the op draws random numbers: shapes, dtypes and moments checked
(crash and timeout are decided by the runner, which watches the worker process.)

Tolerance: a float32 output passes when max|out - ref| <= 1e-4 * max|ref| over the finite values
(no absolute floor) with NaN and inf exactly where PyTorch has them; other dtypes use
torch.testing.assert_close's defaults (integers and bool exact), NaN equal to NaN.
"""
import math
import os

import numpy as np
import torch
from torch.utils import _pytree as pytree

import atenrt
from atenrt import torch_api

from samples import op_id, sample_module

RANDOM_DRAWS = 24
GAUGE_DRAWS = 96


def _short(text, limit=300):
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _eager(module, tensors, seed):
    torch.manual_seed(seed)
    with torch.no_grad():
        return module(*[t.clone() for t in tensors])


def _flat_outputs(value):
    return pytree.tree_flatten(value)[0]


def _same(a, b):
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.layout != torch.strided:
        a, b = a.to_dense(), b.to_dense()
    if a.is_complex():
        a = torch.view_as_real(a.resolve_conj().to(torch.complex64))
        b = torch.view_as_real(b.resolve_conj().to(torch.complex64))
    return bool(torch.equal(a, b)) or (a.is_floating_point() and bool(
        ((a == b) | (torch.isnan(a) & torch.isnan(b))).all()))


def compare(out, ref):
    """None when `out` matches PyTorch's `ref`, else why not."""
    if out.dtype != ref.dtype:
        return f"dtype {str(out.dtype)[6:]}, PyTorch {str(ref.dtype)[6:]}"
    if tuple(out.shape) != tuple(ref.shape):
        return f"shape {list(out.shape)}, PyTorch {list(ref.shape)}"
    if ref.numel() == 0:
        return None
    if ref.dtype == torch.float32:
        o, r = out.double(), ref.double()
        nan_o, nan_r = torch.isnan(o), torch.isnan(r)
        if not torch.equal(nan_o, nan_r):
            i = int((nan_o != nan_r).nonzero()[0][0]) if o.dim() else 0
            return (f"NaN placement differs ({int(nan_o.sum())} NaN, PyTorch {int(nan_r.sum())}; "
                    f"first at flat {int((nan_o != nan_r).flatten().nonzero()[0])}: {o.flatten()[i].item()} vs "
                    f"{r.flatten()[i].item()})")
        inf = torch.isinf(o) | torch.isinf(r)
        if not torch.equal(o[inf], r[inf]):
            return f"inf placement differs ({int(torch.isinf(o).sum())} inf, PyTorch {int(torch.isinf(r).sum())})"
        finite = ~(nan_r | inf)
        if finite.any():
            err = float((o[finite] - r[finite]).abs().max())
            scale = float(r[finite].abs().max())
            if err > 1e-4 * scale:
                return f"max|out-ref| = {err:.3g} > 1e-4 * max|ref| = {1e-4 * scale:.3g}"
        return None
    try:
        torch.testing.assert_close(out, ref, equal_nan=True)
    except AssertionError as e:
        return _short(str(e).replace("\n", " "))
    return None


def _moments(t):
    x = t.double().flatten()
    x = x[torch.isfinite(x)]
    if x.numel() == 0:
        return 0.0, 0.0
    return float(x.mean()), float(x.std(unbiased=False))


def _eager_reseeded(module, tensors, seed):
    """An eager run whose every torch.manual_seed call is shifted by `seed`: a new draw also of ops
    that OpInfo seeds itself (wrapper_set_seed)."""
    manual_seed = torch.manual_seed
    torch.manual_seed = lambda s: manual_seed(int(s) + seed)
    try:
        return _eager(module, tensors, seed)
    finally:
        torch.manual_seed = manual_seed


def compare_random(outs, module, tensors, first, gauge=None, reseed=False, matrix=None, run=None):
    """Random ops: every output has PyTorch's dtype and shape, and its mean and spread fall within
    what PyTorch's own draws (RANDOM_DRAWS seeds) show. A gauge op's invariants (q below the rank)
    have a heavy tail (an unlucky start subspace): they must fall inside the envelope of
    GAUGE_DRAWS draws widened by 3 sd instead; a low-rank SVD whose matrix is known (`matrix`)
    is checked by `_low_rank_svd_problem` instead (`run`: the engine on other inputs)."""
    if matrix is not None:
        for i, (out, ref) in enumerate(zip(outs, first)):
            if out.dtype != ref.dtype or tuple(out.shape) != tuple(ref.shape):
                return f"output {i}: {compare(out, ref)}"
        return _low_rank_svd_problem(outs, module, tensors, matrix, run)
    eager = _eager_reseeded if gauge or reseed else _eager
    count = GAUGE_DRAWS if gauge else RANDOM_DRAWS
    draws = [first] + [_flat_outputs(eager(module, tensors, seed)) for seed in range(1, count)]
    if gauge:
        outs, first, draws = gauge(outs), gauge(first), [gauge(d) for d in draws]
    for i, out in enumerate(outs):
        ref = first[i]
        if out.dtype != ref.dtype or tuple(out.shape) != tuple(ref.shape):
            return f"output {i}: {compare(out, ref)}"
        if ref.numel() == 0:
            continue
        got = _moments(out)
        for j, what in enumerate(("mean", "std")):
            values = np.array([_moments(d[i])[j] for d in draws])
            mu, sd = float(values.mean()), float(values.std())
            if gauge:
                lo, hi = float(values.min()) - 3 * sd, float(values.max()) + 3 * sd
                if not lo - 1e-5 * (abs(mu) + 1) <= got[j] <= hi + 1e-5 * (abs(mu) + 1):
                    return f"output {i}: {what} {got[j]:.4g}, PyTorch's {count} draws in [{lo:.4g}, {hi:.4g}]"
            elif abs(got[j] - mu) > 5 * sd + 1e-5 * (abs(mu) + 1):
                return f"output {i}: {what} {got[j]:.4g}, PyTorch's draws {mu:.4g} +- {sd:.2g}"
    return None


def _differs(module, tensors, first, seed):
    try:
        again = _flat_outputs(_eager(module, tensors, seed))
    except Exception:  # noqa: BLE001 - a second eager call failing says nothing about atenrt
        return False
    return len(again) != len(first) or not all(_same(a, b) for a, b in zip(again, first))


# Ops whose outputs are defined up to a gauge that a random draw picks (torch's own random stream,
# which an engine cannot replay): compared as OpInfo's tests of them do, through a function of the
# outputs the gauge leaves alone. svd_lowrank / pca_lowrank (q = the rank, as every OpInfo sample):
# the reconstruction U diag(S) V^T and the singular values S.
def _lowrank_invariants(outs):
    u, s, v = outs
    return [u @ torch.diag_embed(s) @ v.mT, s]


GAUGE_INVARIANT = {"svd_lowrank": _lowrank_invariants, "pca_lowrank": _lowrank_invariants}

# The matrix B a low-rank SVD sample factors, from its input tensors (OpInfo's svd_lowrank samples
# are svd_lowrank(a @ b.mT, q, M=M): B = a b^T - M).
LOW_RANK_MATRIX = {"svd_lowrank": lambda t: t[0].double() @ t[1].double().mT - (t[2].double() if len(t) > 2 else 0)}


QUALITY_INPUTS = 48
QUALITY_P = 1e-5


def _subspace_problem(outs, b, tol):
    """What svd_lowrank's random start cannot change, checked exactly at the dtype's tolerance:
    U and V orthonormal, S descending and >= 0, U diag(S) V^T equal to U U^T B (or B V V^T where
    the wide or q-short case projects the rows: the algorithm is an exact SVD of B projected on the
    subspace it found), and S_i <= sigma_i(B) (interlacing). None when all hold."""
    u, s, v = (t.double() for t in outs)
    eye = torch.eye(u.shape[-1], dtype=torch.float64)
    for name, f in (("U", u), ("V", v)):
        err = float((f.mT @ f - eye).abs().max()) if f.numel() else 0.0
        if err > tol:
            return f"{name} is not orthonormal: max|{name}^T {name} - I| = {err:.3g}"
    if s.numel() and (bool((s < 0).any()) or bool((s[..., :-1] < s[..., 1:] - tol * s.abs().max()).any())):
        return f"S is not descending and non-negative: {s.flatten()[:8].tolist()}"
    rec = u @ torch.diag_embed(s) @ v.mT
    diffs = []
    for side, proj in (("U U^T B", u @ (u.mT @ b)), ("B V V^T", (b @ v) @ v.mT)):
        scale = float(proj.abs().max()) if proj.numel() else 0.0
        err = float((rec - proj).abs().max()) if proj.numel() else 0.0
        if err <= tol * scale:
            break
        diffs.append(f"{side}: max diff {err:.3g} > {tol:g} * {scale:.3g}")
    else:
        return "U diag(S) V^T is not B projected on U's or V's span (" + "; ".join(diffs) + ")"
    sigma = torch.linalg.svdvals(b)[..., : s.shape[-1]]
    if s.numel() and bool((s > sigma + tol * sigma.amax(-1, keepdim=True)).any()):
        return f"S exceeds B's singular values: {s.flatten()[:4].tolist()} vs {sigma.flatten()[:4].tolist()}"
    return None


def _low_rank_svd_problem(outs, module, tensors, matrix, run):
    """svd_lowrank with q below the rank of B: which q-dim subspace it finds depends on its random
    start (the engine's is a fixed normal draw made at conversion), so U, S, V differ from
    PyTorch's draw by more than a gauge. The sample's outputs pass `_subspace_problem` exactly.
    How good the subspace is, is a random variable with a heavy tail (an unlucky start leaves the
    residual well above the optimum, for ~2% of inputs with q = 1), so one input cannot judge it:
    any envelope of PyTorch's draws fails about that often (the moment envelope this replaces
    did, on one float64 sample in some runs). Instead the engine and one reseeded PyTorch draw
    factor QUALITY_INPUTS more matrices of the sample's shapes (seeded uniform [-9, 9], as
    make_tensor draws), each engine result passing `_subspace_problem` too, and the residuals
    ||B - U diag(S) V^T||_F are compared pairwise: with the same algorithm, the engine is worse
    on each with probability 1/2 (measured: 58 of 112), so a one-sided sign test fails only when
    P(Binomial(n, 1/2) >= worse) < QUALITY_P. A skipped power iteration loses on nearly all."""
    tol = 1e-4 if outs[0].dtype == torch.float32 else 1e-7
    why = _subspace_problem(outs, matrix(tensors), tol)
    if why or run is None:
        return why

    def residual(b, outs_):
        u, s, v = (t.double() for t in outs_)
        return float(torch.linalg.norm(b - u @ torch.diag_embed(s) @ v.mT))
    state = torch.get_rng_state()  # put back below: the draws reseed the global generator
    try:
        worse, counted = _sign_count(module, tensors, matrix, run, tol, residual)
    finally:
        torch.set_rng_state(state)
    if isinstance(worse, str):
        return worse
    p = sum(math.comb(counted, j) for j in range(worse, counted + 1)) / 2.0 ** counted if counted else 1.0
    if p < QUALITY_P:
        return (f"the engine's subspace is worse than PyTorch's draw on {worse} of {counted} further inputs "
                f"(sign test p = {p:.2g})")
    return None


def _sign_count(module, tensors, matrix, run, tol, residual):
    """(inputs where the engine's residual is the larger, inputs not tied), or (why, 0) when an
    engine result fails `_subspace_problem`."""
    gen = torch.Generator().manual_seed(0)
    worse = counted = 0
    for k in range(QUALITY_INPUTS):
        others = [torch.empty(t.shape, dtype=t.dtype).uniform_(-9, 9, generator=gen) for t in tensors]
        b = matrix(others)
        ours_outs = run(others)
        why = _subspace_problem(ours_outs, b, tol)
        if why:
            return f"on a further input: {why}", 0
        ours = residual(b, ours_outs)
        theirs = residual(b, _flat_outputs(_eager_reseeded(module, others, 1 + k)))
        if abs(ours - theirs) <= tol * max(ours, theirs):
            continue
        counted += 1
        worse += ours > theirs
    return worse, counted


def _gauge_random(gauge, module, tensors, first):
    """Whether the invariants themselves depend on the draw beyond rounding (q below the rank:
    svd_lowrank of A - M with a full-rank M): then the sample is a random one, checked by moments.
    OpInfo's op seeds torch itself (wrapper_set_seed), so the second draw shifts every seed."""
    try:
        again = gauge(_flat_outputs(_eager_reseeded(module, tensors, 1)))
    except Exception:  # noqa: BLE001 - a second eager call failing says nothing about atenrt
        return False
    for a, b in zip(again, gauge(first)):
        a, b = a.double(), b.double()
        if a.shape != b.shape:
            return True
        if b.numel() and float((a - b).abs().max()) > 1e-6 * float(b.abs().max()):
            return True
    return False


def is_random(module, tensors, first):
    """True, "self-seeded" (OpInfo seeds the op itself, wrapper_set_seed: only a draw through its
    own seeding differs, as for fractional_max_pool's random samples), or False."""
    if _differs(module, tensors, first, 1):
        return True
    # The global generator is put back, so the samples made after this one stay as they were.
    state = torch.get_rng_state()
    try:
        again = _flat_outputs(_eager_reseeded(module, tensors, 1))
    except Exception:  # noqa: BLE001 - a second eager call failing says nothing about atenrt
        return False
    finally:
        torch.set_rng_state(state)
    same = len(again) == len(first) and all(_same(a, b) for a, b in zip(again, first))
    return False if same else "self-seeded"


# Ops whose outputs are memory left as it was. Running them twice does not always tell (the
# allocator may hand back the same block with the same bytes), so they are named as well.
UNINITIALIZED_OPS = {"empty", "empty_like", "new_empty", "new_empty_strided", "empty_strided", "empty_permuted"}


def is_uninitialized(module, tensors, first, op_name=""):
    """empty, empty_like, new_empty...: the same seed gives other values (memory left as it was)."""
    return op_name in UNINITIALIZED_OPS or _differs(module, tensors, first, 0)


def _scipy_unary(name):
    def reference(tensors):
        import scipy.special
        return [torch.from_numpy(np.asarray(getattr(scipy.special, name)(tensors[0].numpy())))]
    return reference


# Ops whose torch 1.13 float64 kernel is less accurate than float64 allows: an output that misses
# PyTorch's passes when PyTorch itself misses this reference (SciPy's Cephes kernels) and the output
# matches the reference. special.bessel_j0: torch's float64 j0 is ~1e-5 relative off near its zeros
# (x = -5.44: -0.0274948783 where the value is -0.0274946956).
ACCURATE_FLOAT64 = {"special.bessel_j0": _scipy_unary("j0")}


def run_sample(op, sample, workdir, keep=None):
    """(status, detail) for one sample; see the module's docstring."""
    module, tensors = sample_module(op, sample)
    try:
        ref = _eager(module, tensors, 0)
    except Exception as e:  # noqa: BLE001 - PyTorch refusing its own sample
        return "skip", f"PyTorch raises: {_short(e, 120)}"
    refs = _flat_outputs(ref)
    if not refs or not all(isinstance(x, torch.Tensor) for x in refs):
        return "skip", "returns no tensor" if not refs else "returns a non-tensor value"
    # Uninitialized outputs (empty*) are checked by dtype and shape only; random ones by moments.
    gauge = GAUGE_INVARIANT.get(op.name)
    random = "uninitialized" if is_uninitialized(module, tensors, refs, op.name) else (
        _gauge_random(gauge, module, tensors, refs) if gauge else is_random(module, tensors, refs))
    path = os.path.join(workdir, "sample.pt2")
    try:
        atenrt.save(module, tensors, path)
    except Exception as e:  # noqa: BLE001 - whatever the 1.13 tracer raises
        return "export", f"{type(e).__name__}: {_short(e, 200)}"
    accurate = ACCURATE_FLOAT64.get(op_id(op)) if refs[0].dtype == torch.float64 else None
    status, detail = _through_atenrt(path, tensors, refs, module, random, gauge, LOW_RANK_MATRIX.get(op.name), accurate)
    if keep and status not in ("pass", "random-pass"):
        os.makedirs(keep, exist_ok=True)
        os.replace(path, os.path.join(keep, "sample.pt2"))
        torch.save({"inputs": tensors, "outputs": refs, "sample": repr(sample)}, os.path.join(keep, "sample.pt"))
    return status, detail


def _as_eager_dtype(out, ref):
    """An engine output has the dtype the exported graph declares (conversion checks every value
    against it). Where torch 1.13's exporter declares another floating dtype than its eager kernel
    returns (the statistics of bfloat16 native_layer_norm/native_batch_norm/native_group_norm:
    float32 declared, PyTorch's kernel computes them in float32 and returns them rounded to
    bfloat16), the output is compared at the eager dtype."""
    if out.dtype != ref.dtype and out.is_floating_point() and ref.is_floating_point():
        return out.to(ref.dtype)
    return out


def _through_atenrt(path, tensors, refs, module, random, gauge=None, matrix=None, accurate=None):
    try:
        report = atenrt.dry_run(path, require_full_compilation=True)
    except Exception as e:  # noqa: BLE001
        return "error", f"dry run: {type(e).__name__}: {_short(e)}"
    if not report.fully_supported:
        reasons = dict.fromkeys(f"{u.op}: {_short(u.reason, 200)}" for u in report.unsupported)
        return "refused", "; ".join(reasons)
    try:
        engine = atenrt.compile(path, require_full_compilation=True)
    except Exception as e:  # noqa: BLE001
        return "error", f"compile: {type(e).__name__}: {_short(e)}"
    try:
        arrays = [torch_api.to_array(t, spec) for t, spec in zip(tensors, engine.inputs)]
        outs = torch_api.to_torch(engine.run(*arrays), engine)
    except Exception as e:  # noqa: BLE001
        return "error", f"run: {type(e).__name__}: {_short(e)}"
    if len(outs) != len(refs):
        return "wrong", f"{len(outs)} outputs, PyTorch {len(refs)}"
    if random == "uninitialized":
        for i, (out, r) in enumerate(zip(outs, refs)):
            if out.dtype != r.dtype or tuple(out.shape) != tuple(r.shape):
                return "wrong", f"output {i}: {compare(out, r)}"
        return "pass", ""
    if random:
        def run(ts):
            return torch_api.to_torch(engine.run(*[torch_api.to_array(t, spec) for t, spec in zip(ts, engine.inputs)]),
                                      engine)
        why = compare_random(outs, module, tensors, refs, gauge, random == "self-seeded", matrix, run)
        return ("random-wrong", why) if why else ("random-pass", "")
    if gauge:  # the draw picked a gauge only: compare what it leaves alone
        outs, refs = gauge(outs), gauge(refs)
    better = accurate(tensors) if accurate else None
    for i, (out, r) in enumerate(zip(outs, refs)):
        out = _as_eager_dtype(out, r)
        why = compare(out, r)
        if why and better is not None and compare(r, better[i]) and not compare(out, better[i]):
            why = None  # PyTorch misses the accurate value, the engine has it (ACCURATE_FLOAT64)
        if why:
            return "wrong", f"output {i}: {why}"
    return "pass", ""
