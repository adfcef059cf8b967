package io.hare.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.hare.embedded.EmbeddedCluster;
import io.hare.embedded.TaskEvents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The active ResourceManager of an HA pair killed with SIGKILL in the middle of a round, on the
 * tarball installed onto stock Hadoop ({@link StandaloneCluster}: rm0, rm1 and two NodeManagers
 * as separate processes, automatic failover, a ZooKeeper state store). Nobody tells the standby:
 * it takes over when the dead RM's ZooKeeper session expires, recovers the job from the store,
 * and the NodeManagers, the AM and the client fail over to it. The job succeeds with the
 * reference model on its first AM attempt, the tasks running at the kill finish, no task runs
 * twice, the scheduler of the RM that took over places the rest, and the killed RM, started
 * again, joins as the standby.
 *
 * <p>Logs the time from the kill until the standby was active and the job's time ("figures:").
 */
public class RmKillIT {

  private static final Logger LOG = LoggerFactory.getLogger(RmKillIT.class);
  private static final int ROUNDS = 3;
  private static final int TASKS = 3;
  private static final List<EmbeddedCluster.Node> NODES = List.of(
      new EmbeddedCluster.Node("v100", 1), new EmbeddedCluster.Node("t4", 1));
  /** The RMs' ZooKeeper session: how long the standby waits for a dead active RM's lock. */
  private static final long ZK_SESSION_MS = 4_000;
  private static final long JOB_TIMEOUT_MS = 480_000;
  /** Long enough tasks that the kill lands while some run, and they outlast the takeover. */
  private static final String SLOW_TASK = "sleep 6; ";

  @Rule
  public final Timeout timeout = Timeout.seconds(900);

  @Test
  public void theStandbyTakesOverAKilledActiveRmAndTheJobGoesOn() throws Exception {
    Path base = Path.of("target", "rm-kill-it").toAbsolutePath();
    try (StandaloneCluster cluster = StandaloneCluster.install(base, NODES,
        Map.of("hadoop.zk.timeout-ms", Long.toString(ZK_SESSION_MS)), 2);
        StandaloneJob s = StandaloneJob.submit(cluster, base, "sgd-rm-kill", ROUNDS, TASKS,
            SLOW_TASK)) {
      assertEquals("rm0, started first, is active", 0, cluster.activeResourceManager());
      assertEquals("STANDBY", cluster.haState(1));
      List<TaskEvents.Attempt> running = awaitTasksOfALaterRound(s);

      long killMs = System.currentTimeMillis();
      cluster.killResourceManager(0);
      StandaloneCluster.waitFor("rm1 to take over", 120_000,
          () -> "ACTIVE".equals(cluster.haState(1)));
      long takeoverMs = System.currentTimeMillis() - killMs;
      long jobMs = s.awaitSuccess(cluster, JOB_TIMEOUT_MS);
      SgdJobFiles.assertEqualsReference(s.job(), s.shape());

      TaskEvents.Runs runs = SgdJobFiles.runs(s.job());
      for (TaskEvents.Attempt a : running) {
        assertTrue("a task running at the kill finished: " + a + "\n" + runs,
            runs.attempts().stream().anyMatch(x -> x.containerId().equals(a.containerId())
                && x.round() == a.round() && x.index() == a.index() && x.succeeded()
                && x.endMs() > killMs));
      }
      Map<String, Long> attempts = runs.attempts().stream().collect(Collectors.groupingBy(
          a -> a.round() + "/" + a.index(), Collectors.counting()));
      assertEquals("attempts per round/task: " + attempts, ROUNDS * TASKS, attempts.size());
      attempts.forEach((task, n) -> assertEquals("task " + task + " ran " + n + " times", 1L,
          (long) n));
      String rm1Log = Files.readString(cluster.log("rm1"));
      assertTrue("rm1 recovered the job from ZooKeeper",
          rm1Log.contains("Recovering app: " + s.appId().orElseThrow()));
      // containers it recovered are logged as assigned too; new ones carry its epoch, e01
      assertTrue("rm1's scheduler placed new containers",
          rm1Log.contains("Assigned container container_e01_"));

      cluster.startResourceManager(0, 240_000);
      assertEquals("the killed RM, started again, is the standby", "STANDBY",
          cluster.haState(0));
      assertEquals(1, cluster.activeResourceManager());
      LOG.info("figures: active RM killed with SIGKILL with {} tasks running; the standby active"
          + " {} ms after the kill (ZooKeeper session {} ms); job {} ms from submit, each task"
          + " run once", running.size(), takeoverMs, ZK_SESSION_MS, jobMs);
    }
  }

  /** Waits until, after round 0 synced, tasks of a later round run; returns those running. */
  private static List<TaskEvents.Attempt> awaitTasksOfALaterRound(StandaloneJob s)
      throws Exception {
    @SuppressWarnings("unchecked")
    List<TaskEvents.Attempt>[] running = new List[1];
    StandaloneCluster.waitFor("tasks of round 1 or later running", JOB_TIMEOUT_MS, () -> {
      if (!s.client().isAlive()) {
        throw new AssertionError("hare submit ended: " + Files.readString(s.out()));
      }
      running[0] = SgdJobFiles.runs(s.job()).attempts().stream()
          .filter(a -> a.round() >= 1 && a.round() < ROUNDS - 1 && !a.ended()).toList();
      return !running[0].isEmpty();
    });
    assertFalse(running[0].isEmpty());
    return running[0];
  }
}
