"""serve_sync(): a resident sync step's loop over its pipes (``yarn.app.hare.sync.mode=resident``).

The ApplicationMaster starts the sync command once, in its own container, with the first round
in ``HARE_ROUND`` and ``HARE_SYNC_RESIDENT=1``, and gives each later round as a line
``sync ROUND`` on the process's standard input; the process answers each round with
``hare-sync done ROUND CODE`` on its standard output, and exits when its standard input ends
(protocol version 1, ``docs/task-channel.md``). The AM started the process, so nobody else holds
its pipes: there is no port and no credential.
"""

import os
import sys

from .worker import LOST, _run, _say, _whole, task_from_env

#: Set to 1 by an AM that keeps the sync process for the next round.
RESIDENT = "HARE_SYNC_RESIDENT"
#: The first words of an answer.
ANSWER = "hare-sync done"
#: The longest request line read.
MAX_REQUEST_CHARS = 256
#: Exit status for a first round that is not a whole number, or a request this version cannot read.
BAD_INPUT = 2


def serve_sync(run_sync, env=None, requests=None, answers=None):
    """Runs the job's sync step round after round in this process, as the AM asks.

    Call it once the step's state is built (imports, the network), and end the process with what
    it returns: ``sys.exit(hare_worker.serve_sync(sync))``. ``run_sync(task)`` runs the round of
    ``task`` (a :class:`Task` whose ``index`` is None) and returns its exit status (None is 0);
    an exception in it is printed and counts as 1, and the process waits for the next round.
    While a round runs, ``env`` (``os.environ`` by default) holds its ``HARE_ROUND``.

    Without ``HARE_SYNC_RESIDENT=1`` (process mode, or an AM that does not keep the process) it
    runs the round of the environment once and returns its status: one command serves both
    modes. Otherwise the answers go to the process's original standard output, and standard
    output is pointed at standard error first, so what a round prints goes to the AM's sync log
    and cannot be taken for an answer. ``requests`` and ``answers`` (text streams) replace the
    process's standard input and that output, for tests.

    Returns: 0 when the requests end; 2 when ``HARE_ROUND`` is not a whole number or a request
    cannot be read; ``LOST`` (75) when an answer cannot be written; without
    ``HARE_SYNC_RESIDENT=1``, the round's own status.
    """
    env = os.environ if env is None else env
    round_ = _whole(env.get("HARE_ROUND"))
    if round_ is None:
        _say("HARE_ROUND must be a whole number, got %r" % env.get("HARE_ROUND"))
        return BAD_INPUT
    if env.get(RESIDENT) != "1":
        return _run(run_sync, task_from_env(env))
    if answers is None:
        sys.stdout.flush()
        answers = os.fdopen(os.dup(1), "w", encoding="ascii")
        os.dup2(2, 1)  # prints, and libraries writing to descriptor 1, go to the sync log
    if requests is None:
        requests = sys.stdin
    while True:
        env["HARE_ROUND"] = str(round_)
        code = _run(run_sync, task_from_env(env))
        try:
            answers.write("%s %d %d\n" % (ANSWER, round_, code))
            answers.flush()
        except (OSError, ValueError) as e:
            _say("cannot answer the ApplicationMaster (%s)" % e)
            return LOST
        line = requests.readline(MAX_REQUEST_CHARS + 1)
        if not line:
            return 0
        words = line.rstrip("\n").split(" ")
        round_ = _whole(words[1]) if len(words) == 2 and words[0] == "sync" else None
        if round_ is None:
            _say("the ApplicationMaster sent a line this version cannot read: %r"
                 % line[:80])
            return BAD_INPUT
