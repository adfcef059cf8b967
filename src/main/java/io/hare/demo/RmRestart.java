package io.hare.demo;

import io.hare.embedded.ClusterFaults;
import io.hare.embedded.TaskEvents;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;

/**
 * The active ResourceManager goes down while tasks run and after some job finished a round,
 * with work-preserving recovery. rm-restart: a new one starts in its place and recovers from a
 * file-system state store. rm-failover: the standby of an HA pair takes over by itself, through
 * ZooKeeper, and recovers from the ZooKeeper state store; the stopped one comes back as the
 * standby. Either way the applications are recovered from the store, the NodeManagers resync
 * and report their running containers (which keep running), the AMs re-register and send their
 * asks again. Settled when every running application's AM has re-registered.
 */
final class RmRestart implements ActiveFault {

  static final long TIMEOUT_MS = 60_000;

  private final Fault kind;
  /** The task containers running when the RM went down. */
  private List<String> through = List.of();

  /** @param kind {@link Fault#RM_RESTART} or {@link Fault#RM_FAILOVER} */
  RmRestart(Fault kind) {
    if (kind != Fault.RM_RESTART && kind != Fault.RM_FAILOVER) {
      throw new IllegalArgumentException(kind + " is not a ResourceManager fault");
    }
    this.kind = kind;
  }

  @Override
  public Fault kind() {
    return kind;
  }

  @Override
  public String moment() {
    return "2 task containers running (1 on a one-GPU cluster) after some job finished a round";
  }

  @Override
  public boolean due(RunView run) throws Exception {
    int gpus = run.cluster().nodes().stream().mapToInt(n -> n.gpus()).sum();
    boolean someRoundDone = false;
    int running = 0;
    for (DemoJob j : run.submitted().keySet()) {
      someRoundDone |= ActiveFault.roundsSynced(run.events(j)) > 0;
      running += run.running(j).size();
    }
    return someRoundDone && running >= Math.min(2, gpus);
  }

  @Override
  public Injected inject(RunView run) throws Exception {
    // the time first: a task still running when its events are read below ends after it
    long at = System.currentTimeMillis();
    Map<DemoJob, List<TaskEvents.Attempt>> running = new LinkedHashMap<>();
    for (DemoJob j : run.submitted().keySet()) {
      running.put(j, run.running(j));
    }
    String how;
    if (kind == Fault.RM_RESTART) {
      long downMs = run.faults().restartResourceManager(TIMEOUT_MS);
      how = "restarted the ResourceManager (down " + downMs + " ms; recovery from its"
          + " file-system state store)";
    } else {
      ClusterFaults.FailOver f = run.faults().failOver(TIMEOUT_MS);
      how = "stopped the active ResourceManager " + f.from() + "; " + f.to() + " took over by"
          + " itself after " + f.activeAfterMs() + " ms (its elector won the ZooKeeper lock;"
          + " recovery from the ZooKeeper state store), the NodeManagers registered with it"
          + " after " + f.nodesBackAfterMs() + " ms, and " + f.from() + " came back as the"
          + " standby,";
    }
    List<String> containers = new ArrayList<>();
    List<String> what = new ArrayList<>();
    for (Map.Entry<DemoJob, List<TaskEvents.Attempt>> e : running.entrySet()) {
      for (TaskEvents.Attempt a : ranThrough(e.getValue(), run.events(e.getKey()).attempts(),
          at)) {
        containers.add(a.containerId());
        what.add(e.getKey().name() + " " + ActiveFault.describe(a));
      }
    }
    through = List.copyOf(containers);
    return new Injected(kind.label(), at, how + " while it ran " + String.join(", ", what)
        + "; the NodeManagers resynced and kept their containers, the AMs re-registered",
        containers);
  }

  /**
   * The attempts read as running that did run through a restart begun after {@code atMs}. A
   * task appends its end line a moment after it reads the clock for it (a process start, more
   * on a loaded machine), so one that had ended before {@code atMs} may have read as running;
   * read again after the restart, which takes seconds, its end is on record.
   *
   * @param readAsRunning attempts that had recorded no end when read, after {@code atMs}
   * @param onRecord the same job's attempts as recorded after the restart
   */
  static List<TaskEvents.Attempt> ranThrough(List<TaskEvents.Attempt> readAsRunning,
      List<TaskEvents.Attempt> onRecord, long atMs) {
    List<TaskEvents.Attempt> out = new ArrayList<>();
    for (TaskEvents.Attempt a : readAsRunning) {
      if (onRecord.stream().noneMatch(x -> x.containerId().equals(a.containerId())
          && x.round() == a.round() && x.index() == a.index() && x.ended()
          && x.endMs() <= atMs)) {
        out.add(a);
      }
    }
    return out;
  }

  /**
   * When every running application's AM has re-registered and every task that ran through the
   * restart has ended: what became of them is then on record before the next fault can hit them.
   */
  @Override
  public boolean settled(RunView run) throws Exception {
    for (DemoJob j : run.submitted().keySet()) {
      if (run.ended(j)) {
        continue;
      }
      RMAppAttempt a = run.app(j).getCurrentAppAttempt();
      if (a == null || a.getAppAttemptState() != RMAppAttemptState.RUNNING) {
        return false;
      }
      for (TaskEvents.Attempt t : run.running(j)) {
        if (through.contains(t.containerId())) {
          return false;
        }
      }
    }
    return true;
  }
}
