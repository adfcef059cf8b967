package io.hare.sim.report;

import io.hare.sim.SimResult;
import java.awt.BasicStroke;
import java.awt.Color;
import java.util.List;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogarithmicAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYStepRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Cumulative distribution of job completion times, one step line per policy. The y value at a
 * JCT x is the fraction of <em>all</em> jobs of the workload that finished within x seconds, so a
 * policy that leaves jobs unfinished never reaches 1. The x axis is logarithmic because JCTs
 * span minutes to days.
 */
public final class JctCdfChart {

  private JctCdfChart() {}

  /** One series per result, keyed by policy: (JCT s, fraction of all jobs done by then). */
  static XYSeriesCollection dataset(List<SimResult> results) {
    XYSeriesCollection data = new XYSeriesCollection();
    for (SimResult r : results) {
      XYSeries s = new XYSeries(r.policy(), false, true);
      double[] jcts = r.sortedJctsS();
      int n = r.jobs().size();
      if (jcts.length > 0) {
        s.add(jcts[0], 0.0);
      }
      for (int i = 0; i < jcts.length; i++) {
        s.add(jcts[i], (double) (i + 1) / n);
      }
      data.addSeries(s);
    }
    return data;
  }

  public static JFreeChart create(List<SimResult> results) {
    LogarithmicAxis x = new LogarithmicAxis("job completion time (s, log scale)");
    x.setStrictValuesFlag(false); // an empty series must not throw
    x.setAutoRangeNextLogFlag(true); // whole decades: 1, 10, 100 s ...
    NumberAxis y = new NumberAxis("fraction of jobs completed");
    y.setRange(0.0, 1.0);
    XYStepRenderer renderer = new XYStepRenderer();
    for (int i = 0; i < results.size(); i++) {
      renderer.setSeriesStroke(i, new BasicStroke(2.0f));
    }
    XYPlot plot = new XYPlot(dataset(results), x, y, renderer);
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    JFreeChart chart = new JFreeChart("JCT CDF", JFreeChart.DEFAULT_TITLE_FONT, plot, true);
    chart.setBackgroundPaint(Color.WHITE);
    chart.addSubtitle(new TextTitle("share of all jobs finished within a JCT; unfinished jobs "
        + "never count"));
    return chart;
  }
}
