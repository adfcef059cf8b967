package io.hare.demo;

/**
 * One job of the demo workload, submitted {@code submitAtMs} after the first.
 *
 * @param seed seed of the example job's synthetic data set
 * @param queue the scheduler queue it is submitted to ({@code yarn.app.hare.job.queue})
 */
public record DemoJob(String name, DemoModel model, double weight, int rounds, int tasksPerRound,
    long submitAtMs, int seed, String queue) {

  public DemoJob {
    if (rounds < 1 || tasksPerRound < 1 || !(weight > 0) || submitAtMs < 0 || queue == null
        || queue.isBlank()) {
      throw new IllegalArgumentException("bad demo job " + name);
    }
  }

  /** A job of the {@code default} queue. */
  public DemoJob(String name, DemoModel model, double weight, int rounds, int tasksPerRound,
      long submitAtMs, int seed) {
    this(name, model, weight, rounds, tasksPerRound, submitAtMs, seed, "default");
  }
}
