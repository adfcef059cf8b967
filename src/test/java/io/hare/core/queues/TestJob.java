package io.hare.core.queues;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import java.util.Map;
import java.util.OptionalInt;

/**
 * A job of the gate's tests: its queue, its ready and running tasks (which a test moves as
 * tasks start and end) and a compute time per GPU type it can run on (none: it cannot).
 */
final class TestJob implements QueuedJob {

  private final String id;
  private final String queue;
  private final int rounds;
  private final Map<GpuType, Long> computeMs;
  int ready;
  int running;
  private int hidden;

  TestJob(String id, String queue, int ready, int running, int rounds,
      Map<GpuType, Long> computeMs) {
    this.id = id;
    this.queue = queue;
    this.ready = ready;
    this.running = running;
    this.rounds = rounds;
    this.computeMs = Map.copyOf(computeMs);
  }

  @Override
  public String queue() {
    return queue;
  }

  @Override
  public void hide(int n) {
    hidden = n;
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public long arrivalMs() {
    return 0;
  }

  @Override
  public double weight() {
    return 1;
  }

  @Override
  public String model() {
    return "m";
  }

  @Override
  public int tasksPerRound() {
    return 4;
  }

  @Override
  public OptionalInt rounds() {
    return OptionalInt.of(rounds);
  }

  @Override
  public int roundsDone() {
    return 0;
  }

  @Override
  public int readyTasks() {
    return ready - hidden;
  }

  @Override
  public int runningTasks() {
    return running;
  }

  @Override
  public long tasksDone() {
    return 0;
  }

  @Override
  public TaskTimes times(GpuType type) {
    Long ms = computeMs.get(type);
    return ms == null ? null : new TaskTimes(ms, 0);
  }
}
