package io.hare.demo;

import io.hare.embedded.EmbeddedCluster;
import io.hare.embedded.TaskEvents;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;

/**
 * node-loss: a NodeManager is stopped while it runs a task that started just before and no
 * ApplicationMaster (so that what is lost is tasks, not a job's AM; am-failure covers that), and
 * at least one other node keeps running. Its containers' processes die without recording an
 * end (lost); the RM hears nothing until the node expires ({@code ClusterFaults.NM_EXPIRY_MS}),
 * then declares it lost and tells the AMs their containers are gone; the AMs run the lost tasks
 * again elsewhere.
 */
final class NodeLoss implements ActiveFault {

  static final long TIMEOUT_MS = 60_000;
  /**
   * How recently a task on the node must have started: the kill then finds it still computing.
   * A task near its end (a tenth of a second of a test's short tasks) recorded its end before
   * the kill reached it, and the fault lost nothing; the run is polled more often than this.
   */
  static final long FRESH_MS = 150;

  @Override
  public Fault kind() {
    return Fault.NODE_LOSS;
  }

  @Override
  public String moment() {
    return "a node running a task started just before and no ApplicationMaster, with another"
        + " node left";
  }

  @Override
  public boolean due(RunView run) throws Exception {
    return target(run).isPresent();
  }

  private Optional<String> target(RunView run) throws Exception {
    List<String> live = new ArrayList<>();
    for (int i = 0; i < run.cluster().nodes().size(); i++) {
      if (run.faults().isRunning(EmbeddedCluster.host(i))) {
        live.add(EmbeddedCluster.host(i));
      }
    }
    if (live.size() < 2) {
      return Optional.empty();
    }
    for (String host : live) {
      if (hostsAnAm(run, host)) {
        continue;
      }
      long now = System.currentTimeMillis();
      for (DemoJob j : run.submitted().keySet()) {
        if (run.running(j).stream().anyMatch(a -> a.host().equals(host)
            && now - a.startMs() <= FRESH_MS)) {
          return Optional.of(host);
        }
      }
    }
    return Optional.empty();
  }

  private static boolean hostsAnAm(RunView run, String host) {
    NodeId id = run.cluster().node(host);
    SchedulerNode n = run.cluster().rm().getResourceScheduler().getSchedulerNode(id);
    return n == null || n.getCopiedListOfRunningContainers().stream()
        .anyMatch(RMContainer::isAMContainer);
  }

  @Override
  public Injected inject(RunView run) throws Exception {
    Optional<String> t = target(run);
    if (t.isEmpty()) {
      return null;
    }
    String host = t.get();
    Map<TaskEvents.Attempt, DemoJob> onHost = new LinkedHashMap<>();
    for (DemoJob j : run.submitted().keySet()) {
      for (TaskEvents.Attempt a : run.running(j)) {
        if (a.host().equals(host)) {
          onHost.put(a, j);
        }
      }
    }
    long at = System.currentTimeMillis();
    run.faults().stopNodeManager(host, TIMEOUT_MS);
    // a task that ended between the look and the kill recorded its end and was not lost
    List<String> containers = new ArrayList<>();
    List<String> what = new ArrayList<>();
    for (Map.Entry<TaskEvents.Attempt, DemoJob> e : onHost.entrySet()) {
      TaskEvents.Attempt a = e.getKey();
      boolean ended = run.events(e.getValue()).attempts().stream().anyMatch(x -> x.ended()
          && x.containerId().equals(a.containerId()) && x.round() == a.round()
          && x.index() == a.index() && x.startMs() == a.startMs());
      if (!ended) {
        containers.add(a.containerId());
        what.add(e.getValue().name() + " " + ActiveFault.describe(a));
      }
    }
    return new Injected(kind().label(), at, "stopped the NodeManager on " + host + " ("
        + run.cluster().typeByHost().get(host) + ") while it ran " + String.join(", ", what)
        + "; the RM declared the node lost after " + (System.currentTimeMillis() - at)
        + " ms and told the AMs their containers were lost", containers);
  }

  @Override
  public boolean settled(RunView run) {
    return true; // stopNodeManager returns once the RM has declared the node lost
  }
}
