"""The example kernel plugin (examples/plugin/cummax_plugin.cpp: torch.cummax and torch.cummin as a
plugin layer) checked against PyTorch 1.13, for tests/packaging/test_install.sh.

  cummax_plugin_check.py export DIR           model.pt2, inputs.npz, expected.npz in DIR
  cummax_plugin_check.py compare GOT.npz DIR  the command line's outputs against expected.npz
  cummax_plugin_check.py python PLUGIN DIR    atenrt.load_plugin, compile, run, save and load in
                                              Python; the saved engine loaded by a process without
                                              the plugin (refused, naming it) and with ATENRT_PLUGINS
"""
import os
import subprocess
import sys

import numpy as np


class Cumulative:
    """cummax and cummin on positive and negative dims, with ties and a NaN (ATen's rules: ties
    take the later index, a NaN becomes the extreme), and layers of atenrt's own after them."""

    def forward(self, x):
        import torch
        values, indices = torch.cummax(x, dim=1)
        low, low_at = torch.cummin(x, dim=-1)
        return values * 2.0 + 1.0, indices, low, low_at + 1


def inputs():
    import torch
    torch.manual_seed(0)
    x = torch.randn(3, 6, 5)
    x[0, 2] = x[0, 1]  # ties along dim 1
    x[1, :, 3] = x[1, :, 2]  # ties along the last dim
    x[2, 4, 1] = float("nan")
    return x


def export(folder):
    import torch
    import atenrt
    module = type("CumulativeModule", (torch.nn.Module,), {"forward": Cumulative.forward})().eval()
    x = inputs()
    atenrt.save(module, (x,), f"{folder}/model.pt2")
    np.savez(f"{folder}/inputs.npz", x=x.numpy())
    np.savez(f"{folder}/expected.npz", *[o.numpy() for o in module(x)])


def check(outputs, folder):
    expected = np.load(f"{folder}/expected.npz")
    refs = [expected[f"arr_{k}"] for k in range(len(expected.files))]
    assert len(outputs) == len(refs), (len(outputs), len(refs))
    for k, (out, ref) in enumerate(zip(outputs, refs)):
        out = np.asarray(out)
        assert out.shape == ref.shape and out.dtype == ref.dtype, (k, out.shape, out.dtype, ref.shape, ref.dtype)
        if ref.dtype.kind == "f":
            assert np.array_equal(np.isnan(out), np.isnan(ref)), k
            finite = ~np.isnan(ref)
            err = float(np.abs(out[finite] - ref[finite]).max())
            assert err <= 1e-4 * float(np.abs(ref[finite]).max()), (k, err)
        else:
            assert np.array_equal(out, ref), (k, out, ref)


def main():
    mode, *args = sys.argv[1:]
    if mode == "export":
        export(args[0])
    elif mode == "compare":
        got = np.load(args[0])
        check([got[name] for name in got.files], args[1])
    elif mode == "python":
        import atenrt
        plugin, folder = args
        info = atenrt.load_plugin(plugin)
        assert (info["name"], info["converters"], info["kernels"]) == ("cummax_example", 2, 1), info
        x = np.load(f"{folder}/inputs.npz")["x"]
        engine = atenrt.compile(f"{folder}/model.pt2", require_full_compilation=True)
        check(engine(x), folder)
        saved = f"{folder}/python.atrt"
        engine.save(saved)
        check(atenrt.load(saved)(x), folder)
        # A process without the plugin cannot run the engine, and says which plugin to load.
        load = ("import atenrt, numpy as np, sys\n"
                "try:\n"
                "    e = atenrt.load(sys.argv[1])\n"
                "except atenrt.UnsupportedError as err:\n"
                "    print(err); sys.exit(3)\n"
                "np.savez(sys.argv[2], *e(np.load(sys.argv[3])['x']))\n")
        env = {k: v for k, v in os.environ.items() if k != "ATENRT_PLUGINS"}
        run = [sys.executable, "-c", load, saved, f"{folder}/python_env.npz", f"{folder}/inputs.npz"]
        without = subprocess.run(run, env=env, capture_output=True, text=True)
        assert without.returncode == 3, (without.returncode, without.stdout, without.stderr)
        for part in ("needs plugin 'cummax_example'", "kernel 'example::cumulative_extreme' version 1",
                     "ATENRT_PLUGINS", "--plugin"):
            assert part in without.stdout, (part, without.stdout)
        with_env = subprocess.run(run, env={**env, "ATENRT_PLUGINS": plugin}, capture_output=True, text=True)
        assert with_env.returncode == 0, (with_env.returncode, with_env.stdout, with_env.stderr)
        got = np.load(f"{folder}/python_env.npz")
        check([got[name] for name in got.files], folder)
    else:
        raise SystemExit(f"unknown mode {mode}")
    print(f"cummax plugin {mode}: ok")


if __name__ == "__main__":
    main()
