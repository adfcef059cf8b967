package io.hare.yarn.scheduler.web;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.hare.yarn.scheduler.SchedulerReport;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.Test;

/** The scheduler page's queues: each queue's guarantee, and the guarantees' overcommit. */
public class SchedulerHtmlTest {

  private static SchedulerReport report(Optional<String> warning) {
    return new SchedulerReport("hare", 0, List.of(new SchedulerReport.GpuCount("v100", 4, 1)), 1,
        2, 0, List.of(), List.of(
            new SchedulerReport.QueueLine("a", 0, 1, 2, 4, 1, 0, Map.of("v100", 0.5)),
            new SchedulerReport.QueueLine("b", 0.75, 1, 3, 4, 0, 2)),
        warning, 0, Optional.empty(), (caller, owner, queue) -> true);
  }

  @Test(timeout = 60_000)
  public void eachQueueShowsItsGuaranteeOfTypesOrOfTheFleet() {
    String page = SchedulerHtml.render(report(Optional.empty()), Optional.empty());
    assertTrue(page, page.contains("<tr><td>a</td><td>0.50 of v100 (2 GPUs)</td><td>1.00 (4"
        + " GPUs)</td><td>1</td><td>0</td></tr>"));
    assertTrue(page, page.contains("<tr><td>b</td><td>0.75 of the fleet (3 GPUs)</td><td>1.00"
        + " (4 GPUs)</td><td>0</td><td>2</td></tr>"));
    assertFalse(page, page.contains("Warning"));
  }

  @Test(timeout = 60_000)
  public void guaranteesThatPromiseMoreThanTheGpusAreWarnedOf() {
    String page = SchedulerHtml.render(report(Optional.of("the queues' GPU guarantees add up"
        + " to 5 GPUs on a cluster of 4 (a 2 (per type), b 3 (of the fleet)) <x>")),
        Optional.empty());
    assertTrue(page, page.contains("<p class=\"warning\">Warning: the queues&#39; GPU"
        + " guarantees add up to 5 GPUs on a cluster of 4 (a 2 (per type), b 3 (of the fleet))"
        + " &lt;x&gt;.</p>"));
  }
}
