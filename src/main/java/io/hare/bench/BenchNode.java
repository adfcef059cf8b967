package io.hare.bench;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.utils.BuilderUtils;

/**
 * The NodeManager side of one node: a {@link MockNM} and the task containers running on it,
 * each with the tick at which it ends. At each heartbeat the node reports the containers that
 * ended as {@code COMPLETE} (exit 0, or 1 for a failed attempt); running containers are not
 * reported, which YARN treats as "not launched yet", so the RM does no per-container work the
 * bench did not ask for. Not thread-safe: the bench thread drives it.
 */
final class BenchNode {

  /** A task container on this node; {@code endTick} is -1 while completions are off. */
  static final class Running {
    final ContainerId id;
    final BenchJob job;
    final int round;
    final int task;
    final int attempt;
    final boolean fails;
    long endTick;

    Running(ContainerId id, BenchJob job, int round, int task, int attempt, boolean fails,
        long endTick) {
      this.id = id;
      this.job = job;
      this.round = round;
      this.task = task;
      this.attempt = attempt;
      this.fails = fails;
      this.endTick = endTick;
    }
  }

  final MockNM nm;
  final int index;
  private final List<Running> running = new ArrayList<>();

  BenchNode(MockNM nm, int index) {
    this.nm = nm;
    this.index = index;
  }

  NodeId id() {
    return nm.getNodeId();
  }

  void add(Running r) {
    running.add(r);
  }

  /** GPU task containers the bench knows to be running here. */
  int busy() {
    return running.size();
  }

  /** This node's GPU type. */
  String gpuType() {
    return BenchWorkload.gpuType(index);
  }

  /** Gives every running container without an end one, its duration from {@code now}. */
  void startClocks(long now) {
    for (Running r : running) {
      if (r.endTick < 0) {
        startClock(r, now);
      }
    }
  }

  /** The container, running here, ends its duration on this node's GPU type after {@code now}. */
  void startClock(Running r, long now) {
    r.endTick = now + BenchWorkload.durationTicks(r.job.index, r.round, r.task, r.attempt,
        gpuType());
  }

  /** Removes and returns the containers that end at or before {@code tick}. */
  List<Running> takeDue(long tick) {
    List<Running> due = new ArrayList<>();
    for (Iterator<Running> it = running.iterator(); it.hasNext(); ) {
      Running r = it.next();
      if (r.endTick >= 0 && r.endTick <= tick) {
        due.add(r);
        it.remove();
      }
    }
    return due;
  }

  static ContainerStatus completed(Running r) {
    int exit = r.fails ? 1 : 0;
    return BuilderUtils.newContainerStatus(r.id, ContainerState.COMPLETE, "exit " + exit, exit,
        BenchJob.TASK);
  }
}
