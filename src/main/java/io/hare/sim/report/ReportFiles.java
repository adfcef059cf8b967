package io.hare.sim.report;

import io.hare.core.ClusterSpec;
import io.hare.sim.SimResult;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;

/**
 * Writes a comparison's files into one directory (created if missing; files of the same name are
 * replaced):
 * <ul>
 *   <li>{@code results.json}: the same document as {@code --json} ({@link ResultsJson});
 *   <li>{@code jct-cdf.png}: the JCT CDF, a line per policy ({@link JctCdfChart});
 *   <li>{@code gantt-POLICY.png}: per policy, the GPUs over time ({@link GanttChart}); needs the
 *       runs' task records, a run without them gets an empty chart;
 *   <li>{@code jobs-POLICY.csv}: per policy, one row per job ({@link JobsCsv}).
 * </ul>
 * POLICY is the policy's name with any character other than letters, digits, '.', '-' and '_'
 * replaced by '_'.
 */
public final class ReportFiles {

  public static final String RESULTS_JSON = "results.json";
  public static final String JCT_CDF_PNG = "jct-cdf.png";

  private ReportFiles() {}

  public static String ganttName(String policy) {
    return "gantt-" + safe(policy) + ".png";
  }

  public static String jobsCsvName(String policy) {
    return "jobs-" + safe(policy) + ".csv";
  }

  /** Writes every file and returns their paths, in the order listed above. */
  public static List<Path> write(Path dir, Comparison c, ClusterSpec cluster) throws IOException {
    Files.createDirectories(dir);
    List<Path> written = new ArrayList<>();
    Path json = dir.resolve(RESULTS_JSON);
    Files.writeString(json, ResultsJson.toText(c), StandardCharsets.UTF_8);
    written.add(json);
    Path cdf = dir.resolve(JCT_CDF_PNG);
    png(cdf, JctCdfChart.create(c.results()), 1000, 650);
    written.add(cdf);
    for (SimResult r : c.results()) {
      Path gantt = dir.resolve(ganttName(r.policy()));
      int[] size = GanttChart.sizeFor(Math.min(cluster.size(), GanttChart.MAX_GPUS));
      png(gantt, GanttChart.create(r, cluster), size[0], size[1]);
      written.add(gantt);
      Path csv = dir.resolve(jobsCsvName(r.policy()));
      try (Writer w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
        JobsCsv.write(r, w);
      }
      written.add(csv);
    }
    return written;
  }

  private static void png(Path file, JFreeChart chart, int width, int height) throws IOException {
    ChartUtils.saveChartAsPNG(file.toFile(), chart, width, height);
  }

  private static String safe(String name) {
    return name.replaceAll("[^A-Za-z0-9._-]", "_");
  }
}
