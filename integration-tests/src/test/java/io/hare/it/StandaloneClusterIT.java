package io.hare.it;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.hare.embedded.EmbeddedCluster;
import io.hare.embedded.TaskEvents;
import io.hare.example.Env;
import io.hare.example.SgdJob;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The binary tarball installed onto stock Hadoop as its README tells an admin: a
 * ResourceManager and two NodeManagers as separate JVM processes ({@link StandaloneCluster}),
 * each on Hadoop's own jars at Hadoop's versions first ({@code target/hadoop-jars}, with the
 * timeline service's commons-csv 1.9.0 and Hadoop's commons-io) and the unpacked tarball's
 * lib/ after them; the Hare scheduler with a profiles file, a GPU mapping file and RM recovery
 * on. An example SGD job submitted with the tarball's {@code bin/hare submit} on a stand-in
 * HADOOP_HOME succeeds, every task ran once on the GPU type the mapping file gives its node,
 * and the model equals the one-process reference.
 *
 * <p>Logs the RM's start time and the job's time ("figures:" lines in the test output); the
 * daemons' logs are under {@code target/standalone-it/cluster/logs}.
 */
public class StandaloneClusterIT {

  private static final Logger LOG = LoggerFactory.getLogger(StandaloneClusterIT.class);
  private static final int ROUNDS = 3;
  private static final int TASKS = 3;
  private static final String EVENTS = "events.txt";
  private static final long START_TIMEOUT_MS = 240_000;
  private static final long JOB_TIMEOUT_S = 420;
  static final List<EmbeddedCluster.Node> NODES = List.of(new EmbeddedCluster.Node("v100", 2),
      new EmbeddedCluster.Node("t4", 1));

  @ClassRule
  public static final Timeout ALL = Timeout.seconds(900);

  private static Path base;
  private static Path hareHome;
  private static StandaloneCluster cluster;

  @BeforeClass
  public static void install() throws Exception {
    base = Path.of("target", "standalone-it").toAbsolutePath();
    hareHome = Tarball.unpack(base.resolve("tarball"));
    Path hadoopJars = Path.of(System.getProperty("hare.it.hadoop.jars", "target/hadoop-jars"))
        .toAbsolutePath();
    assertOwnVersions(hadoopJars);
    List<String> flags = new ArrayList<>();
    for (String f : System.getProperty("hare.it.daemon.jvm.flags", "").trim().split("\\s+")) {
      if (!f.isEmpty()) {
        flags.add(f);
      }
    }
    cluster = StandaloneCluster.start(new StandaloneCluster.Setup(base.resolve("cluster"),
        hareHome, hadoopJars, NODES, hareHome.resolve("conf/profiles.csv"), flags, Map.of(
            "yarn.scheduler.hare.replan-interval-ms", "500")), START_TIMEOUT_MS);
    LOG.info("figures: ResourceManager start {} ms (JVM start until its REST API answered"
        + " STARTED, Hadoop {} jars from {})", cluster.rmStartMs(), hadoopVersion(hadoopJars),
        hadoopJars);
  }

  @AfterClass
  public static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test(timeout = 600_000)
  public void aJobSubmittedWithTheTarballsHareSucceedsWithTheReferenceModel() throws Exception {
    Path job = initJob(base.resolve("jobs/sgd"), 7);
    Path spec = writeSpec(job, "sgd-standalone");
    long t0 = System.nanoTime();
    Tarball.Run submit = hareSubmit(spec);
    long jobMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    LOG.info("hare submit output:\n{}\n{}", submit.out(), submit.err());
    assertEquals("hare submit: " + submit.out() + submit.err(), 0, submit.code());
    ApplicationId id = ApplicationId.fromString(submit.out().lines().findFirst().orElseThrow()
        .strip());
    LOG.info("figures: job {} of {} rounds x {} tasks: {} ms from `bin/hare submit` until it"
        + " returned", id, ROUNDS, TASKS, jobMs);

    YarnClient yarn = YarnClient.createYarnClient();
    yarn.init(new YarnConfiguration(cluster.clientConf()));
    yarn.start();
    try {
      ApplicationReport r = yarn.getApplicationReport(id);
      assertEquals(id + ": " + r.getDiagnostics(), FinalApplicationStatus.SUCCEEDED,
          r.getFinalApplicationStatus());
    } finally {
      yarn.stop();
    }
    TaskEvents.Runs runs = TaskEvents.read(job.resolve(EVENTS));
    assertEquals(runs.attempts().toString(), ROUNDS * TASKS, runs.attempts().size());
    assertEquals(runs.syncs().toString(), ROUNDS, runs.syncs().size());
    for (TaskEvents.Attempt a : runs.attempts()) {
      assertTrue(a.toString(), a.succeeded());
      assertEquals("the mapping file's type for " + a, gpuType(a.host()), a.gpuType());
    }
    assertEqualsReference(job);
  }

  /**
   * Hadoop's jars hold their own versions of libraries the plugin carries (the conflict the
   * shaded plugin jar is for): a commons-csv and a commons-io other than the build's.
   */
  private static void assertOwnVersions(Path hadoopJars) throws Exception {
    List<String> names = new ArrayList<>();
    try (DirectoryStream<Path> jars = Files.newDirectoryStream(hadoopJars, "*.jar")) {
      jars.forEach(j -> names.add(j.getFileName().toString()));
    }
    assertTrue("Hadoop's jars in " + hadoopJars + " (pom.xml, hadoop-jars): " + names,
        names.stream().anyMatch(n -> n.startsWith("hadoop-yarn-server-resourcemanager-")));
    for (String lib : List.of("commons-csv-", "commons-io-")) {
      assertTrue(lib + " in " + names, names.stream().anyMatch(n -> n.startsWith(lib)));
    }
    assertFalse("Hadoop's jars hold the build's commons-io: " + names,
        names.contains("commons-io-2.20.0.jar"));
    LOG.info("Hadoop's own libraries: {}", names.stream().filter(n -> n.startsWith("commons-csv")
        || n.startsWith("commons-io") || n.startsWith("jna-")).toList());
  }

  private static String hadoopVersion(Path hadoopJars) throws Exception {
    try (DirectoryStream<Path> jars = Files.newDirectoryStream(hadoopJars,
        "hadoop-common-*.jar")) {
      for (Path j : jars) {
        return j.getFileName().toString().replaceAll("^hadoop-common-|\\.jar$", "");
      }
    }
    return "?";
  }

  static String gpuType(String host) {
    for (int i = 0; i < NODES.size(); i++) {
      if (EmbeddedCluster.host(i).equals(host)) {
        return NODES.get(i).gpuType();
      }
    }
    throw new AssertionError("no NodeManager on " + host);
  }

  /** {@code SgdJob init} into a fresh directory, in-process, as a user does before submitting. */
  static Path initJob(Path dir, int seed) throws Exception {
    Tarball.run(base, List.of("rm", "-rf", dir.toString()), Map.of(), 60);
    assertEquals(SgdJob.OK, sgd("init", "--work-dir", dir.toString(), "--seed",
        Integer.toString(seed)));
    return dir;
  }

  /**
   * A job spec of {@code io.hare.example.SgdJob} tasks in {@code job}, their runs recorded in
   * its events file; no Hare jar named (the client ships its own, the tarball's plugin jar).
   */
  static Path writeSpec(Path job, String name) throws Exception {
    String java = "\"$JAVA_HOME\"/bin/java -Xmx128m io.hare.example.SgdJob";
    String where = " --work-dir '" + job + "'";
    Path events = job.resolve(EVENTS);
    Path spec = job.resolve("job.xml");
    Files.writeString(spec, "<configuration>\n"
        + prop("yarn.app.hare.job.name", name)
        + prop("yarn.app.hare.job.model", "resnet18")
        + prop("yarn.app.hare.job.rounds", Integer.toString(ROUNDS))
        + prop("yarn.app.hare.job.tasks-per-round", Integer.toString(TASKS))
        + prop("yarn.app.hare.job.staging-dir", base.resolve("staging").toString())
        + prop("yarn.app.hare.task.command", TaskEvents.wrapTask(java + " task" + where, events))
        + prop("yarn.app.hare.sync.command", TaskEvents.wrapSync(java + " sync" + where, events))
        + prop("yarn.app.hare.task.memory-mb", "256")
        + prop("yarn.app.hare.am.memory-mb", "512")
        + "</configuration>\n", StandardCharsets.UTF_8);
    return spec;
  }

  /** The tarball's {@code bin/hare submit JOB.xml} on the stand-in Hadoop; waits for its end. */
  static Tarball.Run hareSubmit(Path spec) throws Exception {
    return Tarball.run(hareHome, List.of(hareHome.resolve("bin/hare").toString(), "submit",
        "--poll-ms", "1000", spec.toString()), Map.of("PATH", "/usr/bin:/bin",
        "HADOOP_HOME", cluster.hadoopHome().toString(), "JAVA_HOME",
        System.getProperty("java.home")), JOB_TIMEOUT_S);
  }

  private static String prop(String name, String value) {
    return "  <property><name>" + name + "</name><value>" + value.replace("&", "&amp;")
        .replace("<", "&lt;").replace(">", "&gt;") + "</value></property>\n";
  }

  /** The model after R rounds is byte-identical to {@code SgdJob reference}'s. */
  static void assertEqualsReference(Path dir) throws Exception {
    assertEquals(SgdJob.OK, sgd("reference", "--work-dir", dir.toString(), "--rounds",
        Integer.toString(ROUNDS), "--tasks-per-round", Integer.toString(TASKS)));
    byte[] trained = Files.readAllBytes(dir.resolve("model-r" + ROUNDS));
    byte[] reference = Files.readAllBytes(dir.resolve("reference-model-r" + ROUNDS));
    assertArrayEquals(dir + ": model-r" + ROUNDS + " differs from the reference", reference,
        trained);
  }

  private static int sgd(String... args) {
    StringWriter out = new StringWriter();
    return SgdJob.commandLine(new PrintWriter(out), new PrintWriter(out), Env.SYSTEM)
        .execute(args);
  }
}
