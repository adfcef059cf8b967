package io.hare.demo;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.hare.core.BadInputException;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The parts of the fault harness that need no cluster: the fault names, the jobs and task
 * commands of task-failure (run in bash as a container would), and what a plan reports of
 * faults that never came due. The faults themselves: FaultsIT, RmRestartIT, RmFailoverIT,
 * DemoInjectIT.
 */
public class FaultPlanTest {

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private static final List<DemoJob> WORKLOAD = List.of(
      new DemoJob("a", DemoModel.GRAPHSAGE, 1, 3, 2, 0, 1),
      new DemoJob("b", DemoModel.RESNET50, 2, 3, 2, 500, 2));

  @Test(timeout = 60_000)
  public void faultsAreNamedAsOnTheCommandLine() throws Exception {
    assertEquals(EnumSet.complementOf(EnumSet.of(Fault.RM_FAILOVER)),
        Fault.parse("rm-restart,am-failure,node-loss,task-failure"));
    assertEquals(EnumSet.complementOf(EnumSet.of(Fault.RM_RESTART)),
        Fault.parse("rm-failover,am-failure,node-loss,task-failure"));
    assertEquals(EnumSet.of(Fault.NODE_LOSS, Fault.RM_RESTART),
        Fault.parse(" Node-Loss , rm-restart"));
    assertEquals("rm-restart,rm-failover,am-failure,node-loss,task-failure", Fault.names());
  }

  /** With a standby RM, stopping the active one is a failover: the two are not combined. */
  @Test(timeout = 60_000)
  public void aRestartAndAFailoverAreRefusedTogether() {
    BadInputException e = assertThrows(BadInputException.class,
        () -> Fault.parse("rm-failover,node-loss,rm-restart"));
    assertEquals("--inject: 'rm-restart' and 'rm-failover' do not go together (with a standby"
        + " RM, a restart of the active one is a failover); known: rm-restart, rm-failover,"
        + " am-failure, node-loss, task-failure", e.getMessage());
    IllegalArgumentException plan = assertThrows(IllegalArgumentException.class,
        () -> new FaultPlan(EnumSet.allOf(Fault.class)));
    assertTrue(plan.getMessage(), plan.getMessage().startsWith("'rm-restart' and 'rm-failover'"));
  }

  /** Only a failover needs the second ResourceManager (and the ZooKeeper it brings). */
  @Test(timeout = 60_000)
  public void aFailoverAsksForAPairOfResourceManagers() {
    assertEquals(2, new FaultPlan(EnumSet.of(Fault.RM_FAILOVER, Fault.AM_FAILURE))
        .resourceManagers());
    assertEquals(1, new FaultPlan(EnumSet.complementOf(EnumSet.of(Fault.RM_FAILOVER)))
        .resourceManagers());
    assertEquals(1, Injection.NONE.resourceManagers());
  }

  @Test(timeout = 60_000)
  public void unknownEmptyAndRepeatedNamesAreRefusedAllAtOnce() {
    BadInputException e = assertThrows(BadInputException.class,
        () -> Fault.parse("rm-restart,disk-full,,rm-restart"));
    assertEquals("--inject: unknown fault 'disk-full'; an empty name; 'rm-restart' is given"
        + " twice; known: rm-restart, rm-failover, am-failure, node-loss, task-failure",
        e.getMessage());
  }

  @Test(timeout = 60_000)
  public void taskFailureAddsAnAlwaysFailingJobAfterTheFirst() {
    FaultPlan plan = new FaultPlan(EnumSet.of(Fault.TASK_FAILURE));
    List<DemoJob> jobs = plan.jobs(WORKLOAD);
    assertEquals(List.of("a", TaskFailures.ALWAYS_FAILS, "b"),
        jobs.stream().map(DemoJob::name).collect(Collectors.toList()));
    assertEquals("submitted with the first job", 0, jobs.get(1).submitAtMs());
    assertEquals(Set.of(TaskFailures.ALWAYS_FAILS), plan.mustFail());
    assertEquals(WORKLOAD, new FaultPlan(EnumSet.of(Fault.RM_RESTART)).jobs(WORKLOAD));
    assertTrue(new FaultPlan(EnumSet.of(Fault.RM_RESTART)).mustFail().isEmpty());
  }

  /** The second job's round 1 task 0 fails on its first attempt only; others run as given. */
  @Test(timeout = 60_000)
  public void theFailOnceCommandFailsTheFirstAttemptAndRunsTheRetry() throws Exception {
    FaultPlan plan = new FaultPlan(EnumSet.of(Fault.TASK_FAILURE));
    List<DemoJob> jobs = plan.jobs(WORKLOAD);
    File work = tmp.newFolder("b");
    String cmd = plan.taskCommand(jobs.get(2), work, "echo ran");
    assertEquals("another round runs as given", 0, bash(cmd, "0", "0"));
    assertEquals("another task runs as given", 0, bash(cmd, "1", "1"));
    assertEquals("first attempt", TaskFailures.ONCE_EXIT, bash(cmd, "1", "0"));
    assertEquals("the retry", 0, bash(cmd, "1", "0"));
    assertEquals("echo ran", plan.taskCommand(jobs.get(0), work, "echo ran"));
    String always = plan.taskCommand(jobs.get(1), work, "echo ran");
    assertEquals(TaskFailures.ALWAYS_EXIT, bash(always, "0", "0"));
    assertEquals(TaskFailures.ALWAYS_EXIT, bash(always, "0", "0"));
  }

  @Test(timeout = 60_000)
  public void faultsThatNeverCameDueAreReportedAsNotInjected() {
    List<Injected> i = new FaultPlan(EnumSet.complementOf(EnumSet.of(Fault.RM_FAILOVER)))
        .injected();
    assertEquals(List.of("task-failure", "task-failure", "am-failure", "rm-restart", "node-loss"),
        i.stream().map(Injected::fault).collect(Collectors.toList()));
    for (Injected x : i) {
      assertFalse(x.toString(), x.happened());
      assertTrue(x.toString(), x.detail().startsWith("not "));
    }
    assertTrue(i.get(4).detail(), i.get(4).detail().contains("no ApplicationMaster"));
    List<Injected> failover = new FaultPlan(EnumSet.of(Fault.RM_FAILOVER)).injected();
    assertEquals("rm-failover", failover.get(0).fault());
    assertTrue(failover.get(0).detail(), failover.get(0).detail().contains("after some job"
        + " finished a round"));
  }

  private int bash(String command, String round, String index) throws Exception {
    ProcessBuilder pb = new ProcessBuilder("bash", "-c", command);
    pb.environment().put("HARE_ROUND", round);
    pb.environment().put("HARE_TASK_INDEX", index);
    pb.redirectErrorStream(true);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(30, TimeUnit.SECONDS));
    if (p.exitValue() == 0) {
      assertEquals("ran\n", out);
    }
    return p.exitValue();
  }
}
