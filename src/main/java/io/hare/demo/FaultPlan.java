package io.hare.demo;

import io.hare.embedded.ClusterFaults;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The demo's fault injection ({@code hare demo --inject}): an {@link Injection} that does the
 * chosen {@link Fault}s to the running cluster from outside, each at its moment. task-failure is
 * in the task commands from the start ({@link TaskFailures}); the others ({@link AmFailure},
 * {@link RmRestart}, {@link NodeLoss}, in that order) come one at a time: each waits until the
 * one before it has settled (YARN recovered from it), so that every fault hits a healthy
 * cluster and what follows can be told apart.
 *
 * <p>The cluster gets {@link ClusterFaults#settings} (work-preserving RM recovery, short expiry
 * and retries) whatever faults are chosen, so that a run's timing does not depend on which.
 * Not thread-safe: the run's thread calls it.
 */
public final class FaultPlan implements Injection {

  private static final Logger LOG = LoggerFactory.getLogger(FaultPlan.class);
  /** How long a fault may take to settle before the next one goes ahead anyway. */
  static final long SETTLE_TIMEOUT_MS = 90_000;

  private final Set<Fault> faults;
  private final List<ActiveFault> pending = new ArrayList<>();
  private final List<Injected> injected = new ArrayList<>();
  private final TaskFailures taskFailures;
  private ActiveFault settling;
  private long settleDeadline;

  /** @throws IllegalArgumentException for faults that do not go together ({@link Fault#parse}) */
  public FaultPlan(Set<Fault> faults) {
    String clash = Fault.clash(faults);
    if (clash != null) {
      throw new IllegalArgumentException(clash);
    }
    this.faults = Set.copyOf(faults);
    this.taskFailures = faults.contains(Fault.TASK_FAILURE) ? new TaskFailures() : null;
    Set<String> spared = mustFail();
    if (faults.contains(Fault.AM_FAILURE)) {
      pending.add(new AmFailure(spared));
    }
    if (faults.contains(Fault.RM_RESTART)) {
      pending.add(new RmRestart(Fault.RM_RESTART));
    }
    if (faults.contains(Fault.RM_FAILOVER)) {
      pending.add(new RmRestart(Fault.RM_FAILOVER));
    }
    if (faults.contains(Fault.NODE_LOSS)) {
      pending.add(new NodeLoss());
    }
  }

  public Set<Fault> faults() {
    return faults;
  }

  @Override
  public Map<String, String> clusterSettings(File dir) throws IOException {
    return ClusterFaults.settings(new File(dir, "rm-state"));
  }

  /** Two ResourceManagers, a high-availability pair, for rm-failover; one otherwise. */
  @Override
  public int resourceManagers() {
    return faults.contains(Fault.RM_FAILOVER) ? 2 : 1;
  }

  @Override
  public List<DemoJob> jobs(List<DemoJob> workload) {
    return taskFailures == null ? workload : taskFailures.jobs(workload);
  }

  @Override
  public String taskCommand(DemoJob job, File workDir, String command) {
    return taskFailures == null ? command : taskFailures.taskCommand(job, workDir, command);
  }

  @Override
  public boolean rewritesTasks(DemoJob job) {
    return taskFailures != null && taskFailures.rewrites(job);
  }

  @Override
  public void poll(RunView run) throws Exception {
    if (taskFailures != null) {
      taskFailures.observe(run);
    }
    if (settling != null) {
      if (!settling.settled(run) && System.currentTimeMillis() < settleDeadline) {
        return;
      }
      LOG.info("fault {} {}", settling.kind().label(), settling.settled(run) ? "settled"
          : "did not settle within " + SETTLE_TIMEOUT_MS + " ms; going on");
      settling = null;
    }
    if (pending.isEmpty() || !pending.get(0).due(run)) {
      return;
    }
    Injected i = pending.get(0).inject(run);
    if (i != null) {
      LOG.info("injected {}: {}", i.fault(), i.detail());
      injected.add(i);
      settling = pending.remove(0);
      settleDeadline = System.currentTimeMillis() + SETTLE_TIMEOUT_MS;
    }
  }

  @Override
  public void finish(RunView run) throws Exception {
    if (taskFailures != null) {
      taskFailures.observe(run);
    }
  }

  /** Everything injected, by time, then what was asked for and never came due. */
  @Override
  public List<Injected> injected() {
    List<Injected> out = new ArrayList<>(injected);
    if (taskFailures != null) {
      out.addAll(taskFailures.injected());
    }
    out.sort(Comparator.comparingLong(i -> i.atMs() < 0 ? Long.MAX_VALUE : i.atMs()));
    for (ActiveFault f : pending) {
      out.add(new Injected(f.kind().label(), -1, "not injected: the jobs ended before its"
          + " moment (" + f.moment() + ")", List.of()));
    }
    return out;
  }

  @Override
  public Set<String> mustFail() {
    return faults.contains(Fault.TASK_FAILURE) ? Set.of(TaskFailures.ALWAYS_FAILS) : Set.of();
  }
}
