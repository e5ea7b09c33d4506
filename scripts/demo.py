"""The main job, end to end on this machine:

1. Train a small CNN for a few seconds on scikit-learn's digits, export it with
   atenrt's exporter, compile and run it with atenrt, and compare its test
   accuracy and outputs with PyTorch's.
2. Compile a torchvision ResNet-50 (random weights: nothing is downloaded) and
   report its latency beside PyTorch's, fp32 and bf16, at batch 1 on 2 threads.
   Latencies come from one run on a shared machine: read them as ratios.
"""
import json
import os
import subprocess
import sys
import time

import numpy as np
import torch
import torchvision
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import atenrt

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.path.join(ROOT, "build", "atenrt")
OUT = os.path.join(ROOT, "build", "demo")
THREADS = 2


def cli(*args, capture=False):
    print("$ atenrt " + " ".join(os.path.relpath(a, ROOT) if os.path.isabs(a) else a for a in args), flush=True)
    result = subprocess.run([CLI, *args], check=True, text=True, capture_output=capture)
    return result.stdout


class DigitsNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.features = torch.nn.Sequential(
            torch.nn.Conv2d(1, 16, 3, padding=1), torch.nn.BatchNorm2d(16), torch.nn.ReLU(),
            torch.nn.Conv2d(16, 32, 3, padding=1), torch.nn.BatchNorm2d(32), torch.nn.ReLU(),
            torch.nn.MaxPool2d(2),
            torch.nn.Conv2d(32, 64, 3, padding=1), torch.nn.ReLU(),
            torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten())
        self.classifier = torch.nn.Linear(64, 10)

    def forward(self, x):
        return self.classifier(self.features(x))


def digits_demo():
    print("== 1. A CNN trained on scikit-learn's digits, compiled with atenrt\n")
    digits = load_digits()
    x = (digits.images / 16.0).astype(np.float32)[:, None]  # N x 1 x 8 x 8
    y = digits.target.astype(np.int64)
    x_train, x_test, y_train, y_test = train_test_split(x, y, test_size=0.25, random_state=0, stratify=y)
    torch.manual_seed(0)
    model = DigitsNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    xt, yt = torch.from_numpy(x_train), torch.from_numpy(y_train)
    start = time.time()
    epochs = 0
    while time.time() - start < 6.0:
        model.train()
        perm = torch.randperm(len(xt))
        epoch_loss = 0.0
        for i in range(0, len(xt), 64):
            idx = perm[i:i + 64]
            optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(xt[idx]), yt[idx])
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item() * len(idx)
        epochs += 1
    model.eval()
    print(f"trained {epochs} epochs in {time.time() - start:.1f}s on {len(x_train)} images (last epoch's mean loss {epoch_loss / len(xt):.3f})")

    with torch.no_grad():
        torch_logits = model(torch.from_numpy(x_test)).numpy()
    path = os.path.join(OUT, "digits.pt2")
    atenrt.save(model, (torch.from_numpy(x_test),), path)
    inputs, outputs = os.path.join(OUT, "digits_inputs.npz"), os.path.join(OUT, "digits_outputs.npz")
    np.savez(inputs, x_test)
    cli("run", path, "--inputs", inputs, "--outputs", outputs, "--threads", str(THREADS))
    atenrt_logits = np.load(outputs)["arr_0"]
    torch_acc = float((torch_logits.argmax(1) == y_test).mean())
    atenrt_acc = float((atenrt_logits.argmax(1) == y_test).mean())
    max_err = float(np.max(np.abs(atenrt_logits - torch_logits)))
    print(f"\ntest accuracy on {len(y_test)} held-out digits: PyTorch {torch_acc:.4f}, atenrt {atenrt_acc:.4f}")
    print(f"largest logit difference atenrt vs PyTorch: {max_err:.2e}")
    ok = np.allclose(atenrt_logits, torch_logits, rtol=1e-4, atol=1e-4) and atenrt_acc == torch_acc
    print("outputs match PyTorch within 1e-4" if ok else "OUTPUTS DIFFER FROM PYTORCH")

    # int8: calibrated on training images (batches of the engine's input shape), judged on the test set.
    n = len(x_test)
    calibration = os.path.join(OUT, "digits_calibration.npz")
    np.savez(calibration, np.stack([x_train[i * n:(i + 1) * n] for i in range(len(x_train) // n)]))
    engine = os.path.join(OUT, "digits_int8.atrt")
    cli("compile", path, "-o", engine, "--precision", "int8", "--calibration", calibration)
    cli("run", engine, "--inputs", inputs, "--outputs", outputs, "--threads", str(THREADS))
    int8_acc = float((np.load(outputs)["arr_0"].argmax(1) == y_test).mean())
    int8_ok = int8_acc >= torch_acc - 0.01
    print(f"int8 engine (calibrated on {len(x_train) // n} training batches): test accuracy {int8_acc:.4f} "
          f"({'within' if int8_ok else 'MORE THAN'} 1 point of PyTorch's fp32)")
    return ok and int8_ok


def torch_latency(model, x, iterations, warmup):
    torch.set_num_threads(THREADS)
    times = []
    with torch.no_grad():
        for _ in range(warmup):
            model(x)
        for _ in range(iterations):
            t = time.perf_counter()
            model(x)
            times.append((time.perf_counter() - t) * 1000)
    return float(np.median(times)), float(np.percentile(times, 90))


def resnet50_demo(iterations=20, warmup=3):
    print("\n== 2. torchvision ResNet-50, batch 1, 2 threads\n")
    torch.manual_seed(0)
    model = torchvision.models.resnet50().eval()
    x = torch.randn(1, 3, 224, 224)
    path = os.path.join(OUT, "resnet50.pt2")
    atenrt.save(model, (x,), path)
    with torch.no_grad():
        ref = model(x).numpy()
    inputs, outputs = os.path.join(OUT, "resnet50_inputs.npz"), os.path.join(OUT, "resnet50_outputs.npz")
    np.savez(inputs, x.numpy())
    rows = []
    calibration, cache = os.path.join(OUT, "resnet50_calibration.npz"), os.path.join(OUT, "resnet50.cache")
    np.savez(calibration, torch.randn((4,) + tuple(x.shape), generator=torch.Generator().manual_seed(1)).numpy())
    if os.path.exists(cache):
        os.remove(cache)
    int8 = ["--calibration", calibration, "--calibration-cache", cache]  # calibrated once, then the cache
    for precision in ("fp32", "bf16", "int8"):
        extra = int8 if precision == "int8" else []
        cli("run", path, "--inputs", inputs, "--outputs", outputs, "--precision", precision,
            "--threads", str(THREADS), *extra)
        out = np.load(outputs)["arr_0"]
        err = float(np.max(np.abs(out - ref)) / max(1e-6, float(np.max(np.abs(ref)))))
        same_top1 = int(out.argmax()) == int(ref.argmax())
        stats = json.loads(cli("bench", path, "--json", "--precision", precision, "--threads", str(THREADS),
                               "--iterations", str(iterations), "--warmup", str(warmup), *extra, capture=True))
        rows.append((f"atenrt {precision}", stats["median_ms"], stats["p90_ms"], err, same_top1,
                     stats["compile_ms"]))
    median, p90 = torch_latency(model, x, iterations, warmup)
    rows.append(("PyTorch 1.13 eager", median, p90, 0.0, True, None))
    base = rows[-1][1]
    print(f"\n{'engine':<22}{'median ms':>10}{'p90 ms':>9}{'vs PyTorch':>12}{'max rel err':>13}{'top-1':>7}{'compile ms':>12}")
    for name, med, p, err, top1, compile_ms in rows:
        print(f"{name:<22}{med:>10.2f}{p:>9.2f}{base / med:>11.2f}x{err:>13.1e}{'same' if top1 else 'DIFF':>7}"
              f"{'' if compile_ms is None else f'{compile_ms:.0f}':>12}")
    print("\n(max rel err: largest |atenrt - PyTorch| over the largest |PyTorch| logit; bf16 computes convolutions"
          " and matmuls in bfloat16 where this CPU has native bf16 kernels (avx512_bf16, AMX; elsewhere they stay"
          " fp32, and atenrt warns), int8 in int8 after calibration on 4 random batches (on a CPU without VNNI"
          " only the layers after a ReLU, with 7-bit weights: docs/int8.md); random weights make logits close"
          " together, so a top-1 DIFF there can be a near-tie; one run on a shared machine: read the ratios)")
    return rows[0][3] < 1e-4 and rows[1][4]


def main():
    os.makedirs(OUT, exist_ok=True)
    ok = digits_demo()
    ok = resnet50_demo() and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
