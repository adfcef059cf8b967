import contextlib
import io
import os
import tempfile
import unittest

import hare_worker
from hare_worker import LOST, cuda_ordinal, serve, standby_device
from tests.fake_am import CONTAINER, FakeAm

KEY = bytes(range(32))


class ServeTest(unittest.TestCase):
    """serve() against a fake AM over a real socket; each test's env is a dict of its own."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.tokens = os.path.join(self.dir.name, "container_tokens")
        self.write_key(KEY)
        self.ran = []
        self.stderr = io.StringIO()

    def tearDown(self):
        self.dir.cleanup()

    def write_key(self, key):
        with open(self.tokens, "wb") as f:
            f.write(b"HDTS\x00\x01hare.channel.key\x00hare-channel-key:" + key.hex().encode()
                    + b"\x00other tokens")

    def env(self, am, first=(0, 0), **extra):
        e = am.env(HADOOP_TOKEN_FILE_LOCATION=self.tokens, HARE_TASKS_PER_ROUND="4",
                   HARE_WORK_DIR="/work", HARE_JOB_ID="application_1_0007",
                   HARE_GPU_TYPE="h100", **extra)
        if first is not None:
            e.update(HARE_ROUND=str(first[0]), HARE_TASK_INDEX=str(first[1]))
        return e

    def task(self, task):
        """Records the task; exits with its index (so each report is told apart)."""
        self.ran.append((task.round, task.index))
        return task.index

    def serve(self, env, run=None):
        with contextlib.redirect_stderr(self.stderr):
            return serve(run or self.task, env)

    def test_runs_task_after_task_in_this_process_and_reports_each(self):
        am = FakeAm(KEY, ["run 0 1", "run 0 2"])
        # told to exit, it ends with its last task's status: YARN's scheduler reads an end
        # with 0 as a task computed, which task 2 (status 2) was not
        self.assertEqual(2, self.serve(self.env(am)))
        self.assertEqual(["done 0 0 0", "done 0 1 1", "done 0 2 2"], am.join())
        self.assertEqual([(0, 0), (0, 1), (0, 2)], self.ran)

    def test_the_task_sees_the_container_and_its_run_line(self):
        seen = []
        env = None

        def run(task):
            seen.append((task, env["HARE_ROUND"], env["HARE_TASK_INDEX"],
                         env.get("HARE_GPU_DEVICE"), env.get("CUDA_VISIBLE_DEVICES")))

        am = FakeAm(KEY, ["run 1 2 3 later-fields", "run 1 3"])
        env = self.env(am, HARE_GPU_DEVICE="0")
        self.assertEqual(0, self.serve(env, run))
        self.assertEqual(["done 0 0 0", "done 1 2 0", "done 1 3 0"], am.join())
        first, second, third = seen
        self.assertEqual(hare_worker.Task(0, 0, 0, 4, "/work", "application_1_0007", "h100"),
                         first[0])
        self.assertEqual((1, 2, 3), (second[0].round, second[0].index, second[0].device))
        self.assertEqual(("1", "2", "3", "3"), second[1:])
        self.assertEqual(3, third[0].device, "no device on the line: the container's stands")

    def test_parked_it_says_ready_and_runs_the_task_it_is_later_handed(self):
        am = FakeAm(KEY, ["park", "run 1 3"])
        self.assertEqual(3, self.serve(self.env(am)), "its last task's status")
        self.assertEqual(["done 0 0 0", "ready", "done 1 3 3"], am.join())
        self.assertEqual([(0, 0), (1, 3)], self.ran)

    def test_a_standby_says_ready_first_and_its_tasks_do_not_see_the_flag(self):
        flags = []
        am = FakeAm(KEY, ["run 2 1"])
        env = self.env(am, first=None, HARE_STANDBY="1")
        self.assertEqual(0, self.serve(env, lambda t: flags.append(
            (t.round, t.index, env.get("HARE_STANDBY")))))
        self.assertEqual(["ready", "done 2 1 0"], am.join())
        self.assertEqual([(2, 1, None)], flags)

    def test_told_to_exit_after_a_task_that_succeeded_it_ends_0(self):
        am = FakeAm(KEY, ["run 0 5", "run 1 0"])
        self.assertEqual(0, self.serve(self.env(am)), "task 5 failed, but not the last one")
        self.assertEqual(["done 0 0 0", "done 0 5 5", "done 1 0 0"], am.join())

    def test_a_standby_given_up_before_any_task_ends_0(self):
        am = FakeAm(KEY, [])
        self.assertEqual(0, self.serve(self.env(am, first=None, HARE_STANDBY="1")))
        self.assertEqual(["ready"], am.join())
        self.assertEqual([], self.ran)

    def test_a_standby_without_a_channel_exits_0_having_run_nothing(self):
        env = {"CONTAINER_ID": CONTAINER, "HARE_STANDBY": "1"}
        self.assertEqual(0, self.serve(env))
        self.assertEqual([], self.ran)
        self.assertIn("no task channel", self.stderr.getvalue())

    def test_without_a_channel_the_first_tasks_status_is_the_workers(self):
        self.assertEqual(7, self.serve({"HARE_ROUND": "0", "HARE_TASK_INDEX": "7"}))
        self.assertEqual([(0, 7)], self.ran)

    def test_eof_an_error_or_a_line_it_does_not_understand_loses_the_task(self):
        for answers in ([None], ["error task not the task of " + CONTAINER], ["run 1"],
                        ["run x 1"], ["run 1 2 -3"], ["run 1 2 3x"], ["jump 1 2"], [""]):
            with self.subTest(answers=answers):
                self.ran.clear()
                am = FakeAm(KEY, answers)
                self.assertEqual(LOST, self.serve(self.env(am)))
                self.assertEqual(["done 0 0 0"], am.join())
                self.assertEqual([(0, 0)], self.ran, "ran nothing more")

    def test_a_wrong_greeting_falls_back_to_the_first_tasks_status(self):
        am = FakeAm(KEY, greeting="hare-channel 2 " + "ab" * 32)
        self.assertEqual(5, self.serve(self.env(am, first=(0, 5))))
        am.join()
        self.assertEqual([(0, 5)], self.ran)
        self.assertIn("refused this container (hare-channel 2 ", self.stderr.getvalue())

    def test_a_wrong_key_is_refused_and_the_first_tasks_status_stands(self):
        am = FakeAm(KEY)
        self.write_key(bytes(32))
        self.assertEqual(7, self.serve(self.env(am, first=(0, 7))))
        am.join()
        self.assertIn("refused this container (error auth", self.stderr.getvalue())
        self.assertNotIn(bytes(32).hex(), self.stderr.getvalue())

    def test_without_a_key_the_first_tasks_status_stands(self):
        am = FakeAm(KEY)
        with open(self.tokens, "wb") as f:
            f.write(b"HDTS no key here")
        self.assertEqual(3, self.serve(self.env(am, first=(1, 3))))
        self.assertIn("no task channel key", self.stderr.getvalue())
        self.assertEqual([(1, 3)], self.ran)

    def test_a_task_that_raises_fails_with_1_and_the_worker_goes_on(self):
        def run(task):
            self.ran.append(task.index)
            if task.index == 1:
                raise ValueError("bad batch")
            if task.index == 2:
                raise SystemExit(4)
            return 256 if task.index == 3 else None

        am = FakeAm(KEY, ["run 0 1", "run 0 2", "run 0 3"])
        self.assertEqual(1, self.serve(self.env(am), run), "its last task's status")
        self.assertEqual(["done 0 0 0", "done 0 1 1", "done 0 2 4", "done 0 3 1"], am.join())
        self.assertEqual([0, 1, 2, 3], self.ran)
        self.assertIn("ValueError: bad batch", self.stderr.getvalue())


class CudaOrdinalTest(unittest.TestCase):

    def test_the_devices_place_among_those_visible_at_launch(self):
        self.assertEqual(0, cuda_ordinal(None, "5"), "YARN isolated its GPU: the one visible")
        self.assertEqual(3, cuda_ordinal(3, None), "every GPU visible")
        self.assertEqual(0, cuda_ordinal(3, "3"))
        self.assertEqual(1, cuda_ordinal(3, "1,3"))
        self.assertIsNone(cuda_ordinal(2, "3"), "out of this process's reach")


class StandbyDeviceTest(unittest.TestCase):

    def test_a_standby_made_for_a_gpu_names_it(self):
        self.assertEqual(2, standby_device({"HARE_STANDBY": "1", "HARE_STANDBY_DEVICE": "2"}))

    def test_no_hint_outside_a_standby_or_for_a_parked_one(self):
        self.assertIsNone(standby_device({"HARE_STANDBY_DEVICE": "2"}), "not a standby")
        self.assertIsNone(standby_device({"HARE_STANDBY": "1"}), "parked: no GPU named")
        self.assertIsNone(standby_device({"HARE_STANDBY": "", "HARE_STANDBY_DEVICE": "2"}))

    def test_what_is_no_index_is_no_hint(self):
        for bad in ("", "-1", "x", "1.5", "\u0663"):
            self.assertIsNone(standby_device({"HARE_STANDBY": "1", "HARE_STANDBY_DEVICE": bad}),
                              bad)


if __name__ == "__main__":
    unittest.main()
