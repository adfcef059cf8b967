#!/usr/bin/env python3
"""A benchmark task of fixed compute time, in process mode or in a resident worker.

  python3 bench_worker.py --framework python|pytorch --mode process|resident \\
      --compute-ms N --events FILE [--cpu]

What a task costs besides its compute is what the modes differ in: process mode starts an
interpreter and builds the framework's state for every task; a resident worker (hare_worker,
yarn.app.hare.task.mode=resident) builds it once per container.

State built at start: python: nothing; pytorch: import torch, a small conv net and a synthetic
batch, on the GPU when CUDA is there (unless --cpu).
  process   runs the one task its environment names (HARE_ROUND, HARE_TASK_INDEX), exits 0
  resident  hare_worker.serve: the tasks the ApplicationMaster hands out, until told to exit
A task's compute: python: a busy loop; pytorch: forward, backward and zero_grad on the net,
again and again (torch.cuda.synchronize after each on a GPU), at least once; until N ms passed.

Each task appends one line to FILE (opened with O_APPEND and written with one write, so that
concurrent tasks' lines never mix):

  task ROUND INDEX START_MS END_MS COMPUTE_MS PID

  ROUND INDEX  the task
  START_MS     epoch milliseconds: in process mode HARE_BENCH_T0 when set (the bench starts
               the process as HARE_BENCH_T0=$(date +%s%3N) python3 bench_worker.py ..., so the
               task's wall time includes starting the interpreter and building the state);
               otherwise when the task was handed to the task function
  END_MS       epoch milliseconds when the compute ended
  COMPUTE_MS   the compute loop's own measured time, milliseconds
  PID          the process that ran the task
All numbers are whole (rounded). Exit status: 0; 2 for bad arguments or environment (message
on stderr); in resident mode hare_worker.serve's.
"""

import argparse
import os
import sys
import time

NAME = "bench_worker"


def now_ms():
    return time.time() * 1000.0


class Bad(Exception):
    """Bad arguments or environment; the message says which."""


def whole(env, name):
    value = env.get(name, "")
    if not value.isdigit():
        raise Bad("%s: must be a whole number >= 0, got '%s'" % (name, value))
    return int(value)


class PythonState:
    """Nothing to build: the task is a busy loop."""

    def compute(self, ms):
        end = time.perf_counter() + ms / 1000.0
        while time.perf_counter() < end:
            pass


class PytorchState:
    """A small conv net and a batch, built once per process."""

    def __init__(self, cpu, device):
        import torch
        import torch.nn as nn
        self.torch = torch
        self.cuda = torch.cuda.is_available() and not cpu
        self.net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(),
                                 nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 10))
        g = torch.Generator().manual_seed(1)
        self.x = torch.randn(32, 3, 32, 32, generator=g)
        self.y = torch.arange(32) % 10
        self.device = None
        self.place(device)

    def place(self, device):
        """Moves net and batch to CUDA device ``device`` (an ordinal), or the CPU if None."""
        use_cuda = self.cuda and device is not None
        target = self.torch.device("cuda", device) if use_cuda else self.torch.device("cpu")
        if target != self.device:
            self.net.to(target)
            self.x, self.y = self.x.to(target), self.y.to(target)
            self.device = target
            self.step()  # the first step on a device pays for its kernels' set-up: not a task's

    def step(self):
        loss = self.torch.nn.functional.cross_entropy(self.net(self.x), self.y)
        loss.backward()
        self.net.zero_grad(set_to_none=True)
        if self.device.type == "cuda":
            self.torch.cuda.synchronize(self.device)

    def compute(self, ms):
        end = time.perf_counter() + ms / 1000.0
        self.step()
        while time.perf_counter() < end:
            self.step()


def record(events, round_, index, start_ms, compute_ms):
    end_ms = now_ms()
    line = "task %d %d %d %d %d %d\n" % (round_, index, round(start_ms), round(end_ms),
                                          round(compute_ms), os.getpid())
    fd = os.open(events, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line.encode("ascii"))
    finally:
        os.close(fd)


def run_one(state, args, round_, index, start_ms):
    t = time.perf_counter()
    state.compute(args.compute_ms)
    record(args.events, round_, index, start_ms, (time.perf_counter() - t) * 1000.0)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--framework", choices=("python", "pytorch"), required=True)
    p.add_argument("--mode", choices=("process", "resident"), required=True)
    p.add_argument("--compute-ms", type=float, required=True, help="each task's compute time")
    p.add_argument("--events", required=True, help="the file each task appends its line to")
    p.add_argument("--cpu", action="store_true", help="pytorch: stay on the CPU")
    args = p.parse_args(argv)
    env = os.environ
    try:
        if args.compute_ms < 0:
            raise Bad("--compute-ms: must be >= 0, got %g" % args.compute_ms)
        if args.mode == "process":
            t0 = env.get("HARE_BENCH_T0", "")
            start_ms = float(t0) if t0.isdigit() else now_ms()
            round_, index = whole(env, "HARE_ROUND"), whole(env, "HARE_TASK_INDEX")
            # launched for one task, the process sees its GPU as the only one: cuda:0
            state = PytorchState(args.cpu, 0) if args.framework == "pytorch" else PythonState()
            run_one(state, args, round_, index, start_ms)
            return 0
    except Bad as e:
        print("%s: %s" % (NAME, e), file=sys.stderr)
        return 2

    import hare_worker
    first = hare_worker.task_from_env(env)
    state = PythonState()
    if args.framework == "pytorch":
        # a standby that knows no GPU yet stays on the CPU until its first task: it creates no
        # CUDA context on a GPU of someone else. cuda_ordinal: the node's GPU index is not the
        # process's ordinal (see pytorch_resident.py)
        standby = bool(env.get("HARE_STANDBY")) and first.device is None
        state = PytorchState(args.cpu, None if standby else hare_worker.cuda_ordinal(first.device))

    def run(task):
        start_ms = now_ms()
        if task.round is None or task.index is None:
            print("%s: the task's HARE_ROUND and HARE_TASK_INDEX must be whole numbers" % NAME,
                  file=sys.stderr)
            return 2
        if isinstance(state, PytorchState):
            n = hare_worker.cuda_ordinal(task.device)
            if n is None and state.cuda:
                print("%s: GPU %s of the node is out of this process's reach" % (
                    NAME, task.device), file=sys.stderr)
                return 2
            state.place(n)
        run_one(state, args, task.round, task.index, start_ms)
        return 0

    return hare_worker.serve(run)


if __name__ == "__main__":
    sys.exit(main())
