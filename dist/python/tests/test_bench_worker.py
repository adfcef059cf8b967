import os
import subprocess
import sys
import tempfile
import time
import unittest

from tests.fake_am import FakeAm

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "examples", "bench_worker.py")
KEY = bytes(range(32))


class BenchWorkerTest(unittest.TestCase):
    """examples/bench_worker.py (what `hare bench workers` runs), framework python, both modes."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.events = os.path.join(self.dir.name, "events")

    def tearDown(self):
        self.dir.cleanup()

    def run_script(self, env, *args):
        e = {"PATH": os.environ.get("PATH", ""),
             "PYTHONPATH": os.path.join(HERE, "..")}  # hare_worker, as the tarball's python/
        e.update(env)
        return subprocess.run(
            [sys.executable, SCRIPT, "--framework", "python", "--events", self.events] + list(args),
            env=e, capture_output=True, text=True, timeout=60)

    def lines(self):
        with open(self.events) as f:
            return [line.split() for line in f]

    def test_process_mode_runs_its_one_task_and_counts_from_the_launch(self):
        t0 = int(time.time() * 1000) - 500  # launched half a second ago
        r = self.run_script({"HARE_ROUND": "3", "HARE_TASK_INDEX": "1", "HARE_BENCH_T0": str(t0)},
                            "--mode", "process", "--compute-ms", "30")
        self.assertEqual(0, r.returncode, r.stderr)
        [line] = self.lines()
        self.assertEqual(["task", "3", "1", str(t0)], line[:4])
        start, end, compute = int(line[3]), int(line[4]), int(line[5])
        self.assertGreaterEqual(compute, 30)
        self.assertGreaterEqual(end - start, 500 + 30, "the wall time includes the launch")

    def test_resident_mode_takes_task_after_task_in_one_process(self):
        tokens = os.path.join(self.dir.name, "container_tokens")
        with open(tokens, "wb") as f:
            f.write(b"HDTS\x00\x01hare.channel.key\x00hare-channel-key:" + KEY.hex().encode()
                    + b"\x00")
        am = FakeAm(KEY, ["run 0 1", "run 1 0"])
        r = self.run_script(am.env(HADOOP_TOKEN_FILE_LOCATION=tokens, HARE_ROUND="0",
                                   HARE_TASK_INDEX="0", HARE_TASKS_PER_ROUND="2",
                                   HARE_WORK_DIR=self.dir.name, HARE_JOB_ID="application_1_0007"),
                            "--mode", "resident", "--compute-ms", "5")
        self.assertEqual(0, r.returncode, r.stderr)
        self.assertEqual(["done 0 0 0", "done 0 1 0", "done 1 0 0"], am.join())
        lines = self.lines()
        self.assertEqual([["0", "0"], ["0", "1"], ["1", "0"]], [line[1:3] for line in lines])
        self.assertEqual(1, len({line[6] for line in lines}), "one process ran every task")

    def test_bad_environment_and_arguments_exit_2_naming_them(self):
        r = self.run_script({"HARE_ROUND": "x", "HARE_TASK_INDEX": "0"},
                            "--mode", "process", "--compute-ms", "1")
        self.assertEqual(2, r.returncode)
        self.assertIn("HARE_ROUND: must be a whole number >= 0, got 'x'", r.stderr)
        r = self.run_script({}, "--mode", "process", "--compute-ms", "-1")
        self.assertEqual(2, r.returncode)
        self.assertIn("--compute-ms: must be >= 0", r.stderr)
        self.assertFalse(os.path.exists(self.events), "no task ran")


if __name__ == "__main__":
    unittest.main()
