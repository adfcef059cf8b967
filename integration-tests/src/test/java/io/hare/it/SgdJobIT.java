package io.hare.it;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.cli.HareCommand;
import io.hare.cli.WorkloadSources;
import io.hare.example.Env;
import io.hare.example.SgdJob;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * End to end on a MiniYARNCluster ({@link HareMiniCluster}: the Hare scheduler, 3 NodeManagers
 * of GPU types v100, t4 and k80): two example SGD jobs of different weights, each initialised
 * with {@code SgdJob init}, submitted with {@code hare submit} in-process (the real client and
 * {@code JobSubmitter}), run by the real ApplicationMaster in a container with {@code SgdJob
 * task} and {@code SgdJob sync} as their commands.
 *
 * <p>Each command is wrapped to append {@code start}/{@code end} (tasks) and
 * {@code sync-start}/{@code sync-end} lines with the round, task index, node, GPU type and a
 * millisecond clock to the job's {@value #EVENTS} file, which the assertions read. The wrapper
 * sets {@code HARE_WORK_DIR} to the directory {@code init} prepared: the AM's own work directory
 * ({@code staging-dir/APPLICATION_ID}) is only known after submission.
 */
public class SgdJobIT {

  private static final int ROUNDS = 3;
  private static final int TASKS = 2;
  private static final String EVENTS = "events.txt";
  private static final List<String> TYPES = List.of("v100", "t4", "k80");

  private static HareMiniCluster hare;
  private static YarnClient yarn;
  private static File base;

  @BeforeClass
  public static void startCluster() throws Exception {
    hare = HareMiniCluster.start("SgdJobIT", TYPES, List.of(3, 2, 1));
    base = GenericTestUtils.getTestDir("SgdJobIT-jobs");
    FileUtil.fullyDelete(base); // a run without `mvn clean` must not read the last run's events
    yarn = YarnClient.createYarnClient();
    yarn.init(new YarnConfiguration(hare.conf));
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

  @Test(timeout = 180_000)
  public void twoWeightedJobsTrainInRoundsToTheReferenceModel() throws Exception {
    File light = initJob("light", 1);
    File heavy = initJob("heavy", 2);
    ApplicationId a = submit(light, "light", 1);
    ApplicationId b = submit(heavy, "heavy", 3);

    GenericTestUtils.waitFor(() -> ended(a) && ended(b), 250, 150_000);
    assertSucceeded(a);
    assertSucceeded(b);

    List<Event> eventsA = events(light);
    List<Event> eventsB = events(heavy);
    for (List<Event> events : List.of(eventsA, eventsB)) {
      assertRoundsInOrder(events);
      assertGpuTypesOfTheirNodes(events);
    }
    assertEqualsReference(light);
    assertEqualsReference(heavy);
  }

  /** {@code SgdJob init} into a fresh directory, in-process, as a user does before submitting. */
  private static File initJob(String name, int seed) throws Exception {
    File dir = new File(base, name);
    assertEquals(SgdJob.OK, sgd("init", "--work-dir", dir.getAbsolutePath(), "--seed",
        Integer.toString(seed)));
    return dir;
  }

  /** {@code hare submit --detach JOB.xml} in-process, with the client keys as {@code -D}. */
  private static ApplicationId submit(File dir, String name, int weight) throws Exception {
    File spec = new File(dir, "job.xml");
    String work = "HARE_WORK_DIR=" + dir.getAbsolutePath() + " ";
    String events = dir.getAbsolutePath() + "/" + EVENTS;
    String java = "\"$JAVA_HOME\"/bin/java -Xmx128m io.hare.example.SgdJob";
    String where = "$HARE_ROUND ${HARE_TASK_INDEX:--} $NM_HOST ${HARE_GPU_TYPE:--}";
    String task = "echo \"start " + where + " $(date +%s%3N)\" >> " + events + "; " + work
        + java + " task; rc=$?; echo \"end " + where + " $(date +%s%3N)\" >> " + events
        + "; exit $rc";
    String sync = "echo \"sync-start " + where + " $(date +%s%3N)\" >> " + events + "; " + work
        + java + " sync; rc=$?; echo \"sync-end " + where + " $(date +%s%3N)\" >> " + events
        + "; exit $rc";
    Files.writeString(spec.toPath(), "<configuration>\n"
        + prop("yarn.app.hare.job.name", name)
        + prop("yarn.app.hare.job.rounds", Integer.toString(ROUNDS))
        + prop("yarn.app.hare.job.tasks-per-round", Integer.toString(TASKS))
        + prop("yarn.app.hare.job.weight", Integer.toString(weight))
        + prop("yarn.app.hare.job.staging-dir", new File(base, "staging").getAbsolutePath())
        + prop("yarn.app.hare.task.command", task)
        + prop("yarn.app.hare.sync.command", sync)
        + prop("yarn.app.hare.task.memory-mb", "256")
        + prop("yarn.app.hare.task.max-attempts", "1")
        + prop("yarn.app.hare.am.memory-mb", "512")
        + prop("yarn.app.hare.am.max-attempts", "1")
        + prop("yarn.app.hare.am.jar", new File("target/hare-yarn.jar").getAbsolutePath())
        + "</configuration>\n", StandardCharsets.UTF_8);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = HareCommand.commandLine(new PrintWriter(out), new PrintWriter(err),
        WorkloadSources.STANDARD, Map.of()).execute("submit", "--detach", spec.getPath(),
        "-D", YarnConfiguration.RM_ADDRESS + "=" + hare.conf.get(YarnConfiguration.RM_ADDRESS),
        "-D", YarnConfiguration.YARN_APPLICATION_CLASSPATH + "="
            + hare.conf.get(YarnConfiguration.YARN_APPLICATION_CLASSPATH));
    assertEquals("hare submit: " + err, HareCommand.OK, code);
    return ApplicationId.fromString(out.toString().strip().lines().findFirst().orElseThrow());
  }

  private static String prop(String name, String value) {
    return "  <property><name>" + name + "</name><value>" + value.replace("&", "&amp;")
        .replace("<", "&lt;").replace(">", "&gt;") + "</value></property>\n";
  }

  private static boolean ended(ApplicationId id) {
    try {
      return EnumSet.of(YarnApplicationState.FINISHED, YarnApplicationState.FAILED,
          YarnApplicationState.KILLED).contains(yarn.getApplicationReport(id)
          .getYarnApplicationState());
    } catch (Exception e) {
      return false;
    }
  }

  private static void assertSucceeded(ApplicationId id) throws Exception {
    ApplicationReport r = yarn.getApplicationReport(id);
    assertEquals(id + ": " + r.getDiagnostics(), FinalApplicationStatus.SUCCEEDED,
        r.getFinalApplicationStatus());
    assertEquals(YarnApplicationState.FINISHED, r.getYarnApplicationState());
  }

  /** One line of a job's events file. */
  private record Event(String what, int round, String index, String host, String type,
      long ms) {}

  private static List<Event> events(File dir) throws Exception {
    List<Event> events = new ArrayList<>();
    for (String line : Files.readAllLines(new File(dir, EVENTS).toPath())) {
      String[] f = line.split(" ");
      assertEquals(line, 6, f.length);
      events.add(new Event(f[0], Integer.parseInt(f[1]), f[2], f[3], f[4], Long.parseLong(f[5])));
    }
    return events;
  }

  /**
   * Each round ran its k tasks once each, its sync step started after all of them ended, and
   * every task of round r+1 started after the sync step of round r ended.
   */
  private static void assertRoundsInOrder(List<Event> events) {
    for (int r = 0; r < ROUNDS; r++) {
      int round = r;
      List<Event> starts = select(events, "start", round);
      List<Event> ends = select(events, "end", round);
      Set<String> indexes = new HashSet<>();
      starts.forEach(e -> indexes.add(e.index()));
      assertEquals("round " + r + " tasks: " + starts, Set.of("0", "1"), indexes);
      assertEquals(TASKS, starts.size());
      assertEquals(TASKS, ends.size());
      Event syncStart = only(select(events, "sync-start", round));
      Event syncEnd = only(select(events, "sync-end", round));
      for (Event e : ends) {
        assertTrue("round " + r + ": sync started before " + e, e.ms() <= syncStart.ms());
      }
      if (r + 1 < ROUNDS) {
        for (Event next : select(events, "start", r + 1)) {
          assertTrue("round " + (r + 1) + " task started before round " + r + " ended: " + next
              + " vs " + syncEnd, syncEnd.ms() <= next.ms());
        }
      }
    }
  }

  /** Each task saw the GPU type its node was given as a node attribute. */
  private static void assertGpuTypesOfTheirNodes(List<Event> events) {
    for (Event e : events) {
      if (e.what().equals("start")) {
        assertEquals(e.toString(), hare.typeByHost.get(e.host()), e.type());
      }
    }
  }

  private static List<Event> select(List<Event> events, String what, int round) {
    return events.stream().filter(e -> e.what().equals(what) && e.round() == round).toList();
  }

  private static Event only(List<Event> events) {
    assertEquals(events.toString(), 1, events.size());
    return events.get(0);
  }

  /** The model after R rounds is byte-identical to {@code SgdJob reference}'s. */
  private static void assertEqualsReference(File dir) throws Exception {
    assertEquals(SgdJob.OK, sgd("reference", "--work-dir", dir.getAbsolutePath(), "--rounds",
        Integer.toString(ROUNDS), "--tasks-per-round", Integer.toString(TASKS)));
    byte[] trained = Files.readAllBytes(new File(dir, "model-r" + ROUNDS).toPath());
    byte[] reference = Files.readAllBytes(new File(dir, "reference-model-r" + ROUNDS).toPath());
    assertArrayEquals(dir + ": model-r" + ROUNDS + " differs from the reference", reference,
        trained);
  }

  private static int sgd(String... args) {
    StringWriter out = new StringWriter();
    return SgdJob.commandLine(new PrintWriter(out), new PrintWriter(out), Env.SYSTEM)
        .execute(args);
  }
}
