package io.hare.sim.workload;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.BadInputException;
import io.hare.core.ClusterSpec;
import io.hare.core.JobSpec;
import io.hare.core.profile.ProfileTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** JOBS.csv + PROFILES.csv: reading, writing, and every malformed input named by line and field. */
public class WorkloadFilesTest {

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private static final String HEADER = "job_id,arrival_s,weight,model,tasks_per_round,rounds\n";
  private static final String PROFILES = "model,gpu_type,compute_ms,sync_ms\n"
      + "cnn,v100,100,20\ncnn,k80,700,40\nrec,t4,120,50\n";

  private Path jobs;
  private Path profiles;

  @Before
  public void files() throws Exception {
    jobs = tmp.getRoot().toPath().resolve("JOBS.csv");
    profiles = tmp.getRoot().toPath().resolve("PROFILES.csv");
    Files.writeString(profiles, PROFILES);
  }

  private Workload read(String jobsText) throws Exception {
    Files.writeString(jobs, jobsText);
    return WorkloadFiles.read(jobs, profiles);
  }

  private void assertBad(String jobsText, long line, String field, String... parts)
      throws Exception {
    try {
      read(jobsText);
      fail("accepted: " + jobsText);
    } catch (BadInputException e) {
      assertMessage(e, jobs + ":" + line + ": field '" + field + "': ", parts);
    }
  }

  private static void assertMessage(BadInputException e, String prefix, String... parts) {
    String m = e.getMessage();
    assertTrue(m + "\nshould start with " + prefix, m.startsWith(prefix));
    for (String p : parts) {
      assertTrue(m + "\nshould mention " + p, m.contains(p));
    }
  }

  @Test(timeout = 60_000)
  public void readsJobsWithSecondsAsMilliseconds() throws Exception {
    Workload w = read(HEADER + "a,0,1,cnn,2,3\n# later\nb,1.5,2.5,rec,1,10\n");
    assertEquals(List.of(new JobSpec("a", 0, 1, "cnn", 2, 3),
        new JobSpec("b", 1500, 2.5, "rec", 1, 10)), w.jobs());
    assertEquals(jobs.toString(), w.name());
    assertEquals(120, w.profiles().times("rec", io.hare.core.GpuType.of("t4")).computeMs(), 0);
  }

  @Test(timeout = 60_000)
  public void roundTripThroughWrite() throws Exception {
    ProfileTable p = ProfileTable.builder().put("cnn", "v100", 100, 20).put("gnn", "k80", 33.5, 0)
        .build();
    Workload w = new Workload("x", List.of(new JobSpec("j1", 1234, 3, "cnn", 4, 7),
        new JobSpec("j2", 0, 0.5, "gnn", 1, 1)), p);
    Path j = tmp.getRoot().toPath().resolve("J.csv");
    Path q = tmp.getRoot().toPath().resolve("P.csv");
    WorkloadFiles.write(w, j, q);
    Workload back = WorkloadFiles.read(j, q);
    assertEquals(w.jobs(), back.jobs());
    assertEquals(p.forModel("cnn"), back.profiles().forModel("cnn"));
    assertEquals(p.forModel("gnn"), back.profiles().forModel("gnn"));
  }

  @Test(timeout = 60_000)
  public void missingColumn() throws Exception {
    assertBad("job_id,arrival_s,weight,model,rounds\na,0,1,cnn,3\n", 1, "tasks_per_round",
        "missing column", "job_id,arrival_s,weight,model,tasks_per_round,rounds");
  }

  @Test(timeout = 60_000)
  public void arrivalNotANumber() throws Exception {
    assertBad(HEADER + "a,0,1,cnn,1,1\nb,soon,1,cnn,1,1\n", 3, "arrival_s", "not a number",
        "'soon'", ">= 0 (seconds)");
  }

  @Test(timeout = 60_000)
  public void negativeArrival() throws Exception {
    assertBad(HEADER + "a,-1,1,cnn,1,1\n", 2, "arrival_s", ">= 0", "'-1'");
  }

  @Test(timeout = 60_000)
  public void weightZero() throws Exception {
    assertBad(HEADER + "a,0,0,cnn,1,1\n", 2, "weight", "a number > 0", "'0'");
  }

  @Test(timeout = 60_000)
  public void weightNotFinite() throws Exception {
    assertBad(HEADER + "a,0,Infinity,cnn,1,1\n", 2, "weight", "not finite");
    assertBad(HEADER + "a,0,NaN,cnn,1,1\n", 2, "weight", "not finite");
  }

  @Test(timeout = 60_000)
  public void tasksPerRoundZero() throws Exception {
    assertBad(HEADER + "a,0,1,cnn,0,1\n", 2, "tasks_per_round", "an integer >= 1", "'0'");
  }

  @Test(timeout = 60_000)
  public void roundsZeroOrFractional() throws Exception {
    assertBad(HEADER + "a,0,1,cnn,1,0\n", 2, "rounds", "an integer >= 1", "'0'");
    assertBad(HEADER + "a,0,1,cnn,1,2.5\n", 2, "rounds", "an integer >= 1", "'2.5'");
    assertBad(HEADER + "a,0,1,cnn,1,many\n", 2, "rounds", "not a number");
  }

  @Test(timeout = 60_000)
  public void duplicateJobId() throws Exception {
    assertBad(HEADER + "a,0,1,cnn,1,1\nb,0,1,cnn,1,1\na,5,1,cnn,1,1\n", 4, "job_id",
        "'a'", "already used on line 2");
  }

  @Test(timeout = 60_000)
  public void modelWithoutAnyProfile() throws Exception {
    assertBad(HEADER + "a,0,1,resnet,1,1\n", 2, "model", "no profile for model 'resnet'",
        profiles.toString(), "cnn, rec");
  }

  @Test(timeout = 60_000)
  public void badProfilesFileIsNamed() throws Exception {
    Files.writeString(profiles, "model,gpu_type,compute_ms,sync_ms\ncnn,v100,-1,0\n");
    try {
      read(HEADER + "a,0,1,cnn,1,1\n");
      fail();
    } catch (BadInputException e) {
      assertMessage(e, profiles + ":2: field 'compute_ms': ");
    }
  }

  @Test(timeout = 60_000)
  public void runnableWorkloadPasses() throws Exception {
    Workload w = read(HEADER + "a,0,1,cnn,4,1\nb,0,1,rec,2,1\n");
    WorkloadFiles.checkRunnable(w, ClusterSpec.parse("v100=2,k80=2,t4=2"));
  }

  @Test(timeout = 60_000)
  public void modelWithNoProfileOnTheClusterNamesLineModelAndTypes() throws Exception {
    Workload w = read(HEADER + "a,0,1,cnn,1,1\nb,0,1,rec,1,1\n");
    try {
      WorkloadFiles.checkRunnable(w, ClusterSpec.parse("v100=4,k80=2"));
      fail();
    } catch (BadInputException e) {
      assertMessage(e, jobs + ":3: field 'model': ", "model 'rec'", "v100=4,k80=2",
          "profiles on: t4");
    }
  }

  @Test(timeout = 60_000)
  public void typeWithZeroGpusDoesNotCount() throws Exception {
    Workload w = read(HEADER + "b,0,1,rec,1,1\n");
    try {
      WorkloadFiles.checkRunnable(w, ClusterSpec.parse("v100=4,t4=0"));
      fail();
    } catch (BadInputException e) {
      assertMessage(e, jobs + ":2: field 'model': ");
    }
  }

  @Test(timeout = 60_000)
  public void jobWiderThanItsGpusIsRefused() throws Exception {
    Workload w = read(HEADER + "a,0,1,cnn,5,1\n");
    try {
      WorkloadFiles.checkRunnable(w, ClusterSpec.parse("v100=2,k80=2,t4=8"));
      fail();
    } catch (BadInputException e) {
      assertMessage(e, jobs + ":2: field 'tasks_per_round': ", "5 tasks per round",
          "only 4 GPUs", "v100, k80");
    }
  }

  @Test(timeout = 60_000)
  public void workloadNotFromAFileIsNamedByJobId() throws Exception {
    Workload w = new Workload("paper", List.of(new JobSpec("j7", 0, 1, "cnn", 1, 1)),
        ProfileTable.builder().put("cnn", "v100", 1, 0).build());
    try {
      WorkloadFiles.checkRunnable(w, ClusterSpec.parse("k80=1"));
      fail();
    } catch (BadInputException e) {
      assertMessage(e, "job 'j7': field 'model': ");
    }
  }
}
