package io.hare.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;

/**
 * The ApplicationMaster side of one job, as Hare's AM behaves: per round it asks for {@code k}
 * one-GPU containers, gives each container that arrives to a task of the round not yet done or
 * running, asks again for a task whose attempt failed, and asks for the next round once all
 * {@code k} tasks of this one succeeded; after its last round it unregisters.
 *
 * <p>Asks are YARN's totals per priority, so the AM sends one only when it knows the RM's count:
 * after pulling every container allocated so far (the scheduler allocates only at node
 * heartbeats, which the bench runs before the AMs in a tick). A container that arrives when no
 * task needs one is a surplus allocation (a scheduler bug); it is counted and released.
 *
 * <p>Counts per round ({@link #allocations}, {@link #successes}) are what the load test checks.
 * Not thread-safe: the bench thread drives it.
 */
final class BenchJob {

  /** A task container: 1 GB, 1 vcore, 1 GPU. */
  static final Resource TASK = Resource.newInstance(1024, 1,
      Map.of(ResourceInformation.GPU_URI, 1L));
  private static final Priority PRIORITY = Priority.newInstance(1);

  final int index;
  final int k;
  final int rounds;
  final MockAM am;
  final ApplicationId appId;
  private final int failEvery;

  private int round;
  private int outstanding;
  private int doneCount;
  private boolean news;
  private boolean finished;
  private final boolean[] done;
  private final boolean[] busy;
  private final int[] attempts;
  private final List<ContainerId> toRelease = new ArrayList<>();
  final int[] allocations;
  final int[] successes;
  int failures;
  int surplus;
  int wrongSize;
  long calls;

  BenchJob(int index, int rounds, int failEvery, MockAM am) {
    this.index = index;
    this.k = BenchWorkload.tasksPerRound(index);
    this.rounds = rounds;
    this.failEvery = failEvery;
    this.am = am;
    this.appId = am.getApplicationAttemptId().getApplicationId();
    this.done = new boolean[k];
    this.busy = new boolean[k];
    this.attempts = new int[k];
    int kept = Math.min(rounds, 1024); // per-round counts are for the load test's few rounds
    this.allocations = new int[kept];
    this.successes = new int[kept];
  }

  int round() {
    return round;
  }

  boolean finished() {
    return finished;
  }

  JobRecord record() {
    return new JobRecord(index, k, rounds, round, finished, allocations.clone(),
        successes.clone(), failures);
  }

  /** Asks for the first round. */
  void start() throws Exception {
    news = true;
    ask();
  }

  /** One of this job's containers ended (the node reported it); acted on in {@link #step}. */
  void ended(BenchNode.Running r) {
    busy[r.task] = false;
    news = true;
    if (r.fails) {
      failures++;
    } else {
      done[r.task] = true;
      doneCount++;
      if (r.round < successes.length) {
        successes[r.round]++;
      }
    }
  }

  /**
   * The AM's heartbeat in a tick, if it has anything to do: pulls what was allocated, then
   * re-asks for failed tasks or asks for the next round.
   *
   * @param place records a pulled container on its node (returns null for an unknown node)
   * @return containers received
   */
  List<BenchNode.Running> step(long tick, boolean clocksOn,
      Function<NodeId, BenchNode> place) throws Exception {
    List<BenchNode.Running> got = new ArrayList<>();
    if (finished || (outstanding == 0 && !news)) {
      return got;
    }
    AllocateResponse resp = allocate(List.of());
    for (Container c : resp.getAllocatedContainers()) {
      if (c.getResource().getResourceValue(ResourceInformation.GPU_URI) != 1) {
        wrongSize++;
      }
      int task = nextTask();
      if (task < 0 || outstanding == 0) {
        surplus++;
        toRelease.add(c.getId());
        continue;
      }
      outstanding--;
      busy[task] = true;
      int attempt = attempts[task]++;
      boolean fails = BenchWorkload.fails(index, round, task, attempt, failEvery);
      BenchNode node = place.apply(c.getNodeId());
      BenchNode.Running r = new BenchNode.Running(c.getId(), this, round, task, attempt, fails,
          -1);
      if (round < allocations.length) {
        allocations[round]++;
      }
      if (node != null) {
        node.add(r);
        if (clocksOn) {
          node.startClock(r, tick);
        }
      }
      got.add(r);
    }
    if (news) {
      news = false;
      if (doneCount == k) {
        nextRound();
      }
      if (!finished) {
        ask();
      }
    }
    return got;
  }

  private void nextRound() throws Exception {
    round++;
    doneCount = 0;
    Arrays.fill(done, false);
    Arrays.fill(attempts, 0);
    if (round >= rounds) {
      finished = true;
      am.unregisterAppAttempt(false);
    }
  }

  /** Sends the ask for what the round still needs, if it differs from what the RM holds. */
  private void ask() throws Exception {
    int wanted = 0;
    for (int t = 0; t < k; t++) {
      if (!done[t] && !busy[t]) {
        wanted++;
      }
    }
    if (wanted != outstanding || !toRelease.isEmpty()) {
      outstanding = wanted;
      allocate(List.of(ResourceRequest.newInstance(PRIORITY, ResourceRequest.ANY, TASK,
          wanted)));
    }
  }

  private AllocateResponse allocate(List<ResourceRequest> asks) throws Exception {
    List<ContainerId> release = new ArrayList<>(toRelease);
    toRelease.clear();
    calls++;
    return am.allocate(asks, release);
  }

  private int nextTask() {
    for (int t = 0; t < k; t++) {
      if (!done[t] && !busy[t]) {
        return t;
      }
    }
    return -1;
  }
}
