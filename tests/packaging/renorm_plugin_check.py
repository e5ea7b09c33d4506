"""The example plugin (examples/plugin, a converter for aten.renorm.default) checked against
PyTorch 1.13, for tests/packaging/test_install.sh.

  renorm_plugin_check.py export DIR           model.pt2, inputs.npz, expected.npz in DIR
  renorm_plugin_check.py compare GOT.npz DIR  the command line's outputs against expected.npz
  renorm_plugin_check.py python PLUGIN DIR    atenrt.load_plugin, compile and run in Python
"""
import sys

import numpy as np


class Renorms:
    """Every branch of the plugin: p = 2, 1, inf and 3; dims positive and negative."""

    def forward(self, x):
        import torch
        return (torch.renorm(x, p=2, dim=1, maxnorm=1.5), torch.renorm(x, p=1, dim=-1, maxnorm=2.0),
                torch.renorm(x, p=float("inf"), dim=0, maxnorm=1.0), torch.renorm(x, p=3, dim=2, maxnorm=0.75))


def export(folder):
    import torch
    import atenrt
    module = type("RenormModule", (torch.nn.Module,), {"forward": Renorms.forward})().eval()
    torch.manual_seed(0)
    x = torch.randn(3, 4, 5)
    x[:, 0] *= 0.01  # a slice under every maxnorm: its factor is 1
    atenrt.save(module, (x,), f"{folder}/model.pt2")
    np.savez(f"{folder}/inputs.npz", x=x.numpy())
    np.savez(f"{folder}/expected.npz", *[o.numpy() for o in module(x)])


def check(outputs, folder):
    expected = np.load(f"{folder}/expected.npz")
    refs = [expected[f"arr_{k}"] for k in range(len(expected.files))]
    assert len(outputs) == len(refs), (len(outputs), len(refs))
    for k, (out, ref) in enumerate(zip(outputs, refs)):
        err = float(np.abs(out - ref).max())
        assert out.shape == ref.shape and err <= 1e-4 * float(np.abs(ref).max()), (k, out.shape, err)
        assert not np.allclose(ref, np.load(f"{folder}/inputs.npz")["x"]), k  # renorm changed something


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
        assert info["name"] == "renorm_example" and info["converters"] == 1, info
        engine = atenrt.compile(f"{folder}/model.pt2", require_full_compilation=True)
        check(engine(np.load(f"{folder}/inputs.npz")["x"]), folder)
    else:
        raise SystemExit(f"unknown mode {mode}")
    print(f"renorm plugin {mode}: ok")


if __name__ == "__main__":
    main()
