package io.hare.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/** {@code hare bench workers}: every bad option is named at once before a cluster starts. */
public class BenchWorkersCommandTest {

  @Test(timeout = 60_000)
  public void badOptionsExit2NamingEveryOneOfThem() {
    CliRun r = CliRun.run("bench", "workers", "--framework", "java,rust", "--rounds", "0",
        "--compute-ms", "0");
    assertEquals(r.toString(), HareCommand.BAD_INPUT, r.code);
    assertEquals("nothing on stdout\n" + r, "", r.out);
    assertTrue(r.toString(), r.err.contains("--framework: one of java, python, pytorch, got rust"));
    assertTrue(r.toString(), r.err.contains("--rounds: must be from 1 to 100, got 0"));
    assertTrue(r.toString(), r.err.contains("--compute-ms: must be from 1 to 60000, got 0"));
    assertFalse("no stack trace\n" + r, r.err.contains("\tat "));
  }
}
