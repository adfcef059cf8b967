package io.hare.bench;

/**
 * What one job's ApplicationMaster saw in a bench run, per round (the first 1,024 rounds):
 * containers received, and tasks that succeeded; attempts that failed over the whole run.
 *
 * @param index the job's index in the workload ({@link BenchWorkload})
 * @param roundsDone rounds all of whose {@code k} tasks succeeded
 */
public record JobRecord(int index, int tasksPerRound, int rounds, int roundsDone,
    boolean finished, int[] allocations, int[] successes, int failures) {

  /** Containers received in round {@code r}. */
  public int allocations(int r) {
    return allocations[r];
  }

  /** Tasks of round {@code r} that succeeded. */
  public int successes(int r) {
    return successes[r];
  }
}
