package io.hare.demo;

import java.util.ArrayList;
import java.util.List;

/**
 * The demo's mixed workload: jobs of the four {@link DemoModel}s with different weights, sizes
 * and scales, submitted one after another. The first jobs are wide and light and fill the GPUs,
 * the later ones narrow and heavy, the order in which a busy cluster sees them: an arrival-order
 * scheduler keeps the early ones on the GPUs, while a weighted-JCT scheduler lets the heavy
 * jobs pass, and a heterogeneity-aware one puts ResNet-50 (6.9x faster on a V100) rather than
 * GraphSAGE (2.2x) on the V100.
 */
public final class DemoWorkload {

  /** Jobs in submission order; a workload of more jobs repeats them with new seeds. */
  private static final List<DemoJob> TEMPLATE = List.of(
      new DemoJob("graphsage-a", DemoModel.GRAPHSAGE, 1, 3, 4, 0, 1),
      new DemoJob("resnet50-a", DemoModel.RESNET50, 1, 3, 3, 0, 2),
      new DemoJob("lstm-a", DemoModel.LSTM, 1, 3, 2, 0, 3),
      new DemoJob("transformer-a", DemoModel.TRANSFORMER, 4, 4, 1, 0, 4),
      new DemoJob("resnet50-b", DemoModel.RESNET50, 4, 4, 1, 0, 5),
      new DemoJob("graphsage-b", DemoModel.GRAPHSAGE, 2, 3, 1, 0, 6),
      new DemoJob("transformer-b", DemoModel.TRANSFORMER, 1, 3, 2, 0, 7),
      new DemoJob("lstm-b", DemoModel.LSTM, 3, 2, 1, 0, 8));

  public static final int DEFAULT_JOBS = 6;
  /** Time between two submissions. */
  public static final long DEFAULT_GAP_MS = 1500;

  private DemoWorkload() {}

  /** The first {@code n} jobs, one every {@code gapMs}. */
  public static List<DemoJob> jobs(int n, long gapMs) {
    if (n < 1) {
      throw new IllegalArgumentException("a workload needs >= 1 job, got " + n);
    }
    List<DemoJob> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      DemoJob t = TEMPLATE.get(i % TEMPLATE.size());
      int cycle = i / TEMPLATE.size();
      String name = cycle == 0 ? t.name() : t.name() + "-" + (cycle + 1);
      out.add(new DemoJob(name, t.model(), t.weight(), t.rounds(), t.tasksPerRound(),
          i * gapMs, t.seed() + cycle * TEMPLATE.size()));
    }
    return out;
  }
}
