package io.hare.example;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/**
 * {@code SgdJob}'s command tree as {@code main} builds it: only the subcommand a command line
 * names (a container's JVM starts faster), and every subcommand when it names none, so help and
 * a mistyped command still list them all.
 */
public class SgdJobCommandsTest {

  private static final List<String> ALL = List.of("help", "init", "task", "worker", "sync",
      "reference");

  private static List<String> subcommands(String first) {
    return List.copyOf(SgdJob.commandLine(new PrintWriter(new StringWriter()),
        new PrintWriter(new StringWriter()), Env.of(Map.of()), first).getSubcommands().keySet());
  }

  @Test(timeout = 30_000)
  public void aNamedSubcommandIsTheOnlyOneBuilt() {
    for (String name : ALL.subList(1, ALL.size())) {
      assertEquals(List.of("help", name), subcommands(name));
    }
  }

  @Test(timeout = 30_000)
  public void anythingElseGetsTheWholeTree() {
    for (String first : new String[] {"", "--help", "help", "wroker"}) {
      assertEquals(first, ALL, subcommands(first));
    }
    assertEquals(ALL, List.copyOf(SgdJob.commandLine(new PrintWriter(new StringWriter()),
        new PrintWriter(new StringWriter()), Env.of(Map.of())).getSubcommands().keySet()));
  }

  @Test(timeout = 30_000)
  public void aMistypedCommandIsRefusedAsBefore() {
    SgdJobRun r = SgdJobRun.run(Map.of(), "wroker");
    assertEquals(r.toString(), SgdJob.BAD_INPUT, r.code);
    assertEquals("SgdJob: Unmatched argument at index 0: 'wroker'", r.err.strip());
  }

  @Test(timeout = 30_000)
  public void aSubcommandsHelpIsItsOwn() {
    SgdJobRun r = SgdJobRun.run(Map.of(), "worker", "--help");
    assertEquals(r.toString(), SgdJob.OK, r.code);
    assertTrue(r.toString(), r.out.contains("Usage: SgdJob worker"));
  }
}
