package io.hare.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.hare.embedded.EmbeddedCluster;
import io.hare.embedded.TaskEvents;
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
  private static final long JOB_TIMEOUT_S = 420;
  static final List<EmbeddedCluster.Node> NODES = List.of(new EmbeddedCluster.Node("v100", 2),
      new EmbeddedCluster.Node("t4", 1));

  @ClassRule
  public static final Timeout ALL = Timeout.seconds(900);

  private static Path base;
  private static StandaloneCluster cluster;

  @BeforeClass
  public static void install() throws Exception {
    base = Path.of("target", "standalone-it").toAbsolutePath();
    assertOwnVersions(StandaloneCluster.hadoopJars());
    cluster = StandaloneCluster.install(base, NODES, Map.of());
  }

  @AfterClass
  public static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test(timeout = 600_000)
  public void aJobSubmittedWithTheTarballsHareSucceedsWithTheReferenceModel() throws Exception {
    SgdJobFiles.Shape shape = new SgdJobFiles.Shape("sgd-standalone", ROUNDS, TASKS,
        base.resolve("staging"));
    Path job = SgdJobFiles.init(base.resolve("jobs/sgd"), 7);
    Path spec = SgdJobFiles.writeSpec(job, shape, "");
    long t0 = System.nanoTime();
    Tarball.Run submit = Tarball.run(cluster.hareHome(), cluster.hare("submit", "--poll-ms",
        "1000", spec.toString()), cluster.hareEnv(), JOB_TIMEOUT_S);
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
    TaskEvents.Runs runs = SgdJobFiles.runs(job);
    assertEquals(runs.attempts().toString(), ROUNDS * TASKS, runs.attempts().size());
    assertEquals(runs.syncs().toString(), ROUNDS, runs.syncs().size());
    for (TaskEvents.Attempt a : runs.attempts()) {
      assertTrue(a.toString(), a.succeeded());
      assertEquals("the mapping file's type for " + a, gpuType(a.host()), a.gpuType());
    }
    SgdJobFiles.assertEqualsReference(job, shape);
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

  static String gpuType(String host) {
    for (int i = 0; i < NODES.size(); i++) {
      if (EmbeddedCluster.host(i).equals(host)) {
        return NODES.get(i).gpuType();
      }
    }
    throw new AssertionError("no NodeManager on " + host);
  }
}
