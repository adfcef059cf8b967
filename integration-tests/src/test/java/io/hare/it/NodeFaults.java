package io.hare.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.hare.embedded.EmbeddedCluster;
import io.hare.embedded.TaskEvents;
import java.nio.file.Files;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.yarn.api.records.ApplicationId;

/**
 * What {@link NodeManagerKillIT} and {@link NodeMaintenanceIT} share: the two-node cluster, the
 * job's shape and timings, and what they read of a {@link StandaloneCluster} (the RM's log, its
 * REST and JMX answers) and of a job's task events.
 */
final class NodeFaults {

  static final int TASKS = 3;
  /**
   * One GPU per node, so every round of three tasks uses both nodes whatever node the AM is on:
   * the profile's v100 is 2.5 times faster than its t4, so the third task goes to the t4 rather
   * than third in line on the v100.
   */
  static final List<EmbeddedCluster.Node> NODES = List.of(
      new EmbeddedCluster.Node("v100", 1), new EmbeddedCluster.Node("t4", 1));
  static final long GRACE_MS = 5_000;
  /** A scheduling pass decided before the grace ran out may log its placement a little after. */
  static final long LOG_SLACK_MS = 3_000;
  static final long JOB_TIMEOUT_MS = 480_000;
  /** Long enough tasks that the fault lands while some run. */
  static final String SLOW_TASK = "sleep 5; ";
  /** A container placement in the RM's log (FiCaSchedulerNode), with its time. */
  private static final Pattern ASSIGNED = Pattern.compile(
      "^(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3}) .*Assigned container (\\S+) .* on host"
      + " (\\S+?):\\d+");
  private static final DateTimeFormatter LOG_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");

  private NodeFaults() {}

  /**
   * The host of a task running now on a node without the AM (whose process outlives its
   * NodeManager anyway, as every container does), in a round before the job's last, so that a
   * round follows it.
   */
  static String awaitTaskAwayFromAm(StandaloneCluster cluster, StandaloneJob s)
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
  record Placement(String container, String host, String at) {}

  /** The containers the RM's log shows placed after {@code afterMs}. */
  static List<Placement> placementsAfter(StandaloneCluster cluster, long afterMs)
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
  static int silentNodes(StandaloneCluster cluster) throws Exception {
    JsonNode jmx = cluster.rest(
        "/jmx?qry=Hadoop:service=ResourceManager,name=HareSchedulerMetrics");
    JsonNode beans = jmx == null ? null : jmx.path("beans");
    return beans == null || beans.isEmpty() ? -1 : beans.get(0).path("SilentNodes").asInt(-1);
  }

  /** The free GPUs by type on the Hare scheduler's REST answer (types with none: absent). */
  static Map<String, Integer> freeGpus(StandaloneCluster cluster) throws Exception {
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

  static int nodeIndex(String host) {
    for (int i = 0; i < NODES.size(); i++) {
      if (EmbeddedCluster.host(i).equals(host)) {
        return i;
      }
    }
    throw new AssertionError("no NodeManager on " + host);
  }
}
