package io.hare.it;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.embedded.EmbeddedCluster;
import io.hare.embedded.TaskEvents;
import io.hare.example.Env;
import io.hare.example.SgdJob;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * A job spec file through the {@code hare submit} command line, as a user runs it: two example
 * SGD jobs of different weights, each initialised with {@code SgdJob init}, submitted with
 * {@code hare submit --detach JOB.xml -D ...} in-process on an {@link EmbeddedCluster} (the Hare
 * scheduler, NodeManagers of v100, t4 and k80 GPUs), run by the real ApplicationMaster: both
 * succeed, every task ran once, and both final models equal the one-process reference. The
 * round protocol itself is checked on the demo's runs by {@link EndToEndIT}.
 */
public class SgdJobIT {

  private static final int ROUNDS = 3;
  private static final int TASKS = 2;
  private static final String EVENTS = "events.txt";

  private static EmbeddedCluster hare;
  private static YarnClient yarn;
  private static File base;

  @BeforeClass
  public static void startCluster() throws Exception {
    hare = EmbeddedCluster.start(GenericTestUtils.getTestDir("SgdJobIT"), "SgdJobIT", List.of(
        new EmbeddedCluster.Node("v100", 3), new EmbeddedCluster.Node("t4", 2),
        new EmbeddedCluster.Node("k80", 1)), new Configuration(false));
    base = GenericTestUtils.getTestDir("SgdJobIT-jobs");
    FileUtil.fullyDelete(base); // a run without `mvn clean` must not read the last run's events
    yarn = YarnClient.createYarnClient();
    yarn.init(new YarnConfiguration(hare.conf()));
    yarn.start();
  }

  @AfterClass
  public static void stopCluster() {
    if (yarn != null) {
      yarn.stop();
    }
    if (hare != null) {
      hare.close();
    }
  }

  @Test(timeout = 600_000)
  public void twoWeightedJobsSubmittedWithTheCliTrainToTheReferenceModel() throws Exception {
    File light = initJob("light", 1);
    File heavy = initJob("heavy", 2);
    ApplicationId a = submit(light, "light", 1, ROUNDS, TASKS);
    ApplicationId b = submit(heavy, "heavy", 3, ROUNDS, TASKS);

    GenericTestUtils.waitFor(() -> ended(a) && ended(b), 250, 540_000);
    for (ApplicationId id : List.of(a, b)) {
      ApplicationReport r = yarn.getApplicationReport(id);
      assertEquals(id + ": " + r.getDiagnostics(), FinalApplicationStatus.SUCCEEDED,
          r.getFinalApplicationStatus());
    }
    for (File job : List.of(light, heavy)) {
      TaskEvents.Runs runs = TaskEvents.read(job.toPath().resolve(EVENTS));
      assertEquals(job + ": task attempts", ROUNDS * TASKS, runs.attempts().size());
      assertEquals(job + ": sync steps", ROUNDS, runs.syncs().size());
      assertEqualsReference(job, ROUNDS, TASKS);
    }
  }

  /**
   * A job of more tasks than the cluster's 6 GPUs: the tasks that wait run in warm containers,
   * their runners proving their containers over the AM's task channel and reporting each result
   * there ({@code docs/task-channel.md}); the model is still the reference's.
   */
  @Test(timeout = 180_000)
  public void tasksBeyondTheGpusRunInWarmContainersOverTheTaskChannel() throws Exception {
    int tasks = 8;
    File wide = initJob("wide", 3);
    ApplicationId id = submit(wide, "wide", 1, 1, tasks);
    GenericTestUtils.waitFor(() -> ended(id), 250, 150_000);
    ApplicationReport r = yarn.getApplicationReport(id);
    assertEquals(id + ": " + r.getDiagnostics(), FinalApplicationStatus.SUCCEEDED,
        r.getFinalApplicationStatus());
    TaskEvents.Runs runs = TaskEvents.read(wide.toPath().resolve(EVENTS));
    assertEquals("task attempts", tasks, runs.attempts().size());
    Map<String, Long> perContainer = runs.attempts().stream().collect(Collectors.groupingBy(
        TaskEvents.Attempt::containerId, Collectors.counting()));
    assertTrue("some container ran several tasks, told them over the channel: " + perContainer,
        perContainer.values().stream().anyMatch(n -> n > 1));
    assertEqualsReference(wide, 1, tasks);
  }

  /**
   * Resident mode: each task container starts the job's worker once ({@code SgdJob worker}),
   * which takes task after task over the task channel, across the round barriers, and the sync
   * step is one JVM for the job ({@code sync.mode=resident}); every task ran once, some workers
   * ran several, every round synced, and the model is the reference's.
   */
  @Test(timeout = 300_000)
  public void residentWorkersTakeTaskAfterTaskAndTrainToTheReferenceModel() throws Exception {
    int rounds = 3;
    int tasks = 8;
    File job = initJob("resident", 4);
    ApplicationId id = submit(job, "resident", 1, rounds, tasks, true);
    GenericTestUtils.waitFor(() -> ended(id), 250, 270_000);
    ApplicationReport r = yarn.getApplicationReport(id);
    assertEquals(id + ": " + r.getDiagnostics(), FinalApplicationStatus.SUCCEEDED,
        r.getFinalApplicationStatus());
    TaskEvents.Runs runs = TaskEvents.read(job.toPath().resolve(EVENTS));
    assertEquals("task attempts", rounds * tasks, runs.attempts().size());
    assertTrue("every task succeeded", runs.attempts().stream()
        .allMatch(TaskEvents.Attempt::succeeded));
    Map<String, Long> perWorker = runs.attempts().stream().collect(Collectors.groupingBy(
        TaskEvents.Attempt::containerId, Collectors.counting()));
    assertTrue("a worker (one process per container) ran several tasks: " + perWorker,
        perWorker.values().stream().anyMatch(n -> n > 1));
    assertEquals("a sync step per round, each succeeded", List.of(0, 1, 2), runs.syncs().stream()
        .filter(sync -> sync.exitCode() == 0).map(TaskEvents.Sync::round).toList());
    assertEqualsReference(job, rounds, tasks);
  }

  /** {@code SgdJob init} into a fresh directory, in-process, as a user does before submitting. */
  private static File initJob(String name, int seed) {
    File dir = new File(base, name);
    assertEquals(SgdJob.OK, sgd("init", "--work-dir", dir.getAbsolutePath(), "--seed",
        Integer.toString(seed)));
    return dir;
  }

  /** {@code hare submit --detach JOB.xml} in-process, with the client keys as {@code -D}. */
  private static ApplicationId submit(File dir, String name, int weight, int rounds, int tasks)
      throws Exception {
    return submit(dir, name, weight, rounds, tasks, false);
  }

  /** As above; with {@code resident}, in resident mode: the task command is the worker. */
  private static ApplicationId submit(File dir, String name, int weight, int rounds, int tasks,
      boolean resident) throws Exception {
    File spec = new File(dir, "job.xml");
    String java = "\"$JAVA_HOME\"/bin/java -Xmx128m io.hare.example.SgdJob";
    String where = " --work-dir '" + dir.getAbsolutePath() + "'";
    File events = new File(dir, EVENTS);
    Files.writeString(spec.toPath(), "<configuration>\n"
        + prop("yarn.app.hare.job.name", name)
        + prop("yarn.app.hare.job.rounds", Integer.toString(rounds))
        + prop("yarn.app.hare.job.tasks-per-round", Integer.toString(tasks))
        + prop("yarn.app.hare.job.weight", Integer.toString(weight))
        + prop("yarn.app.hare.job.staging-dir", new File(base, "staging").getAbsolutePath())
        + prop("yarn.app.hare.task.command", resident
            ? java + " worker" + where + " --events '" + events.getAbsolutePath() + "'"
            : TaskEvents.wrapTask(java + " task" + where, events.toPath()))
        + prop("yarn.app.hare.task.mode", resident ? "resident" : "process")
        + prop("yarn.app.hare.sync.command", resident
            ? java + " sync" + where + " --events '" + events.getAbsolutePath() + "'"
            : TaskEvents.wrapSync(java + " sync" + where, events.toPath()))
        + prop("yarn.app.hare.sync.mode", resident ? "resident" : "process")
        + prop("yarn.app.hare.task.memory-mb", "256")
        + prop("yarn.app.hare.task.max-attempts", "1")
        + prop("yarn.app.hare.am.memory-mb", "512")
        + prop("yarn.app.hare.am.max-attempts", "1")
        + "</configuration>\n", StandardCharsets.UTF_8);
    return SgdJobFiles.submit(hare, spec.toPath());
  }

  private static String prop(String name, String value) {
    return "  <property><name>" + name + "</name><value>" + value.replace("&", "&amp;")
        .replace("<", "&lt;").replace(">", "&gt;") + "</value></property>\n";
  }

  private static boolean ended(ApplicationId id) {
    return SgdJobFiles.ended(yarn, id);
  }

  /** The model after R rounds is byte-identical to {@code SgdJob reference}'s. */
  private static void assertEqualsReference(File dir, int rounds, int tasks) throws Exception {
    assertEquals(SgdJob.OK, sgd("reference", "--work-dir", dir.getAbsolutePath(), "--rounds",
        Integer.toString(rounds), "--tasks-per-round", Integer.toString(tasks)));
    byte[] trained = Files.readAllBytes(new File(dir, "model-r" + rounds).toPath());
    byte[] reference = Files.readAllBytes(new File(dir, "reference-model-r" + rounds).toPath());
    assertArrayEquals(dir + ": model-r" + rounds + " differs from the reference", reference,
        trained);
  }

  private static int sgd(String... args) {
    StringWriter out = new StringWriter();
    return SgdJob.commandLine(new PrintWriter(out), new PrintWriter(out), Env.SYSTEM)
        .execute(args);
  }
}
