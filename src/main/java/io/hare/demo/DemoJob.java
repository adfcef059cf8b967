package io.hare.demo;

/**
 * One job of the demo workload, submitted {@code submitAtMs} after the first.
 *
 * @param seed seed of the example job's synthetic data set
 */
public record DemoJob(String name, DemoModel model, double weight, int rounds, int tasksPerRound,
    long submitAtMs, int seed) {

  public DemoJob {
    if (rounds < 1 || tasksPerRound < 1 || !(weight > 0) || submitAtMs < 0) {
      throw new IllegalArgumentException("bad demo job " + name);
    }
  }
}
