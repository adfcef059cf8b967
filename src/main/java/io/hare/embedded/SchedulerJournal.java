package io.hare.embedded;

import io.hare.yarn.scheduler.TaskListener;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.NodeId;

/**
 * What the embedded cluster's Hare scheduler did with GPU tasks, in its order and at its times:
 * asks as the policy saw them, containers allocated, containers ended. The simulator replay of a
 * demo run ({@code io.hare.demo.Replay}) reads it: it is the state the policy decided on.
 * Thread-safe.
 */
public final class SchedulerJournal implements TaskListener {

  public enum Kind { ASKS, REPLANNED, INSTALLED, CONSULTED, STARTED, ENDED }

  /**
   * One entry; fields a kind does not have are null or 0.
   *
   * @param outstanding ASKS: the application's outstanding GPU asks
   * @param succeeded ENDED: the container exited 0 after finishing normally
   */
  public record Entry(Kind kind, long ms, String appId, String containerId, String host,
      String gpuType, int outstanding, boolean succeeded) {}

  private final List<Entry> entries = new ArrayList<>();

  @Override
  public synchronized void asksChanged(ApplicationId app, int outstanding, long nowMs) {
    entries.add(new Entry(Kind.ASKS, nowMs, app.toString(), null, null, null, outstanding,
        false));
  }

  @Override
  public synchronized void replanStarted(long nowMs) {
    entries.add(new Entry(Kind.REPLANNED, nowMs, null, null, null, null, 0, false));
  }

  @Override
  public synchronized void planInstalled(long nowMs) {
    entries.add(new Entry(Kind.INSTALLED, nowMs, null, null, null, null, 0, false));
  }

  @Override
  public synchronized void policyConsulted(long nowMs) {
    entries.add(new Entry(Kind.CONSULTED, nowMs, null, null, null, null, 0, false));
  }

  @Override
  public synchronized void taskStarted(ApplicationId app, ContainerId container, NodeId node,
      String gpuType, long nowMs) {
    entries.add(new Entry(Kind.STARTED, nowMs, app.toString(), container.toString(),
        node.getHost(), gpuType, 0, false));
  }

  @Override
  public synchronized void taskEnded(ApplicationId app, ContainerId container, boolean succeeded,
      long nowMs) {
    entries.add(new Entry(Kind.ENDED, nowMs, app.toString(), container.toString(), null, null, 0,
        succeeded));
  }

  /** Every entry so far, in the scheduler's order. */
  public synchronized List<Entry> entries() {
    return List.copyOf(entries);
  }
}
