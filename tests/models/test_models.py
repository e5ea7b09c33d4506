"""End-to-end model tests: compile every model in models.py with the atenrt CLI and compare with PyTorch.

Run:   ATENRT_CLI=build/atenrt [ATENRT_MODELS_DIR=DIR] \
       /usr/bin/python3 -m unittest discover -s tests/models -t .
  ATENRT_CLI          the atenrt binary (the tests skip, saying so, when it is unset)
  ATENRT_MODELS_DIR   models exported by make_models.py (else they are exported into a temp dir)
  ATENRT_MODELS_ONLY  comma-separated model names to run (default: all)
  ATENRT_MODELS_REPORT  write the per-model results (errors, top-1, compile ms) to this JSON file

Each model is compiled to an engine file (`atenrt compile`, whose compile time is reported) and run
on its example inputs (`atenrt run ENGINE`), in fp32 and in bf16. Rules (models.py):
  fp32: np.allclose(out, ref, rtol, atol=rtol * max|ref|), rtol = 1e-4 unless the spec says why not
  bf16: max|out - ref| <= max(2e-2, 2 e) * max|ref| per output, e = PyTorch's own error doing atenrt's
        bf16 arithmetic (NAME.meta.json); away from fp32 (models.BF16_DIFFERS) and, for the models
        marked bf16_exact, at that emulation (models.BF16_MATCH); the compiled steps say bf16
        (`compile --verbose`); the same top-1 class on ImageNet classifiers whose margin allows it
  kernels: no fp32 step on oneDNN's reference kernels, except the kinds a spec allows, saying why
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import models  # noqa: E402

CLI = os.environ.get("ATENRT_CLI")
TIMEOUT_S = 900
_tmp = None
_results = {}


def _models_dir():
    global _tmp
    given = os.environ.get("ATENRT_MODELS_DIR")
    if given:
        return given
    if _tmp is None:
        _tmp = tempfile.TemporaryDirectory(prefix="atenrt_models_")
    return _tmp.name


def _ensure_exported(spec):
    outdir = _models_dir()
    import make_models   # imports torch; only when a model must be exported
    if not make_models.up_to_date(outdir, spec.name):
        make_models.export_one(spec, outdir)
    return make_models.paths(outdir, spec.name)


def make_models_meta(spec):
    import make_models
    return make_models.meta_path(_models_dir(), spec.name)


def make_models_emulation(spec):
    import make_models
    return make_models.emulation_path(_models_dir(), spec.name)


def _load_npz(path):
    with np.load(path) as z:
        return [z[f"arr_{i}"] for i in range(len(z.files))]


def _cli(args, what, stderr=False):
    proc = subprocess.run([CLI] + args, capture_output=True, text=True, timeout=TIMEOUT_S)
    if proc.returncode != 0:
        tail = (proc.stderr + proc.stdout).strip()[-2000:]
        raise AssertionError(f"{what}: atenrt {' '.join(args[:1])} exited {proc.returncode}:\n{tail}")
    return (proc.stdout, proc.stderr) if stderr else proc.stdout


def _native_bf16():
    """Whether this CPU has fast bf16 kernels (`atenrt --version`: the builder's own answer); where it has
    none, a bf16 compile keeps every layer in fp32 and warns."""
    out = _cli(["--version"], "version")
    return re.search(r"^cpu: .*\(fast kernels for [^)]*\bbf16\b", out, re.M) is not None


def _compile_and_run(pt2, inputs_npz, workdir, precision):
    engine = os.path.join(workdir, f"engine.{precision}.atrt")
    outputs_npz = os.path.join(workdir, f"out.{precision}.npz")
    out, err = _cli(["compile", pt2, "-o", engine, "--precision", precision, "--verbose"], f"compile ({precision})",
                    stderr=True)
    match = re.search(r" in (\d+) ms", out)
    compile_ms = int(match.group(1)) if match else None
    bf16_steps = len(re.findall(r"^  \S+  .*  bf16(  |$)", out, re.M))
    if precision == "bf16" and not _native_bf16():
        if bf16_steps or "has no native bf16 kernels: layers stay fp32" not in err:
            raise AssertionError(f"compile --precision bf16 on a CPU without bf16 kernels: {bf16_steps} bf16 steps, "
                                 f"stderr {err!r}")
    elif precision == "bf16" and bf16_steps == 0:
        raise AssertionError(f"compile --precision bf16: no step reports bf16:\n{out[-3000:]}")
    if precision == "fp32" and bf16_steps:
        raise AssertionError(f"compile --precision fp32: {bf16_steps} steps report bf16")
    slow = re.findall(r"^  (\S+)  (\S+)  onednn:ref\b", out, re.M)
    start = time.perf_counter()
    _cli(["run", engine, "--inputs", inputs_npz, "--outputs", outputs_npz], f"run ({precision})")
    run_s = time.perf_counter() - start
    return _load_npz(outputs_npz), compile_ms, run_s, slow


def _check_kernels(test, spec, slow):
    """No fp32 step on oneDNN's reference kernels unless the spec says why: they compute the same
    results 10-100x slower, so only this catches a fused form oneDNN refuses on some CPU (on AVX2 a
    sum post-op after a bias add sent every transformer linear there, unnoticed, at 370x)."""
    bad = [f"{name} ({kind})" for name, kind in slow if kind not in spec.slow_kernels_ok]
    test.assertFalse(bad, f"fp32 steps on oneDNN's reference kernels: {', '.join(bad[:10])}"
                          f"{' ...' if len(bad) > 10 else ''} (`atenrt compile --verbose` lists each step's kernel)")


def _check_shapes(test, got, want, precision):
    test.assertEqual(len(got), len(want), f"{precision}: output count")
    for i, (g, w) in enumerate(zip(got, want)):
        test.assertEqual(g.shape, w.shape, f"{precision}: output {i} shape")
        test.assertTrue(np.isfinite(w).all(), f"reference output {i} is not finite (model table bug)")


def _rel_error(got, want):
    """max|out - ref| / max|ref| over every output."""
    worst = 0.0
    for g, w in zip(got, want):
        if w.size:
            scale = max(float(np.max(np.abs(w))), 1e-30)
            worst = max(worst, float(np.max(np.abs(g.astype(np.float64) - w))) / scale)
    return worst


def _run_model(test, spec):
    if not CLI:
        test.skipTest("ATENRT_CLI is not set: point it at the atenrt binary (e.g. build/atenrt)")
    if not os.path.exists(CLI):
        test.fail(f"ATENRT_CLI={CLI} does not exist")
    if spec.skip:
        test.skipTest(f"known broken: {spec.skip}")
    pt2, inputs_npz, outputs_npz = _ensure_exported(spec)
    ref = _load_npz(outputs_npz)
    result = _results.setdefault(spec.name, {})
    with tempfile.TemporaryDirectory(prefix=f"atenrt_{spec.name}_") as work:
        with test.subTest(precision="fp32"):
            got, result["fp32_compile_ms"], result["fp32_run_s"], slow = _compile_and_run(pt2, inputs_npz, work,
                                                                                          "fp32")
            _check_shapes(test, got, ref, "fp32")
            result["fp32_rel_error"] = _rel_error(got, ref)
            for i, (g, w) in enumerate(zip(got, ref)):
                atol = spec.fp32_rtol * (float(np.max(np.abs(w))) if w.size else 1.0)
                ok = np.allclose(g, w, rtol=spec.fp32_rtol, atol=atol)
                err = float(np.max(np.abs(g.astype(np.float64) - w))) if w.size else 0.0
                test.assertTrue(ok, f"fp32 output {i}: max |out - ref| = {err:.3g} "
                                    f"(rtol {spec.fp32_rtol}, atol {atol:.3g})")
            _check_kernels(test, spec, slow)
            result["fp32_pass"] = True
        with test.subTest(precision="bf16"):
            got, result["bf16_compile_ms"], result["bf16_run_s"], _ = _compile_and_run(pt2, inputs_npz, work, "bf16")
            _check_shapes(test, got, ref, "bf16")
            err = result["bf16_rel_error"] = _rel_error(got, ref)
            if not _native_bf16():  # the layers stayed fp32 (checked above): fp32's accuracy
                result["bf16_fallback"] = True
                test.assertLessEqual(err, 2 * spec.fp32_rtol, f"bf16 (fp32 layers): max |out - ref| / max |ref| = {err:.3g}")
                result["bf16_pass"] = True
                return
            with open(make_models_meta(spec)) as f:
                meta = json.load(f)
            emu = result["torch_bf16_emulation_error"] = meta["torch_bf16_emulation_error"]
            tol = result["bf16_tol"] = max(spec.bf16_tol, models.BF16_EMULATION_FACTOR * emu)
            decisive = spec.imagenet and meta["top1_slack"] >= 1.0
            if decisive:
                want_top1 = int(np.argmax(ref[0].reshape(-1)))
                got_top1 = int(np.argmax(got[0].reshape(-1)))
                result["top1_same"] = want_top1 == got_top1
            test.assertLessEqual(err, tol, f"bf16: max |out - ref| / max |ref| = {err:.3g} > {tol:.3g} "
                                           f"(PyTorch's bf16 emulation: {emu:.3g})")
            # bf16 was used, where atenrt says it rounds: near PyTorch's emulation, away from fp32
            to_emu = result["bf16_vs_emulation"] = _rel_error(got, _load_npz(make_models_emulation(spec)))
            test.assertGreaterEqual(err, models.BF16_DIFFERS * emu,
                                    f"bf16: output within {err:.3g} of fp32 while bf16 arithmetic moves it "
                                    f"{emu:.3g}: was bf16 used?")
            if spec.bf16_exact:
                test.assertLessEqual(to_emu, models.BF16_MATCH * emu,
                                     f"bf16: {to_emu:.3g} from PyTorch's emulation of atenrt's bf16 rounding, "
                                     f"which is {emu:.3g} from fp32")
            if decisive:
                test.assertEqual(got_top1, want_top1, "bf16: top-1 class differs from PyTorch's")
            result["bf16_pass"] = True


def _make_test(spec):
    def test(self):
        _run_model(self, spec)
    test.__doc__ = f"{spec.name}: fp32 and bf16 against PyTorch eager"
    return test


class ModelTests(unittest.TestCase):
    pass


_only = [n for n in os.environ.get("ATENRT_MODELS_ONLY", "").split(",") if n]
for _spec in models.select(_only or None):
    setattr(ModelTests, f"test_{_spec.name}", _make_test(_spec))


def _fmt(v, spec):
    return "-" if v is None else spec.format(v)


def tearDownModule():
    if _results:
        print("\nmodel                       fp32 err  bf16 err  torch-bf16  bf16-emu  top-1  compile ms (fp32/bf16)",
              file=sys.stderr)
        for name, r in _results.items():
            top1 = {True: "same", False: "DIFF", None: "-"}[r.get("top1_same")]
            print(f"{name:27s} {_fmt(r.get('fp32_rel_error'), '{:8.1e}')}  {_fmt(r.get('bf16_rel_error'), '{:8.1e}')}"
                  f"  {_fmt(r.get('torch_bf16_emulation_error'), '{:9.1e}')}"
                  f"  {_fmt(r.get('bf16_vs_emulation'), '{:8.1e}')}"
                  f"  {top1:5s}  {_fmt(r.get('fp32_compile_ms'), '{}')}/{_fmt(r.get('bf16_compile_ms'), '{}')}",
                  file=sys.stderr)
        report = os.environ.get("ATENRT_MODELS_REPORT")
        if report:
            with open(report, "w") as f:
                json.dump(_results, f, indent=1, sort_keys=True)
    if _tmp is not None:
        _tmp.cleanup()


if __name__ == "__main__":
    unittest.main()
