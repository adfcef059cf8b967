package io.hare.demo;

import io.hare.example.Dataset;
import io.hare.example.JobConfig;
import io.hare.example.Model;
import io.hare.example.SoftmaxRegression;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The profile the demo's scheduler starts from ({@code yarn.scheduler.hare.profiles.file}): per
 * model and GPU type, a task's expected time = process start-up + slowdown x the time of the
 * task's gradient computations on this machine, measured once by {@link #calibrate}. It is only
 * the prior: the scheduler refines it from the containers it sees finish, as it would refine an
 * admin's profile on a real cluster.
 *
 * @param computationMs one gradient computation of the example job (default settings), measured
 * @param startupMs a task process's start-up (a JVM with the example job), estimated
 * @param syncMs the sync step's time off the GPU plus the AM's round trip, estimated
 */
public record DemoProfiles(double computationMs, long startupMs, long syncMs) {

  /** Start-up of a small JVM process on a 2-core machine, measured by hand (0.4-0.5 s). */
  public static final long STARTUP_MS = 500;
  public static final long SYNC_MS = 600;

  /** Times the example job's gradient on this machine, after the JIT has warmed up. */
  public static DemoProfiles calibrate() {
    JobConfig config = new JobConfig(1, 8, 4, 2048, 32, 0.5);
    Dataset data = Dataset.generate(config);
    Model m = Model.zeros(config);
    int[] batch = SoftmaxRegression.batch(0, 0, 1, config.batchSize(), config.examples());
    double best = Double.MAX_VALUE;
    for (int pass = 0; pass < 5; pass++) {
      int n = 4000;
      long t0 = System.nanoTime();
      double sink = 0;
      for (int i = 0; i < n; i++) {
        sink += SoftmaxRegression.gradient(m, data, batch, 0, 1).batchLoss();
      }
      long dt = System.nanoTime() - t0;
      if (sink != sink) { // never true; keeps the loop from being optimised away
        throw new IllegalStateException("NaN loss");
      }
      best = Math.min(best, dt / 1e6 / n);
    }
    return new DemoProfiles(best, STARTUP_MS, SYNC_MS);
  }

  /** Computations per task on the fastest type for about {@code computeMs} of work. */
  public long baseRepeatsFor(long computeMs) {
    return Math.max(1, Math.round(computeMs / computationMs));
  }

  /** Writes the profiles CSV of every demo model for tasks of {@code baseRepeats}. */
  public void write(Path file, long baseRepeats) throws IOException {
    StringBuilder csv = new StringBuilder("model,gpu_type,compute_ms,sync_ms\n");
    for (DemoModel m : DemoModel.ALL) {
      for (String type : DemoModel.TYPES) {
        double ms = startupMs + m.slowdown(type) * baseRepeats * computationMs;
        csv.append(String.format(Locale.ROOT, "%s,%s,%.0f,%d%n", m.name(), type, ms, syncMs));
      }
    }
    Files.writeString(file, csv, StandardCharsets.UTF_8);
  }
}
