package io.hare.testing;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import io.hare.core.profile.TaskTimeModel;
import io.hare.core.policy.JobView;
import java.util.OptionalInt;

/**
 * A job whose state the test sets by hand ({@link #ready}, {@link #running}, {@link #done}), for
 * driving a policy outside any host: arrives at 0 with weight 1; rounds done = tasks done / k.
 */
public class FakeJob implements JobView {

  private final String id;
  private final String model;
  private final int k;
  private final OptionalInt rounds;
  private final TaskTimeModel times;
  public int ready;
  public int running;
  public long done;

  public FakeJob(String id, String model, int k, OptionalInt rounds, TaskTimeModel times) {
    this.id = id;
    this.model = model;
    this.k = k;
    this.rounds = rounds;
    this.times = times;
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
    return model;
  }

  @Override
  public int tasksPerRound() {
    return k;
  }

  @Override
  public OptionalInt rounds() {
    return rounds;
  }

  @Override
  public int roundsDone() {
    return (int) (done / k);
  }

  @Override
  public int readyTasks() {
    return ready;
  }

  @Override
  public int runningTasks() {
    return running;
  }

  @Override
  public long tasksDone() {
    return done;
  }

  @Override
  public TaskTimes times(GpuType type) {
    return times.times(model, type);
  }
}
