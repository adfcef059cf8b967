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

import com.fasterxml.jackson.databind.JsonNode;
import io.hare.embedded.TaskEvents;
import io.hare.it.NodeFaults.Placement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.yarn.api.records.DecommissionType;
import org.apache.hadoop.yarn.client.ClientRMProxy;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.ResourceManagerAdministrationProtocol;
import org.apache.hadoop.yarn.server.api.protocolrecords.RefreshNodesRequest;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node taken out of service on purpose in the middle of a round, on the tarball installed onto
 * stock Hadoop ({@link StandaloneCluster}), each case on its own cluster: a NodeManager restarted
 * with recovery on (a rolling restart) and a node an admin decommissions gracefully both leave
 * the job without a lost task, on its first AM attempt. {@link NodeManagerKillIT} has the
 * unplanned losses.
 */
public class NodeMaintenanceIT {

  private static final Logger LOG = LoggerFactory.getLogger(NodeMaintenanceIT.class);
  /**
   * Tasks of a round in the decommission case: more than the two GPUs, so that a container
   * whose task ends finds the next one waiting, and takes it unless asked back.
   */
  private static final int WIDE_TASKS = 5;

  @Rule
  public final Timeout timeout = Timeout.seconds(900);

  /**
   * A NodeManager restarted mid-round with NodeManager recovery on and supervised, as in a rolling
   * restart or upgrade: the containers it ran go on through the restart and the restarted
   * NodeManager takes them back, so the job loses nothing: every task runs once, the task that
   * was running there ends there, the job succeeds with the reference model on its first AM
   * attempt, and the scheduler offers the node's GPU again.
   */
  @Test
  public void aNodeManagerRestartedWithRecoveryKeepsItsTasks() throws Exception {
    Path base = Path.of("target", "nm-restart-it").toAbsolutePath();
    try (StandaloneCluster cluster = StandaloneCluster.install(base, NODES,
        Map.of("yarn.scheduler.hare.node.liveness-grace-ms", Long.toString(GRACE_MS)),
        Map.of(YarnConfiguration.NM_RECOVERY_ENABLED, "true",
            YarnConfiguration.NM_RECOVERY_SUPERVISED, "true"), 1);
        StandaloneJob s = StandaloneJob.submit(cluster, base, "sgd-nm-restart", 2, TASKS,
            SLOW_TASK)) {
      String victim = awaitTaskAwayFromAm(cluster, s);
      int index = nodeIndex(victim);
      List<TaskEvents.Attempt> through = SgdJobFiles.runs(s.job()).attempts().stream()
          .filter(a -> a.host().equals(victim) && !a.ended()).toList();
      assertFalse("tasks running on " + victim + " at the stop", through.isEmpty());
      long stopMs = System.currentTimeMillis();
      int registered = cluster.registrations(index);
      cluster.stopNodeManager(index);
      cluster.startNodeManager(index);
      StandaloneCluster.waitFor(victim + "'s NodeManager registered again and taking containers",
          240_000, () -> cluster.registrations(index) > registered
              && cluster.nodesIn("RUNNING").contains(victim) && silentNodes(cluster) == 0);
      long backMs = System.currentTimeMillis();

      long jobMs = s.awaitSuccess(cluster, JOB_TIMEOUT_MS);
      SgdJobFiles.assertEqualsReference(s.job(), s.shape());
      TaskEvents.Runs runs = SgdJobFiles.runs(s.job());
      assertEquals("each task ran once: " + runs, s.shape().rounds() * TASKS,
          runs.attempts().size());
      for (TaskEvents.Attempt t : through) {
        assertTrue("round " + t.round() + " task " + t.index() + " ended on " + victim
            + " through the restart: " + runs, runs.attempts().stream().anyMatch(a ->
                a.round() == t.round() && a.index() == t.index() && a.host().equals(victim)
                    && a.succeeded()));
      }
      // the scheduler took the node back: once the job has ended it offers its GPU again
      String type = NODES.get(index).gpuType();
      StandaloneCluster.waitFor("the scheduler to offer " + victim + "'s " + type + " GPU again",
          60_000, () -> freeGpus(cluster).getOrDefault(type, 0) == 1);
      LOG.info("figures: NodeManager {} restarted with recovery mid-round ({} tasks running"
          + " there); registered again and heartbeating, seen {} ms after the stop; job {} ms"
          + " from submit, no task run twice", victim, through.size(), backMs - stopMs, jobMs);
    }
  }

  /**
   * A node an admin decommissions gracefully mid-round ({@code yarn rmadmin -refreshNodes -g
   * 600}, through the RM's admin protocol): YARN lists it DECOMMISSIONING, the scheduler places
   * nothing more there (its running task ends, a Hare AM's warm container there is asked back),
   * the job goes on on the other node and succeeds with the reference model, and YARN lets the
   * node go (DECOMMISSIONED) once the job has ended, well before the timeout.
   */
  @Test
  public void aGracefullyDecommissionedNodeTakesNothingNewAndLeavesOnceTheJobEnded()
      throws Exception {
    Path base = Path.of("target", "node-decommission-it").toAbsolutePath();
    Path exclude = base.resolve("exclude-hosts");
    Files.createDirectories(base);
    Files.writeString(exclude, "");
    try (StandaloneCluster cluster = StandaloneCluster.install(base, NODES, Map.of(
        YarnConfiguration.RM_NODES_EXCLUDE_FILE_PATH, exclude.toString(),
        // how often YARN checks whether a decommissioning node's applications have ended
        "yarn.resourcemanager.decommissioning-nodes-watcher.poll-interval-secs", "1"));
        StandaloneJob s = StandaloneJob.submit(cluster, base, "sgd-decommission", 2,
            WIDE_TASKS, SLOW_TASK)) {
      String victim = awaitTaskAwayFromAm(cluster, s);
      Files.writeString(exclude, victim + "\n");
      long drainMs = System.currentTimeMillis();
      ResourceManagerAdministrationProtocol admin = ClientRMProxy.createRMProxy(
          cluster.clientConf(), ResourceManagerAdministrationProtocol.class);
      try {
        admin.refreshNodes(RefreshNodesRequest.newInstance(DecommissionType.GRACEFUL, 600));
      } finally {
        RPC.stopProxy(admin);
      }
      StandaloneCluster.waitFor(victim + " DECOMMISSIONING", 60_000,
          () -> cluster.nodesIn("DECOMMISSIONING").contains(victim));

      long jobMs = s.awaitSuccess(cluster, JOB_TIMEOUT_MS);
      SgdJobFiles.assertEqualsReference(s.job(), s.shape());
      List<Placement> after = placementsAfter(cluster, drainMs + LOG_SLACK_MS);
      assertFalse("the job went on placing tasks after the decommission", after.isEmpty());
      assertTrue("containers placed on the decommissioning node " + victim + ": " + after,
          after.stream().noneMatch(p -> p.host().equals(victim)));
      // a warm container takes its next task without a new placement: none may start there
      List<TaskEvents.Attempt> late = SgdJobFiles.runs(s.job()).attempts().stream()
          .filter(a -> a.host().equals(victim) && a.startMs() > drainMs + LOG_SLACK_MS)
          .toList();
      assertTrue("tasks started on the decommissioning node " + victim + ": " + late,
          late.isEmpty());
      long leftMs = System.currentTimeMillis();
      StandaloneCluster.waitFor(victim + " DECOMMISSIONED once the job ended", 120_000,
          () -> decommissioned(cluster).contains(victim));
      LOG.info("figures: node {} decommissioned gracefully mid-round; job {} ms from submit, {}"
          + " containers placed elsewhere after it, none on the node; DECOMMISSIONED {} ms"
          + " after the job ended", victim, jobMs, after.size(),
          System.currentTimeMillis() - leftMs);
    }
  }

  /** The hosts the RM lists DECOMMISSIONED (its inactive nodes). */
  private static List<String> decommissioned(StandaloneCluster cluster) throws Exception {
    List<String> hosts = new ArrayList<>();
    JsonNode nodes = cluster.rest("/ws/v1/cluster/nodes?states=DECOMMISSIONED");
    if (nodes != null) {
      for (JsonNode n : nodes.path("nodes").path("node")) {
        hosts.add(n.path("nodeHostName").asText());
      }
    }
    return hosts;
  }
}
