package io.hare.sim;

import io.hare.core.GpuType;
import io.hare.core.JobSpec;
import io.hare.core.TaskTimes;
import io.hare.core.profile.OnlineEstimator;
import io.hare.core.profile.TaskTimeModel;
import io.hare.core.queues.QueuedJob;
import java.util.OptionalInt;

/**
 * The simulator's mutable state of one job, seen by policies through
 * {@link io.hare.core.policy.JobView} and by the queues' guarantees through {@link QueuedJob}.
 */
final class SimJob implements QueuedJob {

  final JobSpec spec;
  final int order; // arrival rank, for a stable order of active jobs
  final int queueIndex; // the job's queue in the run's list of queues
  private final boolean revealRounds;
  private final TaskTimeModel times;

  int roundsDone;
  int nextIndex; // next task index to start in the current round
  int ready;
  int running;
  int syncedInRound;
  long tasksDone;
  long completionMs = -1;
  private int hidden; // ready tasks kept from the policy for one offer (QueueGuarantees)
  private boolean leftOut; // the whole job kept from that offer

  SimJob(JobSpec spec, int order, int queueIndex, boolean revealRounds, TaskTimeModel times) {
    this.spec = spec;
    this.order = order;
    this.queueIndex = queueIndex;
    this.revealRounds = revealRounds;
    this.times = times;
  }

  /** The barrier cleared (or the job arrived): the next round's k tasks become ready. */
  void openRound() {
    nextIndex = 0;
    syncedInRound = 0;
    ready = spec.tasksPerRound();
  }

  @Override
  public String id() {
    return spec.id();
  }

  @Override
  public long arrivalMs() {
    return spec.arrivalMs();
  }

  @Override
  public double weight() {
    return spec.weight();
  }

  @Override
  public String model() {
    return spec.model();
  }

  @Override
  public int tasksPerRound() {
    return spec.tasksPerRound();
  }

  @Override
  public OptionalInt rounds() {
    return revealRounds ? OptionalInt.of(spec.rounds()) : OptionalInt.empty();
  }

  @Override
  public int roundsDone() {
    return roundsDone;
  }

  @Override
  public int readyTasks() {
    return hidden == 0 ? ready : Math.max(0, ready - hidden);
  }

  @Override
  public String queue() {
    return spec.queue();
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
  public int runningTasks() {
    return running;
  }

  @Override
  public long tasksDone() {
    return tasksDone;
  }

  @Override
  public TaskTimes times(GpuType type) {
    return times.times(spec.model(), type);
  }

  /**
   * A task of this job computed for {@code computeMs} on {@code type}: an estimator of the job's
   * times ({@link ProfileError}) learns it, as the ResourceManager's does; fixed profiles do not.
   */
  void observe(GpuType type, long computeMs) {
    if (times instanceof OnlineEstimator e) {
      e.observe(spec.model(), type, computeMs);
    }
  }

  @Override
  public String toString() {
    return spec.id();
  }
}
