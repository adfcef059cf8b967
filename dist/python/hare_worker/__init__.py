"""hare_worker: resident task workers for Hare on YARN, in Python (stdlib only, 3.8+).

In resident task mode (``yarn.app.hare.task.mode=resident``) a task container's command is the
job's worker program itself. It builds its state once (imports, CUDA context, model, data),
then hands its tasks to :func:`serve`, which speaks the ApplicationMaster's task channel
(protocol version 1, ``docs/task-channel.md``)::

    import sys, hare_worker

    model = build_model()              # once per container

    def run(task):                     # once per task
        train_share(model, task.round, task.index)
        return 0

    sys.exit(hare_worker.serve(run))

The exit-status rules are the bash task runner's (``TaskRunnerScript``): see :func:`serve`.

With ``yarn.app.hare.sync.mode=resident`` the sync command is one process for the job, too:
:func:`serve_sync` runs round after round of it as the ApplicationMaster asks::

    model = build_model()              # once per job

    def sync(task):                    # once per round
        average_gradients_into(model, task.round)
        return 0

    sys.exit(hare_worker.serve_sync(sync))
"""

from .channel import (HANDSHAKE_READ_S, MAX_LINE_BYTES, VERSION, Channel, ChannelError,
                      channel_key, proof)
from .devices import LAUNCH_VISIBLE_DEVICES, cuda_ordinal, standby_device
from .files import save_atomically
from .sync import serve_sync
from .worker import LOST, Task, serve, task_from_env

__version__ = "0.1.0"
__all__ = ["serve", "serve_sync", "Task", "LOST", "task_from_env", "channel_key", "proof", "save_atomically",
           "cuda_ordinal", "standby_device", "LAUNCH_VISIBLE_DEVICES", "Channel", "ChannelError", "VERSION",
           "MAX_LINE_BYTES", "HANDSHAKE_READ_S"]
