#!/usr/bin/env python3
"""One round task (or one round's sync step) of a synchronous data-parallel PyTorch job under Hare.

The Hare ApplicationMaster runs this script as the job's task command and, with --sync, as its
sync command. It uses the same environment contract as the Java example job
(io.hare.example.SgdJob):

  HARE_JOB_ID           the YARN application id (logs only)
  HARE_ROUND            the round r, 0-based
  HARE_TASK_INDEX       the task index i in 0..k-1 (unset for the sync step)
  HARE_TASKS_PER_ROUND  k, the job's fixed number of tasks per round
  HARE_WORK_DIR         a directory every task, the AM and the sync step share (a POSIX path:
                        NFS, or HDFS mounted by FUSE; a file: URI is read as its path; this
                        script does not speak hdfs://)
  HARE_GPU_TYPE         the node's GPU model, e.g. v100 (logs only)

Files in HARE_WORK_DIR (the same layout as the Java example):

  model-r<r>.pt         the model state_dict after r rounds (--init writes model-r0.pt)
  grad-r<r>-t<i>.pt     task i's gradient in round r (a list of CPU tensors, one per parameter)
  loss.tsv              one line per synced round: round, mean batch loss of the round's tasks

A task loads model r, trains its share of the round on the GPU: --micro-batches accumulated
mini-batches, chosen deterministically from (r, i, k) exactly as in the Java example, so a retry
on another node trains the same examples. It writes its mean gradient atomically (temporary file,
then os.replace), so a task killed mid-write leaves no partial file and a retry simply overwrites.
The sync step reads the k gradients IN TASK-INDEX ORDER, sums them in that order, divides by k,
applies one plain SGD step to model r and writes model r+1 atomically. It deletes nothing, so a
re-run sync (a resumed AM) finds all its inputs.

Reproducibility: the averaging order is fixed, so the maths is exactly that of synchronous SGD
with k workers. Unlike the Java example, the bits are NOT identical across GPU types: cuDNN and
cuBLAS pick different kernels on a V100 and a T4. Within one GPU type, --deterministic asks
PyTorch for deterministic kernels.

Usage (the job spec's commands; see dist/examples/README.md):
  python3 pytorch_round_task.py --init --work-dir DIR      once, before submitting
  python3 pytorch_round_task.py                            yarn.app.hare.task.command
  python3 pytorch_round_task.py --sync                     yarn.app.hare.sync.command
                                                           (with yarn.app.hare.sync.mode=resident
                                                           and hare_worker installed, one process
                                                           syncs every round)

Needs Python 3.8+ and PyTorch (torchvision only for --model resnet18 and resnet50). Not run in CI.
Exit codes: 0 success, 2 bad environment or missing input (message names the variable or file),
1 anything else.
"""

import argparse
import inspect
import os
import sys
import tempfile
import time
import urllib.parse


class BadInput(Exception):
    """Something the user or the AM can fix; the message names the variable or file."""


def parse_env(env, task):
    """The environment contract, checked; every problem reported at once."""
    problems = []

    def number(name, minimum):
        value = env.get(name)
        if value is None or not value.strip():
            problems.append(name + ": missing")
            return -1
        try:
            n = int(value.strip())
        except ValueError:
            n = None
        if n is None or n < minimum:
            problems.append("%s: must be a whole number >= %d, got '%s'" % (name, minimum, value))
            return -1
        return n

    round_ = number("HARE_ROUND", 0)
    k = number("HARE_TASKS_PER_ROUND", 1)
    index = number("HARE_TASK_INDEX", 0) if task else -1
    if task and index >= 0 and k >= 1 and index >= k:
        problems.append("HARE_TASK_INDEX: must be less than HARE_TASKS_PER_ROUND (%d), got %d"
                        % (k, index))
    work_dir = (env.get("HARE_WORK_DIR") or "").strip()
    if not work_dir:
        problems.append("HARE_WORK_DIR: missing (the job's shared work directory)")
    elif work_dir.startswith("file:"):
        work_dir = urllib.parse.urlparse(work_dir).path  # file:/x or file:///x: the path /x
    elif "://" in work_dir:
        problems.append("HARE_WORK_DIR: %s is not a POSIX path, and this script reads its files"
                        " with open(): give the job a staging directory that every node mounts"
                        " (yarn.app.hare.job.staging-dir=file:///shared/...), or mount HDFS by"
                        " FUSE there" % work_dir)
    if problems:
        raise BadInput("bad environment: " + "; ".join(problems))
    return {"job": env.get("HARE_JOB_ID", ""), "round": round_, "index": index, "k": k,
            "work_dir": work_dir, "gpu_type": env.get("HARE_GPU_TYPE", "")}


def model_file(work_dir, r):
    return os.path.join(work_dir, "model-r%d.pt" % r)


def grad_file(work_dir, r, i):
    return os.path.join(work_dir, "grad-r%d-t%d.pt" % (r, i))


def save_atomically(torch, obj, path, durable=True, replace=True):
    """torch.save to a temporary file in the same directory, then rename over path; without
    ``replace``, give it that name only if nothing has it yet (``publish_once``).

    ``durable`` makes the bytes reach the disk before the rename (fsync) and keeps each record's
    CRC-32 in the file: a model file is what a new ApplicationMaster attempt resumes from. A
    task's gradient, written on every task, goes without both: the sync step reads it within the
    round, the rename alone keeps a reader from a half-written file (the Java example's gradient
    files go without fsync too), and torch.load reads a file without CRCs. On the H200 check the
    two cost as much as a ResNet-50 task's channel, parameter read and load together. (PyTorch's
    CRC switch is process-wide: it is set back at once, and no other thread of these scripts
    saves meanwhile.)
    """
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".",
                               dir=os.path.dirname(path) or ".")
    serialization = torch.serialization
    skip_crc = not durable and hasattr(serialization, "set_crc32_options")  # PyTorch 2.6+
    try:
        with os.fdopen(fd, "wb") as f:
            if skip_crc:
                crc = serialization.get_crc32_options()
                serialization.set_crc32_options(False)
            try:
                torch.save(obj, f)
            finally:
                if skip_crc:
                    serialization.set_crc32_options(crc)
            f.flush()
            if durable:
                os.fsync(f.fileno())
        if replace:
            os.replace(tmp, path)
        else:
            publish_once(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def publish_once(tmp, path):
    """Names the file ``tmp`` ``path`` unless a file has that name already (a hard link, then
    ``tmp`` goes), so that a reader of ``path`` never sees it replaced under it, which NFS can
    answer with a stale file handle. Where the file system has no hard links, a rename."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        pass  # written meanwhile by another writer
    except OSError:
        os.replace(tmp, path)
        return
    os.remove(tmp)


def load(torch, path, what):
    if not os.path.isfile(path):
        raise BadInput("%s: missing (%s)" % (path, what))
    if "mmap" in inspect.signature(torch.load).parameters:  # PyTorch 2.1+
        # the tensors map the file's pages: copying them into a network reads the file once
        return torch.load(path, map_location="cpu", mmap=True)
    return torch.load(path, map_location="cpu")


def build_model(name, num_classes):
    """The network; replace with your own (its parameters must not depend on the GPU type)."""
    import torch.nn as nn
    if name in ("resnet18", "resnet50"):
        import torchvision
        return getattr(torchvision.models, name)(num_classes=num_classes)
    return nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 256), nn.ReLU(),
                         nn.Linear(256, num_classes))


def batch_examples(r, i, k, micro, batch_size, n):
    """The example indices of task i of round r: the Java example's slice, micro times longer:
    [(r*k + i) * B', +B') modulo n with B' = micro * batch_size."""
    share = micro * batch_size
    start = ((r * k + i) * share) % n
    return [(start + j) % n for j in range(share)]


def synthetic_data(torch, seed, n, num_classes):
    """A CIFAR-shaped stand-in data set: the same for the same seed on every node (CPU RNG)."""
    g = torch.Generator().manual_seed(seed)
    y = torch.arange(n) % num_classes
    centres = torch.randn(num_classes, 3, 32, 32, generator=g)
    x = centres[y] + torch.randn(n, 3, 32, 32, generator=g)
    return x, y


def run_init(torch, args):
    os.makedirs(args.work_dir, exist_ok=True)
    torch.manual_seed(args.seed)
    model = build_model(args.model, args.classes)
    save_atomically(torch, model.state_dict(), model_file(args.work_dir, 0))
    print("initialised %s: %s, model-r0.pt" % (args.work_dir, args.model))


def task_device(torch, args):
    """The task's device: the process's CUDA device; the CPU only when --cpu allows it."""
    device = torch.device("cuda" if torch.cuda.is_available() and not args.cpu else "cpu")
    if device.type == "cpu" and not args.cpu:
        raise BadInput("no CUDA device in this container (pass --cpu to train on the CPU)")
    return device


def first_model(torch, args, e):
    """With --init-missing, writes model-r0.pt for a task of round 0 that finds none: what
    --init writes (the model built from --seed), so a job runs without shipping one. Round 0's
    tasks may all find it missing at once; each writes the same bytes to a file of its own, and
    the first to finish gives it the name; the others leave the file in place (a task may be
    reading it already)."""
    if (not getattr(args, "init_missing", False) or e["round"] != 0
            or os.path.exists(model_file(e["work_dir"], 0))):
        return
    with torch.random.fork_rng(devices=[]):  # the process's own random state stays as it was
        torch.manual_seed(args.seed)
        model = build_model(args.model, args.classes)
    save_atomically(torch, model.state_dict(), model_file(e["work_dir"], 0), replace=False)
    print("model-r0.pt was missing: initialised %s from --seed %d, as --init does"
          % (args.model, args.seed), flush=True)


def read_round(torch, e):
    """Model r (the task's round) as written by the sync step: a state_dict on the CPU."""
    return load(torch, model_file(e["work_dir"], e["round"]),
                "the sync step of round %d has not run" % (e["round"] - 1)
                if e["round"] > 0 else "run --init first, or pass --init-missing")


def load_round(torch, model, e):
    """Loads model r (the task's round) into ``model``, wherever its parameters are."""
    model.load_state_dict(read_round(torch, e))


_HOST = {}  # pinned host buffers by size, reused task after task in a resident worker


def host_copy(torch, flat):
    """``flat`` on the host: from a GPU through a pinned buffer kept for the next task (a copy
    from pageable memory goes through a staging buffer at a fraction of the speed)."""
    if flat.device.type != "cuda":
        return flat.to("cpu")
    buf = _HOST.get(flat.numel())
    if buf is None:
        _HOST.clear()
        buf = _HOST[flat.numel()] = torch.empty(flat.numel(), dtype=flat.dtype, pin_memory=True)
    return buf.copy_(flat)


def train_share(torch, model, x, y, device, args, e, timing=None):
    """Computes the task's mean gradient with ``model`` (on ``device``, holding model r) over its
    examples of ``x``, ``y`` and writes it atomically; the batch loss. ``model`` keeps no
    gradient from an earlier task: each task starts from none, as in a fresh process. A
    ``timing`` dict gets ``compute_ms`` (the passes, up to the last loss on the host) and
    ``write_ms`` (the gradient to the CPU and into its file)."""
    import torch.nn.functional as F
    idx = batch_examples(e["round"], e["index"], e["k"], args.micro_batches, args.batch_size,
                         args.examples)
    t0 = time.perf_counter()
    model.train()
    model.zero_grad(set_to_none=True)
    losses = []
    for m in range(args.micro_batches):
        part = idx[m * args.batch_size:(m + 1) * args.batch_size]
        xb, yb = x[part].to(device), y[part].to(device)
        loss = F.cross_entropy(model(xb), yb) / args.micro_batches
        loss.backward()  # accumulates: the mean gradient over the task's examples
        losses.append(loss.detach())  # read once at the end: no wait for the GPU per batch
    loss_sum = sum(v.item() for v in torch.stack(losses).to("cpu"))
    t1 = time.perf_counter()
    # one copy to the host for all the gradients, not one per parameter; the file holds views of
    # that one buffer, which torch.save writes once and the sync step reads as before
    params = list(model.parameters())
    flat = host_copy(torch, torch.cat([p.grad.detach().reshape(-1).to(torch.float32)
                                       for p in params]))
    grads = [g.view(p.shape) for g, p in zip(flat.split([p.numel() for p in params]), params)]
    save_atomically(torch, {"round": e["round"], "index": e["index"], "k": e["k"],
                            "loss": loss_sum, "grads": grads},
                    grad_file(e["work_dir"], e["round"], e["index"]), durable=False)
    if timing is not None:
        timing["compute_ms"] = (t1 - t0) * 1000.0
        timing["write_ms"] = (time.perf_counter() - t1) * 1000.0
    return loss_sum


def run_task(torch, args, e):
    device = task_device(torch, args)
    model = build_model(args.model, args.classes)
    first_model(torch, args, e)
    load_round(torch, model, e)
    model.to(device)
    x, y = synthetic_data(torch, args.seed, args.examples, args.classes)
    start = time.time()
    loss_sum = train_share(torch, model, x, y, device, args, e)
    print("round %d task %d/%d on %s (%s): batch loss %.6f, %.2f s"
          % (e["round"], e["index"], e["k"], device, e["gpu_type"] or "?", loss_sum,
             time.time() - start))


def run_sync(torch, args, e, model):
    """Round e's sync step into ``model``, the network built once (its state is replaced)."""
    wd, r, k = e["work_dir"], e["round"], e["k"]
    missing = [grad_file(wd, r, i) for i in range(k) if not os.path.isfile(grad_file(wd, r, i))]
    if missing:
        raise BadInput("round %d: %d of %d gradients missing (their tasks have not succeeded): %s"
                       % (r, len(missing), k, ", ".join(missing)))
    model.load_state_dict(load(torch, model_file(wd, r), "run --init first"))
    total, losses = None, []
    for i in range(k):  # task-index order: the order of the floating-point sums is fixed
        g = load(torch, grad_file(wd, r, i), "task %d" % i)
        if (g["round"], g["index"], g["k"]) != (r, i, k):
            raise BadInput("%s: written for round %d task %d of %d, not round %d task %d of %d"
                           % (grad_file(wd, r, i), g["round"], g["index"], g["k"], r, i, k))
        losses.append(g["loss"])
        if total is None:  # a copy: a memory-mapped file's tensors are not written
            total = [t.clone() for t in g["grads"]]
        else:  # in place: the same sums, without a new 100 MB for each (ResNet-50)
            for a, b in zip(total, g["grads"]):
                a.add_(b)
    with torch.no_grad():
        for p, s in zip(model.parameters(), total):
            p.sub_(args.learning_rate * (s / k))
    save_atomically(torch, model.state_dict(), model_file(wd, r + 1))
    log = os.path.join(wd, "loss.tsv")
    lines = ["round\tbatch-loss"]
    if os.path.isfile(log):  # keep earlier rounds; a re-run sync replaces its own line
        with open(log) as f:
            lines += [ln.rstrip("\n") for ln in f
                      if ln.split("\t")[0].isdigit() and int(ln.split("\t")[0]) < r]
    lines.append("%d\t%r" % (r, sum(losses) / k))
    fd, tmp = tempfile.mkstemp(prefix=".loss.tsv.", dir=wd)
    with os.fdopen(fd, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, log)
    print("round %d sync of %d tasks: wrote %s" % (r, k, model_file(wd, r + 1)))


def sync_rounds(torch, args, env):
    """The sync step: one round, or with HARE_SYNC_RESIDENT=1 (yarn.app.hare.sync.mode=resident)
    round after round as the ApplicationMaster asks (hare_worker.serve_sync), the network built
    and PyTorch imported once for the job."""
    model = build_model(args.model, args.classes)
    if env.get("HARE_SYNC_RESIDENT") != "1":
        run_sync(torch, args, parse_env(env, task=False), model)
        return 0
    try:
        import hare_worker
    except ImportError:
        print("pytorch_round_task: hare_worker is not installed (pip install it from the"
              " tarball's python/): this process syncs one round", file=sys.stderr)
        run_sync(torch, args, parse_env(env, task=False), model)
        return 0

    def one(task):
        try:
            run_sync(torch, args, parse_env(env, task=False), model)
        except BadInput as e:
            print("pytorch_round_task: %s" % e, file=sys.stderr)
            return 2
        return 0

    return hare_worker.serve_sync(one, env)


def add_training_args(p):
    """The options a task and the sync step share (the resident example takes them too)."""
    p.add_argument("--model", default="mlp", choices=("mlp", "resnet18", "resnet50"))
    p.add_argument("--classes", type=int, default=10)
    p.add_argument("--examples", type=int, default=8192, help="synthetic data set size")
    p.add_argument("--seed", type=int, default=1, help="data and initial-model seed")
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--micro-batches", type=int, default=4,
                   help="mini-batches accumulated per task (its share of the round)")
    p.add_argument("--learning-rate", type=float, default=0.05)
    p.add_argument("--deterministic", action="store_true",
                   help="deterministic kernels (same bits on the same GPU type)")
    p.add_argument("--cpu", action="store_true", help="allow training on the CPU")
    p.add_argument("--init-missing", action="store_true",
                   help="a task of round 0 that finds no model-r0.pt writes it, as --init does")


def set_deterministic(torch):
    """Deterministic kernels: a retry on the same GPU type repeats its result."""
    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
    torch.use_deterministic_algorithms(True)
    torch.backends.cudnn.benchmark = False


def main(argv=None, env=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--init", action="store_true", help="write model-r0.pt into --work-dir")
    p.add_argument("--sync", action="store_true", help="run the round's sync step")
    p.add_argument("--work-dir", help="with --init: the job's work directory")
    add_training_args(p)
    args = p.parse_args(argv)
    env = os.environ if env is None else env
    try:
        import torch
    except ImportError:
        print("pytorch_round_task: PyTorch is not installed for %s" % sys.executable,
              file=sys.stderr)
        return 1
    try:
        if args.deterministic:
            set_deterministic(torch)
        if args.init:
            if not args.work_dir:
                raise BadInput("--work-dir: required with --init")
            run_init(torch, args)
        elif args.sync:
            return sync_rounds(torch, args, env)
        else:
            run_task(torch, args, parse_env(env, task=True))
        return 0
    except BadInput as e:
        print("pytorch_round_task: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
