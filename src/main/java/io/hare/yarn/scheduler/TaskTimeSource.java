package io.hare.yarn.scheduler;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import io.hare.core.profile.OnlineEstimator;
import io.hare.core.profile.OnlineEstimator.Measured;
import io.hare.core.profile.ProfileTable;
import io.hare.core.profile.TaskTimeModel;
import io.hare.yarn.scheduler.times.MeasuredTimes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Task-time estimates per (job, GPU type): the admin's profile of the job's model as the prior,
 * refined by the measured run time of each of the job's finished task containers on that type
 * (one {@link OnlineEstimator} per job, dropped when the job ends). A job without a model, or whose model the profiles
 * do not list, starts from a neutral default (the same compute time on every type, no sync), so
 * it can run anywhere and its own measurements soon tell the types apart.
 *
 * <p>The profile table can be swapped ({@link #setProfiles}, on {@code -refreshQueues}); jobs
 * keep the estimates already refined from measurements.
 *
 * <p>Each job's answers are cached per GPU type until a measurement or new profiles change
 * them: a dispatch pass asks for every type of every job it visits, thousands
 * of times per second on a large cluster, and the estimator builds a fresh answer each time.
 *
 * <p>The measured state can be kept across an RM restart ({@link MeasuredTimes}, with
 * {@code yarn.scheduler.hare.task-times.store.uri}): a snapshot of the live jobs' estimators, and
 * saved state that seeds a job's estimator when the job is registered again. An application id is
 * never reused, so saved state under a job's id is that job's, measured before the restart. It is
 * taken over as measured even if the job's model reads differently now (a state store that lost
 * its tags): the times are the job's own.
 *
 * <p>Thread-safe: the scheduler updates it under its lock while a background re-plan may read
 * estimates ({@link Replanner}) and the task-time saver takes snapshots; each method is short and
 * synchronized.
 */
final class TaskTimeSource implements MeasuredTimes {

  private volatile ProfileTable profiles;
  private volatile TaskTimes fallback;
  private final Map<String, JobTimes> jobs = new HashMap<>();
  private final double priorWeight;
  private final int window;
  /** Saved state of jobs not registered (again) yet ({@link #seed}). */
  private final Map<String, List<Measured>> seeds = new HashMap<>();
  /** Grows with every change of the measured state ({@link #changedSince}). */
  private long version;

  /**
   * One job's estimator and its answers cached per type. {@link YarnJob} keeps a reference, so a
   * lookup costs a scan of a few types instead of two hash lookups in maps of every job (a pass
   * visits hundreds of jobs); guarded by the source's lock.
   */
  static final class JobTimes {
    private final OnlineEstimator estimator;
    private final String key;
    private GpuType[] types = new GpuType[4];
    private TaskTimes[] answers = new TaskTimes[4];
    private int cached;
    private volatile boolean removed; // read without the lock by YarnJob

    /** Whether the job is no longer registered (a new handle may exist under its id). */
    boolean removed() {
      return removed;
    }

    private JobTimes(OnlineEstimator estimator, String key) {
      this.estimator = estimator;
      this.key = key;
    }

    private TaskTimes times(GpuType type) {
      for (int i = 0; i < cached; i++) {
        if (types[i] == type) {
          return answers[i];
        }
      }
      for (int i = 0; i < cached; i++) {
        if (types[i].equals(type)) {
          // the host's views may hold their own equal instances: keep the one asked for, so
          // the next call (one per type at every visit of a pass) matches by identity
          types[i] = type;
          return answers[i];
        }
      }
      TaskTimes t = estimator.times(key, type);
      if (cached == types.length) {
        types = java.util.Arrays.copyOf(types, cached * 2);
        answers = java.util.Arrays.copyOf(answers, cached * 2);
      }
      types[cached] = type;
      answers[cached++] = t; // null: cannot run there, cached as well
      return t;
    }

    private void forgetAll() {
      cached = 0;
    }
  }

  TaskTimeSource(ProfileTable profiles, long defaultComputeMs, double priorWeight, int window) {
    this.profiles = profiles;
    this.fallback = new TaskTimes(defaultComputeMs, 0);
    this.priorWeight = priorWeight;
    this.window = window;
  }

  synchronized void setProfiles(ProfileTable profiles, long defaultComputeMs) {
    this.profiles = profiles;
    this.fallback = new TaskTimes(defaultComputeMs, 0);
    jobs.values().forEach(JobTimes::forgetAll);
  }

  /** Registers a job and its model (null: none), from its saved state if there is one. */
  synchronized void addJob(String jobId, String model) {
    JobTimes fresh = new JobTimes(new OnlineEstimator(byModel(), priorWeight, window),
        model == null ? NO_MODEL : model);
    List<Measured> saved = seeds.remove(jobId);
    if (saved != null) {
      restore(fresh, saved);
    }
    JobTimes before = jobs.put(jobId, fresh);
    if (before != null) {
      before.removed = true;
    }
  }

  synchronized void removeJob(String jobId) {
    JobTimes j = jobs.remove(jobId);
    if (j != null) {
      j.removed = true;
      if (!j.estimator.unmeasured()) {
        version++;
      }
    }
    if (seeds.remove(jobId) != null) {
      version++;
    }
  }

  @Override
  public synchronized void seed(Map<String, List<Measured>> saved) {
    saved.forEach((jobId, measured) -> {
      JobTimes j = jobs.get(jobId);
      if (j == null) {
        seeds.put(jobId, List.copyOf(measured));
      } else if (j.estimator.unmeasured()) { // registered before the load
        restore(j, measured);
        j.forgetAll();
      }
    });
    version++; // what is saved next leaves out the jobs that did not come back
  }

  /** The saved estimates, under the job's model as it reads now. */
  private static void restore(JobTimes j, List<Measured> saved) {
    List<Measured> keyed = new ArrayList<>(saved.size());
    for (Measured m : saved) {
      keyed.add(m.model().equals(j.key) ? m
          : new Measured(j.key, m.type(), m.computeMs(), m.syncMs(), m.n()));
    }
    j.estimator.restore(keyed);
  }

  @Override
  public synchronized Snapshot changedSince(long since) {
    if (version == since) {
      return null;
    }
    Map<String, List<Measured>> out = new LinkedHashMap<>(seeds);
    jobs.forEach((id, j) -> {
      if (!j.estimator.unmeasured()) {
        out.put(id, j.estimator.measured());
      }
    });
    return new Snapshot(version, out);
  }

  /** Whether the profiles list the model (false for null). */
  boolean profiled(String model) {
    return model != null && profiles.hasModel(model);
  }

  /** Records a finished task's run time on {@code type}. */
  synchronized void observe(String jobId, GpuType type, long runMs) {
    JobTimes j = jobs.get(jobId);
    if (j != null) {
      j.estimator.observe(j.key, type, runMs);
      j.forgetAll(); // the types not measured yet follow the measured ones (OnlineEstimator)
      version++;
    }
  }

  /** Times of one task of the job on {@code type}; null if its model cannot run there. */
  synchronized TaskTimes times(String jobId, GpuType type) {
    JobTimes j = jobs.get(jobId);
    return j == null ? null : j.times(type);
  }

  /**
   * As {@link #times(String, GpuType)} through the job's handle ({@link #handle}); null if the
   * job was removed.
   */
  synchronized TaskTimes times(JobTimes handle, GpuType type) {
    return handle.removed ? null : handle.times(type);
  }

  /** The job's estimates, to pass to {@link #times(JobTimes, GpuType)}; null if unknown. */
  synchronized JobTimes handle(String jobId) {
    return jobs.get(jobId);
  }

  /** Model name of a job that declared none (tags cannot carry parentheses). */
  static final String NO_MODEL = "(none)";

  /** Profile of a model, else the neutral default; what each job's estimate starts from. */
  TaskTimeModel byModel() {
    return (model, type) -> {
      ProfileTable p = profiles;
      return p.hasModel(model) ? p.times(model, type) : fallback;
    };
  }
}
