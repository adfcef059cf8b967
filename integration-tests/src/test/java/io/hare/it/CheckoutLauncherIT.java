package io.hare.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.Test;

/**
 * A source checkout's {@code dist/bin/hare} as a new user runs it: the example job spec
 * validates from the checkout's root and from any other directory (the launcher tells the CLI
 * where the examples are), and a misspelt option is named with the closest known one.
 */
public class CheckoutLauncherIT {

  private static final Path ROOT = Path.of("").toAbsolutePath();

  private record Run(int code, String out, String err) {}

  private static Run hare(Path dir, String... args) throws Exception {
    File out = File.createTempFile("checkout-it", ".out");
    File err = File.createTempFile("checkout-it", ".err");
    try {
      List<String> cmd = new ArrayList<>(List.of(ROOT.resolve("dist/bin/hare").toString()));
      cmd.addAll(List.of(args));
      Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(out)
          .redirectError(err).start();
      if (!p.waitFor(240, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError(cmd + " ran over 240 s");
      }
      return new Run(p.exitValue(), Files.readString(out.toPath()),
          Files.readString(err.toPath()));
    } finally {
      out.delete();
      err.delete();
    }
  }

  @Test(timeout = 300_000)
  public void theExampleSpecValidatesFromTheCheckoutAndFromElsewhere() throws Exception {
    Run root = hare(ROOT, "submit", "--validate", "conf/hare-job.xml");
    assertEquals(root.out + root.err, 0, root.code);
    assertTrue(root.out, root.out.startsWith("OK: conf/hare-job.xml: job resnet18-example"));
    Path elsewhere = Files.createDirectories(ROOT.resolve("target/checkout-it"));
    Run other = hare(elsewhere, "submit", "--validate",
        ROOT.resolve("conf/hare-job.xml").toString());
    assertEquals(other.out + other.err, 0, other.code);
  }

  @Test(timeout = 300_000)
  public void aMisspeltOptionIsNamedWithTheClosest() throws Exception {
    Run r = hare(ROOT, "simulate", "--policis", "hare,allox");
    assertEquals(r.out + r.err, 2, r.code);
    assertTrue(r.err, r.err.startsWith("hare simulate: unknown option '--policis'; did you mean"
        + " --policies?"));
  }
}
