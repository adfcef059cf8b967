#!/usr/bin/env python3
"""How much of a parameter load the overlapped load hides: a switch to a new model state
followed by one training step, with the copy before the step (load_state_dict) and during it
(overlapped_load.OverlappedLoad), alternately, several times.

  python3 check_overlapped_load.py [--model resnet18|resnet50|mlp] [--batch N] [--repeats N]
                                   [--cpu]

The state is read from a file each time (torch.load, as a resident worker reads model-r<r>.pt),
on the GPU when CUDA is there (unless --cpu). Prints one line per variant: the median and the
min over the repeats of read + copy + step, in milliseconds, and of the step alone with the
state already in place; then the steps' results compared (they must be equal).
Needs torchvision for the ResNets.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from overlapped_load import OverlappedLoad  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model", default="resnet50", choices=("resnet18", "resnet50", "mlp"))
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--repeats", type=int, default=10)
    p.add_argument("--cpu", action="store_true")
    a = p.parse_args()
    import torch
    import torch.nn as nn
    dev = torch.device("cuda" if torch.cuda.is_available() and not a.cpu else "cpu")
    if a.model == "mlp":
        def build():
            return nn.Sequential(nn.Flatten(), nn.Linear(3 * 224 * 224, 64), nn.ReLU(),
                                 nn.Linear(64, 10))
    else:
        import torchvision
        build = getattr(torchvision.models, a.model)
    torch.manual_seed(1)
    model = build().to(dev)
    states = []
    tmp = tempfile.mkdtemp()
    for s in range(2):  # two states to switch between, as two rounds' models
        torch.manual_seed(10 + s)
        path = os.path.join(tmp, "model-%d.pt" % s)
        torch.save(build().state_dict(), path)
        states.append(path)
    x = torch.randn(a.batch, 3, 224, 224, device=dev)
    y = torch.arange(a.batch, device=dev) % 10

    def sync():
        if dev.type == "cuda":
            torch.cuda.synchronize()

    def step():
        model.train()
        model.zero_grad(set_to_none=True)
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        return loss.item()

    def before(path):
        model.load_state_dict(torch.load(path, map_location="cpu"))
        return step()

    def during(path):
        with OverlappedLoad(torch, model, torch.load(path, map_location="cpu")):
            return step()

    for f in (before, during):  # warm-up: kernels, allocator, page cache
        f(states[0])
    sync()
    times = {"before": [], "during": [], "step only": []}
    results = {"before": [], "during": []}
    for i in range(a.repeats):
        for name, f in (("before", before), ("during", during)):
            sync()
            t0 = time.perf_counter()
            results[name].append(f(states[i % 2]))
            sync()
            times[name].append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        step()
        sync()
        times["step only"].append((time.perf_counter() - t0) * 1000)
    print("device %s, model %s, batch %d, %d repeats, torch %s"
          % (dev, a.model, a.batch, a.repeats, torch.__version__))
    for name, t in times.items():
        print("%-10s median %8.1f ms  min %8.1f ms" % (name, statistics.median(t), min(t)))
    print("same losses:", results["before"] == results["during"])


if __name__ == "__main__":
    main()
