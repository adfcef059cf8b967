package io.hare.demo;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.BeforeClass;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The charts' shared time axis, and what the text and the page say of "x first". */
public class DemoPicturesTest {

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  @BeforeClass
  public static void headless() {
    System.setProperty("java.awt.headless", "true");
  }

  @Test(timeout = 60_000)
  public void bothRunsShareTheLongerRunsSpanEachFromItsOwnFirstSubmission() {
    DemoResult shorter = DemoReportTest.run("hare", 4000); // submitted at 1000, ends by 9000
    DemoResult longer = DemoReportTest.run("yarn-fifo", 12_000); // a finishes at 13000
    long end = longer.jobs().stream().mapToLong(DemoResult.Job::finishMs).max().orElseThrow()
        - longer.originMs();
    assertEquals(end, DemoPictures.axisEndMs(List.of(shorter, longer)));
    assertEquals(end, DemoPictures.axisEndMs(List.of(longer, shorter)));
    long own = shorter.jobs().stream().mapToLong(DemoResult.Job::finishMs).max().orElseThrow()
        - shorter.originMs();
    assertEquals(own, DemoPictures.axisEndMs(List.of(shorter)));
    assertTrue(own < end);
  }

  @Test(timeout = 60_000)
  public void theTextAndThePageSayWhatXFirstMeans() throws Exception {
    List<DemoResult> runs = List.of(DemoReportTest.run("hare", 4000),
        DemoReportTest.run("yarn-fifo", 8000));
    StringWriter text = new StringWriter();
    DemoReport.printSummary(runs, Map.of("yarn-fifo", new DemoReport.Notes(null, "loaded")),
        new PrintWriter(text, true));
    assertTrue(text.toString(), text.toString().contains("x first") && text.toString()
        .contains(DemoReport.X_FIRST));
    assertTrue(text.toString(), text.toString().contains("load warning (yarn-fifo): loaded"));
    Path dir = tmp.getRoot().toPath();
    List<Path> written = DemoPictures.write(dir, runs, text.toString());
    String page = Files.readString(dir.resolve(DemoPictures.PAGE));
    assertTrue(page, page.contains(DemoReport.X_FIRST));
    assertTrue(page, page.contains("barrier") && page.contains("AM start"));
    assertEquals(3, written.size());
  }
}
