package io.hare.example;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.hare.core.TaskContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * A task or sync step with a bad environment or missing input exits non-zero (2) with one
 * message that names the variable or the file, and writes nothing.
 */
public class SgdJobErrorsTest {

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private String dir;

  @Before
  public void init() throws Exception {
    dir = tmp.newFolder().toPath().resolve("w").toString();
    SgdJobRun r = SgdJobRun.run(Map.of(), "init", "--work-dir", dir, "--examples", "64",
        "--batch-size", "8");
    assertEquals(r.toString(), 0, r.code);
  }

  private static SgdJobRun assertRefused(SgdJobRun r, String... named) {
    assertEquals(r.toString(), 2, r.code);
    for (String n : named) {
      assertTrue(n + " not named: " + r, r.err.contains(n));
    }
    assertFalse(r.toString(), r.err.contains("Exception"));
    return r;
  }

  private Map<String, String> taskEnv(int round, int index, int k) {
    return SgdJobRun.env(dir, round, index, k, "t4");
  }

  private void assertNoGradients() throws Exception {
    try (var files = Files.list(Path.of(dir))) {
      assertFalse(files.anyMatch(p -> p.getFileName().toString().contains("grad-")));
    }
  }

  @Test(timeout = 60_000)
  public void missingRoundIsNamed() throws Exception {
    Map<String, String> env = taskEnv(0, 0, 2);
    env.remove(TaskContract.ROUND);
    assertRefused(SgdJobRun.run(env, "task"), "HARE_ROUND: missing");
    assertRefused(SgdJobRun.run(env, "sync"), "HARE_ROUND: missing");
    assertNoGradients();
  }

  @Test(timeout = 60_000)
  public void nonNumbersAreNamedWithTheirValue() throws Exception {
    Map<String, String> env = taskEnv(0, 0, 2);
    env.put(TaskContract.ROUND, "one");
    env.put(TaskContract.TASKS_PER_ROUND, "-3");
    SgdJobRun r = assertRefused(SgdJobRun.run(env, "task"), "HARE_ROUND", "'one'",
        "HARE_TASKS_PER_ROUND", "'-3'"); // every problem at once
    assertFalse(r.toString(), r.err.contains("HARE_TASK_INDEX"));
    assertNoGradients();
  }

  @Test(timeout = 60_000)
  public void taskIndexMustBeBelowK() throws Exception {
    assertRefused(SgdJobRun.run(taskEnv(0, 2, 2), "task"), "HARE_TASK_INDEX",
        "less than HARE_TASKS_PER_ROUND (2), got 2");
    Map<String, String> env = taskEnv(0, 0, 2);
    env.remove(TaskContract.TASK_INDEX);
    assertRefused(SgdJobRun.run(env, "task"), "HARE_TASK_INDEX: missing");
    assertNoGradients();
  }

  @Test(timeout = 60_000)
  public void missingWorkDirIsNamed() {
    Map<String, String> env = taskEnv(0, 0, 2);
    env.remove(TaskContract.WORK_DIR);
    assertRefused(SgdJobRun.run(env, "task"), "HARE_WORK_DIR");
  }

  @Test(timeout = 60_000)
  public void syncNamesEveryMissingGradient() throws Exception {
    assertEquals(0, SgdJobRun.run(taskEnv(0, 1, 3), "task").code);
    SgdJobRun r = assertRefused(SgdJobRun.run(SgdJobRun.env(dir, 0, -1, 3, ""), "sync"),
        "2 of 3 gradients missing", "grad-r0-t0", "grad-r0-t2");
    assertFalse(r.toString(), r.err.contains("grad-r0-t1"));
    assertFalse("no model written", Files.exists(Path.of(dir, WorkFiles.model(1))));
  }

  @Test(timeout = 60_000)
  public void syncRefusesAGradientOfAnotherK() throws Exception {
    assertEquals(0, SgdJobRun.run(taskEnv(0, 0, 2), "task").code);
    assertEquals(0, SgdJobRun.run(taskEnv(0, 1, 2), "task").code);
    assertRefused(SgdJobRun.run(SgdJobRun.env(dir, 0, -1, 1, ""), "sync"), "grad-r0-t0",
        "task 0 of 2", "not for round 0 task 0 of 1");
  }

  @Test(timeout = 60_000)
  public void taskBeforeItsModelExistsNamesTheModel() throws Exception {
    assertRefused(SgdJobRun.run(taskEnv(3, 0, 2), "task"), "model-r3",
        "sync step of round 2 has not run");
    assertNoGradients();
  }

  @Test(timeout = 60_000)
  public void uninitialisedWorkDirIsNamed() throws Exception {
    String empty = tmp.newFolder().toString();
    assertRefused(SgdJobRun.run(SgdJobRun.env(empty, 0, 0, 1, ""), "task"),
        WorkFiles.CONFIG, "run 'init' first");
  }

  @Test(timeout = 60_000)
  public void badTypeFactorsAreNamed() throws Exception {
    assertRefused(SgdJobRun.run(taskEnv(0, 0, 1), "task", "--type-factors", "t4=fast"),
        "--type-factors", "'t4=fast'");
    assertRefused(SgdJobRun.run(taskEnv(0, 0, 1), "task", "--type-factors", "t4=0.5"),
        "--type-factors", "'t4=0.5'");
    assertNoGradients();
  }

  @Test(timeout = 60_000)
  public void initRefusesOtherSettingsOnAnInitialisedDir() {
    assertRefused(SgdJobRun.run(Map.of(), "init", "--work-dir", dir, "--examples", "65",
        "--batch-size", "8"), WorkFiles.CONFIG, "already initialised");
    assertEquals(0, SgdJobRun.run(Map.of(), "init", "--work-dir", dir, "--examples", "64",
        "--batch-size", "8").code);
    assertRefused(SgdJobRun.run(Map.of(), "init", "--work-dir", dir, "--classes", "1"),
        "classes=1");
  }

  @Test(timeout = 60_000)
  public void workDirOptionWinsOverTheEnvironment() throws Exception {
    // under Hare, HARE_WORK_DIR is the AM's staging directory; the data lives where init wrote it
    Map<String, String> env = SgdJobRun.env(tmp.newFolder().toString(), 0, 0, 1, "t4");
    SgdJobRun t = SgdJobRun.run(env, "task", "--work-dir", dir);
    assertEquals(t.toString(), 0, t.code);
    env.remove(TaskContract.TASK_INDEX);
    SgdJobRun s = SgdJobRun.run(env, "sync", "--work-dir", dir);
    assertEquals(s.toString(), 0, s.code);
    assertTrue(Files.exists(Path.of(dir, WorkFiles.model(1))));
  }
}
