package io.hare.it;

import static io.hare.it.NodeFaults.GRACE_MS;
import static io.hare.it.NodeFaults.JOB_TIMEOUT_MS;
import static io.hare.it.NodeFaults.LOG_SLACK_MS;
import static io.hare.it.NodeFaults.NODES;
import static io.hare.it.NodeFaults.SLOW_TASK;
import static io.hare.it.NodeFaults.TASKS;
import static io.hare.it.NodeFaults.awaitTaskAwayFromAm;
import static io.hare.it.NodeFaults.freeGpus;
import static io.hare.it.NodeFaults.nodeIndex;
import static io.hare.it.NodeFaults.placementsAfter;
import static io.hare.it.NodeFaults.silentNodes;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.hare.embedded.TaskEvents;
import io.hare.it.NodeFaults.Placement;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node lost in the middle of a round, on the tarball installed onto stock Hadoop
 * ({@link StandaloneCluster}: an RM and two NMs as separate processes), each case on its own
 * cluster:
 *
 * <ul>
 *   <li>a NodeManager process killed with SIGKILL: its containers live on and the RM still lists
 *       it RUNNING (YARN's liveness expiry is its default 10 minutes), so only Hare's liveness
 *       grace ({@code yarn.scheduler.hare.node.liveness-grace-ms}) keeps new containers off it.
 *       The job succeeds with the reference model, no container is placed on the dead node
 *       after the kill plus the grace, and once the NodeManager is started again the node is
 *       RUNNING and the scheduler takes it back;
 *   <li>a node crashed (its NodeManager and its containers killed), with YARN's expiry
 *       ({@code yarn.nm.liveness-monitor.expiry-interval-ms}) set short: YARN reports the lost
 *       containers, the AM asks their tasks again away from the node without counting them as
 *       failures, they run on the other node and the job succeeds with the reference model.
 * </ul>
 *
 * <p>{@link NodeMaintenanceIT} has the planned cases (a rolling restart, a decommission), in a
 * class of their own so that the two halves run side by side.
 *
 * <p>Each job must succeed with its first AM attempt: YARN's second attempt would rerun the job
 * and hide an AM that the lost node brought down.
 *
 * <p>Logs the seconds from the kill until the lost tasks ran elsewhere and the job's time
 * ("figures:"; the RM's start time comes from {@link StandaloneCluster#install}).
 */
public class NodeManagerKillIT {

  private static final Logger LOG = LoggerFactory.getLogger(NodeManagerKillIT.class);
  /** Enough for a kill in round 0 or 1 to leave a round after it on the surviving node. */
  private static final int ROUNDS = 3;
  private static final long EXPIRY_MS = 20_000;

  @Rule
  public final Timeout timeout = Timeout.seconds(900);

  @Test
  public void aKilledNodeManagerGetsNoNewContainersAndComesBack() throws Exception {
    Path base = Path.of("target", "nm-kill-it").toAbsolutePath();
    try (StandaloneCluster cluster = StandaloneCluster.install(base, NODES,
        Map.of("yarn.scheduler.hare.node.liveness-grace-ms", Long.toString(GRACE_MS)));
        StandaloneJob s = StandaloneJob.submit(cluster, base, "sgd-nm-kill",
            ROUNDS, TASKS, SLOW_TASK)) {
      String victim = awaitTaskAwayFromAm(cluster, s);
      int index = nodeIndex(victim);
      long killMs = System.currentTimeMillis();
      cluster.killNodeManager(index);
      assertTrue("the RM lists the killed node RUNNING",
          cluster.nodesIn("RUNNING").contains(victim));

      long jobMs = s.awaitSuccess(cluster, JOB_TIMEOUT_MS);
      assertTrue("YARN still lists the killed node RUNNING (its own expiry is 10 minutes)",
          cluster.nodesIn("RUNNING").contains(victim));
      SgdJobFiles.assertEqualsReference(s.job(), s.shape());
      List<Placement> after = placementsAfter(cluster, killMs + GRACE_MS + LOG_SLACK_MS);
      assertTrue("containers placed on the dead node " + victim + " after its grace: " + after,
          after.stream().noneMatch(p -> p.host().equals(victim)));
      LOG.info("figures: NodeManager {} killed mid-round; job {} ms from submit, {} containers"
          + " placed elsewhere after the kill plus the grace ({} ms), none on the dead node",
          victim, jobMs, after.size(), GRACE_MS);

      assertEquals("nodes the scheduler finds silent", 1, silentNodes(cluster));

      long restartMs = System.currentTimeMillis();
      cluster.startNodeManager(index);
      cluster.awaitRunningNodes(NODES.size(), 240_000);
      StandaloneCluster.waitFor("the scheduler to take " + victim + " back", 240_000,
          () -> silentNodes(cluster) == 0);
      assertTrue(cluster.nodesIn("RUNNING").contains(victim));
      LOG.info("figures: NodeManager {} RUNNING and taking containers {} ms after its restart",
          victim, System.currentTimeMillis() - restartMs);
    }
  }

  @Test
  public void theTasksOfACrashedNodeRunAgainOnTheOtherNode() throws Exception {
    Path base = Path.of("target", "node-crash-it").toAbsolutePath();
    try (StandaloneCluster cluster = StandaloneCluster.install(base, NODES,
        Map.of("yarn.scheduler.hare.node.liveness-grace-ms", Long.toString(GRACE_MS),
            "yarn.nm.liveness-monitor.expiry-interval-ms", Long.toString(EXPIRY_MS)));
        StandaloneJob s = StandaloneJob.submit(cluster, base,
            "sgd-node-crash", ROUNDS, TASKS, SLOW_TASK)) {
      String victim = awaitTaskAwayFromAm(cluster, s);
      int index = nodeIndex(victim);
      long killMs = System.currentTimeMillis();
      cluster.crashNode(index);
      List<TaskEvents.Attempt> lost = SgdJobFiles.runs(s.job()).attempts().stream()
          .filter(a -> a.host().equals(victim) && !a.ended()).toList();
      assertFalse("tasks running on " + victim + " at the crash", lost.isEmpty());

      long jobMs = s.awaitSuccess(cluster, JOB_TIMEOUT_MS);
      TaskEvents.Runs runs = SgdJobFiles.runs(s.job());
      long lastRerunMs = 0;
      for (TaskEvents.Attempt l : lost) {
        TaskEvents.Attempt again = runs.attempts().stream().filter(a -> a.round() == l.round()
            && a.index() == l.index() && !a.host().equals(victim) && a.startMs() > killMs
            && a.succeeded()).findFirst().orElseThrow(() -> new AssertionError("round "
            + l.round() + " task " + l.index() + " did not run again elsewhere: " + runs));
        lastRerunMs = Math.max(lastRerunMs, again.startMs() - killMs);
      }
      SgdJobFiles.assertEqualsReference(s.job(), s.shape());
      List<Placement> after = placementsAfter(cluster, killMs + GRACE_MS + LOG_SLACK_MS);
      assertTrue("containers placed on the crashed node " + victim + " after its grace: "
          + after, after.stream().noneMatch(p -> p.host().equals(victim)));
      LOG.info("figures: node {} crashed mid-round; its {} lost tasks all started on the other"
          + " node {} ms after the crash (Hare grace {} ms, YARN expiry {} ms); job {} ms from"
          + " submit", victim, lost.size(), lastRerunMs, GRACE_MS, EXPIRY_MS, jobMs);

      // the lost node comes back: YARN adds it anew, and the scheduler has its GPU again, of
      // its type, free
      String lostType = NODES.get(index).gpuType();
      StandaloneCluster.waitFor(victim + " LOST and its GPU gone from the scheduler", 120_000,
          () -> String.valueOf(cluster.rest("/ws/v1/cluster/nodes?states=LOST")).contains(victim)
              && !freeGpus(cluster).containsKey(lostType));
      cluster.startNodeManager(index);
      cluster.awaitRunningNodes(NODES.size(), 240_000);
      StandaloneCluster.waitFor("the scheduler to have " + victim + "'s " + lostType
          + " GPU again", 60_000, () -> freeGpus(cluster).getOrDefault(lostType, 0) == 1);
      assertEquals("free GPUs by type once the lost node is back", Map.of("v100", 1, "t4", 1),
          freeGpus(cluster));
    }
  }
}
