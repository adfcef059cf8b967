package io.hare.core.queues;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import io.hare.core.profile.TaskTimeModel;
import io.hare.testing.FakeJob;
import java.util.Map;
import java.util.OptionalInt;

/**
 * A job of the gate's tests: a {@link FakeJob} of k = 4 in a queue, with a compute time per GPU
 * type it can run on (none: it cannot), whose ready tasks the gate may hide.
 */
final class TestJob extends FakeJob implements QueuedJob {

  private final String queue;
  private int hidden;
  private boolean leftOut;

  TestJob(String id, String queue, int ready, int running, int rounds,
      Map<GpuType, Long> computeMs) {
    super(id, "m", 4, OptionalInt.of(rounds), times(Map.copyOf(computeMs)));
    this.queue = queue;
    this.ready = ready;
    this.running = running;
  }

  private static TaskTimeModel times(Map<GpuType, Long> computeMs) {
    return (model, type) -> {
      Long ms = computeMs.get(type);
      return ms == null ? null : new TaskTimes(ms, 0);
    };
  }

  @Override
  public String queue() {
    return queue;
  }

  @Override
  public void hide(int n, boolean leftOut) {
    hidden = n;
    this.leftOut = leftOut;
  }

  @Override
  public boolean leftOut() {
    return leftOut;
  }

  @Override
  public int readyTasks() {
    return ready - hidden;
  }
}
