package io.hare.yarn.scheduler;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import io.hare.core.profile.OnlineEstimator;
import io.hare.core.profile.ProfileTable;
import io.hare.core.profile.TaskTimeModel;
import java.util.HashMap;
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
 * <p>Thread-safe: the scheduler updates it under its lock while a background re-plan may read
 * estimates ({@link Replanner}); each method is short and synchronized.
 */
final class TaskTimeSource {

  private volatile ProfileTable profiles;
  private volatile TaskTimes fallback;
  private final Map<String, OnlineEstimator> byJob = new HashMap<>();
  private final Map<String, String> modelOfJob = new HashMap<>();
  private final double priorWeight;
  private final int window;

  TaskTimeSource(ProfileTable profiles, long defaultComputeMs, double priorWeight, int window) {
    this.profiles = profiles;
    this.fallback = new TaskTimes(defaultComputeMs, 0);
    this.priorWeight = priorWeight;
    this.window = window;
  }

  void setProfiles(ProfileTable profiles, long defaultComputeMs) {
    this.profiles = profiles;
    this.fallback = new TaskTimes(defaultComputeMs, 0);
  }

  /** Registers a job and its model (null: none). */
  synchronized void addJob(String jobId, String model) {
    modelOfJob.put(jobId, model);
    byJob.put(jobId, new OnlineEstimator(byModel(), priorWeight, window));
  }

  synchronized void removeJob(String jobId) {
    modelOfJob.remove(jobId);
    byJob.remove(jobId);
  }

  /** Whether the profiles list the model (false for null). */
  boolean profiled(String model) {
    return model != null && profiles.hasModel(model);
  }

  /** Records a finished task's run time on {@code type}. */
  synchronized void observe(String jobId, GpuType type, long runMs) {
    OnlineEstimator e = byJob.get(jobId);
    if (e != null) {
      e.observe(key(jobId), type, runMs);
    }
  }

  /** Times of one task of the job on {@code type}; null if its model cannot run there. */
  synchronized TaskTimes times(String jobId, GpuType type) {
    OnlineEstimator e = byJob.get(jobId);
    return e == null ? null : e.times(key(jobId), type);
  }

  /** The job's model, or a name no model tag can take, so it gets the neutral default. */
  private String key(String jobId) {
    String m = modelOfJob.get(jobId);
    return m == null ? NO_MODEL : m;
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
