package io.hare.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Guards the binary tarball that {@code mvn package} builds ({@code dist/assembly/bin.xml}):
 * unpacks {@code target/hare-yarn-*-bin.tar.gz} with {@code tar}, checks its layout (launchers
 * executable; lib/ holds the plugin jar and OR-Tools but nothing a Hadoop installation already
 * ships; conf/ files well-formed XML), then runs the unpacked {@code bin/hare} the way a cluster
 * node would: against a stand-in Hadoop whose {@code hadoop classpath} lists the Hadoop jars of
 * {@code target/lib}. So a runtime dependency missing from lib/ shows up as a failing command.
 *
 * <p>Runs under failsafe, after the package phase built the tarball. Needs bash and tar.
 */
public class TarballIT {

  private static final long RUN_TIMEOUT_S = 90;
  /** A jar's artifact name: the file name without its version ("-DIGITS.DIGIT..."). */
  private static final Pattern VERSIONED = Pattern.compile("^(.*)-[0-9]+\\.[0-9].*$");
  /** Libraries every Hadoop 3.x ships: lib/ must leave them to the cluster. */
  private static final List<String> HADOOP_SHIPS = List.of("hadoop-", "jackson-", "slf4j-",
      "log4j", "reload4j", "commons-text-", "commons-lang3-", "commons-io-", "commons-codec-",
      "guava-", "netty-", "jersey-", "jetty-");

  private static Path home;
  private static Path fakeHadoop;

  @BeforeClass
  public static void unpack() throws Exception {
    Path target = Path.of("target").toAbsolutePath();
    List<Path> tarballs;
    try (Stream<Path> s = Files.list(target)) {
      tarballs = s.filter(p -> p.getFileName().toString().matches("hare-yarn-.*-bin\\.tar\\.gz"))
          .collect(Collectors.toList());
    }
    assertEquals("one tarball in " + target + " (run 'mvn package' first)", 1, tarballs.size());
    Path dir = target.resolve("tarball-it");
    run(target, List.of("rm", "-rf", dir.toString()), Map.of());
    Files.createDirectories(dir);
    Run untar = run(dir, List.of("tar", "xzf", tarballs.get(0).toString()), Map.of());
    assertEquals(untar.err, 0, untar.code);
    try (Stream<Path> s = Files.list(dir)) {
      home = s.filter(Files::isDirectory).findFirst().orElseThrow();
    }
    fakeHadoop = fakeHadoop(dir.resolve("fake-hadoop"), target.resolve("lib"));
  }

  @Test(timeout = 60_000)
  public void launchersAreExecutable() {
    assertTrue(Files.isExecutable(home.resolve("bin/hare")));
    assertTrue(Files.isExecutable(home.resolve("sbin/hare-gpu-model.sh")));
    assertTrue(Files.isRegularFile(home.resolve("README.md")));
    assertTrue(Files.isRegularFile(home.resolve("examples/pytorch_round_task.py")));
  }

  @Test(timeout = 60_000)
  public void libHoldsThePluginAndOrToolsButNothingHadoopShips() throws IOException {
    Set<String> lib = artifacts(home.resolve("lib"));
    for (String a : List.of("hare-yarn", "ortools-java", "ortools-linux-x86-64", "jna",
        "protobuf-java", "commons-csv", "picocli")) {
      assertTrue(a + " in lib/: " + lib, lib.contains(a));
    }
    assertEquals(Set.of("jfreechart"), artifacts(home.resolve("lib/cli")));
    try (Stream<Path> all = Files.walk(home)) {
      for (Path jar : all.filter(p -> p.toString().endsWith(".jar")).collect(Collectors.toList())) {
        String name = jar.getFileName().toString();
        for (String hadoops : HADOOP_SHIPS) {
          assertFalse(home.relativize(jar) + " is Hadoop's to ship", name.startsWith(hadoops));
        }
      }
    }
  }

  @Test(timeout = 60_000)
  public void confFilesAreWellFormedXml() throws Exception {
    List<String> xml = new ArrayList<>();
    try (DirectoryStream<Path> conf = Files.newDirectoryStream(home.resolve("conf"), "*.xml")) {
      for (Path f : conf) {
        DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(f.toFile());
        xml.add(f.getFileName().toString());
      }
    }
    assertTrue(xml.toString(), xml.containsAll(List.of("yarn-site.xml", "resource-types.xml",
        "nodemanager-site.xml", "hare-job.xml")));
    for (String f : List.of("log4j.properties", "profiles.csv", "gpu-models.txt")) {
      assertTrue(f, Files.isRegularFile(home.resolve("conf").resolve(f)));
    }
  }

  @Test(timeout = 120_000)
  public void helpRunsOnTheClustersHadoop() throws Exception {
    Run r = hare("--help");
    assertEquals(r.err, 0, r.code);
    assertTrue(r.out, r.out.contains("simulate") && r.out.contains("submit"));
  }

  /** The example conf files pass the scheduler's and the client's own validation. */
  @Test(timeout = 120_000)
  public void exampleConfAndJobSpecAreValid() throws Exception {
    Run check = hare("conf-check", "--conf", "conf/yarn-site.xml", "--conf",
        "conf/resource-types.xml", "-D", "yarn.scheduler.hare.profiles.file=conf/profiles.csv",
        "-D", "yarn.scheduler.hare.gpu-type.mapping-file=conf/gpu-models.txt");
    assertEquals(check.out + check.err, 0, check.code);
    Run job = hare("submit", "--validate", "conf/hare-job.xml");
    assertEquals(job.out + job.err, 0, job.code);
  }

  /** A library the cluster's Hadoop has (here commons-csv) is taken from there, not twice. */
  @Test(timeout = 60_000)
  public void classpathTakesALibraryOnceAndThePluginFirst() throws Exception {
    Run r = hare("classpath");
    assertEquals(r.err, 0, r.code);
    String[] cp = r.out.trim().split(":");
    assertTrue(cp[0], cp[0].matches(".*/lib/hare-yarn-[^/]*\\.jar"));
    assertTrue(r.out, r.out.contains("/lib/ortools-java-"));
    assertFalse(r.out, r.out.contains(home.resolve("lib") + "/commons-csv-"));
    assertTrue(r.out, r.out.endsWith(fakeHadoop.resolve("lib") + "/*\n"));
  }

  /** Without a Hadoop, --help still lists every command; one that needs Hadoop says so. */
  @Test(timeout = 120_000)
  public void withoutHadoopHelpWorksAndClusterCommandsSaySo() throws Exception {
    Map<String, String> env = Map.of("PATH", "/usr/bin:/bin", "JAVA_HOME",
        System.getProperty("java.home"));
    Run help = run(home, List.of(home.resolve("bin/hare").toString(), "--help"), env);
    assertEquals(help.out + help.err, 0, help.code);
    assertTrue(help.err, help.err.contains("no Hadoop found"));
    assertTrue(help.out, help.out.contains("submit") && help.out.contains("simulate"));
    Run status = run(home, List.of(home.resolve("bin/hare").toString(), "status",
        "application_1700000000000_0001"), env);
    assertEquals(status.out + status.err, 1, status.code);
    assertTrue(status.err, status.err.contains("hare status: cannot run here")
        && status.err.contains("needs Hadoop's libraries"));
  }

  /**
   * A stand-in Hadoop installation: bin/hadoop prints, for {@code classpath}, its conf dir and
   * lib/*, where lib/ links every jar of target/lib that the tarball does not ship, plus
   * commons-csv (which a Hadoop could ship too).
   */
  private static Path fakeHadoop(Path dir, Path targetLib) throws IOException {
    Set<String> shipped = artifacts(home.resolve("lib"));
    shipped.addAll(artifacts(home.resolve("lib/cli")));
    shipped.remove("commons-csv");
    Files.createDirectories(dir.resolve("bin"));
    Files.createDirectories(dir.resolve("conf"));
    Files.createDirectories(dir.resolve("lib"));
    try (DirectoryStream<Path> jars = Files.newDirectoryStream(targetLib, "*.jar")) {
      for (Path jar : jars) {
        if (!shipped.contains(artifact(jar))) {
          Files.createSymbolicLink(dir.resolve("lib").resolve(jar.getFileName()), jar);
        }
      }
    }
    Path hadoop = dir.resolve("bin/hadoop");
    Files.writeString(hadoop, "#!/bin/sh\n[ \"$1\" = classpath ] || exit 1\necho '"
        + dir.resolve("conf") + ":" + dir.resolve("lib") + "/*'\n", StandardCharsets.UTF_8);
    assertTrue(hadoop.toFile().setExecutable(true));
    return dir;
  }

  private static Set<String> artifacts(Path dir) throws IOException {
    Set<String> names = new HashSet<>();
    try (DirectoryStream<Path> jars = Files.newDirectoryStream(dir, "*.jar")) {
      jars.forEach(j -> names.add(artifact(j)));
    }
    return names;
  }

  private static String artifact(Path jar) {
    String n = jar.getFileName().toString().replaceFirst("\\.jar$", "");
    Matcher m = VERSIONED.matcher(n);
    return m.matches() ? m.group(1) : n;
  }

  /** bin/hare in the unpacked directory, on the stand-in Hadoop. */
  private static Run hare(String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(home.resolve("bin/hare").toString());
    cmd.addAll(List.of(args));
    return run(home, cmd, Map.of("PATH", "/usr/bin:/bin", "HADOOP_HOME", fakeHadoop.toString(),
        "JAVA_HOME", System.getProperty("java.home")));
  }

  private record Run(int code, String out, String err) {}

  /** Runs a command in {@code dir} with exactly the environment {@code env} (if not empty). */
  private static Run run(Path dir, List<String> cmd, Map<String, String> env) throws Exception {
    File out = File.createTempFile("tarball-it", ".out");
    File err = File.createTempFile("tarball-it", ".err");
    try {
      ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile())
          .redirectOutput(out).redirectError(err);
      if (!env.isEmpty()) {
        pb.environment().clear();
        pb.environment().putAll(env);
      }
      Process p = pb.start();
      if (!p.waitFor(RUN_TIMEOUT_S, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        fail(cmd + " ran over " + RUN_TIMEOUT_S + " s");
      }
      return new Run(p.exitValue(), Files.readString(out.toPath()),
          Files.readString(err.toPath()));
    } finally {
      out.delete();
      err.delete();
    }
  }
}
