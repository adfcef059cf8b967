package io.hare.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.embedded.EmbeddedCluster;
import io.hare.embedded.TaskEvents;
import io.hare.yarn.app.AppKeys;
import io.hare.yarn.app.JobSpecValidator;
import io.hare.yarn.app.JobSubmitter;
import io.hare.yarn.app.YarnApps;
import io.hare.yarn.app.YarnClientApps;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.Timeout;

/**
 * A job that outlives its delegation tokens: on {@link SecureCluster} whose NameNode gives tokens
 * a maximum lifetime of {@value #LIFETIME_MS} ms, a job submitted with its owner's principal and
 * keytab ({@code yarn.app.hare.am.principal}, {@code .am.keytab}) runs well past that (its
 * six tasks, one after another on the one GPU, sleep 7 s each). The AM refreshes its tokens from the keytab before they
 * expire; task containers launched after a refresh carry the new tokens, warm containers of an
 * older generation retire at their task boundary, and the sync step reads the new tokens: the job
 * succeeds with the reference model, and the staged keytab is gone from the work directory.
 *
 * <p>Without the keytab the same job fails once the client's tokens pass their maximum lifetime
 * (a task's localization or HDFS access: "token ... is expired"); that was checked by hand
 * (docs/reliability.md, section 2 (c)), not here, to keep this test short.
 */
public class LongJobTokensIT {

  @ClassRule
  public static final Timeout RUN = Timeout.seconds(480);

  /** HDFS tokens' maximum lifetime and renewal interval. */
  static final long LIFETIME_MS = 30_000;
  private static final SgdJobFiles.Shape SHAPE = new SgdJobFiles.Shape("long-sgd", 3, 2,
      Path.of(".hare/jobs"));
  /**
   * Makes each task last: six of them one after another on the one GPU (42 s of sleeps, with
   * the AM's start and the syncs about a minute) outlast the tokens.
   */
  private static final String TASK_PRELUDE = "sleep 7; ";

  private static SecureCluster cluster;

  @BeforeClass
  public static void start() throws Exception {
    cluster = SecureCluster.start("LongJobTokensIT", List.of(new EmbeddedCluster.Node("v100", 1)),
        Map.of("dfs.namenode.delegation.token.max-lifetime", Long.toString(LIFETIME_MS),
            "dfs.namenode.delegation.token.renew-interval", Long.toString(LIFETIME_MS)));
  }

  @AfterClass
  public static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test(timeout = 240_000)
  public void aJobWithAKeytabOutlivesItsTokens() throws Exception {
    Path local = SgdJobFiles.init(new File(cluster.base, "job").toPath(), 11);
    String work = cluster.dfs.getFileSystem().getUri() + "/user/" + SecureCluster.USER + "/sgd";
    Configuration client = new YarnConfiguration(cluster.hare.conf());
    Path events = new File(cluster.base, "events.txt").toPath();

    ApplicationId id = submit(local, work, client, events, TASK_PRELUDE);

    YarnClient yarn = YarnClient.createYarnClient();
    yarn.init(client);
    yarn.start();
    ApplicationReport r;
    try {
      GenericTestUtils.waitFor(() -> SgdJobFiles.ended(yarn, id), 250, 200_000);
      r = yarn.getApplicationReport(id);
    } finally {
      yarn.stop();
    }
    assertEquals(id + ": " + r.getDiagnostics(), FinalApplicationStatus.SUCCEEDED,
        r.getFinalApplicationStatus());
    // the client got the tokens before the submission: they died before start + LIFETIME_MS
    assertTrue("the job ran at least 10 s past its tokens' maximum lifetime ("
        + LIFETIME_MS + " ms): " + (r.getFinishTime() - r.getStartTime()) + " ms",
        r.getFinishTime() - r.getStartTime() > LIFETIME_MS + 10_000);
    assertTrue("the AM refreshed its tokens at least twice",
        logged(id, "Delegation tokens refreshed") >= 2);
    assertTrue("a warm container of older tokens retired at its task boundary",
        logged(id, "its tokens predate the AM's refresh") >= 1);

    Path trained = new File(cluster.base, "trained").toPath();
    cluster.alice.doAs((PrivilegedExceptionAction<Void>) () -> {
      FileSystem fs = FileSystem.get(client);
      org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(
          "/user/" + SecureCluster.USER + "/.hare/jobs/" + id);
      assertTrue(fs.exists(new org.apache.hadoop.fs.Path(dir, "hare-job.xml")));
      // the AM deletes it once it has unregistered, which YARN may report first
      org.apache.hadoop.fs.Path keytab = new org.apache.hadoop.fs.Path(dir, "hare-am.keytab");
      GenericTestUtils.waitFor(() -> {
        try {
          return !fs.exists(keytab);
        } catch (IOException e) {
          throw new AssertionError(e);
        }
      }, 100, 30_000);
      FileUtil.fullyDelete(trained.toFile());
      fs.copyToLocalFile(false, new org.apache.hadoop.fs.Path(work),
          new org.apache.hadoop.fs.Path(trained.toUri()), true);
      return null;
    });
    SgdJobFiles.assertEqualsReference(trained, SHAPE);
    assertTrue("every task ran", TaskEvents.read(events).attempts().size()
        >= SHAPE.rounds() * SHAPE.tasks());
  }

  /** Submits the job as its owner, with her principal and keytab; its files go to {@code work}. */
  private static ApplicationId submit(Path local, String work, Configuration client, Path events,
      String prelude) throws Exception {
    return cluster.alice.doAs((PrivilegedExceptionAction<ApplicationId>) () -> {
      FileSystem fs = FileSystem.get(client);
      fs.copyFromLocalFile(false, true, new org.apache.hadoop.fs.Path(local.toUri()),
          new org.apache.hadoop.fs.Path(work));
      Configuration spec = new Configuration(false);
      SgdJobFiles.spec(SHAPE, work, task -> TaskEvents.wrapTask(prelude + task, events),
          sync -> TaskEvents.wrapSync(sync, events)).forEach(spec::set);
      spec.set(AppKeys.AM_JAR, new File("target/hare-yarn.jar").getAbsolutePath());
      spec.set(AppKeys.AM_PRINCIPAL, cluster.alicePrincipal());
      spec.set(AppKeys.AM_KEYTAB, cluster.aliceKeytab.getAbsolutePath());
      // a refresh every fifth of the lifetime hands containers tokens with at least 24 s left,
      // over a task (7 s of sleep and a JVM: about 12 s on a loaded 2-core machine); the
      // minimum would otherwise hold refreshes a minute apart
      spec.set(AppKeys.AM_TOKEN_REFRESH_RATIO, "0.2");
      spec.set(AppKeys.AM_TOKEN_REFRESH_MIN_INTERVAL_MS, "1000");
      spec.set(AppKeys.AM_TOKEN_REFRESH_RETRY_INTERVAL_MS, "1000");
      // a task slower than its tokens' time left (a JVM start of 20 s and more on an overloaded
      // machine) fails with an expired token and runs again in a new container, with new tokens
      spec.set(AppKeys.TASK_MAX_ATTEMPTS, "5");
      try (YarnApps apps = YarnClientApps.open(client)) {
        return new JobSubmitter(apps, client).submit(JobSpecValidator.read(spec));
      }
    });

  }

  /**
   * A killed job's staged keytab goes with it: YARN stops the AM's container (SIGTERM) after the RM
   * has its attempt KILLED, and the AM's shutdown hook, seeing that, deletes the keytab. The
   * client here does not follow the job ({@code --detach}), so only the AM can.
   */
  @Test(timeout = 240_000)
  public void aKilledJobsAmDeletesItsStagedKeytab() throws Exception {
    Path local = SgdJobFiles.init(new File(cluster.base, "killed-job").toPath(), 12);
    String work = cluster.dfs.getFileSystem().getUri() + "/user/" + SecureCluster.USER
        + "/killed-sgd";
    Configuration client = new YarnConfiguration(cluster.hare.conf());
    Path events = new File(cluster.base, "killed-events.txt").toPath();
    ApplicationId id = submit(local, work, client, events, "sleep 60; ");
    org.apache.hadoop.fs.Path keytab = new org.apache.hadoop.fs.Path(
        "/user/" + SecureCluster.USER + "/.hare/jobs/" + id + "/hare-am.keytab");

    YarnClient yarn = YarnClient.createYarnClient();
    yarn.init(client);
    yarn.start();
    try {
      // registered: past the hook's registration, and the keytab is in use
      GenericTestUtils.waitFor(() -> {
        try {
          return yarn.getApplicationReport(id).getYarnApplicationState()
              == YarnApplicationState.RUNNING;
        } catch (Exception e) {
          return false;
        }
      }, 100, 120_000);
      assertTrue("staged", exists(client, keytab));
      yarn.killApplication(id);
      GenericTestUtils.waitFor(() -> SgdJobFiles.ended(yarn, id), 100, 60_000);
      assertEquals(YarnApplicationState.KILLED,
          yarn.getApplicationReport(id).getYarnApplicationState());
    } finally {
      yarn.stop();
    }
    GenericTestUtils.waitFor(() -> {
      try {
        return !exists(client, keytab);
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }, 100, 30_000);
    assertEquals("the AM's hook deleted it", 1, logged(id, "was killed)"));
  }

  private static boolean exists(Configuration client, org.apache.hadoop.fs.Path p)
      throws Exception {
    return cluster.alice.doAs((PrivilegedExceptionAction<Boolean>) () ->
        FileSystem.get(client).exists(p));
  }

  /** How many lines of the AM's log contain {@code text}. */
  private static long logged(ApplicationId id, String text) throws IOException {
    long n = 0;
    for (File root : cluster.hare.logDirs()) {
      Path app = root.toPath().resolve(id.toString());
      if (!Files.isDirectory(app)) {
        continue;
      }
      try (Stream<Path> files = Files.walk(app)) {
        for (Path f : files.filter(p -> p.getFileName().toString().startsWith("AppMaster"))
            .toList()) {
          n += Files.readAllLines(f).stream()
              .filter(l -> l.contains(text)).count();
        }
      }
    }
    return n;
  }
}
