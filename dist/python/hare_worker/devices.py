"""Which CUDA device of this process a task's GPU is."""

import os

#: CUDA_VISIBLE_DEVICES as this process found it when it started (None: not set). ``serve``
#: changes the variable for each task, but a CUDA runtime reads it once, when it starts.
LAUNCH_VISIBLE_DEVICES = os.environ.get("CUDA_VISIBLE_DEVICES")


def cuda_ordinal(device, visible=LAUNCH_VISIBLE_DEVICES):
    """The CUDA ordinal (``cuda:N``) of the node's GPU ``device`` in this process, or None.

    ``device`` is a task's ``device`` (the node's GPU index; None where YARN isolates the
    container's GPU, which is then ordinal 0). A CUDA runtime numbers only the devices that
    ``CUDA_VISIBLE_DEVICES`` listed when it started (``visible``), in that list's order: a
    worker launched with ``CUDA_VISIBLE_DEVICES=3`` sees GPU 3 as ``cuda:0`` and cannot reach
    GPU 2 at all (None), whatever the variable says later. Launched without the variable, it
    sees every GPU, numbered as the node numbers them when ``CUDA_DEVICE_ORDER=PCI_BUS_ID``.
    """
    if device is None:
        return 0
    if visible is None:
        return int(device)
    listed = [d.strip() for d in visible.split(",") if d.strip()]
    return listed.index(str(device)) if str(device) in listed else None


def standby_device(env=None):
    """The node's GPU a standby worker was made for (``HARE_STANDBY_DEVICE``), or None.

    A standby container is started before its GPU frees, on a node whose GPUs YARN does not
    isolate, for one busy GPU of the node: the one it will most likely get. Its worker may get
    ready there while it waits (create its CUDA context, move its model: ``cuda_ordinal`` of
    this index), so that its first task starts without that cost. A hint only: the task may
    name another device (``Task.device``), and the memory taken is on a GPU another job is
    still using. None outside a standby (``HARE_STANDBY`` not set) or without a valid index.
    """
    env = os.environ if env is None else env
    if not env.get("HARE_STANDBY"):
        return None
    value = env.get("HARE_STANDBY_DEVICE")
    if value is None or not value.isascii() or not value.isdigit():
        return None
    return int(value)
