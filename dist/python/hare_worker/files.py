"""Writing a task's result so that a reader never sees half of it."""

import os
import tempfile


def save_atomically(path, data):
    """Writes ``path`` whole or not at all: a temporary file in the same directory, fsync, then
    ``os.replace``. ``data`` is bytes or a function given the open binary file (e.g.
    ``lambda f: torch.save(obj, f)``). A task killed mid-write leaves no partial file, and a
    retried task simply replaces the file. The temporary file is removed on failure.
    """
    directory = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            if callable(data):
                data(f)
            else:
                f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise
