"""serve(): a resident worker's loop over the task channel."""

import os
import sys
import threading
import traceback
from dataclasses import dataclass
from typing import Optional

from .channel import Channel, ChannelError, channel_key

#: Exit status of a worker that lost its ApplicationMaster after the handshake: the AM counts
#: the task it gave last as failed and runs it again.
LOST = 75


@dataclass(frozen=True)
class Task:
    """One task of the job: what the environment says while it runs.

    ``round`` and ``index`` come from the ``run`` line (the first task's from ``HARE_ROUND`` and
    ``HARE_TASK_INDEX``; None if those are not whole numbers). ``device`` is the node's GPU
    index (``HARE_GPU_DEVICE``, which a ``run`` line may change), None where Hare assigns none
    (YARN isolates the container's GPU). The rest is the container's: the same for every task.
    """
    round: Optional[int]
    index: Optional[int]
    device: Optional[int]
    tasks_per_round: Optional[int]
    work_dir: Optional[str]
    job_id: Optional[str]
    gpu_type: Optional[str]


def _whole(value):
    """A non-negative whole number written in ASCII digits, else None."""
    if value is None or not value.isascii() or not value.isdigit():
        return None
    return int(value)


def task_from_env(env):
    """The task the environment describes."""
    return Task(round=_whole(env.get("HARE_ROUND")), index=_whole(env.get("HARE_TASK_INDEX")),
                device=_whole(env.get("HARE_GPU_DEVICE")),
                tasks_per_round=_whole(env.get("HARE_TASKS_PER_ROUND")),
                work_dir=env.get("HARE_WORK_DIR"), job_id=env.get("HARE_JOB_ID"),
                gpu_type=env.get("HARE_GPU_TYPE"))


def _say(text):
    print("hare worker: " + text, file=sys.stderr, flush=True)


def _exit_code(value):
    """A task's result as a process exit status: None is 0; what no status can be is 1."""
    if value is None:
        return 0
    if isinstance(value, int) and 0 <= value <= 255:
        return int(value)  # bool too: True is 1
    # sys.exit(256) would end a process with 0: a task's failure must never read as success
    _say("the task returned %r, not an exit status 0-255: it counts as 1" % (value,))
    return 1


def _run(run_task, task):
    """Runs one task; its exit status. A task's exception or sys.exit ends the task only."""
    try:
        code = _exit_code(run_task(task))
    except SystemExit as e:
        code = _exit_code(e.code) if not isinstance(e.code, str) else 1
        if isinstance(e.code, str):
            print(e.code, file=sys.stderr)
    except Exception:  # the worker goes on with its next task; KeyboardInterrupt ends it
        traceback.print_exc()
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()  # the task's output comes before the worker's next words
        except (OSError, ValueError):
            pass
    return code


def _connect(env):
    """The proven channel, or the reason (a str, never holding the key) it cannot be used."""
    port = env.get("HARE_RUNNER_PORT") or ""
    if not port:
        return "no task channel (HARE_RUNNER_PORT is not set)"
    tokens = env.get("HADOOP_TOKEN_FILE_LOCATION") or ""
    try:
        key = channel_key(tokens) if tokens else None
    except OSError as e:
        key = None
        _say("cannot read the container credentials %s (%s)" % (tokens, e.strerror))
    if key is None:
        return "no task channel key in the container credentials"
    try:
        return Channel.connect(env.get("HARE_RUNNER_HOST") or "", port,
                               env.get("CONTAINER_ID") or "", key)
    except ChannelError as e:
        return str(e)


def serve(run_task, env=None):
    """Runs the container's tasks in this process, as the ApplicationMaster hands them out.

    Call it once the worker's state is built (imports, CUDA context, model, data), and end the
    process with what it returns: ``sys.exit(hare_worker.serve(run))``. ``run_task(task)`` runs
    one :class:`Task` and returns its exit status (None is 0); an exception in it is printed and
    counts as 1, and the worker goes on with its next task. While a task runs, ``env``
    (``os.environ`` by default) holds its ``HARE_ROUND`` and ``HARE_TASK_INDEX``, and, when the
    AM names a device, ``HARE_GPU_DEVICE`` and ``CUDA_VISIBLE_DEVICES``.

    The worker connects to the task channel (``HARE_RUNNER_HOST``, ``HARE_RUNNER_PORT``) and
    proves its container (``CONTAINER_ID``, the key in ``HADOOP_TOKEN_FILE_LOCATION``) while
    its first task (from the environment) runs; a standby (``HARE_STANDBY`` not empty) runs no
    first task and says ``ready``. Then it runs each task it is given, reports each exit
    status, waits when told to park, and returns when told to exit.

    Returns: when the AM said exit, the exit status of the last task it ran (0 for a standby
    that ran none): the AM has every result, but YARN's scheduler counts a container that ends
    with 0 as a computed task, so a failed last task must not end it with 0; ``LOST`` (75) when the connection
    broke or the AM sent an error or a line this version does not understand (the AM runs its
    last task again). When the channel cannot be used (no port, no key, no connection, a
    refusal), the reason is on stderr and the result is the first task's exit status (the AM
    reads the container's end as the task's result), or 0 for a standby, which runs nothing.
    """
    env = os.environ if env is None else env
    standby = bool(env.get("HARE_STANDBY"))
    if standby:
        env.pop("HARE_STANDBY", None)  # its tasks are tasks like any other
        channel = _connect(env)
        if isinstance(channel, str):
            _say(channel + "; a standby runs nothing")
            return 0
        say = "ready"
    else:
        # the handshake runs while the first task does: proving the container costs no GPU time
        found = []
        t = threading.Thread(target=lambda: found.append(_connect(env)),
                             name="hare-channel-handshake", daemon=True)
        t.start()
        first = task_from_env(env)
        code = _run(run_task, first)
        t.join()
        channel = found[0] if found else "the handshake failed"
        if isinstance(channel, str):
            _say(channel + "; the first task's exit status %d is the container's" % code)
            return code
        say = "done %s %s %d" % (env.get("HARE_ROUND", ""), env.get("HARE_TASK_INDEX", ""),
                                 code)
    try:
        return _loop(channel, run_task, env, say, 0 if standby else code)
    finally:
        channel.close()


def _loop(channel, run_task, env, say, last):
    while True:
        try:
            channel.send(say)
            line = channel.read_line()
        except ChannelError as e:
            _say("%s; it runs no further task" % e)
            return LOST
        f = line.split(" ")
        # as the bash runner: the verb decides, and fields after it are for later versions
        if f[0] == "exit":
            # YARN's scheduler counts a container that ends with 0 as a task computed: a worker
            # whose last task failed must not, or that task counts, and its retry again
            return last
        if f[0] == "park":
            say = "ready"
            continue
        if f[0] != "run" or len(f) < 3 or any(_whole(v) is None for v in f[1:4]):
            _say("the task channel said: %s; it runs no further task" % line)
            return LOST
        env["HARE_ROUND"], env["HARE_TASK_INDEX"] = f[1], f[2]
        if len(f) > 3:
            env["HARE_GPU_DEVICE"] = env["CUDA_VISIBLE_DEVICES"] = f[3]
        last = _run(run_task, task_from_env(env))
        say = "done %s %s %d" % (f[1], f[2], last)
