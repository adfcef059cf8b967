package io.hare.testing;

import io.hare.core.ClusterSpec;
import io.hare.core.GpuType;
import io.hare.core.JobSpec;
import io.hare.core.profile.ProfileTable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Seeded random instances for the corpus tests of issue 20: a cluster of 1-4 GPU types, models
 * whose speed-ups over the slowest type vary as the paper's do (some gain 7x on a V100, some
 * little, some run faster on a T4), and sync times of 0-3x the model's fastest compute. Same seed,
 * same instance, on every machine.
 */
public final class Corpus {

  private static final String[] TYPES = {"v100", "t4", "m60", "k80"};
  /** Slowdown of each type against a V100, lowest and highest drawn. */
  private static final double[][] SLOWDOWN = {{1, 1}, {1.3, 3.5}, {1.5, 5}, {2, 7}};
  private static final double[] WEIGHTS = {1, 2, 3, 4, 0.5, 1.5};

  /** One instance. */
  public record Instance(String name, ClusterSpec cluster, List<JobSpec> jobs,
      ProfileTable profiles) {

    public long tasks() {
      return jobs.stream().mapToLong(JobSpec::totalTasks).sum();
    }

    @Override
    public String toString() {
      return name + " (" + cluster + ", " + jobs.size() + " jobs, " + tasks() + " tasks)";
    }
  }

  private Corpus() {}

  /**
   * A medium instance: 1-4 types of 1-6 GPUs, 8-20 jobs of 1-4 tasks a round and 1-8 rounds,
   * arriving within 0-10 s, so loads range from an idle cluster to a long queue.
   */
  public static Instance medium(long seed) {
    Random r = new Random(seed * 7919 + 1);
    List<String> types = pickTypes(r);
    Map<GpuType, Integer> counts = new LinkedHashMap<>();
    for (String t : types) {
      counts.put(GpuType.of(t), 1 + r.nextInt(6));
    }
    ProfileTable profiles = models(r, types, 4, 10);
    List<JobSpec> jobs = new ArrayList<>();
    int n = 8 + r.nextInt(13);
    long window = r.nextInt(10_001);
    for (int i = 0; i < n; i++) {
      jobs.add(new JobSpec("j" + i, (long) r.nextInt((int) window + 1),
          WEIGHTS[r.nextInt(WEIGHTS.length)], "m" + r.nextInt(4), 1 + r.nextInt(4),
          1 + r.nextInt(8)));
    }
    return new Instance("medium-" + seed, ClusterSpec.ofCounts(counts), jobs, profiles);
  }

  /**
   * A tiny instance CP-SAT proves in about a second: 2-4 GPUs of 1-4 types, 3-4 jobs of 1-2 tasks
   * a round and 1-3 rounds, at most 10 tasks in all; times in multiples of 10 ms and arrivals of
   * 50 ms, which keeps the solver's time unit coarse.
   */
  public static Instance tiny(long seed) {
    Random r = new Random(seed * 104_729 + 3);
    int gpus = 2 + r.nextInt(3);
    List<String> types = pickTypes(r);
    while (types.size() > gpus) {
      types.remove(types.size() - 1);
    }
    Map<GpuType, Integer> counts = new LinkedHashMap<>();
    for (String t : types) {
      counts.put(GpuType.of(t), 1);
    }
    for (int i = types.size(); i < gpus; i++) {
      counts.merge(GpuType.of(types.get(r.nextInt(types.size()))), 1, Integer::sum);
    }
    ProfileTable profiles = models(r, types, 3, 10);
    List<JobSpec> jobs = new ArrayList<>();
    int n = 3 + r.nextInt(2);
    int budget = 10;
    for (int i = 0; i < n; i++) {
      int room = budget - (n - i - 1);
      int k = 1 + r.nextInt(Math.min(2, room));
      int rounds = 1 + r.nextInt(Math.min(3, room / k));
      budget -= k * rounds;
      jobs.add(new JobSpec("j" + i, r.nextInt(3) == 0 ? 0 : 50L * r.nextInt(40),
          WEIGHTS[r.nextInt(WEIGHTS.length)], "m" + r.nextInt(3), k, rounds));
    }
    return new Instance("tiny-" + seed, ClusterSpec.ofCounts(counts), jobs, profiles);
  }

  /** 1-4 distinct types, in a random order. */
  private static List<String> pickTypes(Random r) {
    List<String> all = new ArrayList<>(List.of(TYPES));
    Collections.shuffle(all, r);
    return new ArrayList<>(all.subList(0, 1 + r.nextInt(TYPES.length)));
  }

  /**
   * Models m0.. with a V100 compute time of 200-1000 ms and per-type slowdowns; one in five runs
   * faster on its second-best type than on a V100 (as recommendation models do); sync is 0-3x the
   * fastest compute, the same on every type. Every model runs on every type.
   */
  private static ProfileTable models(Random r, List<String> types, int count, int grainMs) {
    ProfileTable.Builder b = ProfileTable.builder();
    for (int m = 0; m < count; m++) {
      double v100 = 200 + r.nextInt(801);
      boolean inverted = r.nextInt(5) == 0;
      double sync = round(3 * r.nextDouble() * v100, grainMs);
      for (String t : types) {
        int i = List.of(TYPES).indexOf(t);
        double slow = SLOWDOWN[i][0] + r.nextDouble() * (SLOWDOWN[i][1] - SLOWDOWN[i][0]);
        if (inverted && i == 1) {
          slow = 0.7 + 0.25 * r.nextDouble();
        }
        b.put("m" + m, t, Math.max(grainMs, round(v100 * slow, grainMs)), sync);
      }
    }
    return b.build();
  }

  private static double round(double ms, int grainMs) {
    return Math.round(ms / grainMs) * (double) grainMs;
  }
}
