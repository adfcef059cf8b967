package io.hare.bench;

import io.hare.yarn.JobTags;
import java.util.List;
import java.util.Set;

/**
 * The deterministic workload both schedulers get: the same jobs, the same rounds, the same task
 * durations and failures, whatever the scheduler decides. Everything is a fixed function of
 * indices, so two runs (and two schedulers) see the same demand.
 *
 * <ul>
 *   <li>Job {@code j} asks {@code k} one-GPU containers per round, {@code k} from 1 to 8 in a
 *       fixed scrambled pattern (mean 4.5), so neighbouring jobs differ.
 *   <li>Job models and node GPU types follow the paper's speed-up table (DESIGN.md). A task
 *       holds its GPU for its model's time on that GPU's type, in whole ticks (one tick is one
 *       NodeManager heartbeat interval): as on a real heterogeneous cluster, which is what Hare
 *       exploits and what its profiles tell it; CapacityScheduler is type-blind.
 * </ul>
 */
public final class BenchWorkload {

  /** GPU types, assigned to nodes round-robin. */
  public static final List<String> GPU_TYPES = List.of("v100", "t4", "m60", "k80");

  /** Models with their speed-ups over K80 on M60, T4, V100 (DESIGN.md, from the paper). */
  private static final String[] MODELS = {"resnet50", "resnet152", "graphsage", "lstm",
      "transformer"};
  private static final double[][] SPEEDUPS = {{1.5, 2.2, 6.9}, {1.4, 2.15, 6.75},
      {1.2, 1.95, 2.2}, {1.4, 1.7, 4.1}, {1.25, 1.8, 5.55}};
  private static final double K80_COMPUTE_MS = 4000;
  private static final double SYNC_MS = 200;

  /** Longest task, in ticks. */
  public static final int MAX_TASK_TICKS = 5;
  /** Scheduler time of one tick (one NodeManager heartbeat interval). */
  static final long TICK_MS = 1000;

  private BenchWorkload() {}

  /** Tasks per round of job {@code job} (0-based), 1 to 8. */
  public static int tasksPerRound(int job) {
    return 1 + (int) Math.floorMod(job * 5L + job / 8, 8);
  }

  /**
   * Ticks a task attempt holds its GPU: its model's compute time on the node's GPU type (the
   * profile below, as Hare's scheduler is told it) times 0.75, 1 or 1.25 by a fixed pattern,
   * rounded up to whole heartbeat intervals of {@code TICK_MS}; 1 to {@value #MAX_TASK_TICKS}.
   * The same function for every scheduler; a type-blind one pays for slow GPUs in ticks, not in
   * what the bench measures (scheduling time per container).
   */
  public static int durationTicks(int job, int round, int task, int attempt, String gpuType) {
    double f = 0.75 + 0.25 * Math.floorMod(job * 7L + round * 3L + task * 5L + attempt, 3);
    double ticks = Math.ceil(computeMs(model(job), gpuType) * f / TICK_MS);
    return (int) Math.max(1, Math.min(MAX_TASK_TICKS, ticks));
  }

  /** Compute time of one task of {@code model} on {@code gpuType}, as in {@link #profilesCsv}. */
  static double computeMs(String model, String gpuType) {
    int m = java.util.Arrays.asList(MODELS).indexOf(model);
    return switch (gpuType) {
      case "m60" -> Math.round(K80_COMPUTE_MS / SPEEDUPS[m][0]);
      case "t4" -> Math.round(K80_COMPUTE_MS / SPEEDUPS[m][1]);
      case "v100" -> Math.round(K80_COMPUTE_MS / SPEEDUPS[m][2]);
      default -> K80_COMPUTE_MS;
    };
  }

  /**
   * Whether a task attempt fails (exits 1), for {@code failEvery} &gt; 0 about one attempt in
   * {@code failEvery}; a task fails at most twice, so every task finishes.
   */
  public static boolean fails(int job, int round, int task, int attempt, int failEvery) {
    return failEvery > 0 && attempt < 2
        && Math.floorMod(job * 31L + round * 17L + task * 13L + attempt * 7L, failEvery) == 0;
  }

  /**
   * Rounds of job {@code job}: {@code fixed} if positive, else 50 to 200 by job (the paper
   * workload's range tops at 200), so a clairvoyant policy plans realistic remaining work.
   */
  public static int rounds(int job, int fixed) {
    return fixed > 0 ? fixed : 50 + (int) Math.floorMod(job * 37L, 151);
  }

  public static String model(int job) {
    return MODELS[Math.floorMod(job, MODELS.length)];
  }

  public static int weight(int job) {
    return 1 + Math.floorMod(job, 3);
  }

  /** GPU type of node {@code node} (0-based). */
  public static String gpuType(int node) {
    return GPU_TYPES.get(Math.floorMod(node, GPU_TYPES.size()));
  }

  /** The application tags the Hare client would write for job {@code job}. */
  public static Set<String> tags(int job, int rounds) {
    return Set.of(JobTags.WEIGHT + "=" + weight(job), JobTags.ROUNDS + "=" + rounds,
        JobTags.TASKS_PER_ROUND + "=" + tasksPerRound(job), JobTags.MODEL + "=" + model(job));
  }

  /** The profiles file of the models ({@code model,gpu_type,compute_ms,sync_ms}). */
  public static String profilesCsv() {
    StringBuilder b = new StringBuilder("model,gpu_type,compute_ms,sync_ms\n");
    for (int m = 0; m < MODELS.length; m++) {
      for (String type : GPU_TYPES) {
        b.append(row(MODELS[m], type, computeMs(MODELS[m], type)));
      }
    }
    return b.toString();
  }

  private static String row(String model, String type, double computeMs) {
    return model + "," + type + "," + Math.round(computeMs) + "," + Math.round(SYNC_MS) + "\n";
  }
}
