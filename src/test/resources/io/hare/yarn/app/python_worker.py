"""A resident worker for PythonWorkerTest: records each task in $TEST_LOG.

Each task appends "ROUND/INDEX pid=PID count=N built=B device=D cvd=V standby=S", where N counts
the tasks this process ran and B how often it built its state (once), and exits with its index;
task index 99 kills the process mid-task (os._exit(13)), as a crash would.
"""
import os
import sys

import hare_worker

state = {"built": 1, "count": 0}  # built once, before serve: what a resident worker keeps


def run(task):
    state["count"] += 1
    with open(os.environ["TEST_LOG"], "a") as f:
        f.write("%s/%s pid=%d count=%d built=%d device=%s cvd=%s standby=%s\n" % (
            task.round, task.index, os.getpid(), state["count"], state["built"], task.device,
            os.environ.get("CUDA_VISIBLE_DEVICES", ""), os.environ.get("HARE_STANDBY", "")))
    if task.index == 99:
        os._exit(13)
    return task.index


if __name__ == "__main__":
    sys.exit(hare_worker.serve(run))
