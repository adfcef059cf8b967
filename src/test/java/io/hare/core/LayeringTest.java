package io.hare.core;

import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * The policy core stays free of Hadoop so the simulator and the RM share it, its policy families
 * stay apart, and the simulator stays free of the YARN adapters.
 */
public class LayeringTest {

  private static final Path MAIN = Path.of("src/main/java/io/hare");

  private static List<String> offenders(Path dir, String forbidden) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(p -> p.toString().endsWith(".java")).filter(p -> {
        try {
          return Files.readAllLines(p).stream()
              .anyMatch(l -> l.startsWith("import " + forbidden)
                  || l.startsWith("import static " + forbidden));
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }).map(Path::toString).collect(Collectors.toList());
    }
  }

  @Test(timeout = 300_000)
  public void coreDoesNotImportHadoop() throws IOException {
    List<String> bad = offenders(MAIN.resolve("core"), "org.apache.hadoop");
    assertTrue("core imports Hadoop: " + bad, bad.isEmpty());
  }

  @Test(timeout = 300_000)
  public void coreDoesNotImportSimOrYarn() throws IOException {
    List<String> bad = offenders(MAIN.resolve("core"), "io.hare.sim");
    bad.addAll(offenders(MAIN.resolve("core"), "io.hare.yarn"));
    bad.addAll(offenders(MAIN.resolve("core"), "io.hare.cli"));
    assertTrue("core depends on an outer layer: " + bad, bad.isEmpty());
  }

  /**
   * MiniYARNCluster, MockRM and the test utilities they need are on the main classpath only for
   * the embedded cluster of {@code hare demo} and {@code hare bench}; the scheduler, AM, core and
   * simulator must run without them (the tarball does not ship them).
   */
  @Test(timeout = 300_000)
  public void onlyEmbeddedAndBenchUseTestJars() throws IOException {
    List<String> bad = new java.util.ArrayList<>();
    for (String dir : List.of("core", "sim", "yarn", "example", "cli")) {
      for (String forbidden : List.of("org.apache.hadoop.yarn.server.MiniYARNCluster",
          "org.apache.hadoop.yarn.server.resourcemanager.Mock", "org.apache.hadoop.test",
          "org.junit")) {
        bad.addAll(offenders(MAIN.resolve(dir), forbidden));
      }
    }
    assertTrue("test jars used outside io.hare.embedded and io.hare.bench: " + bad,
        bad.isEmpty());
  }

  /**
   * A policy family ({@code core/policy/hare}, {@code hlas}, {@code gang}, {@code blind}) uses
   * the policy API and its own package, never another family: what two families share belongs
   * in the API package, where every host and policy can see it changing.
   */
  @Test(timeout = 300_000)
  public void policyFamiliesDoNotImportEachOther() throws IOException {
    Path policy = MAIN.resolve("core/policy");
    List<String> families;
    try (Stream<Path> dirs = Files.list(policy)) {
      families = dirs.filter(Files::isDirectory).map(d -> d.getFileName().toString()).sorted()
          .collect(Collectors.toList());
    }
    assertTrue("no policy families under " + policy, families.size() >= 4);
    List<String> bad = new java.util.ArrayList<>();
    for (String family : families) {
      for (String other : families) {
        if (!other.equals(family)) {
          bad.addAll(offenders(policy.resolve(family), "io.hare.core.policy." + other + "."));
        }
      }
    }
    assertTrue("a policy family imports another: " + bad, bad.isEmpty());
  }

  @Test(timeout = 300_000)
  public void simulatorDoesNotImportYarnOrHadoop() throws IOException {
    List<String> bad = offenders(MAIN.resolve("sim"), "io.hare.yarn");
    bad.addAll(offenders(MAIN.resolve("sim"), "org.apache.hadoop"));
    assertTrue("sim imports YARN: " + bad, bad.isEmpty());
  }

  /**
   * A resident worker runs inside the user's job with the JDK alone: a data team's worker
   * classpath need not hold Hadoop, nor anything of the scheduler or the AM.
   */
  @Test(timeout = 300_000)
  public void theWorkerLibraryNeedsOnlyTheJdk() throws IOException {
    List<String> bad = new java.util.ArrayList<>();
    try (Stream<Path> files = Files.walk(MAIN.resolve("worker"))) {
      for (Path p : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        for (String l : Files.readAllLines(p)) {
          if (l.startsWith("import ") && !l.startsWith("import java.")
              && !l.startsWith("import javax.crypto.") && !l.startsWith("import io.hare.worker.")) {
            bad.add(p + ": " + l);
          }
        }
      }
    }
    assertTrue("the worker library imports beyond the JDK: " + bad, bad.isEmpty());
  }
}
