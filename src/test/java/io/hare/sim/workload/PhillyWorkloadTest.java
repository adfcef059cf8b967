package io.hare.sim.workload;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.BadInputException;
import io.hare.core.ClusterSpec;
import io.hare.core.GpuType;
import io.hare.core.JobSpec;
import io.hare.core.TaskTimes;
import io.hare.sim.SimKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The Philly trace reader on seven real lines (unsorted) and a one-model Gavel file with round
 * numbers: on k80 a step computes 100 ms and syncs 2/16 s - 100 ms = 25 ms, so a one-step round
 * is 125 ms and every round count below is worked out by hand.
 */
public class PhillyWorkloadTest {

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private static final ClusterSpec CLUSTER = ClusterSpec.parse("k80=8,v100=8");

  private static Path resource(String name) throws Exception {
    return Path.of(PhillyWorkloadTest.class.getResource(name).toURI());
  }

  private static Path trace() throws Exception {
    return resource("/philly/philly-sample.csv");
  }

  private static Path toyGavel() throws Exception {
    return resource("/philly/toy-gavel.json");
  }

  private static Workload load(ClusterSpec cluster, int maxJobs, Map<String, String> s)
      throws Exception {
    return PhillyWorkload.load(trace(), toyGavel(), cluster, maxJobs, 1, s);
  }

  private static long s(int days, int h, int m, int sec) {
    return ((days * 24L + h) * 60 + m) * 60 + sec;
  }

  @Test(timeout = 60_000)
  public void arrivalsScalesAndRoundsFollowTheTrace() throws Exception {
    Workload w = load(CLUSTER, 0, Map.of());
    // Sorted by timestamp, relative to 2017-09-29 07:58:32 (line 4), each: id, arrival, k,
    // steps per task, rounds. Line 4 runs 860662 s = 6885296 one-step rounds of 125 ms; with
    // 2^16 steps per task that is 105.06 rounds (2^15 would give 210 > 200).
    List<JobSpec> expected = List.of(
        new JobSpec("philly-4", 0, 1, "toy-bs1-x65536", 1, 105),
        new JobSpec("philly-6", 1000 * s(7, 15, 28, 54), 1, "toy-bs1-x8192", 4, 193),
        new JobSpec("philly-5", 1000 * s(7, 17, 13, 7), 1, "toy-bs1-x8192", 8, 189),
        new JobSpec("philly-8", 1000 * s(9, 21, 59, 51), 1, "toy-bs1-x1", 8, 192),
        new JobSpec("philly-3", 1000 * s(9, 22, 14, 31), 1, "toy-bs1-x128", 1, 184),
        new JobSpec("philly-7", 1000 * s(9, 22, 20, 25), 1, "toy-bs1-x2", 8, 120),
        new JobSpec("philly-2", 1000 * s(9, 23, 3, 23), 1, "toy-bs1-x4", 1, 132));
    assertEquals(expected, w.jobs());
    assertEquals("philly", w.name());
    WorkloadFiles.checkRunnable(w, CLUSTER);
  }

  @Test(timeout = 60_000)
  public void profilesScaleTheGavelStepByTheTaskSize() throws Exception {
    Workload w = load(CLUSTER, 0, Map.of());
    // 8192 steps: k80 100 ms + 25 ms sync a step; v100 25 ms + (2/50 s - 25 ms) = 15 ms.
    assertEquals(new TaskTimes(819_200, 204_800),
        w.profiles().times("toy-bs1-x8192", GpuType.of("k80")));
    assertEquals(new TaskTimes(8192 * 25.0, 8192 * 15.0),
        w.profiles().times("toy-bs1-x8192", GpuType.of("v100")));
    assertEquals(7 - 1, w.profiles().models().size()); // x8192 is shared by two jobs
  }

  @Test(timeout = 60_000)
  public void maxJobsTakesTheFirstByArrival() throws Exception {
    List<String> ids = load(CLUSTER, 3, Map.of()).jobs().stream().map(JobSpec::id)
        .collect(Collectors.toList());
    assertEquals(List.of("philly-4", "philly-6", "philly-5"), ids);
  }

  @Test(timeout = 60_000)
  public void referenceTypeAndRoundCapAreSettings() throws Exception {
    // On v100 a one-step round is 40 ms: line 8's 24 s are 600 of them, 150 rounds of 4 steps.
    Workload w = load(CLUSTER, 0, Map.of(SimKeys.PHILLY_REFERENCE_TYPE, "v100"));
    JobSpec j = w.jobs().stream().filter(x -> x.id().equals("philly-8")).findFirst().get();
    assertEquals("toy-bs1-x4", j.model());
    assertEquals(150, j.rounds());
    // A cap of 1000 rounds leaves line 2 (66 s = 528 rounds of 125 ms) at one step per task.
    Workload v = load(CLUSTER, 0, Map.of(SimKeys.PHILLY_MAX_ROUNDS, "1000"));
    JobSpec k = v.jobs().get(6);
    assertEquals("toy-bs1-x1", k.model());
    assertEquals(528, k.rounds());
  }

  @Test(timeout = 60_000)
  public void tooWideJobsAreClampedKeepingTheirGpuTime() throws Exception {
    Workload w = load(ClusterSpec.parse("k80=4,t4=16"), 0, Map.of());
    Map<String, JobSpec> byId = w.jobs().stream()
        .collect(Collectors.toMap(JobSpec::id, j -> j));
    // 8-GPU jobs on 4 GPUs run twice as long: line 7's 30 s become 60 s = 480 one-step rounds,
    // 120 rounds of 4 steps; line 5's 193256 s become 386512 s, 189 rounds of 16384 steps.
    assertEquals(4, byId.get("philly-7").tasksPerRound());
    assertEquals("toy-bs1-x4", byId.get("philly-7").model());
    assertEquals(120, byId.get("philly-7").rounds());
    assertEquals("toy-bs1-x16384", byId.get("philly-5").model());
    assertEquals(189, byId.get("philly-5").rounds());
    assertEquals(4, byId.get("philly-6").tasksPerRound()); // was 4 already
    WorkloadFiles.checkRunnable(w, ClusterSpec.parse("k80=4,t4=16"));
  }

  @Test(timeout = 60_000)
  public void tooWideJobsCanBeRefusedWithTheirLine() throws Exception {
    try {
      load(ClusterSpec.parse("k80=4"), 0, Map.of(SimKeys.PHILLY_TOO_WIDE, "refuse"));
      fail();
    } catch (BadInputException e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith(trace() + ":5: field 'num_gpus': "));
      assertTrue(e.getMessage(), e.getMessage().contains("8 GPUs"));
    }
  }

  @Test(timeout = 60_000)
  public void weightsAndModelsAreSeeded() throws Exception {
    Map<String, String> s = Map.of(SimKeys.PHILLY_MAX_WEIGHT, "3");
    Path mini = resource("/gavel/mini-throughputs.json");
    Workload a = PhillyWorkload.load(trace(), mini, CLUSTER, 0, 5, s);
    Workload b = PhillyWorkload.load(trace(), mini, CLUSTER, 0, 5, s);
    assertEquals(a.jobs(), b.jobs());
    assertTrue(a.jobs().stream().allMatch(j -> j.weight() >= 1 && j.weight() <= 3));
    assertTrue(a.jobs().stream().map(JobSpec::weight).distinct().count() > 1);
    // Seven jobs, three Gavel models: more than one model is used.
    assertTrue(a.jobs().stream().map(j -> j.model().replaceFirst("-x\\d+$", "")).distinct()
        .count() > 1);
  }

  @Test(timeout = 60_000)
  public void clusterWithoutGavelTypesIsRefused() throws Exception {
    try {
      load(ClusterSpec.parse("t4=8,m60=8"), 0, Map.of());
      fail();
    } catch (BadInputException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("t4=8,m60=8")
          && e.getMessage().contains("k80"));
    }
  }

  @Test(timeout = 60_000)
  public void badSettingIsBadInput() throws Exception {
    try {
      load(CLUSTER, 0, Map.of(SimKeys.PHILLY_REFERENCE_TYPE, "t4"));
      fail();
    } catch (BadInputException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(SimKeys.PHILLY_REFERENCE_TYPE)
          && e.getMessage().contains("k80, p100, v100"));
    }
  }

  private void assertBadTrace(String body, long line, String field, String part) throws Exception {
    Path f = tmp.getRoot().toPath().resolve("trace.csv");
    Files.writeString(f, body);
    try {
      PhillyWorkload.load(f, toyGavel(), CLUSTER, 0, 1, Map.of());
      fail("accepted " + body);
    } catch (BadInputException e) {
      String m = e.getMessage();
      assertTrue(m, m.startsWith(f + ":" + line + ": field '" + field + "': "));
      assertTrue(m + " should mention " + part, m.contains(part));
    }
  }

  private static final String HEADER = "timestamp,duration,num_gpus,gpu_time,cluster\n";
  private static final String OK = "2017-10-09 07:01:55,66.0,1,66.0,11cb48\n";

  @Test(timeout = 60_000)
  public void badTimestamp() throws Exception {
    assertBadTrace(HEADER + OK + "2017/10/09 07:01,66.0,1,66.0,x\n", 3, "timestamp",
        "yyyy-MM-dd HH:mm:ss");
  }

  @Test(timeout = 60_000)
  public void negativeOrMissingDuration() throws Exception {
    assertBadTrace(HEADER + OK + "2017-10-09 07:01:55,-3,1,0,x\n", 3, "duration", ">= 0 (seconds)");
    assertBadTrace(HEADER + "2017-10-09 07:01:55,,1,0,x\n", 2, "duration", "missing value");
  }

  @Test(timeout = 60_000)
  public void badGpuCount() throws Exception {
    assertBadTrace(HEADER + "2017-10-09 07:01:55,5,0,0,x\n", 2, "num_gpus", "an integer >= 1");
    assertBadTrace(HEADER + "2017-10-09 07:01:55,5,1.5,0,x\n", 2, "num_gpus", "'1.5'");
    assertBadTrace(HEADER + "2017-10-09 07:01:55,5,two,0,x\n", 2, "num_gpus", "not a number");
  }

  @Test(timeout = 60_000)
  public void missingColumn() throws Exception {
    assertBadTrace("timestamp,duration,gpu_time\n2017-10-09 07:01:55,5,5\n", 1, "num_gpus",
        "missing column");
  }
}
