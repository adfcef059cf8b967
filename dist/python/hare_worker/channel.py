"""The runner's side of the task channel, protocol version 1 (docs/task-channel.md).

A container proves it is itself with a key of its own that the ApplicationMaster put in the
container's credentials file (``HADOOP_TOKEN_FILE_LOCATION``). The key lives in this process's
memory only: it is never put in an environment variable, an argument or a message.
"""

import hashlib
import hmac
import os
import re
import socket

VERSION = 1
MAGIC = "hare-channel"
#: Longest line either side sends, its newline included.
MAX_LINE_BYTES = 4096
#: How long the runner waits for the greeting and for the answer to its hello.
HANDSHAKE_READ_S = 60
#: The prefix of the key's value in the credentials file; 64 lower-case hex digits follow.
KEY_PREFIX = b"hare-channel-key:"
_KEY_PATTERN = re.compile(re.escape(KEY_PREFIX) + rb"([0-9a-f]{64})")


class ChannelError(Exception):
    """The channel cannot be used or broke; the message says why and never holds the key."""


def channel_key(path, protect=True):
    """The container's channel key (32 bytes) from its credentials file, or None if it has none.

    The file (Hadoop's credentials, in either of its formats) holds the key's value
    ``hare-channel-key:`` + 64 hex digits as plain bytes among other tokens; the first match
    counts, as in the bash runner. With ``protect`` the file is first made readable by its owner
    only (``chmod 600``; a failure is ignored, as the file may belong to someone else).
    Raises OSError when the file cannot be read.
    """
    if protect:
        try:
            os.chmod(path, 0o600)
        except OSError:
            pass
    with open(path, "rb") as f:
        m = _KEY_PATTERN.search(f.read())
    return bytes.fromhex(m.group(1).decode("ascii")) if m else None


def proof(key, greeting, container_id):
    """Hex HMAC-SHA256 under ``key`` of the greeting line (no newline), a space, the container."""
    message = (greeting + " " + container_id).encode("ascii")
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def _printable(raw):
    return all(0x20 <= b <= 0x7E for b in raw)


class Channel:
    """One authenticated connection to the ApplicationMaster's task channel.

    Not thread-safe; one side speaks at a time, so the runner sends a line and then reads the
    answer. ``read_line`` and ``send`` raise ChannelError when the connection is lost or a line
    breaks the protocol's rules.
    """

    def __init__(self, sock):
        self._sock = sock
        self._in = sock.makefile("rb")

    @classmethod
    def connect(cls, host, port, container_id, key, timeout_s=HANDSHAKE_READ_S):
        """Connects and proves the container; the channel after ``ok``.

        Raises ChannelError (the AM's refusal, a wrong greeting, no connection) when it cannot
        be used: the caller then falls back to running one task.
        """
        try:
            sock = socket.create_connection((host, int(port)), timeout=timeout_s)
        except (OSError, ValueError) as e:
            raise ChannelError("no connection to %s:%s (%s)" % (host, port, e))
        ch = cls(sock)
        try:
            greeting = ch.read_line()
            if not greeting.startswith("%s %d " % (MAGIC, VERSION)):
                raise ChannelError("the task channel refused this container (%s)" % greeting)
            ch.send("hello %d %s %s" % (VERSION, container_id, proof(key, greeting, container_id)))
            answer = ch.read_line()
            if answer != "ok":
                raise ChannelError("the task channel refused this container (%s)" % answer)
            # a task may run for hours: after the handshake the runner waits without limit
            sock.settimeout(None)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
            return ch
        except BaseException:
            ch.close()
            raise

    def read_line(self):
        """The next line without its newline; ChannelError on EOF, a timeout or a bad line."""
        try:
            raw = self._in.readline(MAX_LINE_BYTES)
        except OSError as e:  # socket.timeout included
            raise ChannelError("the task channel broke (%s)" % e)
        if not raw:
            raise ChannelError("the task channel closed")
        if not raw.endswith(b"\n"):
            raise ChannelError("the task channel sent %s without a newline"
                               % ("4096 bytes" if len(raw) >= MAX_LINE_BYTES else "a line"))
        line = raw[:-1]
        if not _printable(line):
            raise ChannelError("the task channel sent bytes other than printable ASCII")
        return line.decode("ascii")

    def send(self, line):
        """Sends one line (a newline is added)."""
        raw = line.encode("ascii") + b"\n"
        if len(raw) > MAX_LINE_BYTES or not _printable(raw[:-1]):
            raise ChannelError("not a line of the task channel: %r" % line[:80])
        try:
            self._sock.sendall(raw)
        except OSError as e:
            raise ChannelError("the task channel broke (%s)" % e)

    def close(self):
        for c in (self._in, self._sock):
            try:
                c.close()
            except OSError:
                pass
