package io.hare.sim;

import io.hare.core.GpuType;
import io.hare.core.JobSpec;
import io.hare.core.TaskTimes;
import io.hare.core.profile.OnlineEstimator;
import io.hare.core.profile.TaskTimeModel;
import java.util.Random;

/**
 * How wrong the profiles the policies are told are: each task's true compute time is its
 * profiled time times {@code bias} times a lognormal factor of mean 1 and log-deviation
 * {@code sigma}, drawn once per job and GPU type (a model version, batch size or input pipeline
 * the profile did not see), the same for every policy of a run with the same {@code seed}. Sync
 * times stay as profiled. The policies then see each job's times as the ResourceManager would:
 * the profile as the prior of an {@link OnlineEstimator} of that job, refined by each task it
 * finishes ({@code priorWeight}, {@code window}: the scheduler's
 * {@code yarn.scheduler.hare.profiles.*}).
 *
 * @param sigma log-deviation of the per-(job, type) factor, &gt;= 0; 0 with bias 1 is no error
 * @param bias the factor every true time has besides, &gt; 0 (2: tasks take twice the profile)
 */
public record ProfileError(double sigma, double bias, long seed, double priorWeight,
    int window) {

  /** Profiles are right: tasks take what the policies are told, which never changes. */
  public static final ProfileError NONE = new ProfileError(0, 1, 0, 0, 1);

  public ProfileError {
    if (!(sigma >= 0) || Double.isInfinite(sigma)) {
      throw new IllegalArgumentException("sigma must be a number >= 0, got " + sigma);
    }
    if (!(bias > 0) || Double.isInfinite(bias)) {
      throw new IllegalArgumentException("bias must be a number > 0, got " + bias);
    }
  }

  /** Whether tasks take other times than the profiles say. */
  public boolean any() {
    return sigma > 0 || bias != 1;
  }

  /** The factor of the true compute times of {@code jobId} on {@code type} over the profile's. */
  public double factor(String jobId, GpuType type) {
    if (!any()) {
      return 1;
    }
    long mix = seed * 0x9E3779B97F4A7C15L + jobId.hashCode() * 31L + type.name().hashCode();
    double z = new Random(mix).nextGaussian();
    return bias * Math.exp(sigma * z - sigma * sigma / 2);
  }

  /** {@code base} with each task's compute time times its job's {@link #factor}. */
  TaskDurations apply(TaskDurations base) {
    if (!any()) {
      return base;
    }
    return new TaskDurations() {
      @Override
      public TaskTimes of(JobSpec job, int round, int index, GpuType type) {
        TaskTimes t = base.of(job, round, index, type);
        return new TaskTimes(t.computeMs() * factor(job.id(), type), t.syncMs());
      }

      @Override
      public long startupMs(JobSpec job) {
        return base.startupMs(job);
      }
    };
  }

  /** What the policies are told of one job: the profile, or an estimator refining it. */
  TaskTimeModel toldOf(TaskTimeModel profiles) {
    return any() ? new OnlineEstimator(profiles, priorWeight, window) : profiles;
  }
}
