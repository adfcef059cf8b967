package io.hare.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.hare.core.SchedulerKeys;
import org.junit.Test;
import picocli.CommandLine;

/**
 * {@code hare bench switching}: every bad option is named at once before a cluster starts, and
 * the Hare run turns standby containers on unless {@code --no-standbys} asks for Hare's default.
 */
public class BenchSwitchingCommandTest {

  private static BenchSwitchingCommand parsed(String... args) {
    BenchSwitchingCommand c = new BenchSwitchingCommand();
    new CommandLine(c).parseArgs(args);
    return c;
  }

  @Test(timeout = 60_000)
  public void badOptionsExit2NamingEveryOneOfThem() {
    CliRun r = CliRun.run("bench", "switching", "--task-seconds", "0", "--nodes", "9",
        "--heartbeat-ms", "5");
    assertEquals(r.toString(), HareCommand.BAD_INPUT, r.code);
    assertEquals("nothing on stdout\n" + r, "", r.out);
    for (String option : new String[] {"--task-seconds", "--nodes", "--heartbeat-ms"}) {
      assertTrue("stderr names " + option + "\n" + r, r.err.contains(option));
    }
    assertFalse("no stack trace\n" + r, r.err.contains("\tat "));
  }

  @Test(timeout = 60_000)
  public void standbysAreOnUnlessNoStandbysAsksForTheDefault() {
    assertEquals("true", parsed("--task-seconds", "2").hareSchedulerConf()
        .get(SchedulerKeys.STANDBY_ENABLED));
    assertEquals("false", parsed("--task-seconds", "2", "--no-standbys").hareSchedulerConf()
        .get(SchedulerKeys.STANDBY_ENABLED));
    assertEquals("the scheduler is told the tasks' time", "2500",
        parsed("--task-seconds", "2.5").hareSchedulerConf()
            .get(SchedulerKeys.PROFILES_DEFAULT_COMPUTE_MS));
  }
}
