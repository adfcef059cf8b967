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

  /*
   * The defaults: the first six jobs, one every 250 ms, tasks paced at 10 s on a V100, on
   * v100=1,t4=2,k80=2. Chosen with the simulator (DemoPrediction, DemoWorkloadTest): on that
   * cluster, with the demo's profile as a loaded 2-core machine measures it (a task process
   * 0.56-0.8 s alone, a third of a core each) or as a quiet one or none at all, yarn-fifo's total
   * weighted JCT is 1.5-1.7x hare's; the previous defaults (1500 ms apart, 1000 ms tasks)
   * predicted 1.19-1.81x, 1.19 on a quiet machine. Close submissions are what makes the
   * difference: the light wide jobs then still hold the GPUs in arrival order when the heavy ones
   * arrive, so a weighted, heterogeneity-aware policy has something to reorder; submissions a
   * task's length apart let arrival order be nearly right by itself. 10 s tasks (10-69 s on the
   * slower types) make the emulated GPU time dominate what YARN adds on 2 cores, where six
   * ApplicationMasters and their first workers start at once and a job's first task starts
   * 12-20 s after its submission: with 2500 ms tasks the measured total weighted JCT was 25-47 %
   * above the simulator's prediction, with 10 s tasks within 15 % (README, "The embedded demo").
   * A run of both policies takes about 7.5 minutes; --task-ms 2500 runs in under 3.
   */
  public static final int DEFAULT_JOBS = 6;
  /** Time between two submissions. */
  public static final long DEFAULT_GAP_MS = 250;
  /** The demo's cluster ({@code hare demo --nodes}): a NodeManager per entry. */
  public static final String DEFAULT_NODES = "v100=1,t4=2,k80=2";
  /** How long a task holds its emulated V100 ({@code hare demo --task-ms}). */
  public static final long DEFAULT_TASK_MS = 10_000;

  private DemoWorkload() {}

  /** The first {@code n} jobs, one every {@code gapMs}. */
  public static List<DemoJob> jobs(int n, long gapMs) {
    return cycle(TEMPLATE, n, gapMs);
  }

  /**
   * The first {@code n} jobs of {@code template} repeated, one every {@code gapMs}: a repeat
   * gets its name numbered and seeds of its own, and keeps its template's queue.
   */
  static List<DemoJob> cycle(List<DemoJob> template, int n, long gapMs) {
    if (n < 1) {
      throw new IllegalArgumentException("a workload needs >= 1 job, got " + n);
    }
    List<DemoJob> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      DemoJob t = template.get(i % template.size());
      int cycle = i / template.size();
      String name = cycle == 0 ? t.name() : t.name() + "-" + (cycle + 1);
      out.add(new DemoJob(name, t.model(), t.weight(), t.rounds(), t.tasksPerRound(),
          i * gapMs, t.seed() + cycle * template.size(), t.queue()));
    }
    return out;
  }
}
