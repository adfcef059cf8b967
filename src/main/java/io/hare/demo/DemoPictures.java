package io.hare.demo;

import io.hare.core.ClusterSpec;
import io.hare.core.Gpu;
import io.hare.core.GpuType;
import io.hare.sim.JobOutcome;
import io.hare.sim.SimResult;
import io.hare.sim.TaskRecord;
import io.hare.sim.report.GanttChart;
import java.io.IOException;
import java.awt.Color;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.StandardXYBarPainter;
import org.jfree.chart.renderer.xy.XYBarRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.data.xy.XYIntervalSeries;
import org.jfree.data.xy.XYIntervalSeriesCollection;

/**
 * The demo's pictures: per run, a Gantt chart of the real container placements (one row per GPU
 * slot of each node, grouped by GPU type, a bar per task attempt from its process start to its
 * end, coloured by job: the simulator's chart, {@link GanttChart}, drawn from what YARN did), and
 * an HTML page that shows the charts and the tables. Below the GPUs, a row per job shows its
 * idle stretches by kind ({@link JobGaps}: ApplicationMaster start, barrier, sync), and every
 * run's chart has the same time axis, from the first submission to the latest end of any run,
 * so two policies' charts compare at a glance.
 */
public final class DemoPictures {

  public static final String PAGE = "index.html";

  private DemoPictures() {}

  public static String chartName(String policy) {
    return "placements-" + policy.replaceAll("[^A-Za-z0-9._-]", "_") + ".png";
  }

  /** Writes a chart per run and the page; returns the paths written, the page last. */
  public static List<Path> write(Path dir, List<DemoResult> runs, String tables)
      throws IOException {
    Files.createDirectories(dir);
    List<Path> written = new ArrayList<>();
    long axisEndMs = axisEndMs(runs);
    for (DemoResult r : runs) {
      Path png = dir.resolve(chartName(r.policy()));
      ClusterSpec slots = slots(r);
      JFreeChart chart = GanttChart.create(asSchedule(r), slots, axisEndMs);
      chart.setTitle("Containers on the embedded YARN cluster: " + r.policy());
      addGapRows((XYPlot) chart.getPlot(), r, GanttChart.axisUnitMs(axisEndMs));
      chart.addLegend(legend(r));
      int[] size = GanttChart.sizeFor(slots.size() + r.jobs().size());
      ChartUtils.saveChartAsPNG(png.toFile(), chart, size[0], size[1]);
      written.add(png);
    }
    Path page = dir.resolve(PAGE);
    Files.writeString(page, page(runs, tables), StandardCharsets.UTF_8);
    written.add(page);
    return written;
  }

  /**
   * The end of the time axis every run's chart shares: the latest task end, task start or job
   * finish of any run, from its own first submission, ms.
   */
  static long axisEndMs(List<DemoResult> runs) {
    long end = 1;
    for (DemoResult r : runs) {
      long t0 = r.originMs();
      for (DemoResult.Task t : r.tasks()) {
        end = Math.max(end, Math.max(t.startMs(), t.endMs()) - t0);
      }
      for (DemoResult.Job j : r.jobs()) {
        end = Math.max(end, j.finishMs() - t0);
      }
    }
    return end;
  }

  /** A row per job under the GPUs' with its gaps, a colour per kind. */
  private static void addGapRows(XYPlot plot, DemoResult r, double unitMs) {
    String[] gpus = ((SymbolAxis) plot.getDomainAxis()).getSymbols();
    String[] labels = java.util.Arrays.copyOf(gpus, gpus.length + r.jobs().size());
    Map<String, Integer> rowOf = new HashMap<>();
    for (int i = 0; i < r.jobs().size(); i++) {
      labels[gpus.length + i] = "job " + r.jobs().get(i).name();
      rowOf.put(r.jobs().get(i).appId(), gpus.length + i);
    }
    SymbolAxis axis = new SymbolAxis("GPU / job", labels);
    axis.setGridBandsVisible(false);
    axis.setInverted(true);
    plot.setDomainAxis(axis);
    XYIntervalSeriesCollection data = new XYIntervalSeriesCollection();
    Map<JobGaps.Kind, XYIntervalSeries> series = new java.util.EnumMap<>(JobGaps.Kind.class);
    for (JobGaps.Kind k : JobGaps.Kind.values()) {
      series.put(k, new XYIntervalSeries(k.label(), false, true));
      data.addSeries(series.get(k));
    }
    long t0 = r.originMs();
    for (JobGaps.Gap g : JobGaps.of(r)) {
      int row = rowOf.get(g.appId());
      series.get(g.kind()).add(row, row - 0.3, row + 0.3, (g.startMs() - t0) / unitMs,
          (g.startMs() - t0) / unitMs, (g.endMs() - t0) / unitMs);
    }
    XYBarRenderer renderer = new XYBarRenderer();
    for (JobGaps.Kind k : JobGaps.Kind.values()) {
      renderer.setSeriesPaint(k.ordinal(), GAP_COLOURS.get(k));
    }
    renderer.setUseYInterval(true);
    renderer.setShadowVisible(false);
    renderer.setDrawBarOutline(false);
    renderer.setBarPainter(new StandardXYBarPainter());
    plot.setDataset(1, data);
    plot.setRenderer(1, renderer);
  }

  /** Greys and a pale yellow, apart from the jobs' saturated hues. */
  private static final Map<JobGaps.Kind, Color> GAP_COLOURS = Map.of(
      JobGaps.Kind.AM_START, new Color(200, 200, 200),
      JobGaps.Kind.BARRIER, new Color(245, 215, 110),
      JobGaps.Kind.SYNC, new Color(45, 45, 45));

  /**
   * Job names in the colours the chart gives them (it colours by position in the job list), and
   * the kinds of gap of the job rows.
   */
  private static LegendTitle legend(DemoResult r) {
    LegendItemCollection items = new LegendItemCollection();
    for (int i = 0; i < r.jobs().size(); i++) {
      items.add(new LegendItem(r.jobs().get(i).name(), GanttChart.jobColour(i)));
    }
    for (JobGaps.Kind k : JobGaps.Kind.values()) {
      items.add(new LegendItem("gap: " + k.label(), GAP_COLOURS.get(k)));
    }
    LegendTitle legend = new LegendTitle(() -> items);
    legend.setPosition(RectangleEdge.BOTTOM);
    return legend;
  }

  /** One GPU per slot of each node, named {@code TYPE HOST #SLOT}, in node order. */
  static ClusterSpec slots(DemoResult r) {
    Map<String, Integer> used = new HashMap<>();
    r.tasks().forEach(t -> used.merge(t.node(), t.gpu() + 1, Math::max));
    List<Gpu> gpus = new ArrayList<>();
    r.gpusByHost().forEach((host, n) -> {
      for (int i = 0; i < Math.max(n, used.getOrDefault(host, 0)); i++) {
        gpus.add(new Gpu(slotId(r.typeByHost().get(host), host, i),
            GpuType.of(r.typeByHost().get(host)), host));
      }
    });
    return new ClusterSpec(gpus);
  }

  private static String slotId(String type, String host, int slot) {
    return type + " " + host + " #" + slot;
  }

  /** The run as the simulator's result type, times in ms from the first submission. */
  static SimResult asSchedule(DemoResult r) {
    long t0 = r.originMs();
    Map<String, String> nameOf = new HashMap<>();
    List<JobOutcome> jobs = new ArrayList<>();
    for (DemoResult.Job j : r.jobs()) {
      nameOf.put(j.appId(), j.name());
      jobs.add(new JobOutcome(j.name(), j.weight(), j.model(), j.tasksPerRound(), j.rounds(),
          j.submitMs() - t0, j.finishMs() - t0));
    }
    long last = r.tasks().stream().mapToLong(t -> Math.max(t.startMs(), t.endMs())).max()
        .orElse(t0);
    List<TaskRecord> tasks = new ArrayList<>();
    long busy = 0;
    for (DemoResult.Task t : r.tasks()) {
      long start = t.startMs() - t0;
      // a lost attempt's bar ends when YARN saw its container go, if it did
      long end = (t.endMs() >= 0 ? t.endMs() : t.goneMs() >= 0 ? t.goneMs() : last) - t0;
      busy += end - start;
      tasks.add(new TaskRecord(nameOf.getOrDefault(t.appId(), t.appId()), t.round(), t.index(),
          slotId(t.gpuType(), t.node(), t.gpu()), t.gpuType(), start, start, end, end));
    }
    return new SimResult(r.policy(), jobs, tasks, busy, slots(r).size(), 0, 0, 0, 0);
  }

  private static String page(List<DemoResult> runs, String tables) {
    StringBuilder b = new StringBuilder();
    b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<title>Hare demo</title><style>body{font-family:sans-serif;margin:2em}")
        .append("pre{background:#f4f6fa;padding:1em;overflow-x:auto}img{max-width:100%}")
        .append("</style></head><body>\n<h1>Hare on an embedded YARN cluster</h1>\n");
    b.append("<p>Real ResourceManager, NodeManagers and containers; only the GPUs are emulated ")
        .append("(nodes declare <code>yarn.io/gpu</code> and a GPU-model attribute, and each ")
        .append("task repeats its CPU work by its model's slowdown on that type). Bars run from ")
        .append("a task process's start to its end. Below the GPUs, a row per job shows its ")
        .append("idle stretches: <em>AM start</em> from its submission to its first task, ")
        .append("<em>sync</em> while its sync step runs between rounds, <em>barrier</em> the ")
        .append("rest of the time from a round's last task end to the next round's first task ")
        .append("(the AM's round trip, waiting for a free GPU, the containers' launch). ")
        .append("Both policies' charts share one time axis.</p>\n")
        .append("<p>").append(escape(DemoReport.X_FIRST)).append("</p>\n");
    b.append("<pre>").append(escape(tables)).append("</pre>\n");
    for (DemoResult r : runs) {
      b.append(String.format(Locale.ROOT, "<h2>%s: total weighted JCT %.1f s</h2>\n",
          escape(r.policy()), r.totalWeightedJctS()));
      b.append("<img src=\"").append(chartName(r.policy())).append("\" alt=\"placements under ")
          .append(escape(r.policy())).append("\">\n");
    }
    return b.append("</body></html>\n").toString();
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
