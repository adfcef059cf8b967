package io.hare.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
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
 * executable; lib/ holds exactly the shaded plugin jar and OR-Tools, nothing a Hadoop
 * installation ships; the plugin jar carries its own relocated libraries; conf/ files
 * well-formed XML), then runs the unpacked {@code bin/hare} the way a cluster node would:
 * against a stand-in Hadoop whose {@code hadoop classpath} lists Hadoop's own jars at Hadoop's
 * versions ({@code target/hadoop-jars}). So a runtime dependency missing from lib/, or one that
 * Hadoop's version of a library breaks, shows up as a failing command.
 * {@link StandaloneClusterIT} runs daemons on the tarball against Hadoop's own versions.
 *
 * <p>Runs under failsafe, after the package phase built the tarball. Needs bash and tar.
 */
public class TarballIT {

  private static final long RUN_TIMEOUT_S = 90;
  /** A jar's artifact name: the file name without its version ("-DIGITS.DIGIT..."). */
  private static final Pattern VERSIONED = Pattern.compile("^(.*)-[0-9]+\\.[0-9].*$");
  /** Libraries every Hadoop 3.x ships: lib/ must leave them to the cluster. */
  private static final List<String> HADOOP_SHIPS = List.of("hadoop-", "jackson-", "slf4j-",
      "log4j", "reload4j", "commons-", "guava-", "netty-", "jersey-", "jetty-", "jna-");
  /** The packages relocated into the plugin jar (pom.xml, maven-shade-plugin). */
  private static final List<String> RELOCATED = List.of("org/apache/commons/csv/",
      "org/apache/commons/io/", "org/apache/commons/codec/", "org/apache/commons/text/",
      "org/apache/commons/lang3/", "picocli/");

  private static Path home;
  private static Path fakeHadoop;

  @BeforeClass
  public static void unpack() throws Exception {
    Path dir = Path.of("target", "tarball-it").toAbsolutePath();
    home = Tarball.unpack(dir);
    fakeHadoop = fakeHadoop(dir.resolve("fake-hadoop"), Path.of(System.getProperty(
        "hare.it.hadoop.jars", "target/hadoop-jars")).toAbsolutePath());
  }

  @Test(timeout = 60_000)
  public void launchersAreExecutable() {
    assertTrue(Files.isExecutable(home.resolve("bin/hare")));
    assertTrue(Files.isExecutable(home.resolve("sbin/hare-gpu-model.sh")));
    assertTrue(Files.isRegularFile(home.resolve("README.md")));
    assertTrue(Files.isRegularFile(home.resolve("examples/pytorch_round_task.py")));
    assertTrue(Files.isRegularFile(home.resolve("examples/pytorch_resident.py")));
    assertTrue(Files.isRegularFile(home.resolve("python/hare_worker/__init__.py")));
    assertTrue(Files.isRegularFile(home.resolve("python/pyproject.toml")));
  }

  /** No bytecode that the build's tests compiled by running the examples in place. */
  @Test(timeout = 60_000)
  public void noCompiledPythonIsShipped() throws IOException {
    try (Stream<Path> files = Files.walk(home)) {
      List<Path> compiled = files.filter(f -> f.toString().contains("__pycache__")
          || f.toString().endsWith(".pyc")).toList();
      assertEquals(List.of(), compiled);
    }
  }

  /** lib/ is exactly what the README tells an admin to copy: nothing Hadoop ships. */
  @Test(timeout = 60_000)
  public void libHoldsExactlyThePluginAndOrTools() throws IOException {
    assertEquals(Set.of("hare-yarn", "ortools-java", "ortools-linux-x86-64", "protobuf-java"),
        artifacts(home.resolve("lib")));
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

  /**
   * The plugin jar carries the libraries Hadoop also has at other versions relocated under
   * io.hare.shaded, and refers to them only there: no class of it names an unrelocated one.
   */
  @Test(timeout = 60_000)
  public void thePluginJarCarriesItsOwnLibrariesRelocated() throws IOException {
    Path[] plugin;
    try (Stream<Path> s = Files.list(home.resolve("lib"))) {
      plugin = s.filter(p -> p.getFileName().toString().startsWith("hare-yarn-"))
          .toArray(Path[]::new);
    }
    assertEquals(1, plugin.length);
    Set<String> entries = new HashSet<>();
    try (JarFile jar = new JarFile(plugin[0].toFile())) {
      for (JarEntry e : Collections.list(jar.entries())) {
        entries.add(e.getName());
        if (e.getName().endsWith(".class")) {
          String bytes;
          try (InputStream in = jar.getInputStream(e)) {
            bytes = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
          }
          for (String r : RELOCATED) {
            assertFalse(e.getName() + " names " + r, bytes.replace("io/hare/shaded/" + r, "")
                .contains(r));
          }
        }
      }
    }
    for (String r : RELOCATED) {
      assertTrue("io/hare/shaded/" + r + " in " + plugin[0], entries.stream()
          .anyMatch(n -> n.startsWith("io/hare/shaded/" + r)));
      assertFalse(r + " unrelocated in " + plugin[0], entries.stream().anyMatch(n ->
          n.startsWith(r)));
    }
    assertTrue(entries.contains("io/hare/yarn/scheduler/HareScheduler.class"));
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
    Tarball.Run r = hare("--help");
    assertEquals(r.err(), 0, r.code());
    assertTrue(r.out(), r.out().contains("simulate") && r.out().contains("submit"));
  }

  /** The example conf files pass the scheduler's and the client's own validation. */
  @Test(timeout = 120_000)
  public void exampleConfAndJobSpecAreValid() throws Exception {
    Tarball.Run check = hare("conf-check", "--conf", "conf/yarn-site.xml", "--conf",
        "conf/resource-types.xml", "-D", "yarn.scheduler.hare.profiles.file=conf/profiles.csv",
        "-D", "yarn.scheduler.hare.gpu-type.mapping-file=conf/gpu-models.txt");
    assertEquals(check.out() + check.err(), 0, check.code());
    Tarball.Run job = hare("submit", "--validate", "conf/hare-job.xml");
    assertEquals(job.out() + job.err(), 0, job.code());
  }

  /**
   * The plugin jar first (a copy in Hadoop's share/hadoop/yarn/lib must not shadow it), then
   * Hadoop's classpath, then the rest of lib/ and lib/cli/, as the README orders the RM's.
   */
  @Test(timeout = 60_000)
  public void classpathIsThePluginThenHadoopThenLib() throws Exception {
    Tarball.Run r = hare("classpath");
    assertEquals(r.err(), 0, r.code());
    List<String> cp = List.of(r.out().trim().split(":"));
    assertTrue(cp.get(0), cp.get(0).matches(".*/lib/hare-yarn-[^/]*\\.jar"));
    int hadoop = cp.indexOf(fakeHadoop.resolve("lib") + "/*");
    assertEquals(r.out(), 2, hadoop);
    Set<String> after = new HashSet<>();
    cp.subList(hadoop + 1, cp.size()).forEach(e -> after.add(artifact(Path.of(e))));
    assertEquals(r.out(), Set.of("ortools-java", "ortools-linux-x86-64", "protobuf-java",
        "jfreechart"), after);
  }

  /** Without a Hadoop, --help still lists every command; one that needs Hadoop says so. */
  @Test(timeout = 120_000)
  public void withoutHadoopHelpWorksAndClusterCommandsSaySo() throws Exception {
    Map<String, String> env = Map.of("PATH", "/usr/bin:/bin", "JAVA_HOME",
        System.getProperty("java.home"));
    Tarball.Run help = Tarball.run(home, List.of(home.resolve("bin/hare").toString(), "--help"),
        env, RUN_TIMEOUT_S);
    assertEquals(help.out() + help.err(), 0, help.code());
    assertTrue(help.err(), help.err().contains("no Hadoop found"));
    assertTrue(help.out(), help.out().contains("submit") && help.out().contains("simulate"));
    Tarball.Run status = Tarball.run(home, List.of(home.resolve("bin/hare").toString(), "status",
        "application_1700000000000_0001"), env, RUN_TIMEOUT_S);
    assertEquals(status.out() + status.err(), 1, status.code());
    assertTrue(status.err(), status.err().contains("hare status: cannot run here")
        && status.err().contains("needs Hadoop's libraries"));
  }

  /**
   * A stand-in Hadoop installation: bin/hadoop prints, for {@code classpath}, its conf dir and
   * lib/*, where lib/ links Hadoop's own jars at Hadoop's versions (pom.xml's hadoop-jars
   * execution: commons-io 2.16.1, commons-csv 1.9.0, ...).
   */
  private static Path fakeHadoop(Path dir, Path hadoopJars) throws IOException {
    Files.createDirectories(dir.resolve("bin"));
    Files.createDirectories(dir.resolve("conf"));
    Files.createDirectories(dir.resolve("lib"));
    try (DirectoryStream<Path> jars = Files.newDirectoryStream(hadoopJars, "*.jar")) {
      for (Path jar : jars) {
        Files.createSymbolicLink(dir.resolve("lib").resolve(jar.getFileName()), jar);
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
  private static Tarball.Run hare(String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(home.resolve("bin/hare").toString());
    cmd.addAll(List.of(args));
    return Tarball.run(home, cmd, Map.of("PATH", "/usr/bin:/bin", "HADOOP_HOME",
        fakeHadoop.toString(), "JAVA_HOME", System.getProperty("java.home")), RUN_TIMEOUT_S);
  }
}
