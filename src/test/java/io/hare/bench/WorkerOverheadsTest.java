package io.hare.bench;

import static org.junit.Assert.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The workers bench's arithmetic on hand-written task records. */
public class WorkerOverheadsTest {

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  @Test(timeout = 60_000)
  public void overheadIsWallMinusComputeAndGapsStayInsideARound() throws Exception {
    Path f = tmp.getRoot().toPath().resolve("tasks.txt");
    // bench_worker.py's lines: task ROUND INDEX START_MS END_MS COMPUTE_MS PID, out of order
    Files.write(f, List.of("task 0 1 1200 1800 500 42", "task 0 0 1000 1150 100 42",
        "task 1 0 5000 5600 500 43"));
    WorkerOverheads o = WorkersBench.pythonCosts(f);
    assertEquals(List.of(50L, 100L, 100L), o.overheadMs());
    assertEquals("round 0's two tasks: 1150 to 1200; none across the barrier", List.of(50L),
        o.gapsMs());
    assertEquals(100.0, o.overheadPercentile(50), 0);
    assertEquals(250.0 / 1350, o.overheadFraction(), 1e-12);
  }

  @Test(timeout = 60_000, expected = java.io.IOException.class)
  public void aLineThatIsNotATaskIsRefused() throws Exception {
    Path f = tmp.getRoot().toPath().resolve("tasks.txt");
    Files.write(f, List.of("task 0 1 1200"));
    WorkersBench.pythonCosts(f);
  }
}
