package io.hare.sim.report;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.ClusterSpec;
import io.hare.core.Gpu;
import io.hare.sim.JobOutcome;
import io.hare.sim.SimResult;
import io.hare.sim.TaskRecord;
import java.awt.Color;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.title.TextTitle;
import org.junit.BeforeClass;
import org.junit.Test;

/** Which GPUs and tasks the Gantt chart shows on clusters and runs too big to draw whole. */
public class GanttChartTest {

  @BeforeClass
  public static void headless() {
    System.setProperty("java.awt.headless", "true");
  }

  private static Map<String, Integer> perType(List<Gpu> gpus) {
    Map<String, Integer> m = new LinkedHashMap<>();
    gpus.forEach(g -> m.merge(g.type().name(), 1, Integer::sum));
    return m;
  }

  @Test(timeout = 60_000)
  public void rowsAreSharedByTypeInProportionAndSpreadOverEachType() {
    // 64 rows of 128 GPUs: exactly half of each type
    List<Gpu> rows = GanttChart.selectGpus(ClusterSpec.parse("v100=100,t4=20,k80=8"), 64);
    assertEquals(Map.of("v100", 50, "t4", 10, "k80", 4), perType(rows));
    assertEquals("v100-0", rows.get(0).id());
    assertEquals("v100-2", rows.get(1).id()); // every second GPU of the type
    assertEquals("v100-98", rows.get(49).id());
    assertEquals("t4-0", rows.get(50).id());
    assertEquals("k80-6", rows.get(63).id());
  }

  @Test(timeout = 60_000)
  public void aSmallTypeKeepsARowAndTheRemainderGoesToTheLargestFractions() {
    // exact shares of 10 rows over 203 GPUs: 4.93, 4.93, 0.15 -> floors 4, 4 and at least 1;
    // the one row left goes to a, the first of the largest remainders
    List<Gpu> rows = GanttChart.selectGpus(ClusterSpec.parse("a=100,b=100,c=3"), 10);
    assertEquals(10, rows.size());
    assertEquals(Map.of("a", 5, "b", 4, "c", 1), perType(rows));
    List<Gpu> all = GanttChart.selectGpus(ClusterSpec.parse("a=3,b=2"), 64);
    assertEquals(5, all.size());
  }

  @Test(timeout = 60_000)
  public void longRunsShowACompleteWindowOfTheFirstTasks() {
    int n = GanttChart.MAX_TASKS + 500;
    List<TaskRecord> tasks = new ArrayList<>();
    for (int i = 0; i < n; i++) { // one task per second on one GPU, job alternating
      long s = i * 1000L;
      tasks.add(new TaskRecord(i % 2 == 0 ? "a" : "b", i / 2, 0, "v100-0", "v100", s, s + 100,
          s + 900, s + 950));
    }
    SimResult r = new SimResult("p", List.of(new JobOutcome("a", 1, "m", 1, n, 0, 0),
        new JobOutcome("b", 1, "m", 1, n, 0, 0)), tasks, 0, 1, n, 0, 0, 0);
    JFreeChart chart = GanttChart.create(r, ClusterSpec.parse("v100=1"));
    XYPlot plot = chart.getXYPlot();
    assertEquals(GanttChart.MAX_TASKS, plot.getDataset().getItemCount(0));
    assertEquals(GanttChart.MAX_TASKS, plot.getDataset().getItemCount(1)); // every one switched
    // window ends where task MAX_TASKS starts: 5000 s = 83.3 min
    assertEquals(GanttChart.MAX_TASKS / 60.0, plot.getRangeAxis().getUpperBound(), 1e-9);
    assertTrue(plot.getRangeAxis().getLabel().contains("min"));
    String sub = ((TextTitle) chart.getSubtitle(0)).getText();
    assertTrue(sub, sub.contains("first 5000 of 5500 tasks by start (0 to 83.3 min)"));
    assertEquals(0, plot.getDataset().getXValue(0, 0), 0); // GPU row 0
    assertEquals(100 / 60_000.0, plot.getDataset().getYValue(0, 0), 1e-12); // compute start
  }

  /** Each bar has its own task's job colour, whatever order rows and start times come in. */
  @Test(timeout = 60_000)
  public void eachBarHasTheColourOfItsJob() {
    // job a (colour 0) on the second row starts first, job b (colour 1) on the first row later
    List<TaskRecord> tasks = List.of(
        new TaskRecord("a", 0, 0, "v100-1", "v100", 0, 0, 900, 900),
        new TaskRecord("b", 0, 0, "v100-0", "v100", 10, 10, 900, 900));
    SimResult r = new SimResult("p", List.of(new JobOutcome("a", 1, "m", 1, 1, 0, 900),
        new JobOutcome("b", 1, "m", 1, 1, 0, 900)), tasks, 0, 2, 0, 0, 0, 0);
    XYPlot plot = GanttChart.create(r, ClusterSpec.parse("v100=2")).getXYPlot();
    for (int item = 0; item < 2; item++) {
      int row = (int) plot.getDataset().getXValue(0, item);
      Color expected = GanttChart.jobColour(row == 1 ? 0 : 1);
      assertEquals("bar " + item + " on row " + row, expected,
          plot.getRenderer().getItemPaint(0, item));
    }
  }

  @Test(timeout = 60_000)
  public void sameJobSameColourAndNeighboursDiffer() {
    assertEquals(GanttChart.jobColour(7), GanttChart.jobColour(7));
    for (int i = 0; i < 50; i++) {
      assertTrue(!GanttChart.jobColour(i).equals(GanttChart.jobColour(i + 1)));
    }
  }
}
