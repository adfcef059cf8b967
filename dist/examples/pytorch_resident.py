#!/usr/bin/env python3
"""The PyTorch example job's tasks in one resident worker per container (hare_worker).

In resident task mode (yarn.app.hare.task.mode=resident) the task command is this script: it
starts once per container, imports PyTorch, builds the network and the data set and moves the
network to its GPU (the CUDA context) once, then runs task after task of the job as the
ApplicationMaster hands them out over the task channel, parked between rounds. Each task does
exactly what a task of pytorch_round_task.py does (that file's functions do it): it trains its
share of round r on model r and writes its mean gradient, grad-r<r>-t<i>.pt, atomically, in the
same format, so the job's sync command stays

  python3 pytorch_round_task.py --sync

Model r is read from the work directory (model-r<r>.pt) when a task of a new round comes, and
kept for the round's further tasks in this container. Its parameters are copied into the network
before the task computes; with --overlap-load, while the task's first forward pass runs, module
by module, as PipeSwitch does (overlapped_load.py). On an NVIDIA H200 with PyTorch 2.11 the
overlap hid nothing for ResNet-18 and ResNet-50 tasks (the copy thread, issuing its copies from
Python, competes for the interpreter with the launching of the kernels): the load before is the
default.

Usage (the job spec's task command; hare_worker on PYTHONPATH or pip-installed):
  python3 pytorch_resident.py [--model mlp|resnet18|resnet50] [--deterministic] [--cpu] [...]
with the options of pytorch_round_task.py, which must be the same for the sync command.

Exit status: hare_worker.serve's (0 when the AM says exit; 75 when the channel broke; without
a channel, the first task's). A task's own status: 0, 2 for a bad environment or a missing
input (message names the variable or file), 1 for anything else.
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # pytorch_round_task beside it

import hare_worker  # noqa: E402
import pytorch_round_task as prt  # noqa: E402

NAME = "pytorch_resident"


def device_of(torch, args, device):
    """The torch device of the task's GPU ``device`` (the node's index, or None).

    A CUDA runtime numbers the GPUs that CUDA_VISIBLE_DEVICES listed when this process started,
    and changing the variable later changes nothing in this process. Where YARN isolates the
    container's GPU, or Hare's launch environment names the task's device (HARE_GPU_DEVICE=N,
    CUDA_VISIBLE_DEVICES=N), the process sees one GPU: cuda:0. A task handed to this process
    for another GPU of the node (a run line naming another device) is out of its reach, and
    fails rather than use a GPU the scheduler gave to someone else. A worker started without
    CUDA_VISIBLE_DEVICES sees every GPU and uses cuda:N for the node's GPU N
    (hare_worker.cuda_ordinal).
    """
    if args.cpu or not torch.cuda.is_available():
        return prt.task_device(torch, args)  # the CPU when --cpu allows it, else BadInput
    n = hare_worker.cuda_ordinal(device)
    if n is None:
        raise prt.BadInput("GPU %s of the node is out of this worker's reach (CUDA_VISIBLE_DEVICES"
                           " was %s when it started)" % (device,
                                                          hare_worker.LAUNCH_VISIBLE_DEVICES))
    return torch.device("cuda", n)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    prt.add_training_args(p)
    p.add_argument("--overlap-load", action="store_true",
                   help="copy a new round's parameters into the network during the task's first"
                        " forward pass, not before it (only for networks that read a module's"
                        " tensors by calling it)")
    args = p.parse_args(argv)
    try:
        import torch
    except ImportError:
        print("%s: PyTorch is not installed for %s" % (NAME, sys.executable), file=sys.stderr)
        return 1
    overlapped_load = None
    if args.overlap_load:
        # only this option needs the third file: a job that leaves it out ships two scripts
        try:
            import overlapped_load
        except ImportError:
            print("%s: --overlap-load needs overlapped_load.py beside this script (ship it with"
                  " yarn.app.hare.files)" % NAME, file=sys.stderr)
            return 2
    if args.deterministic:
        prt.set_deterministic(torch)
    # the state a resident worker keeps: built once, whatever the number of tasks
    model = prt.build_model(args.model, args.classes)
    x, y = prt.synthetic_data(torch, args.seed, args.examples, args.classes)
    state = {"device": None, "loaded": None}

    def place(device):
        if state["device"] != device:
            model.to(device)
            state["device"] = device

    first = hare_worker.task_from_env(os.environ)
    if not os.environ.get("HARE_STANDBY"):
        ahead, known = first.device, True
    else:
        # a standby holds no GPU yet: it gets ready (CUDA context, model) on the busy GPU it was
        # made for, if the scheduler named one, so that its first task there starts at once;
        # it takes that GPU's memory while the other job's task ends
        ahead = hare_worker.standby_device(os.environ)
        known = ahead is not None
    if known:
        try:
            place(device_of(torch, args, ahead))
        except prt.BadInput as e:
            print("%s: %s" % (NAME, e), file=sys.stderr)  # the first task says it again

    def run(task):
        try:
            e = prt.parse_env(os.environ, task=True)
            place(device_of(torch, args, task.device))
            # model r stays loaded for the round's next task here: a task changes no parameter,
            # and BatchNorm's running statistics, which it does change, take no part in a
            # training step's gradient (it normalises with the batch's own statistics)
            start = time.time()
            timing = {}
            if state["loaded"] == (e["work_dir"], e["round"]):
                how = "kept"
                loss = prt.train_share(torch, model, x, y, state["device"], args, e, timing)
            else:
                state["loaded"] = None  # a load that fails half-way leaves no round cached
                prt.first_model(torch, args, e)
                if not args.overlap_load:
                    how = "loaded before"
                    prt.load_round(torch, model, e)
                    loss = prt.train_share(torch, model, x, y, state["device"], args, e, timing)
                else:
                    how = "loaded during"
                    with overlapped_load.OverlappedLoad(torch, model,
                                                        prt.read_round(torch, e)):
                        loss = prt.train_share(torch, model, x, y, state["device"], args, e,
                                               timing)
                state["loaded"] = (e["work_dir"], e["round"])
            # the parts in milliseconds, for check_resident_gpu.py: "compute" is the passes (with
            # a load during them, its wait too), "write" the gradient to its file
            print("round %d task %d/%d on %s (%s): batch loss %.6f, %.2f s (parameters %s;"
                  " compute %.1f ms, gradient write %.1f ms), pid %d"
                  % (e["round"], e["index"], e["k"], state["device"], e["gpu_type"] or "?", loss,
                     time.time() - start, how, timing["compute_ms"], timing["write_ms"],
                     os.getpid()), flush=True)
            return 0
        except prt.BadInput as ex:
            print("%s: %s" % (NAME, ex), file=sys.stderr, flush=True)
            return 2

    return hare_worker.serve(run)


if __name__ == "__main__":
    sys.exit(main())
