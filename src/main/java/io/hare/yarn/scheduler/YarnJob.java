package io.hare.yarn.scheduler;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import io.hare.core.queues.QueuedJob;
import io.hare.yarn.JobTags;
import java.util.OptionalInt;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One application as the policy sees it. Its ready tasks are its outstanding one-GPU asks, its
 * running tasks its GPU containers, and its finished rounds follow from its successfully
 * finished GPU containers: {@code tasksDone / k}, less the round whose sync runs. A round is
 * done when its tasks have computed and synced ({@link io.hare.core.policy.JobView#roundsDone}),
 * as the simulator counts it; the scheduler does not see the sync, only its two ends: the
 * round's last container ending, and the AM asking for the next round. In between the job has
 * no task asked or running and a whole number of rounds' tasks done, and that last round is
 * still syncing. Counted as done, it would leave the round about to be asked for out of a
 * re-plan made during the sync, and out of its ranks: the job planned one round short.
 *
 * <p>k and R come from the {@link JobTags}. Without {@code hare.tasks-per-round}, k is taken as
 * the most GPU tasks the job has had asked or running at once (at least 1), which is exact for
 * an AM that asks a round's k tasks together. Rounds are shown only to clairvoyant policies.
 *
 * <p><b>Two copies of the counts.</b> The scheduler updates the live fields ({@link #ready},
 * {@link #running}, {@link #tasksDone}) as YARN events arrive; the policy reads the
 * <em>published</em> copy through the {@link io.hare.core.policy.JobView} getters. {@link PolicyHost} publishes only
 * while it holds the policy lock ({@link PolicyGate}), so a re-plan running on a background thread
 * reads counts that do not change under it and that agree with the callbacks it has been given.
 */
public final class YarnJob implements QueuedJob {

  private static final Logger LOG = LoggerFactory.getLogger(YarnJob.class);

  private final String id;
  private final ApplicationId appId;
  private final long arrivalMs;
  private final double weight;
  private final String model;
  private final OptionalInt declaredK;
  private final OptionalInt rounds;
  private final boolean revealRounds;
  private final boolean takesStandbys;
  private final boolean speaksHare;
  private final TaskTimeSource times;

  int ready;
  int running;
  long tasksDone;
  private int peakDemand;
  private int shownReady;
  private int shownRunning;
  private long shownDone;
  private int shownPeak;
  /** The job asked for tasks past its declared rounds: its R is no longer believed. */
  private boolean overran;
  private boolean shownOverran;
  /** {@link #overran} became true and the host has not yet told the policy. */
  private boolean overranUntold;
  /**
   * A new ApplicationMaster attempt began since the job's last whole-round ask: the round it
   * was in runs again from its first task ({@link #realign}).
   */
  private boolean attemptRestarted;
  /**
   * Recovered after an RM restart, a Hare AM of declared R and k, and its progress not taken yet:
   * the tasks it finished before the restart are counted from nothing here until then.
   */
  private boolean progressUnknown;
  /** The policy has been told the job arrived. */
  boolean announced;
  /** Rounds done when the policy last heard of a round barrier. */
  int roundsNotified;
  /** In the host's list of jobs to publish (its bookkeeping). */
  boolean touched;
  /** Ready tasks kept from the policy for one offer ({@link QueueGate}); 0 otherwise. */
  private int hidden;
  private boolean leftOut;
  /** The queue the job runs in; a move changes it (read by AM RPC threads too). */
  private volatile String queue = HareQueue.NAME;
  /** This job's estimates in {@link #times}, looked up once. */
  private TaskTimeSource.JobTimes estimates;

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
    this.speaksHare = info.speaksHare();
    // standbys are part of the Hare protocol: parked and promoted containers mean nothing to
    // another AM
    this.takesStandbys = info.standby() && speaksHare;
    this.times = times;
  }

  public ApplicationId appId() {
    return appId;
  }

  /**
   * Whether the job's AM declared the Hare protocol ({@link JobTags}): only such an AM is asked
   * for GPUs back and reports task boundaries as container decreases.
   */
  boolean speaksHare() {
    return speaksHare;
  }

  /** Whether the job's AM takes standby containers ({@code hare.standby=true}, Hare protocol). */
  public boolean takesStandbys() {
    return takesStandbys;
  }

  /** Copies the live counts to what the policy reads; only under the policy lock. */
  void publish() {
    shownReady = ready;
    shownRunning = running;
    shownDone = tasksDone;
    shownPeak = peakDemand;
    shownOverran = overran;
  }

  /** Whether the job asked past its declared rounds since the last call (once). */
  boolean takeOverran() {
    boolean out = overranUntold;
    overranUntold = false;
    return out;
  }

  /**
   * Rounds whose tasks have all ended, by the live counts, a syncing one included: the
   * scheduler's own view, for round barriers (the next round's asks find it grown).
   */
  int liveRoundsDone() {
    return roundsDone(tasksDone, peakDemand, overran);
  }

  private int roundsDone(long done, int peak, boolean past) {
    int k = declaredK.orElse(Math.max(1, peak));
    int r = (int) Math.min(Integer.MAX_VALUE, done / k);
    return rounds.isPresent() && !past ? Math.min(r, rounds.getAsInt()) : r;
  }

  /** R as the job declared it, whatever the policy may see. */
  OptionalInt declaredRounds() {
    return rounds;
  }

  /** k by the live counts (declared, else the most tasks asked or running at once). */
  int liveTasksPerRound() {
    return declaredK.orElse(Math.max(1, peakDemand));
  }

  /**
   * Whether the job has tasks to come beyond those asked for, running or done, by the live
   * counts: true when its rounds or k are not declared (more may come).
   */
  boolean tasksToCome() {
    return rounds.isEmpty() || declaredK.isEmpty()
        || (long) rounds.getAsInt() * declaredK.getAsInt() > tasksDone + running + ready;
  }

  /**
   * How many standby containers the job can use now: one per ready task, and while it has tasks
   * to come, enough that with its running containers (parked after their task) it holds a whole
   * round's k. A job between rounds, or waiting for GPUs in the middle of one, so keeps the
   * containers its next round runs in.
   */
  public int standbysUseful() {
    if (!tasksToCome()) {
      return ready;
    }
    return Math.max(ready, declaredK.orElse(Math.max(1, peakDemand)) - running);
  }

  /** GPU tasks ready now: live, not the policy's published {@link #readyTasks()}. */
  public int ready() {
    return ready;
  }

  /** A new ApplicationMaster attempt of the job began (not a recovery after an RM restart). */
  void attemptRestarted() {
    attemptRestarted = true;
  }

  /**
   * The RM recovered this job after a restart: the rounds it finished before are taken from its
   * AM's progress once reported ({@link #restoreRounds}); only a Hare AM's progress means rounds
   * done / R, and only a declared R and k turn it into tasks.
   */
  void recovered() {
    progressUnknown = speaksHare && rounds.isPresent() && declaredK.isPresent();
  }

  /** Whether the job waits for {@link #restoreRounds} (a recovered Hare job's first progress). */
  boolean awaitsProgress() {
    return progressUnknown;
  }

  /**
   * Takes the rounds its Hare AM reports done, {@code progress} x R, as finished tasks: k a round,
   * plus the tasks of the round in progress already counted here. Without it a recovered job
   * counts from nothing, and a policy that ranks by work left ranks it as if it were starting.
   * Once, at the first progress above 0 (the AM of a job in its first round reports 0, and has
   * nothing to restore).
   *
   * @return whether the count of finished tasks grew
   */
  boolean restoreRounds(float progress) {
    if (!progressUnknown || !(progress > 0)) {
      return false;
    }
    progressUnknown = false;
    int r = rounds.getAsInt();
    int k = declaredK.getAsInt();
    long byAm = Math.min(r, Math.round((double) progress * r));
    long restored = byAm * k + tasksDone % k;
    if (restored <= tasksDone) {
      return false;
    }
    LOG.info("{} recovered by a new ResourceManager (a restart or a failover): its AM reports"
        + " {} of {} rounds done; {} tasks counted as {}", id, byAm, r, tasksDone, restored);
    tasksDone = restored;
    return true;
  }

  /** Sets the outstanding GPU asks; returns how many more there are than before. */
  int setReady(int outstanding) {
    realign(outstanding);
    int grew = outstanding - ready;
    ready = outstanding;
    peakDemand = Math.max(peakDemand, ready + running);
    if (!overran && ready > 0 && rounds.isPresent()
        && tasksDone >= (long) rounds.getAsInt() * liveTasksPerRound()) {
      // a declared size is what ranks a job early: one that asks past it would keep that rank
      // for as long as it asks, so from here on it is ranked as a job of unknown size
      overran = true;
      overranUntold = true;
      LOG.warn("{} declared {} rounds of {} tasks and asks for more after {} tasks: ranked as a"
          + " job of unknown size from now on", id, rounds.getAsInt(), liveTasksPerRound(),
          tasksDone);
    }
    return grew;
  }

  /**
   * Keeps the count of finished tasks a whole number of rounds where a round starts. A Hare AM
   * of a declared k asks a round's k tasks together, after the round before it ended, so asks
   * that grow to k with no GPU task running start a round. A count that is not then a multiple
   * of k is wrong, and a policy following a plan would wait for ever (for the starvation guard)
   * on a barrier that in truth has cleared. It is rounded up to the round's end, as tasks went
   * uncounted: a "next task started" refused by YARN because the container's end reached the
   * ResourceManager first, or a ResourceManager restart that counts from the middle of a round
   * (tasks ended while it was down are never reported to it). After a new AM attempt it is
   * rounded down instead: that attempt runs its round again from the first task, and the ones
   * counted from the attempt before would count twice.
   */
  private void realign(int outstanding) {
    if (!speaksHare || declaredK.isEmpty() || running != 0
        || outstanding != declaredK.getAsInt() || ready >= outstanding) {
      return;
    }
    int k = declaredK.getAsInt();
    long off = tasksDone % k;
    boolean redo = attemptRestarted;
    attemptRestarted = false;
    if (off == 0) {
      return;
    }
    long was = tasksDone;
    tasksDone = redo ? tasksDone - off : tasksDone + (k - off);
    LOG.warn("{} asks for a round of {} tasks with {} tasks counted, not a whole number of"
        + " rounds: counted as {} ({})", id, k, was, tasksDone, redo
        ? "a new ApplicationMaster attempt runs its round again"
        : "the tasks of its last round that went uncounted");
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
    return declaredK.orElse(Math.max(1, shownPeak));
  }

  /**
   * R as the job declared it, for clairvoyant policies; none once the job asked past it (its
   * policy then guesses, as for a job that declared nothing).
   */
  @Override
  public OptionalInt rounds() {
    return revealRounds && !shownOverran ? rounds : OptionalInt.empty();
  }

  @Override
  public int roundsDone() {
    int r = roundsDone(shownDone, shownPeak, shownOverran);
    boolean syncing = shownDone > 0 && shownDone % tasksPerRound() == 0 && shownReady == 0
        && shownRunning == 0;
    return syncing && r > 0 ? r - 1 : r;
  }

  @Override
  public int readyTasks() {
    return Math.max(0, shownReady - hidden);
  }

  /**
   * Keeps {@code n} of the job's ready tasks, or with {@code leftOut} the whole job, from the
   * policy until {@code hide(0, false)}: what a queue at its maximum, or a pass that serves
   * guarantees first, does not offer; under the policy lock.
   */
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
  public String queue() {
    return queue;
  }

  void setQueue(String q) {
    queue = q;
  }

  @Override
  public int runningTasks() {
    return shownRunning;
  }

  @Override
  public long tasksDone() {
    return shownDone;
  }

  @Override
  public TaskTimes times(GpuType type) {
    TaskTimeSource.JobTimes e = estimates;
    if (e == null || e.removed()) {
      e = times.handle(id); // first use, or the job was registered again
      if (e == null) {
        return null;
      }
      estimates = e;
    }
    return times.times(e, type);
  }

  @Override
  public String toString() {
    return id;
  }
}
