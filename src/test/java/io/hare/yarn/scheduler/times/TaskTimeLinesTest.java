package io.hare.yarn.scheduler.times;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.GpuType;
import io.hare.core.profile.OnlineEstimator.Measured;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** The saved lines: exact numbers back, and each bad line refused alone with its reason. */
public class TaskTimeLinesTest {

  private static final GpuType V100 = GpuType.of("v100");
  private static final GpuType K80 = GpuType.of("k80");

  @Test(timeout = 60_000)
  public void writtenJobsReadBackExactlyInOrder() {
    Map<String, List<Measured>> jobs = new LinkedHashMap<>();
    jobs.put("application_1_0002", List.of(new Measured("cnn", V100, 1.0 / 3, 0, 4.5),
        new Measured("cnn", K80, 1e-3, 12.25, 20)));
    jobs.put("application_1_0001", List.of(new Measured("(none)", K80, 60_000.1, 0, 1)));
    TaskTimeLines.Parsed p = TaskTimeLines.parse(TaskTimeLines.write(jobs));
    assertEquals(List.of(), p.problems());
    assertEquals(jobs, p.jobs());
    assertEquals(List.copyOf(jobs.keySet()), List.copyOf(p.jobs().keySet()));
  }

  @Test(timeout = 60_000)
  public void badLinesAreRefusedOneByOneAndTheRestKept() {
    String text = String.join("\n", TaskTimeLines.HEADER,
        "application_1_0001\tcnn\tv100\t2600.0\t20.0\t5.0", // kept
        "application_1_0001\tcnn\tk80\tNaN\t0.0\t1.0",
        "application_1_0001\tcnn\tt4\t-5.0\t0.0\t1.0",
        "application_1_0001\tcnn\tm60\t1.0E20\t0.0\t1.0",
        "application_1_0001\tcnn\ta100\t100.0\t0.0\t0.0",
        "application_1_0001\tcnn\tp100\t100.0\t-1.0\t1.0",
        "application_1_0001\tcnn\tv100\t100.0\t0.0\t1.0", // v100 again
        "application_1_0001\trnn\tt4\t100.0\t0.0\t1.0", // another model
        "application_1_0001\tcnn\tNOT A TYPE\t100.0\t0.0\t1.0",
        "application 1\tcnn\tt4\t100.0\t0.0\t1.0",
        "application_1_0001\tcnn\tt4\t100.0\t0.0",
        "application_1_0001\tcnn\tt4\tInfinity\t0.0\t1.0",
        "application_1_0002\tcnn\tt4\t0x1p3\t0.0\t1.0",
        "",
        "# a comment",
        "application_1_0002\tcnn\tt4\t100\t0\t1"); // kept: integers are decimals
    TaskTimeLines.Parsed p = TaskTimeLines.parse(text);
    assertEquals(Map.of("application_1_0001", List.of(new Measured("cnn", V100, 2600, 20, 5)),
        "application_1_0002", List.of(new Measured("cnn", GpuType.of("t4"), 100, 0, 1))),
        p.jobs());
    List<String> problems = p.problems();
    assertEquals(problems.toString(), 12, problems.size());
    assertTrue(problems.get(0), problems.get(0).startsWith("line 3: compute_ms: not a decimal"));
    assertTrue(problems.get(1), problems.get(1).startsWith("line 4: compute_ms: must be > 0"));
    assertTrue(problems.get(2), problems.get(2).startsWith("line 5: compute_ms: must be at most"));
    assertTrue(problems.get(3), problems.get(3).startsWith("line 6: samples: must be > 0"));
    assertTrue(problems.get(4), problems.get(4).startsWith("line 7: sync_ms: must be >= 0"));
    assertTrue(problems.get(5), problems.get(5).contains("v100 is on an earlier line"));
    assertTrue(problems.get(6), problems.get(6).contains("has model 'cnn' on an earlier line"));
    assertTrue(problems.get(7), problems.get(7).contains("GPU type name"));
    assertTrue(problems.get(8), problems.get(8).contains("is not an application id"));
    assertTrue(problems.get(9), problems.get(9).contains("expected 6 tab-separated fields"));
  }

  @Test(timeout = 60_000)
  public void anotherVersionOrNoHeaderRefusesTheWholeText() {
    for (String text : List.of("hare-task-times 2\napplication_1_0001\tcnn\tv100\t1.0\t0.0\t1.0",
        "application_1_0001\tcnn\tv100\t1.0\t0.0\t1.0", "", "\u0000\u0001binary")) {
      TaskTimeLines.Parsed p = TaskTimeLines.parse(text);
      assertEquals(Map.of(), p.jobs());
      assertEquals(1, p.problems().size());
      assertTrue(p.problems().get(0), p.problems().get(0).startsWith("line 1: expected"));
    }
  }
}
