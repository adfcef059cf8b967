package io.hare.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.junit.After;
import org.junit.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * What a new user meets first: the example job spec validates from a checkout, a misspelt
 * option of any command is named with the closest known one, and a command whose libraries are
 * missing (the tarball's bin/hare without a Hadoop) is still listed and says what is missing.
 */
public class FirstContactTest {

  private static final String EXAMPLES = "hare.examples.dir";

  @After
  public void clear() {
    System.clearProperty(EXAMPLES);
  }

  @Test(timeout = 60_000)
  public void theExampleSpecValidatesWithTheExamplesDirectoryTheLaunchersSet() {
    // as dist/bin/hare sets it (bin/hare of the tarball: its examples/)
    System.setProperty(EXAMPLES, Path.of("dist/examples").toAbsolutePath().toString());
    CliRun r = CliRun.run("submit", "--validate", "conf/hare-job.xml");
    assertEquals(r.toString(), HareCommand.OK, r.code);
    assertTrue(r.toString(), r.out.startsWith("OK: conf/hare-job.xml: job resnet18-example"));
  }

  @Test(timeout = 60_000)
  public void withoutTheExamplesDirectoryTheProblemNamesTheVariable() {
    CliRun r = CliRun.run("submit", "--validate", "conf/hare-job.xml");
    assertEquals(r.toString(), HareCommand.BAD_INPUT, r.code);
    assertTrue(r.toString(), r.err.contains("${hare.examples.dir} is defined neither in the"
        + " spec nor as a Java system property"));
  }

  @Test(timeout = 60_000)
  public void aMisspeltOptionOfAnyCommandIsNamedWithTheClosest() {
    CliRun submit = CliRun.run("submit", "--valdate", "conf/hare-job.xml");
    assertEquals(submit.toString(), HareCommand.BAD_INPUT, submit.code);
    assertTrue(submit.toString(), submit.err.startsWith("hare submit: unknown option"
        + " '--valdate'; did you mean --validate?\n"));
    CliRun status = CliRun.run("status", "--bogus", "application_1_1");
    assertEquals(status.toString(), HareCommand.BAD_INPUT, status.code);
    assertTrue("nothing close: no guess\n" + status, status.err.startsWith("hare status: unknown"
        + " option '--bogus'\n"));
  }

  /** A command as the CLI has them, here with a class that cannot load. */
  @Command(name = "needy", description = "Needs a library that is not there.")
  static final class Needy implements Callable<Integer> {
    @Override
    public Integer call() {
      return HareCommand.OK;
    }
  }

  @Test(timeout = 60_000)
  public void aCommandWhoseLibrariesAreMissingIsListedAndSaysWhatIsMissing() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(new HareCommand());
    MissingLibraries.add(cl, "needy", Needy.class, () -> {
      throw new NoClassDefFoundError("org/apache/hadoop/conf/Configuration");
    });
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    assertEquals(HareCommand.OK, cl.execute("--help"));
    assertTrue(out.toString(), out.toString().contains("needy")
        && out.toString().contains("Needs a library that is not there."));
    assertEquals(HareCommand.FAILURE, cl.execute("needy", "--any", "thing"));
    assertTrue(err.toString(), err.toString().contains("hare needy: cannot run here: the class"
        + " org.apache.hadoop.conf.Configuration is missing from the classpath; this command"
        + " needs Hadoop's libraries"));
  }
}
