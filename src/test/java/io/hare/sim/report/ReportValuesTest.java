package io.hare.sim.report;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hare.sim.JobOutcome;
import io.hare.sim.SimResult;
import java.io.IOException;
import java.io.StringWriter;
import java.util.List;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.junit.Test;

/**
 * The numbers of the reports on hand-made results: ratios, the JSON, the CSV and the CDF points.
 */
public class ReportValuesTest {

  /** Two jobs; "b" unfinished when {@code bDoneMs} is -1. Weights 2 and 1, arrivals 0 and 1 s. */
  static SimResult result(String policy, long aDoneMs, long bDoneMs) {
    return new SimResult(policy, List.of(new JobOutcome("a", 2, "cnn", 2, 3, 0, aDoneMs),
        new JobOutcome("b", 1, "gnn", 1, 1, 1000, bDoneMs)), List.of(), 0, 4, 0, 0, 0, 0);
  }

  @Test(timeout = 60_000)
  public void bestIsAmongPoliciesThatFinishedEveryJob() {
    SimResult good = result("good", 4000, 3000); // 2*4 + 1*2 = 10 s
    SimResult worse = result("worse", 6000, 6000); // 2*6 + 1*5 = 17 s
    SimResult partial = result("partial", 1000, -1); // 2*1 = 2 s, but b never finished
    Comparison c = new Comparison("w", "v100=4", 2, 0, 5.0, List.of(worse, partial, good));
    assertEquals(10.0, c.bestTotalWeightedJctS().getAsDouble(), 1e-12);
    assertEquals(1.7, c.ratioToBest(worse), 1e-12);
    assertEquals(1.0, c.ratioToBest(good), 1e-12);
    assertEquals(0.2, c.ratioToBest(partial), 1e-12);
    assertEquals(3.4, c.ratioToLowerBound(worse), 1e-12);
    Comparison noBound = new Comparison("w", "v100=4", 2, 0, Double.NaN, List.of(partial));
    assertTrue(Double.isNaN(noBound.ratioToLowerBound(partial)));
    assertTrue(Double.isNaN(noBound.ratioToBest(partial)));
  }

  @Test(timeout = 60_000)
  public void jsonWritesMissingNumbersAsNull() throws IOException {
    SimResult none = result("none", -1, -1);
    Comparison c = new Comparison("w", "v100=4", 2, 7, Double.NaN, List.of(none));
    JsonNode root = new ObjectMapper().readTree(ResultsJson.toText(c));
    assertTrue(root.get("lower_bound_total_weighted_jct_s").isNull());
    JsonNode r = root.get("results").get(0);
    assertEquals(0.0, r.get("total_weighted_jct_s").asDouble(), 0);
    assertTrue(r.get("avg_jct_s").isNull());
    assertTrue(r.get("p95_jct_s").isNull());
    assertTrue(r.get("ratio_to_best").isNull());
    assertEquals(2, r.get("unfinished_jobs").asInt());
    assertEquals(7, root.get("switch_ms").asInt());
  }

  @Test(timeout = 60_000)
  public void tableShowsRatiosAndDashesForMissingValues() {
    Comparison c = new Comparison("w", "v100=4", 2, 0, 5.0,
        List.of(result("good", 4000, 3000), result("partial", 1000, -1)));
    String t = ResultsTable.format(c);
    String good = t.lines().filter(l -> l.startsWith("good ")).findFirst().orElseThrow();
    assertTrue(good, good.matches("good\\s+10\\.0\\s+1\\.000\\s+2\\.000\\s+3\\.0\\s+4\\.0\\s+.*"));
    String partial = t.lines().filter(l -> l.startsWith("partial ")).findFirst().orElseThrow();
    assertTrue(partial, partial.matches("partial\\s+2\\.0\\s+0\\.200\\s+0\\.400\\s+1\\.0\\s+.*"
        + "\\s+2\\s+1\\s+0\\.00\\s+0\\.00"));
    assertTrue(t, t.contains("unfinished jobs count only their finished jobs"));
    Comparison noBound = new Comparison("w", "v100=4", 2, 0, Double.NaN,
        List.of(result("none", -1, -1)));
    assertTrue(ResultsTable.format(noBound), ResultsTable.format(noBound)
        .contains("lower bound on total weighted JCT: - s"));
  }

  @Test(timeout = 60_000)
  public void csvHasOneRowPerJobAndLeavesUnfinishedEmpty() throws IOException {
    SimResult r = new SimResult("p", List.of(new JobOutcome("a,1", 2.5, "cnn", 2, 3, 1500, 4250),
        new JobOutcome("b", 1, "gnn", 1, 1, 1000, -1)), List.of(), 0, 4, 0, 0, 0, 0);
    StringWriter w = new StringWriter();
    JobsCsv.write(r, w);
    assertEquals("job_id,weight,model,k,rounds,arrival_s,completion_s,jct_s\n"
        + "\"a,1\",2.5,cnn,2,3,1.500,4.250,2.750\n"
        + "b,1.0,gnn,1,1,1.000,,\n", w.toString());
  }

  @Test(timeout = 60_000)
  public void cdfCountsAllJobsSoUnfinishedOnesKeepItBelowOne() {
    // JCTs: a = 4 s, b = 2 s; in "partial" only a finishes (1 s)
    XYSeriesCollection d = JctCdfChart.dataset(List.of(result("full", 4000, 3000),
        result("partial", 1000, -1)));
    XYSeries full = d.getSeries("full");
    assertEquals(3, full.getItemCount());
    assertPoint(full, 0, 2.0, 0.0);
    assertPoint(full, 1, 2.0, 0.5);
    assertPoint(full, 2, 4.0, 1.0);
    XYSeries partial = d.getSeries("partial");
    assertEquals(2, partial.getItemCount());
    assertPoint(partial, 1, 1.0, 0.5);
  }

  private static void assertPoint(XYSeries s, int i, double x, double y) {
    assertEquals(x, s.getX(i).doubleValue(), 1e-12);
    assertEquals(y, s.getY(i).doubleValue(), 1e-12);
  }
}
