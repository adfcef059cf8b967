#!/usr/bin/env python3
"""What a task of a resident PyTorch worker costs beyond its computation, on one GPU: tasks of
one job after another, and switches between two jobs' workers sharing the GPU.

  python3 check_resident_gpu.py [--models resnet18,resnet50] [--task-seconds 1.0]
                                [--rounds 4] [--tasks 4] [--overlap-load]
                                [--work-root DIR] [--cpu] [--json FILE]

This script plays the ApplicationMaster's side of the task channel (docs/task-channel.md:
greeting, the container's HMAC proof, then run / done lines) for real resident workers,
pytorch_resident.py over hare_worker, one process per job, each started as a standby on the
same GPU. No YARN is involved, so it runs where PyTorch and a GPU are but Java and Maven are not.

For each model: the job's micro-batches are chosen so that a task computes for about
--task-seconds; its worker runs --rounds rounds of --tasks tasks one after another (the
first round is the warm-up and is left out), the round's sync step run here between rounds.
Then the two jobs' workers take turns on the GPU for --rounds more rounds: every task is a
cross-job switch, and a job's first task of a round also loads that round's parameters
(before its first forward pass, or during it with --overlap-load). The jobs' work directories
are made under --work-root (the system's temporary directory by default): what a gradient write
and a parameter read cost is that file system's.

Per task: wall = from the run line sent to the done line read, measured here; the worker logs
its compute (its forward and backward passes, up to the last loss on the host; with
--overlap-load that includes waiting for the parameters) and its gradient write (to the host
and into its file). Overhead = wall - compute: the channel, the parameter read and load, the
gradient write. A switch's cost = wall - compute - gradient write: the channel and, on a job's
first task of a round, the parameter read and load. Prints the figures as JSON, and writes them
with every task's too in --json FILE.
"""

import argparse
import hashlib
import hmac
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
PYTHON_PKG = os.path.join(os.path.dirname(HERE), "python")  # dist/python in the source tree
LINE = re.compile(r"round (\d+) task (\d+)/\d+ .*\(parameters (kept|loaded during|loaded before);"
                  r" compute ([\d.]+) ms, gradient write ([\d.]+) ms\)")


class Worker:
    """One job's resident worker and the AM's end of its channel."""

    def __init__(self, job, model, micro, work_dir, args, server, key, log_dir):
        name = "job%d-%s" % (job, model)
        self.name, self.model, self.work_dir = name, model, work_dir
        self.container = "container_1700000000000_%04d_01_000002" % (job + 1)
        tokens = os.path.join(log_dir, name + ".tokens")
        with open(tokens, "wb") as f:
            f.write(b"\x00junk hare-channel-key:" + key.hex().encode() + b" junk")
        env = dict(os.environ, HARE_RUNNER_HOST="127.0.0.1",
                   HARE_RUNNER_PORT=str(server.getsockname()[1]), CONTAINER_ID=self.container,
                   HADOOP_TOKEN_FILE_LOCATION=tokens, HARE_STANDBY="1", HARE_STANDBY_DEVICE="0",
                   HARE_WORK_DIR=work_dir, HARE_TASKS_PER_ROUND=str(args.tasks),
                   HARE_JOB_ID=name, HARE_GPU_TYPE="check", PYTHONUNBUFFERED="1")
        env["PYTHONPATH"] = os.pathsep.join(p for p in (PYTHON_PKG, env.get("PYTHONPATH")) if p)
        self.log = os.path.join(log_dir, name + ".log")
        cmd = [sys.executable, os.path.join(HERE, "pytorch_resident.py"), "--model", model,
               "--micro-batches", str(micro), "--batch-size", str(args.batch_size)]
        cmd += ["--cpu"] if args.cpu else []
        cmd += ["--overlap-load"] if args.overlap_load else []
        self.started = time.time()
        self.out = open(self.log, "w")
        self.proc = subprocess.Popen(cmd, env=env, stdout=self.out, stderr=subprocess.STDOUT)
        conn = self.accept(server, time.time() + 600)
        conn.settimeout(600)
        self.conn, self.inp = conn, conn.makefile("rb")
        greeting = "hare-channel 1 " + os.urandom(32).hex()
        self.send(greeting)
        hello = self.read()
        want = "hello 1 %s %s" % (self.container, hmac.new(
            key, (greeting + " " + self.container).encode(), hashlib.sha256).hexdigest())
        if not hmac.compare_digest(hello, want):
            raise SystemExit("%s: the worker's proof is wrong: %s" % (name, hello))
        self.send("ok")
        ready = self.read()
        if ready != "ready":
            raise SystemExit("%s: expected ready, got %s" % (name, ready))
        self.ready_s = time.time() - self.started

    def accept(self, server, deadline):
        """The worker's connection; exits naming its log if it ends or is silent first."""
        server.settimeout(1)
        while time.time() < deadline:
            try:
                return server.accept()[0]
            except socket.timeout:
                if self.proc.poll() is not None:
                    raise SystemExit("%s: the worker exited with %d before connecting; its log: %s"
                                     % (self.name, self.proc.returncode, self.log))
        raise SystemExit("%s: the worker did not connect in time; its log: %s"
                         % (self.name, self.log))

    def send(self, line):
        self.conn.sendall((line + "\n").encode())

    def read(self):
        line = self.inp.readline()
        if not line:
            raise SystemExit("%s: the worker closed its channel; its log: %s" % (self.name,
                                                                                 self.log))
        return line.decode().rstrip("\n")

    def task(self, r, i):
        """Runs task i of round r; its wall time in ms."""
        t0 = time.perf_counter()
        self.send("run %d %d 0" % (r, i))
        done = self.read()
        wall = (time.perf_counter() - t0) * 1000.0
        if done != "done %d %d 0" % (r, i):
            raise SystemExit("%s: round %d task %d: %s; its log: %s" % (self.name, r, i, done,
                                                                         self.log))
        return wall

    def parts(self):
        """{(round, index): (how, compute ms, write ms)} from the worker's log."""
        with open(self.log) as f:
            return {(int(m.group(1)), int(m.group(2))): (m.group(3), float(m.group(4)),
                                                        float(m.group(5)))
                    for m in map(LINE.search, f) if m}

    def exit(self):
        self.send("exit")
        self.proc.wait(60)
        self.out.close()


def micro_batches(torch, prt, model_name, args, device):
    """Micro-batches for a task of about --task-seconds of this model's passes here."""
    import torch.nn.functional as F
    model = prt.build_model(model_name, 10).to(device)
    x = torch.randn(args.batch_size, 3, 32, 32, device=device)
    y = torch.arange(args.batch_size, device=device) % 10

    def passes(n):
        t0 = time.perf_counter()
        for _ in range(n):
            F.cross_entropy(model(x), y).backward()
        float(model(x).detach().sum())  # waits for the GPU
        return time.perf_counter() - t0

    passes(3)
    n = 3
    while passes(n) < 0.25:
        n *= 2
    per = passes(n) / n
    del model
    return max(1, round(args.task_seconds / per))


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--models", default="resnet18,resnet50")
    p.add_argument("--task-seconds", type=float, default=1.0)
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--tasks", type=int, default=4)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--overlap-load", action="store_true",
                   help="the workers load a round's parameters during its first forward pass")
    p.add_argument("--work-root", help="where the jobs' work directories are made")
    p.add_argument("--cpu", action="store_true", help="run on the CPU (a test of this script)")
    p.add_argument("--json", help="write the figures to this file")
    a = p.parse_args()
    models = a.models.split(",")
    if len(models) != 2 or not set(models) <= {"mlp", "resnet18", "resnet50"}:
        p.error("--models takes two of mlp, resnet18, resnet50, got %s" % a.models)
    if a.rounds < 2 or a.tasks < 2:
        p.error("--rounds and --tasks must be at least 2")
    import torch
    import pytorch_round_task as prt
    device = torch.device("cpu" if a.cpu or not torch.cuda.is_available() else "cuda")
    if device.type == "cpu" and not a.cpu:
        p.error("no CUDA device here (pass --cpu to run on the CPU)")
    tmp = tempfile.mkdtemp(prefix="check-resident-", dir=a.work_root)
    key = os.urandom(32)
    server = socket.create_server(("127.0.0.1", 0))
    out = {"task_columns": ["round", "index", "phase", "parameters", "wall_ms", "compute_ms",
                            "gradient_write_ms"],
           "device": torch.cuda.get_device_name(0) if device.type == "cuda" else "cpu",
           "torch": torch.__version__, "task_seconds": a.task_seconds,
           "parameter_load": "during" if a.overlap_load else "before",
           "work_root": os.path.dirname(tmp), "jobs": {}}
    workers = []
    for j, m in enumerate(models):
        micro = micro_batches(torch, prt, m, a, device)
        wd = os.path.join(tmp, "job%d" % j)
        targs = types.SimpleNamespace(work_dir=wd, seed=1, model=m, classes=10,
                                      learning_rate=0.05)
        prt.run_init(torch, targs)
        w = Worker(j, m, micro, wd, a, server, key, tmp)
        w.targs = targs
        w.sync_model = prt.build_model(m, targs.classes)  # built once, as a resident sync does
        workers.append(w)
        walls = {}
        for r in range(a.rounds):
            for i in range(a.tasks):
                walls[(r, i)] = w.task(r, i)
            prt.run_sync(torch, targs, {"work_dir": wd, "round": r, "k": a.tasks}, w.sync_model)
        parts = w.parts()
        measured = [t for t in walls if t[0] > 0]  # round 0 warms up kernels and allocator
        over = {t: walls[t] - parts[t][1] for t in measured}
        first = [over[t] for t in measured if parts[t][0] != "kept"]
        out["jobs"][w.name] = {
            "micro_batches": micro, "worker_ready_s": round(w.ready_s, 2),
            "compute_ms_p50": round(statistics.median(parts[t][1] for t in measured), 1),
            "same_job_tasks": len(measured),
            "same_job_overhead_ms_p50": round(statistics.median(over.values()), 1),
            "same_job_overhead_ms_p95": round(pct(list(over.values()), 0.95), 1),
            "same_job_overhead_fraction": round(sum(over.values())
                                                / sum(walls[t] for t in measured), 4),
            "first_of_round_overhead_ms_p50": round(statistics.median(first), 1),
            "gradient_write_ms_p50": round(statistics.median(parts[t][2] for t in measured), 1),
            "warm_up_round_wall_ms": [round(walls[(0, i)]) for i in range(a.tasks)],
            "tasks": [[r, i, "same-job", parts[(r, i)][0], round(walls[(r, i)], 1),
                       parts[(r, i)][1], parts[(r, i)][2]] for (r, i) in sorted(walls)]}
    # the two jobs take turns on the GPU: each task follows the other job's
    switches = {w.name: [] for w in workers}
    for r in range(a.rounds, 2 * a.rounds):
        for i in range(a.tasks):
            for w in workers:
                wall = w.task(r, i)
                switches[w.name].append(((r, i), wall))
        for w in workers:
            prt.run_sync(torch, w.targs, {"work_dir": w.work_dir, "round": r, "k": a.tasks},
                         w.sync_model)
    for w in workers:
        parts = w.parts()
        cost = {t: wall - parts[t][1] - parts[t][2] for t, wall in switches[w.name]}
        loaded = [c for t, c in cost.items() if parts[t][0] != "kept"]
        kept = [c for t, c in cost.items() if parts[t][0] == "kept"]
        job = out["jobs"][w.name]
        job.update({
            "cross_job_switches": len(cost),
            "cross_job_switch_ms_p50": round(statistics.median(cost.values()), 1),
            "cross_job_switch_ms_p95": round(pct(list(cost.values()), 0.95), 1),
            "cross_job_switch_with_parameter_load_ms_p50": round(statistics.median(loaded), 1),
            "cross_job_switch_parameters_kept_ms_p50": round(statistics.median(kept), 1)})
        job["tasks"] += [[r, i, "cross-job", parts[(r, i)][0], round(wall, 1), parts[(r, i)][1],
                          parts[(r, i)][2]] for (r, i), wall in switches[w.name]]
        w.exit()
    server.close()
    summary = dict(out, jobs={n: {k: v for k, v in j.items() if k != "tasks"}
                              for n, j in out["jobs"].items()})
    print(json.dumps(summary, indent=1))
    if a.json:
        with open(a.json, "w") as f:
            f.write(json.dumps(out) + "\n")
    print("worker logs in %s" % tmp, file=sys.stderr)


if __name__ == "__main__":
    main()
