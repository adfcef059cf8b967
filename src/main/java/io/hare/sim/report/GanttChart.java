package io.hare.sim.report;

import io.hare.core.ClusterSpec;
import io.hare.core.Gpu;
import io.hare.core.GpuType;
import io.hare.sim.JobOutcome;
import io.hare.sim.SimResult;
import io.hare.sim.TaskRecord;
import java.awt.Color;
import java.awt.Paint;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.plot.IntervalMarker;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.StandardXYBarPainter;
import org.jfree.chart.renderer.xy.XYBarRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.Layer;
import org.jfree.data.xy.XYIntervalSeries;
import org.jfree.data.xy.XYIntervalSeriesCollection;

/**
 * Gantt chart of one simulation: one row per GPU, grouped by type (types in cluster order,
 * alternating background bands), time in seconds across; a bar per task while it holds the GPU,
 * coloured by job (the same job has the same colour in every policy's chart), with the task's
 * switch time, if any, in dark grey before it. Time is in seconds, minutes or hours, whichever
 * suits the span shown.
 *
 * <p>Big runs are cut down to what a picture can show, and the subtitle says how:
 * <ul>
 *   <li>at most {@link #MAX_GPUS} rows: each type gets a share of rows proportional to its GPU
 *       count (at least one), filled with GPUs evenly spaced over that type's GPUs, so idle
 *       GPUs at the end of a type show too;
 *   <li>at most {@link #MAX_TASKS} bars: the tasks on the shown GPUs are taken by start time,
 *       and the time axis ends where the first task left out starts, so the window shown is
 *       complete (every task starting in it is drawn).
 * </ul>
 * Needs the task records of the run ({@code SimOptions.recordTasks}).
 */
public final class GanttChart {

  /** Most GPU rows drawn. */
  public static final int MAX_GPUS = 64;
  /** Most task bars drawn. */
  public static final int MAX_TASKS = 5000;

  private static final Color SWITCH = new Color(60, 60, 60);
  private static final Color BAND = new Color(235, 240, 248);

  private GanttChart() {}

  /** Width and height in pixels that suit a chart of {@code rows} GPU rows. */
  public static int[] sizeFor(int rows) {
    return new int[] {1400, Math.min(1300, 170 + 16 * Math.max(rows, 4))};
  }

  /** The GPUs drawn, in row order (see the class comment). */
  static List<Gpu> selectGpus(ClusterSpec cluster, int max) {
    if (cluster.size() <= max) {
      return cluster.gpus();
    }
    Map<GpuType, List<Gpu>> byType = new LinkedHashMap<>();
    for (Gpu g : cluster.gpus()) {
      byType.computeIfAbsent(g.type(), t -> new ArrayList<>()).add(g);
    }
    // Largest-remainder apportionment with at least one row per type (types beyond max lose).
    Map<GpuType, Integer> quota = new LinkedHashMap<>();
    List<GpuType> byRemainder = new ArrayList<>(byType.keySet());
    Map<GpuType, Double> remainder = new HashMap<>();
    int used = 0;
    for (Map.Entry<GpuType, List<Gpu>> e : byType.entrySet()) {
      double exact = (double) max * e.getValue().size() / cluster.size();
      int q = Math.max(1, (int) Math.floor(exact));
      quota.put(e.getKey(), q);
      remainder.put(e.getKey(), exact - Math.floor(exact));
      used += q;
    }
    byRemainder.sort(Comparator.comparingDouble((GpuType t) -> -remainder.get(t)));
    for (int i = 0; used < max && i < byRemainder.size(); i++) {
      GpuType t = byRemainder.get(i);
      if (quota.get(t) < byType.get(t).size()) {
        quota.merge(t, 1, Integer::sum);
        used++;
      }
    }
    List<Gpu> out = new ArrayList<>();
    for (Map.Entry<GpuType, List<Gpu>> e : byType.entrySet()) {
      List<Gpu> gs = e.getValue();
      int q = quota.get(e.getKey());
      for (int i = 0; i < q && out.size() < max; i++) {
        out.add(gs.get((int) ((long) i * gs.size() / q)));
      }
    }
    return out;
  }

  public static JFreeChart create(SimResult result, ClusterSpec cluster) {
    return create(result, cluster, -1);
  }

  /**
   * As {@link #create(SimResult, ClusterSpec)}, with the time axis from 0 to {@code axisEndMs}
   * when that is positive (and not every task is shown, whose window wins): charts of several
   * runs drawn on one scale.
   */
  public static JFreeChart create(SimResult result, ClusterSpec cluster, long axisEndMs) {
    List<Gpu> rows = selectGpus(cluster, MAX_GPUS);
    Map<String, Integer> rowOf = new HashMap<>();
    String[] labels = new String[rows.size()];
    for (int i = 0; i < rows.size(); i++) {
      rowOf.put(rows.get(i).id(), i);
      labels[i] = rows.get(i).id();
    }
    List<TaskRecord> tasks = new ArrayList<>();
    for (TaskRecord t : result.tasks()) {
      if (rowOf.containsKey(t.gpuId())) {
        tasks.add(t);
      }
    }
    tasks.sort(Comparator.comparingLong(TaskRecord::startMs)
        .thenComparing(t -> rowOf.get(t.gpuId())));
    long windowEndMs = -1;
    int shown = tasks.size();
    if (tasks.size() > MAX_TASKS) {
      windowEndMs = tasks.get(MAX_TASKS).startMs();
      shown = 0;
      while (shown < tasks.size() && tasks.get(shown).startMs() < windowEndMs) {
        shown++;
      }
    }
    Map<String, Integer> jobIndex = new HashMap<>();
    for (JobOutcome j : result.jobs()) {
      jobIndex.put(j.jobId(), jobIndex.size());
    }
    long spanMs = windowEndMs >= 0 ? windowEndMs : axisEndMs > 0 ? axisEndMs
        : tasks.stream().mapToLong(TaskRecord::computeEndMs).max().orElse(0);
    TimeUnit unit = TimeUnit.forSpan(spanMs);
    // unsorted: the renderer finds each bar's colour by its position in insertion order
    XYIntervalSeries compute = new XYIntervalSeries("compute", false, true);
    XYIntervalSeries switches = new XYIntervalSeries("switch", false, true);
    List<Paint> computePaint = new ArrayList<>();
    for (TaskRecord t : tasks.subList(0, shown)) {
      int row = rowOf.get(t.gpuId());
      compute.add(row, row - 0.4, row + 0.4, unit.of(t.computeStartMs()),
          unit.of(t.computeStartMs()), unit.of(t.computeEndMs()));
      computePaint.add(jobColour(jobIndex.getOrDefault(t.jobId(), 0)));
      if (t.switched()) {
        switches.add(row, row - 0.4, row + 0.4, unit.of(t.startMs()), unit.of(t.startMs()),
            unit.of(t.computeStartMs()));
      }
    }
    XYIntervalSeriesCollection data = new XYIntervalSeriesCollection();
    data.addSeries(compute);
    data.addSeries(switches);
    XYBarRenderer renderer = new XYBarRenderer() {
      @Override
      public Paint getItemPaint(int series, int item) {
        return series == 0 ? computePaint.get(item) : SWITCH;
      }
    };
    renderer.setUseYInterval(true);
    renderer.setShadowVisible(false);
    renderer.setDrawBarOutline(false);
    renderer.setBarPainter(new StandardXYBarPainter());
    SymbolAxis gpuAxis = new SymbolAxis("GPU", labels);
    gpuAxis.setGridBandsVisible(false);
    gpuAxis.setInverted(true); // first GPU on top, as one reads a table
    NumberAxis timeAxis = new NumberAxis("time (" + unit.label + ")");
    timeAxis.setAutoRangeIncludesZero(true);
    if (windowEndMs >= 0 || axisEndMs > 0) {
      timeAxis.setRange(0, Math.max(unit.of(spanMs), 0.001));
    }
    XYPlot plot = new XYPlot(data, gpuAxis, timeAxis, renderer);
    plot.setOrientation(PlotOrientation.HORIZONTAL);
    plot.setBackgroundPaint(Color.WHITE);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    addTypeBands(plot, rows);
    JFreeChart chart = new JFreeChart("GPU schedule: " + result.policy(),
        JFreeChart.DEFAULT_TITLE_FONT, plot, false);
    chart.setBackgroundPaint(Color.WHITE);
    chart.addSubtitle(new TextTitle(subtitle(cluster, rows.size(), tasks.size(), shown,
        windowEndMs, unit)));
    return chart;
  }

  private static void addTypeBands(XYPlot plot, List<Gpu> rows) {
    int start = 0;
    boolean shade = false;
    for (int i = 1; i <= rows.size(); i++) {
      if (i == rows.size() || !rows.get(i).type().equals(rows.get(start).type())) {
        if (shade) {
          IntervalMarker band = new IntervalMarker(start - 0.5, i - 0.5);
          band.setPaint(BAND);
          plot.addDomainMarker(band, Layer.BACKGROUND);
        }
        shade = !shade;
        start = i;
      }
    }
  }

  private static String subtitle(ClusterSpec cluster, int rows, int tasks, int shown,
      long windowEndMs, TimeUnit unit) {
    StringBuilder sb = new StringBuilder();
    sb.append(rows < cluster.size()
        ? rows + " of " + cluster.size() + " GPUs, spread evenly over each type"
        : "all " + cluster.size() + " GPUs");
    sb.append("; ");
    sb.append(shown < tasks
        ? String.format(Locale.ROOT, "first %d of %d tasks by start (0 to %.1f %s)", shown, tasks,
            unit.of(windowEndMs), unit.label)
        : "all " + tasks + " tasks");
    sb.append("; colour = job, dark grey = switch");
    return sb.toString();
  }

  /** Milliseconds per unit of the time axis of a chart spanning {@code spanMs}. */
  public static double axisUnitMs(long spanMs) {
    return TimeUnit.forSpan(spanMs).ms;
  }

  /** Seconds for runs up to 20 minutes, minutes up to 20 hours, hours beyond: readable ticks. */
  enum TimeUnit {
    SECONDS("s", 1_000), MINUTES("min", 60_000), HOURS("h", 3_600_000);

    final String label;
    final double ms;

    TimeUnit(String label, double ms) {
      this.label = label;
      this.ms = ms;
    }

    static TimeUnit forSpan(long spanMs) {
      return spanMs <= 1_200_000 ? SECONDS : spanMs <= 72_000_000 ? MINUTES : HOURS;
    }

    double of(long timeMs) {
      return timeMs / ms;
    }
  }

  /**
   * The colour of the job at {@code index} in the result's job list: well-separated hues by
   * golden-ratio steps, alternating two brightness levels.
   */
  public static Color jobColour(int index) {
    float hue = (float) ((index * 0.6180339887) % 1.0);
    float brightness = index % 2 == 0 ? 0.85f : 0.65f;
    return Color.getHSBColor(hue, 0.6f, brightness);
  }
}
