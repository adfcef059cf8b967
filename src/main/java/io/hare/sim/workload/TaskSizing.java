package io.hare.sim.workload;

/**
 * How many mini-batch steps make one task, and how many rounds a job runs, so that its isolated
 * run lasts about a target time with at most a given number of rounds.
 *
 * <p>A task of n steps takes n times a one-step round ({@link
 * io.hare.core.profile.GavelProfiles#forSteps}), so rounds(n) = round(target / (n x stepRound)),
 * at least 1. n is the smallest power of two with rounds(n) &lt;= maxRounds: short jobs keep
 * one-step tasks, long jobs get longer tasks and between maxRounds/2 and maxRounds rounds. Powers
 * of two keep the number of distinct task sizes (profile entries) small: a trace whose run times
 * span 1 s to 50 days needs about 25 per model.
 *
 * @param steps mini-batch steps per task, a power of two
 * @param rounds rounds of the job, &gt;= 1
 */
record TaskSizing(int steps, int rounds) {

  /**
   * @param targetMs wanted isolated run time, &gt;= 0
   * @param stepRoundMs compute plus sync of a one-step task on the reference type, &gt; 0
   * @param maxRounds &gt;= 1
   */
  static TaskSizing fit(double targetMs, double stepRoundMs, int maxRounds) {
    if (!(stepRoundMs > 0) || !(targetMs >= 0) || maxRounds < 1) {
      throw new IllegalArgumentException("bad sizing input: target " + targetMs + " ms, step "
          + stepRoundMs + " ms, max rounds " + maxRounds);
    }
    long steps = 1;
    long rounds = rounds(targetMs, stepRoundMs, steps);
    while (rounds > maxRounds) {
      steps *= 2;
      rounds = rounds(targetMs, stepRoundMs, steps);
    }
    if (steps > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("a job of " + targetMs + " ms cannot be cut into "
          + maxRounds + " rounds of " + stepRoundMs + " ms steps");
    }
    return new TaskSizing((int) steps, (int) rounds);
  }

  private static long rounds(double targetMs, double stepRoundMs, long steps) {
    return Math.max(1, Math.round(targetMs / (steps * stepRoundMs)));
  }

  /** Name of the profile entry of {@code model} with tasks of {@code steps} steps. */
  static String variant(String model, int steps) {
    return model + "-x" + steps;
  }
}
