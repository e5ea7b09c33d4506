"""The main job: export a real model with atenrt's exporter and look at it with the atenrt CLI."""
import os
import subprocess
import sys

import torch
import torchvision

import atenrt

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.path.join(ROOT, "build", "atenrt")
OUT = os.path.join(ROOT, "build", "demo")


def run_cli(*args):
    print("$ atenrt " + " ".join(args), flush=True)
    subprocess.run([CLI, *args], check=True)


def main():
    os.makedirs(OUT, exist_ok=True)
    torch.manual_seed(0)
    model = torchvision.models.resnet18().eval()
    path = os.path.join(OUT, "resnet18.pt2")
    atenrt.save(model, (torch.randn(1, 3, 224, 224),), path)
    print(f"exported torchvision resnet18 to {path}")
    run_cli("inspect", path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
