#!/usr/bin/env python3
"""What a PyTorch job's sync step costs per round: a process per round against one resident
process (yarn.app.hare.sync.mode=resident), on this machine.

Plays the ApplicationMaster's side of the sync step for one job of R rounds x k tasks of
pytorch_round_task.py, twice, each in a work directory of its own:

  process   `pytorch_round_task.py --sync` started once per round, as the AM does in process mode;
  resident  the same command started once with HARE_SYNC_RESIDENT=1, then given each round as a
            line `sync R` on its standard input, answered by `hare-sync done R CODE` on its
            standard output (hare_worker.serve_sync), as the AM does in resident mode.

Each round's tasks run in this process first (the example's own code, on the CPU unless a GPU is
there), so both modes sync the same gradients. A round's sync time is the wall time from the AM's
start of the process (process mode, and the resident process's first round) or its request
(resident mode's later rounds) to the round's result. The two final models must be equal tensor
for tensor, or the bench fails.

  python3 dist/examples/bench_resident_sync.py --model resnet50 --rounds 4 [--json FILE]

Needs PyTorch (torchvision for the ResNets) and hare_worker (dist/python, found beside this
directory when not installed).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
LIBRARY = os.path.join(os.path.dirname(HERE), "python")
sys.path.insert(0, HERE)

import pytorch_round_task as prt  # noqa: E402


def job_env(work_dir, k, round_):
    env = dict(os.environ, HARE_JOB_ID="application_1_0001", HARE_TASKS_PER_ROUND=str(k),
               HARE_WORK_DIR=work_dir, HARE_ROUND=str(round_), HARE_GPU_TYPE="")
    env.pop("HARE_TASK_INDEX", None)
    env["PYTHONPATH"] = LIBRARY + os.pathsep + env.get("PYTHONPATH", "")
    return env


def run_tasks(torch, targs, work_dir, round_, k):
    for i in range(k):
        prt.run_task(torch, targs, {"job": "", "round": round_, "index": i, "k": k,
                                    "work_dir": work_dir, "gpu_type": ""})


def sync_command(a):
    return [sys.executable, os.path.join(HERE, "pytorch_round_task.py"), "--sync",
            "--model", a.model, "--classes", str(a.classes)]


def process_mode(torch, targs, a, work_dir, log):
    times = []
    for r in range(a.rounds):
        run_tasks(torch, targs, work_dir, r, a.tasks)
        start = time.perf_counter()
        code = subprocess.call(sync_command(a), env=job_env(work_dir, a.tasks, r),
                               stdout=log, stderr=log)
        times.append(time.perf_counter() - start)
        if code != 0:
            raise SystemExit("process mode: the sync step of round %d exited with %d" % (r, code))
    return times


def peak_rss(pid):
    """The process's peak resident memory in MB (Linux), or None where /proc has none."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


peak_rss_mb = []


def resident_mode(torch, targs, a, work_dir, log):
    times = []
    env = job_env(work_dir, a.tasks, 0)
    env["HARE_SYNC_RESIDENT"] = "1"
    p = None
    try:
        for r in range(a.rounds):
            run_tasks(torch, targs, work_dir, r, a.tasks)
            start = time.perf_counter()
            if p is None:
                p = subprocess.Popen(sync_command(a), env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=log, text=True)
            else:
                p.stdin.write("sync %d\n" % r)
                p.stdin.flush()
            while True:
                line = p.stdout.readline()
                if not line:
                    raise SystemExit("resident mode: the sync process ended in round %d" % r)
                if line.startswith("hare-sync done "):
                    break
                log.write(line.encode())
            times.append(time.perf_counter() - start)
            if line.split() != ["hare-sync", "done", str(r), "0"]:
                raise SystemExit("resident mode: round %d answered %r" % (r, line))
        peak_rss_mb.append(peak_rss(p.pid))
        p.stdin.close()
        if p.wait(timeout=60) != 0:
            raise SystemExit("resident mode: the sync process exited with %d" % p.returncode)
    finally:
        if p is not None and p.poll() is None:
            p.kill()
    return times


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model", default="resnet50", choices=("mlp", "resnet18", "resnet50"))
    p.add_argument("--classes", type=int, default=10)
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--tasks", type=int, default=4, help="k, tasks per round")
    p.add_argument("--batch-size", type=int, default=4, help="a task's mini-batch (small: the"
                   " tasks only make the gradients)")
    p.add_argument("--json", help="write the figures to this file too")
    a = p.parse_args(argv)
    if a.rounds < 2 or a.tasks < 1:
        p.error("--rounds must be at least 2 and --tasks at least 1")
    import torch
    root = tempfile.mkdtemp(prefix="hare-sync-bench-")
    targs = types.SimpleNamespace(model=a.model, classes=a.classes, examples=64, seed=1,
                                  batch_size=a.batch_size, micro_batches=1, learning_rate=0.05,
                                  deterministic=False, cpu=True)
    times = {}
    with open(os.path.join(root, "sync.log"), "wb") as log:
        for mode, run in (("process", process_mode), ("resident", resident_mode)):
            wd = os.path.join(root, mode)
            prt.run_init(torch, types.SimpleNamespace(work_dir=wd, seed=1, model=a.model,
                                                      classes=a.classes))
            times[mode] = run(torch, targs, a, wd, log)
    last = "model-r%d.pt" % a.rounds
    x, y = (torch.load(os.path.join(root, m, last), map_location="cpu")
            for m in ("process", "resident"))
    if list(x) != list(y) or any(not torch.equal(x[n], y[n]) for n in x):
        raise SystemExit("the two modes' models after %d rounds differ" % a.rounds)
    out = {"model": a.model, "rounds": a.rounds, "tasks_per_round": a.tasks,
           "torch": torch.__version__, "cpus": os.cpu_count(), "work_root": root,
           "process_round_s": [round(t, 3) for t in times["process"]],
           "resident_round_s": [round(t, 3) for t in times["resident"]],
           "process_round_s_p50": round(statistics.median(times["process"]), 3),
           "resident_first_round_s": round(times["resident"][0], 3),
           "resident_later_round_s_p50": round(statistics.median(times["resident"][1:]), 3),
           "resident_peak_rss_mb": peak_rss_mb[0] if peak_rss_mb else None,
           "models_equal": True}
    print("%s, k=%d, %d rounds (torch %s, %d CPUs):" % (a.model, a.tasks, a.rounds,
                                                        torch.__version__, os.cpu_count()))
    print("  process per round:  median %.3f s  (%s)" % (
        out["process_round_s_p50"], ", ".join("%.2f" % t for t in times["process"])))
    print("  resident process:   first round %.3f s, later rounds median %.3f s  (%s)" % (
        out["resident_first_round_s"], out["resident_later_round_s_p50"],
        ", ".join("%.2f" % t for t in times["resident"])))
    print("  the resident process's peak memory: %s MB" % out["resident_peak_rss_mb"])
    print("  the final models are equal tensor for tensor; logs in %s" % root)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
