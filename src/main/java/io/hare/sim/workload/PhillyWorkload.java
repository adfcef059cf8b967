package io.hare.sim.workload;

import io.hare.core.BadInputException;
import io.hare.core.ClusterSpec;
import io.hare.core.ConfigException;
import io.hare.core.GpuType;
import io.hare.core.JobSpec;
import io.hare.core.TaskTimes;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.profile.GavelProfiles;
import io.hare.core.profile.ProfileTable;
import io.hare.sim.SimKeys;
import io.hare.sim.workload.PhillyTrace.TraceJob;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Jobs from the Philly trace (Microsoft, Sept-Dec 2017, as extracted by Pollux/AdaptDL, CC BY
 * 4.0) with per-type times from Gavel's measured throughputs ({@link GavelProfiles}).
 *
 * <ul>
 *   <li><b>Arrivals</b>: the {@code timestamp} column, relative to the earliest job (the file is
 *       not sorted; {@link PhillyTrace} sorts it, ties by line). {@code maxJobs} &gt; 0 takes the
 *       first jobs by arrival.
 *   <li><b>Scale</b>: k = {@code num_gpus}.
 *   <li><b>Model</b>: uniform among the Gavel job types (26 model/batch-size pairs), one seeded
 *       stream over the jobs in arrival order, so the first N jobs get the same models whatever
 *       {@code maxJobs} is. The trace says nothing about models.
 *   <li><b>Rounds</b>: the job's isolated run (k tasks per round on k GPUs of the reference type)
 *       takes about its trace {@code duration}; tasks are 2^j Gavel steps so that a job has at
 *       most {@code philly.max-rounds} (200) rounds ({@link TaskSizing}), which keeps the whole
 *       trace (82,247 jobs) simulable. Profile names carry the task size
 *       ({@code resnet-50-bs64-x32}). The reference type is {@code philly.reference-type}
 *       (k80): Philly ran 2017-era GPUs, and K80 is the oldest type Gavel measured; reading the
 *       durations as P100 or V100 times makes every job proportionally shorter on fast GPUs.
 *   <li><b>Weights</b>: uniform integers in [1, {@code philly.max-weight}] (1: the objective is
 *       then the plain total JCT, as in the journal version of Hare).
 *   <li><b>Too wide</b>: a job with k larger than the cluster's GPUs of the Gavel types
 *       (k80, p100, v100) could never be gang-scheduled. With {@code philly.too-wide=clamp}
 *       (default) its k becomes that number and its duration grows by k / new k, so the GPU time
 *       it asks of the cluster is unchanged; the count is logged. {@code refuse} fails instead,
 *       naming the line.
 * </ul>
 *
 * <p>Cluster types Gavel did not measure (t4, m60, ...) get no profile: no job runs there (a
 * warning says so). Deterministic for a seed.
 */
public final class PhillyWorkload {

  private static final Logger LOG = LoggerFactory.getLogger(PhillyWorkload.class);

  private PhillyWorkload() {}

  /**
   * @param maxJobs how many jobs to take from the start of the trace; 0 takes all
   * @throws BadInputException for a malformed trace or Gavel file (naming file, line, field), bad
   *     settings, a cluster without any Gavel type, or (with {@code too-wide=refuse}) a job wider
   *     than the cluster
   */
  public static Workload load(Path phillyCsv, Path gavelJson, ClusterSpec cluster, int maxJobs,
      long seed, Map<String, String> settings) throws IOException, BadInputException {
    if (maxJobs < 0) {
      throw new IllegalArgumentException("maxJobs must be >= 0 (0 = all), got " + maxJobs);
    }
    PolicyConfig c = new PolicyConfig(settings, seed);
    String refName = c.getChoice(SimKeys.PHILLY_REFERENCE_TYPE,
        SimKeys.DEFAULT_PHILLY_REFERENCE_TYPE, "k80", "p100", "v100");
    int maxRounds = c.getInt(SimKeys.PHILLY_MAX_ROUNDS, SimKeys.DEFAULT_PHILLY_MAX_ROUNDS, 1,
        10_000_000);
    int maxWeight = c.getInt(SimKeys.PHILLY_MAX_WEIGHT, SimKeys.DEFAULT_PHILLY_MAX_WEIGHT, 1,
        1_000_000);
    boolean clamp = c.getChoice(SimKeys.PHILLY_TOO_WIDE, SimKeys.DEFAULT_PHILLY_TOO_WIDE,
        "clamp", "refuse").equals("clamp");
    try {
      c.check();
    } catch (ConfigException e) {
      throw new BadInputException("philly workload: " + e.getMessage(), e);
    }
    GpuType ref = GpuType.of(refName);

    GavelProfiles gavel = GavelProfiles.read(gavelJson);
    List<String> models = new ArrayList<>();
    for (String m : gavel.models()) {
      if (gavel.perStep(m, ref) != null && usableGpus(gavel, m, cluster) > 0) {
        models.add(m);
      }
    }
    if (models.isEmpty()) {
      throw new BadInputException("philly workload: no Gavel model can run on cluster " + cluster
          + "; " + gavelJson + " has times for " + GavelProfiles.TYPES + " only");
    }
    for (GpuType t : cluster.types()) {
      if (cluster.count(t) > 0 && !GavelProfiles.TYPES.contains(t)) {
        LOG.warn("philly workload: Gavel has no times for GPU type {}; its {} GPUs stay idle", t,
            cluster.count(t));
      }
    }

    List<TraceJob> trace = PhillyTrace.read(phillyCsv, maxJobs);
    long start = trace.isEmpty() ? 0 : trace.get(0).startS();
    Random r = new Random(seed);
    List<JobSpec> jobs = new ArrayList<>(trace.size());
    Map<String, Map<GpuType, TaskTimes>> variants = new TreeMap<>();
    int clamped = 0;
    for (TraceJob t : trace) {
      String model = models.get(r.nextInt(models.size()));
      int weight = 1 + r.nextInt(maxWeight);
      int k = t.gpus();
      double durationS = t.durationS();
      int usable = usableGpus(gavel, model, cluster);
      if (k > usable) {
        if (!clamp) {
          throw t.error(PhillyTrace.NUM_GPUS, "the job needs " + k + " GPUs at once but model "
              + model + " can run on only " + usable + " GPUs of cluster " + cluster + " (set "
              + SimKeys.PHILLY_TOO_WIDE + "=clamp to narrow such jobs)");
        }
        durationS = durationS * k / usable;
        k = usable;
        clamped++;
      }
      TaskTimes step = gavel.perStep(model, ref);
      TaskSizing size = TaskSizing.fit(durationS * 1000, step.roundMs(), maxRounds);
      String name = TaskSizing.variant(model, size.steps());
      variants.computeIfAbsent(name, n -> scaled(gavel.perStep(model), size.steps()));
      jobs.add(new JobSpec("philly-" + t.line(), (t.startS() - start) * 1000, weight, name, k,
          size.rounds()));
    }
    if (clamped > 0) {
      LOG.warn("philly workload: {} jobs were wider than the GPUs they can use on cluster {};"
          + " narrowed them, keeping their GPU time ({}=clamp)", clamped, cluster,
          SimKeys.PHILLY_TOO_WIDE);
    }
    ProfileTable.Builder b = ProfileTable.builder();
    variants.forEach((name, byType) -> byType.forEach((type, times) -> b.put(name, type, times)));
    return new Workload("philly", jobs, b.build());
  }

  private static Map<GpuType, TaskTimes> scaled(Map<GpuType, TaskTimes> perStep, int steps) {
    Map<GpuType, TaskTimes> m = new TreeMap<>();
    perStep.forEach((type, t) -> m.put(type, GavelProfiles.forSteps(t, steps)));
    return m;
  }

  private static int usableGpus(GavelProfiles gavel, String model, ClusterSpec cluster) {
    int n = 0;
    for (GpuType t : cluster.types()) {
      if (gavel.perStep(model, t) != null) {
        n += cluster.count(t);
      }
    }
    return n;
  }
}
