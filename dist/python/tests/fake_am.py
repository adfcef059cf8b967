"""A fake ApplicationMaster side of the task channel, in a thread, for the tests."""

import hmac
import os
import socket
import threading

from hare_worker import proof

CONTAINER = "container_1700000000000_0007_01_000004"


class FakeAm:
    """Accepts one runner, greets it, checks its proof, then answers each line it sends.

    ``answers`` is a list of what to send after each line the runner sends once proven: a
    string (a line), or None to close the connection. When the list runs out the AM says exit.
    ``greeting`` replaces the real greeting (a bad greeting test). Lines heard are in ``heard``.
    Every socket operation times out, so a test never hangs on a broken worker.
    """

    def __init__(self, key, answers=(), greeting=None):
        self.key = key
        self.answers = list(answers)
        self.greeting = greeting
        self.heard = []
        self.error = None
        self._server = socket.create_server(("127.0.0.1", 0))
        self._server.settimeout(10)
        self.port = self._server.getsockname()[1]
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def env(self, **extra):
        """A container's environment pointing at this AM; extra variables added."""
        e = {"HARE_RUNNER_HOST": "127.0.0.1", "HARE_RUNNER_PORT": str(self.port),
             "CONTAINER_ID": CONTAINER}
        e.update(extra)
        return e

    def _serve(self):
        try:
            conn, _ = self._server.accept()
        except OSError as e:
            self.error = e
            return
        with conn:
            conn.settimeout(10)
            f = conn.makefile("rb")
            greeting = self.greeting or "hare-channel 1 " + os.urandom(32).hex()
            conn.sendall((greeting + "\n").encode())
            hello = f.readline().decode().rstrip("\n")
            self.heard.append(hello)
            expected = "hello 1 %s %s" % (CONTAINER, proof(self.key, greeting, CONTAINER))
            if not hmac.compare_digest(hello, expected):
                conn.sendall(b"error auth not the proof of " + CONTAINER.encode() + b"\n")
                return
            conn.sendall(b"ok\n")
            while True:
                line = f.readline()
                if not line:
                    return
                self.heard.append(line.decode().rstrip("\n"))
                answer = self.answers.pop(0) if self.answers else "exit"
                if answer is None:
                    return
                conn.sendall((answer + "\n").encode())
                if answer == "exit" or answer.startswith("error"):
                    return

    def join(self):
        self._thread.join(20)
        self._server.close()
        return self.heard[1:]  # after the hello
