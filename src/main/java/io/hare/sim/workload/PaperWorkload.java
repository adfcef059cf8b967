package io.hare.sim.workload;

import io.hare.core.ClusterSpec;
import io.hare.core.GpuType;
import io.hare.core.JobSpec;
import io.hare.core.TaskTimes;
import io.hare.core.profile.ProfileTable;
import io.hare.sim.workload.PaperModels.Category;
import io.hare.sim.workload.PaperModels.Model;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * The paper's setting (HPDC '22 section 7, PAPER-NOTES section 4): jobs of 8 models in 4
 * categories on V100/T4/K80/M60, with task times from {@link PaperModels}. The paper does not
 * publish its arrivals, job sizes, scales or weights (its arrivals come from the Google cluster
 * trace, which we do not have), so each is drawn from a documented distribution whose parameter
 * is a {@code yarn.hare.sim.paper.*} key ({@link PaperSettings}, defaults in brackets):
 *
 * <ul>
 *   <li><b>Model</b>: a category with probability proportional to {@code category-mix} (1,1,1,1:
 *       the paper's default of 25% each; its Fig. 17 varies it from 2:1:1:1 to 1:1:1:2), then a
 *       model of that category uniformly.
 *   <li><b>Scale k</b>: uniform over {@code scales} (1,2,4,8). The paper's jobs are distributed
 *       with a user-chosen scale; powers of two up to 8 cover 99% of the Philly jobs. Scales
 *       wider than the GPUs the models can use on the given cluster are dropped, so every job is
 *       runnable (all paper models run on all four paper types and nowhere else).
 *   <li><b>Weight</b>: uniform integer in [1, {@code max-weight}] (4); the paper uses weights but
 *       never says which.
 *   <li><b>Size</b>: the job's isolated run time D (all k tasks on V100s, sync included) follows
 *       a bounded Pareto law on [{@code duration-min-s}, {@code duration-max-s}] (60 s, 1 h) with
 *       shape {@code duration-shape} (1.0): heavy-tailed, median about 2 min, 90% under 9 min,
 *       mean 4.2 min, a few jobs of an hour, in line with the paper's JCT CDF (90% of jobs done
 *       within 25 min under Hare, queueing included). D is turned into rounds of tasks of 2^j
 *       mini-batches with at most {@code max-rounds} (200) rounds ({@link TaskSizing}); profile
 *       names say the task size ({@code resnet50-x16}).
 *   <li><b>Sync</b>: {@code sync-share} (0.34) x the task's V100 compute time, the same on every
 *       type (gradient exchange is network time). 0.34 is ResNet152's 85 ms sync per 250 ms
 *       compute in the paper's Fig. 11; the paper assumes sync shorter than compute.
 *   <li><b>Arrivals</b>: a Poisson process; the first job arrives at 0. Its rate is
 *       {@code arrival-rate-per-hour} if &gt; 0, else offered-load x C / E[W]: C is the cluster's
 *       capacity in V100-equivalents (each GPU counted at the job mix's mean speed of its type
 *       relative to V100), E[W] the expected V100 compute time of a job, E[k] E[D] / (1 +
 *       sync-share). The default load 2.0 makes the jobs arrive as a burst that
 *       the cluster drains after the last arrival: the paper's arrivals are a busy stretch of the
 *       Google trace and its gains grow with the number of jobs on a fixed 160-GPU cluster
 *       (Fig. 15), so its jobs queue; below load 1 there is little queue and all sensible
 *       policies give nearly the same JCTs. To vary
 *       the cluster under the same arrivals (paper Fig. 14), set a fixed rate.
 * </ul>
 *
 * <p>Deterministic for a seed. Job attributes and arrival gaps come from two separate random
 * streams, so with a fixed rate the first N jobs of a larger workload equal an N-job workload.
 */
public final class PaperWorkload {

  private PaperWorkload() {}

  /**
   * @param settings {@code yarn.hare.sim.paper.*} overrides of the documented distributions
   * @throws IllegalArgumentException listing every bad setting, or if the cluster has no GPU of
   *     the paper's types
   */
  public static Workload generate(ClusterSpec cluster, int jobs, long seed,
      Map<String, String> settings) {
    if (jobs < 0) {
      throw new IllegalArgumentException("paper workload: number of jobs must be >= 0, got "
          + jobs);
    }
    PaperSettings s = PaperSettings.read(settings);
    int usable = 0;
    for (GpuType t : PaperModels.TYPES) {
      usable += cluster.count(t);
    }
    if (usable == 0) {
      throw new IllegalArgumentException("paper workload: cluster " + cluster
          + " has no GPU of the paper's types " + PaperModels.TYPES);
    }
    final int width = usable;
    int[] scales = Arrays.stream(s.scales()).filter(k -> k <= width).toArray();
    if (scales.length == 0) {
      throw new IllegalArgumentException("paper workload: every scale in "
          + Arrays.toString(s.scales()) + " is wider than the " + usable
          + " GPUs of the paper's types in cluster " + cluster);
    }
    double perMs = s.arrivalRatePerHour() > 0 ? s.arrivalRatePerHour() / 3_600_000.0
        : s.offeredLoad() * capacity(cluster, s.categoryMix())
            / expectedWorkMs(s, Arrays.stream(scales).average().orElse(1));

    Random attrs = new Random(seed);
    Random gaps = new Random(seed * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L);
    List<JobSpec> out = new ArrayList<>(jobs);
    Map<String, TaskTimes[]> variants = new TreeMap<>();
    double arrival = 0;
    for (int i = 0; i < jobs; i++) {
      Model m = pickModel(attrs, s.categoryMix());
      int k = scales[attrs.nextInt(scales.length)];
      int weight = 1 + attrs.nextInt(s.maxWeight());
      double durationMs = 1000 * boundedPareto(attrs, s.durationMinS(), s.durationMaxS(),
          s.durationShape());
      double batchRoundMs = m.v100BatchMs() * (1 + s.syncShare());
      TaskSizing size = TaskSizing.fit(durationMs, batchRoundMs, s.maxRounds());
      String name = TaskSizing.variant(m.name(), size.steps());
      variants.computeIfAbsent(name, n -> times(m, size.steps(), s.syncShare()));
      if (i > 0) {
        arrival += -Math.log(1 - gaps.nextDouble()) / perMs;
      }
      out.add(new JobSpec("paper-" + i, Math.round(arrival), weight, name, k, size.rounds()));
    }
    ProfileTable.Builder b = ProfileTable.builder();
    variants.forEach((name, times) -> {
      for (int t = 0; t < PaperModels.TYPES.size(); t++) {
        b.put(name, PaperModels.TYPES.get(t), times[t]);
      }
    });
    return new Workload("paper", out, b.build());
  }

  /** Task times of {@code steps} mini-batches of {@code m} on each paper type. */
  static TaskTimes[] times(Model m, int steps, double syncShare) {
    TaskTimes[] t = new TaskTimes[PaperModels.TYPES.size()];
    double sync = steps * syncShare * m.v100BatchMs();
    for (int i = 0; i < t.length; i++) {
      t[i] = new TaskTimes(steps * m.batchMs(PaperModels.TYPES.get(i)), sync);
    }
    return t;
  }

  private static Model pickModel(Random r, double[] mix) {
    double total = Arrays.stream(mix).sum();
    double u = r.nextDouble() * total;
    int c = 0;
    while (c < mix.length - 1 && u >= mix[c]) {
      u -= mix[c];
      c++;
    }
    while (mix[c] == 0) {
      c--; // rounding ran past the last category with a share
    }
    List<Model> ms = PaperModels.of(Category.values()[c]);
    return ms.get(r.nextInt(ms.size()));
  }

  /** Inverse-CDF draw from a Pareto law of shape a truncated to [lo, hi]. */
  static double boundedPareto(Random r, double lo, double hi, double a) {
    double u = r.nextDouble();
    return lo / Math.pow(1 - u * (1 - Math.pow(lo / hi, a)), 1 / a);
  }

  /** Mean of the bounded Pareto law on [lo, hi] with shape a. */
  static double boundedParetoMean(double lo, double hi, double a) {
    if (lo == hi) {
      return lo;
    }
    if (Math.abs(a - 1) < 1e-12) {
      return hi * lo / (hi - lo) * Math.log(hi / lo);
    }
    return Math.pow(lo, a) / (1 - Math.pow(lo / hi, a)) * a / (a - 1)
        * (Math.pow(lo, 1 - a) - Math.pow(hi, 1 - a));
  }

  /** Expected V100 compute time of one job, over all its tasks, ms. */
  static double expectedWorkMs(PaperSettings s, double meanScale) {
    return meanScale * 1000 * boundedParetoMean(s.durationMinS(), s.durationMaxS(),
        s.durationShape()) / (1 + s.syncShare());
  }

  /** GPUs of the cluster in V100-equivalents, each type at the job mix's mean relative speed. */
  static double capacity(ClusterSpec cluster, double[] mix) {
    double total = Arrays.stream(mix).sum();
    double c = 0;
    for (GpuType t : PaperModels.TYPES) {
      double speed = 0;
      for (Category cat : Category.values()) {
        List<Model> ms = PaperModels.of(cat);
        for (Model m : ms) {
          speed += mix[cat.ordinal()] / total / ms.size() * m.v100BatchMs() / m.batchMs(t);
        }
      }
      c += cluster.count(t) * speed;
    }
    return c;
  }
}
