package io.hare.yarn.scheduler;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import io.hare.core.policy.JobView;
import io.hare.yarn.JobTags;
import java.util.OptionalInt;
import org.apache.hadoop.yarn.api.records.ApplicationId;

/**
 * One application as the policy sees it. Its ready tasks are its outstanding one-GPU asks, its
 * running tasks its GPU containers, and its finished rounds follow from its successfully
 * finished GPU containers: {@code roundsDone = tasksDone / k}.
 *
 * <p>k and R come from the {@link JobTags}. Without {@code hare.tasks-per-round}, k is taken as
 * the most GPU tasks the job has had asked or running at once (at least 1), which is exact for
 * an AM that asks a round's k tasks together. Rounds are shown only to clairvoyant policies.
 */
final class YarnJob implements JobView {

  private final String id;
  private final ApplicationId appId;
  private final long arrivalMs;
  private final double weight;
  private final String model;
  private final OptionalInt declaredK;
  private final OptionalInt rounds;
  private final boolean revealRounds;
  private final TaskTimeSource times;

  int ready;
  int running;
  long tasksDone;
  private int peakDemand;
  /** The policy has been told the job arrived. */
  boolean announced;
  /** Rounds done when the policy last heard of a round barrier. */
  int roundsNotified;

  YarnJob(ApplicationId appId, long arrivalMs, double weight, JobTags.Info info,
      boolean revealRounds, TaskTimeSource times) {
    this.id = appId.toString();
    this.appId = appId;
    this.arrivalMs = arrivalMs;
    this.weight = weight;
    this.model = info.model().orElse(TaskTimeSource.NO_MODEL);
    this.declaredK = info.tasksPerRound();
    this.rounds = info.rounds();
    this.revealRounds = revealRounds;
    this.times = times;
  }

  ApplicationId appId() {
    return appId;
  }

  /** Sets the outstanding GPU asks; returns how many more there are than before. */
  int setReady(int outstanding) {
    int grew = outstanding - ready;
    ready = outstanding;
    peakDemand = Math.max(peakDemand, ready + running);
    return grew;
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public long arrivalMs() {
    return arrivalMs;
  }

  @Override
  public double weight() {
    return weight;
  }

  @Override
  public String model() {
    return model;
  }

  @Override
  public int tasksPerRound() {
    return declaredK.orElse(Math.max(1, peakDemand));
  }

  @Override
  public OptionalInt rounds() {
    return revealRounds ? rounds : OptionalInt.empty();
  }

  @Override
  public int roundsDone() {
    int done = (int) Math.min(Integer.MAX_VALUE, tasksDone / tasksPerRound());
    return rounds.isPresent() ? Math.min(done, rounds.getAsInt()) : done;
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
    return tasksDone;
  }

  @Override
  public TaskTimes times(GpuType type) {
    return times.times(id, type);
  }

  @Override
  public String toString() {
    return id;
  }
}
