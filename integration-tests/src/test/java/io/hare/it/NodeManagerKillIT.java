package io.hare.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.hare.embedded.EmbeddedCluster;
import io.hare.embedded.TaskEvents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.yarn.api.records.ApplicationId;
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
 * <p>And a NodeManager restarted with recovery on (a rolling restart) and a node an admin
 * decommissions gracefully mid-round both leave the job without a lost task.
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
  private static final int TASKS = 3;
  /**
   * One GPU per node, so every round of three tasks uses both nodes whatever node the AM is on:
   * the profile's v100 is 2.5 times faster than its t4, so the third task goes to the t4 rather
   * than third in line on the v100.
   */
  private static final List<EmbeddedCluster.Node> NODES = List.of(
      new EmbeddedCluster.Node("v100", 1), new EmbeddedCluster.Node("t4", 1));
  /**
   * Tasks of a round in the decommission case: more than the two GPUs, so that a container
   * whose task ends finds the next one waiting, and takes it unless asked back.
   */
  private static final int WIDE_TASKS = 5;
  private static final long GRACE_MS = 5_000;
  private static final long EXPIRY_MS = 20_000;
  /** A scheduling pass decided before the grace ran out may log its placement a little after. */
  private static final long LOG_SLACK_MS = 3_000;
  private static final long JOB_TIMEOUT_MS = 480_000;
  /** Long enough tasks that the kill lands while some run. */
  private static final String SLOW_TASK = "sleep 5; ";
  /** A container placement in the RM's log (FiCaSchedulerNode), with its time. */
  private static final Pattern ASSIGNED = Pattern.compile(
      "^(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3}) .*Assigned container (\\S+) .* on host"
      + " (\\S+?):\\d+");
  private static final DateTimeFormatter LOG_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");

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

  /**
   * The host of a task running now on a node without the AM (whose process outlives its
   * NodeManager anyway, as every container does), in a round before the job's last, so that a
   * round follows it.
   */
  private static String awaitTaskAwayFromAm(StandaloneCluster cluster, StandaloneJob s)
      throws Exception {
    String[] victim = new String[1];
    StandaloneCluster.waitFor("a task running on a node without the AM", JOB_TIMEOUT_MS, () -> {
      if (!s.client().isAlive()) {
        throw new AssertionError("hare submit ended: " + Files.readString(s.out()));
      }
      Optional<ApplicationId> id = s.appId();
      String amHost = id.isEmpty() ? null : amHost(cluster, id.get());
      if (amHost == null) {
        return false;
      }
      for (TaskEvents.Attempt a : SgdJobFiles.runs(s.job()).attempts()) {
        if (a.round() < s.shape().rounds() - 1 && !a.ended() && !a.host().equals(amHost)) {
          victim[0] = a.host();
          return true;
        }
      }
      return false;
    });
    return victim[0];
  }

  /** A container placement the RM logged. */
  private record Placement(String container, String host, String at) {}

  /** The containers the RM's log shows placed after {@code afterMs}. */
  private static List<Placement> placementsAfter(StandaloneCluster cluster, long afterMs)
      throws Exception {
    List<Placement> out = new ArrayList<>();
    for (String line : Files.readAllLines(cluster.log("rm"))) {
      Matcher m = ASSIGNED.matcher(line);
      if (m.find() && LocalDateTime.parse(m.group(1), LOG_TIME).atZone(ZoneId.systemDefault())
          .toInstant().toEpochMilli() > afterMs) {
        out.add(new Placement(m.group(2), m.group(3), m.group(1)));
      }
    }
    return out;
  }

  /** The scheduler's count of nodes silent past the grace (its JMX gauge); -1 if unread. */
  private static int silentNodes(StandaloneCluster cluster) throws Exception {
    JsonNode jmx = cluster.rest(
        "/jmx?qry=Hadoop:service=ResourceManager,name=HareSchedulerMetrics");
    JsonNode beans = jmx == null ? null : jmx.path("beans");
    return beans == null || beans.isEmpty() ? -1 : beans.get(0).path("SilentNodes").asInt(-1);
  }

  /** The free GPUs by type on the Hare scheduler's REST answer (types with none: absent). */
  private static Map<String, Integer> freeGpus(StandaloneCluster cluster) throws Exception {
    Map<String, Integer> free = new TreeMap<>();
    JsonNode answer = cluster.rest("/ws/v1/hare/scheduler");
    if (answer != null) {
      for (JsonNode g : answer.path("hareScheduler").path("gpus")) {
        if (g.path("free").asInt() > 0) {
          free.put(g.path("type").asText(), g.path("free").asInt());
        }
      }
    }
    return free;
  }

  /** The host of the application's AM, or null while the RM does not say. */
  private static String amHost(StandaloneCluster cluster, ApplicationId id) throws Exception {
    JsonNode app = cluster.rest("/ws/v1/cluster/apps/" + id);
    String http = app == null ? "" : app.path("app").path("amHostHttpAddress").asText("");
    return http.isEmpty() ? null : http.substring(0, http.lastIndexOf(':'));
  }

  private static int nodeIndex(String host) {
    for (int i = 0; i < NODES.size(); i++) {
      if (EmbeddedCluster.host(i).equals(host)) {
        return i;
      }
    }
    throw new AssertionError("no NodeManager on " + host);
  }
}
