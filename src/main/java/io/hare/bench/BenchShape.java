package io.hare.bench;

/**
 * The cluster and jobs of a bench run: {@code nodes} nodes of {@code gpusPerNode} GPUs, and
 * {@code jobs} jobs of {@code rounds} rounds each, or with {@code rounds} 0 of the bench's
 * 50 to 200 ({@link BenchWorkload#rounds}); a job's {@code k} comes from {@link BenchWorkload}.
 * About one task attempt in {@code failEvery} fails (0: none).
 *
 * @throws IllegalArgumentException for a value out of range, naming it
 */
public record BenchShape(int nodes, int gpusPerNode, int jobs, int rounds, int failEvery) {

  public BenchShape {
    positive("nodes", nodes);
    positive("gpusPerNode", gpusPerNode);
    positive("jobs", jobs);
    notNegative("rounds", rounds);
    notNegative("failEvery", failEvery);
  }

  private static void positive(String name, int v) {
    if (v < 1) {
      throw new IllegalArgumentException(name + ": must be >= 1, got " + v);
    }
  }

  private static void notNegative(String name, int v) {
    if (v < 0) {
      throw new IllegalArgumentException(name + ": must be >= 0, got " + v);
    }
  }

  public int gpus() {
    return nodes * gpusPerNode;
  }
}
