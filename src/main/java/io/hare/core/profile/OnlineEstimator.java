package io.hare.core.profile;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Task times that start from a prior profile and follow measured compute durations.
 *
 * <p>The estimate for a (model, type) is the mean of the prior, counted as
 * {@code priorWeight} samples, and the measured samples; after {@code window} samples it becomes
 * an exponentially weighted mean with factor {@code 1/window}, so a profile that was wrong or
 * that drifts (another model version under the same name) is followed within about a window of
 * tasks. A type with no prior becomes usable once one task has been measured there. Sync times
 * are not measured by the host and stay as in the prior (0 when there is none).
 *
 * <p>A type not measured yet keeps the profile's speed relative to the measured ones: its prior
 * is scaled by how far the model's measured types are from their own priors (a geometric mean
 * of the ratios, weighted by each estimate's samples). The profile is most often wrong by a
 * factor common to every type (data loading, start-up, a larger batch); left unscaled, a job
 * whose tasks run ten times longer than profiled would look ten times faster on every type it
 * has not run on yet, and its rounds would queue on one GPU of a slower type while the measured
 * faster GPUs stay free.
 *
 * <p>The measured state can leave and come back ({@link #measured}, {@link #restore}), so that a
 * host that restarts keeps what it measured: an estimator restored from another's state answers
 * exactly as that one does and goes on identically after further observations.
 *
 * <p>Not thread-safe: the host serialises calls (the RM holds its scheduler lock).
 */
public final class OnlineEstimator implements TaskTimeModel {

  private final TaskTimeModel prior;
  private final double priorWeight;
  private final int window;
  private final Map<Key, Estimate> estimates = new HashMap<>();

  private record Key(String model, GpuType type) {}

  private static final class Estimate {
    double computeMs;
    double syncMs;
    double n;
  }

  /**
   * The measured state of one (model, type): the estimate and the samples behind it.
   *
   * @param computeMs estimated compute time, finite and &gt; 0
   * @param syncMs sync time (the prior's), finite and &gt;= 0
   * @param n samples behind the estimate, prior weight included, finite and &gt; 0
   */
  public record Measured(String model, GpuType type, double computeMs, double syncMs, double n) {
    public Measured {
      if (model == null || type == null) {
        throw new IllegalArgumentException("model and type must not be null");
      }
      if (!(computeMs > 0) || Double.isInfinite(computeMs)) {
        throw new IllegalArgumentException("compute time must be finite and > 0 ms, got "
            + computeMs);
      }
      if (!(syncMs >= 0) || Double.isInfinite(syncMs)) {
        throw new IllegalArgumentException("sync time must be finite and >= 0 ms, got " + syncMs);
      }
      if (!(n > 0) || Double.isInfinite(n)) {
        throw new IllegalArgumentException("sample count must be finite and > 0, got " + n);
      }
    }
  }

  /**
   * @param prior the starting profile (may answer null everywhere)
   * @param priorWeight how many measured samples the prior is worth, &gt;= 0
   * @param window samples after which the mean turns into a moving average, &gt;= 1
   */
  public OnlineEstimator(TaskTimeModel prior, double priorWeight, int window) {
    if (!(priorWeight >= 0)) {
      throw new IllegalArgumentException("prior weight must be >= 0, got " + priorWeight);
    }
    if (window < 1) {
      throw new IllegalArgumentException("window must be >= 1, got " + window);
    }
    this.prior = prior;
    this.priorWeight = priorWeight;
    this.window = window;
  }

  /** Records one measured compute duration of a task of {@code model} on {@code type}. */
  public void observe(String model, GpuType type, double computeMs) {
    if (!(computeMs > 0) || Double.isInfinite(computeMs)) {
      return; // a zero or broken measurement carries no information about speed
    }
    Estimate e = estimates.computeIfAbsent(new Key(model, type), k -> {
      Estimate fresh = new Estimate();
      TaskTimes p = prior.times(model, type);
      if (p != null) {
        fresh.computeMs = p.computeMs();
        fresh.syncMs = p.syncMs();
        fresh.n = priorWeight;
      }
      return fresh;
    });
    double alpha = e.n + 1 <= window ? 1.0 / (e.n + 1) : 1.0 / window;
    e.computeMs += alpha * (computeMs - e.computeMs);
    e.n = Math.min(e.n + 1, window);
  }

  @Override
  public TaskTimes times(String model, GpuType type) {
    Estimate e = estimates.get(new Key(model, type));
    if (e != null) {
      return new TaskTimes(e.computeMs, e.syncMs);
    }
    TaskTimes p = prior.times(model, type);
    return p == null ? null : new TaskTimes(p.computeMs() * measuredOverPrior(model),
        p.syncMs());
  }

  /** How much longer than profiled the model's measured types compute; 1 when none tells. */
  private double measuredOverPrior(String model) {
    double logSum = 0;
    double weight = 0;
    for (Map.Entry<Key, Estimate> m : estimates.entrySet()) {
      if (!m.getKey().model().equals(model)) {
        continue;
      }
      TaskTimes p = prior.times(model, m.getKey().type());
      if (p != null && p.computeMs() > 0) {
        Estimate e = m.getValue();
        logSum += e.n * Math.log(e.computeMs / p.computeMs());
        weight += e.n;
      }
    }
    return weight > 0 ? Math.exp(logSum / weight) : 1;
  }

  /**
   * The measured (model, type) estimates, in the order this estimator walks them. Restoring them
   * in this order ({@link #restore}) keeps that walk, and with it the floating-point sum behind
   * the types not measured yet, so the restored answers are exact, not merely close.
   */
  public List<Measured> measured() {
    List<Measured> out = new ArrayList<>(estimates.size());
    estimates.forEach((k, e) -> out.add(new Measured(k.model(), k.type(), e.computeMs, e.syncMs,
        e.n)));
    return out;
  }

  /**
   * Takes over measured estimates, in the order {@link #measured} gave them, into an estimator
   * of the same prior, prior weight and window that has measured nothing yet; a sample count
   * above this window counts as the window (the admin may have shrunk it since).
   *
   * @throws IllegalStateException if this estimator has measured something already
   */
  public void restore(List<Measured> measured) {
    if (!estimates.isEmpty()) {
      throw new IllegalStateException("restore into an estimator that measured nothing yet");
    }
    for (Measured m : measured) {
      Estimate e = new Estimate();
      e.computeMs = m.computeMs();
      e.syncMs = m.syncMs();
      e.n = Math.min(m.n(), window);
      estimates.put(new Key(m.model(), m.type()), e);
    }
  }

  /** Whether nothing has been measured (or restored) yet. */
  public boolean unmeasured() {
    return estimates.isEmpty();
  }

  /** Number of samples behind the current estimate, prior weight included (capped at window). */
  public double confidence(String model, GpuType type) {
    Estimate e = estimates.get(new Key(model, type));
    if (e != null) {
      return e.n;
    }
    // capped like a measured estimate: a prior heavier than the window is averaged as a window
    return prior.times(model, type) == null ? 0 : Math.min(priorWeight, window);
  }
}
