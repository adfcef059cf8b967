import contextlib
import io
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

from hare_worker import serve_sync

PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class ServeSyncTest(unittest.TestCase):
    """serve_sync() with its requests and answers as strings, then as a real process's pipes."""

    def setUp(self):
        self.ran = []
        self.stderr = io.StringIO()

    def env(self, round_="0", resident=True):
        e = {"HARE_ROUND": round_, "HARE_TASKS_PER_ROUND": "4", "HARE_WORK_DIR": "/work",
             "HARE_JOB_ID": "application_1_0007", "HARE_GPU_TYPE": ""}
        if resident:
            e["HARE_SYNC_RESIDENT"] = "1"
        return e

    def sync(self, task):
        """Records the round; round 3 fails with status 7, round 4 raises."""
        self.ran.append((task.round, task.index))
        if task.round == 4:
            raise RuntimeError("round 4 broke")
        return 7 if task.round == 3 else None

    def serve(self, env, requests):
        answers = io.StringIO()
        with contextlib.redirect_stderr(self.stderr):
            code = serve_sync(self.sync, env, io.StringIO(requests), answers)
        return code, answers.getvalue().splitlines()

    def test_runs_the_first_round_then_each_requested_one_and_answers_each(self):
        env = self.env("2")
        code, answers = self.serve(env, "sync 3\nsync 4\nsync 5\n")
        self.assertEqual(0, code, "the requests ended: 0")
        self.assertEqual(["hare-sync done 2 0", "hare-sync done 3 7", "hare-sync done 4 1",
                          "hare-sync done 5 0"], answers)
        self.assertEqual([(2, None), (3, None), (4, None), (5, None)], self.ran)
        self.assertEqual("5", env["HARE_ROUND"], "a round sees its own HARE_ROUND")
        self.assertIn("round 4 broke", self.stderr.getvalue())

    def test_without_the_resident_flag_it_runs_one_round_and_returns_its_status(self):
        code, answers = self.serve(self.env("3", resident=False), "sync 4\n")
        self.assertEqual(7, code)
        self.assertEqual([], answers)
        self.assertEqual([(3, None)], self.ran)

    def test_a_line_it_cannot_read_stops_it_with_status_2(self):
        for bad in ("sync\n", "sync x\n", "sync 1 2\n", "run 1 0\n", "sync -1\n"):
            self.ran = []
            code, answers = self.serve(self.env("0"), bad + "sync 1\n")
            self.assertEqual(2, code, bad)
            self.assertEqual([(0, None)], self.ran, bad)
        self.assertIn("cannot read", self.stderr.getvalue())

    def test_a_first_round_that_is_not_a_whole_number_runs_nothing(self):
        code, answers = self.serve(self.env("one"), "sync 1\n")
        self.assertEqual(2, code)
        self.assertEqual([], self.ran)
        self.assertIn("HARE_ROUND", self.stderr.getvalue())

    def test_a_process_answers_on_stdout_and_prints_go_to_stderr(self):
        script = textwrap.dedent("""
            import sys
            import hare_worker
            print("built once")
            def sync(task):
                print("syncing round %d" % task.round)
                return 0
            sys.exit(hare_worker.serve_sync(sync))
            """)
        env = dict(os.environ, PYTHONPATH=PACKAGE_ROOT, **self.env("0"))
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "sync.py")
            with open(path, "w") as f:
                f.write(script)
            p = subprocess.run([sys.executable, path], input="sync 1\nsync 2\n", env=env,
                               capture_output=True, text=True, timeout=60)
        self.assertEqual(0, p.returncode, p.stderr)
        self.assertEqual(["built once", "hare-sync done 0 0", "hare-sync done 1 0",
                          "hare-sync done 2 0"], p.stdout.splitlines())
        self.assertEqual(["syncing round 0", "syncing round 1", "syncing round 2"],
                         p.stderr.splitlines())


if __name__ == "__main__":
    unittest.main()
