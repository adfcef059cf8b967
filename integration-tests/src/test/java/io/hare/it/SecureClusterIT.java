package io.hare.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.cli.HareCommand;
import io.hare.cli.WorkloadSources;
import io.hare.embedded.EmbeddedCluster;
import io.hare.embedded.TaskEvents;
import io.hare.yarn.app.AppKeys;
import io.hare.yarn.app.JobSpecValidator;
import io.hare.yarn.app.JobSubmitter;
import io.hare.yarn.app.YarnApps;
import io.hare.yarn.app.YarnClientApps;
import io.hare.yarn.scheduler.web.HareWebFilter;
import io.hare.yarn.scheduler.web.Prediction;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.webapp.util.WebAppUtils;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.Timeout;

/**
 * A Hare job on a secure cluster: a Kerberos KDC ({@link MiniKdc}), HDFS with Kerberos
 * ({@link MiniDFSCluster}, block access tokens) as the default file system, and the Hare
 * scheduler's MiniYARNCluster with Kerberos for the RM and NodeManagers. A user logged in from
 * her keytab submits with the client ({@link JobSubmitter}): the job is staged on HDFS under
 * her home directory, the NodeManager localizes the AM's files, the AM writes its round
 * checkpoints and the tasks and sync step their gradients and models in an HDFS work directory,
 * each with the delegation tokens the client got for her, and the AM reads each node's GPU type
 * from the RM with the RM delegation token the client got. The job succeeds with the reference
 * model, every task ran once and saw its node's GPU type. The RM's web app asks for SPNEGO, and
 * {@code hare status}'s read of the scheduler's prediction answers it with her ticket.
 *
 * <p>The cluster is {@link SecureCluster}'s (shared with {@link LongJobTokensIT}).
 */
public class SecureClusterIT {

  /** The KDC's, HDFS's and YARN's start included, which a test's own timeout does not cover. */
  @ClassRule
  public static final Timeout RUN = Timeout.seconds(600);

  private static final List<EmbeddedCluster.Node> NODES = List.of(
      new EmbeddedCluster.Node("v100", 1), new EmbeddedCluster.Node("t4", 1));
  private static final String USER = SecureCluster.USER;

  private static SecureCluster cluster;
  private static File base;
  private static MiniDFSCluster dfs;
  private static EmbeddedCluster hare;
  private static UserGroupInformation alice;

  @BeforeClass
  public static void startSecureCluster() throws Exception {
    cluster = SecureCluster.start("SecureClusterIT", NODES, Map.of());
    base = cluster.base;
    dfs = cluster.dfs;
    hare = cluster.hare;
    alice = cluster.alice;
  }

  @AfterClass
  public static void stopSecureCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test(timeout = 400_000)
  public void aKerberosUsersJobRunsOnSecureHdfsWithItsDelegationTokens() throws Exception {
    SgdJobFiles.Shape shape = new SgdJobFiles.Shape("secure-sgd", 2, 3,
        Path.of(".hare/jobs"));
    Path local = SgdJobFiles.init(new File(base, "job").toPath(), 7);
    String work = dfs.getFileSystem().getUri() + "/user/" + USER + "/sgd";
    Configuration client = new YarnConfiguration(hare.conf());
    Path events = new File(base, "events.txt").toPath(); // the tasks run on this host

    ApplicationId id = alice.doAs((PrivilegedExceptionAction<ApplicationId>) () -> {
      FileSystem fs = FileSystem.get(client);
      fs.copyFromLocalFile(false, true, new org.apache.hadoop.fs.Path(local.toUri()),
          new org.apache.hadoop.fs.Path(work));
      Configuration spec = new Configuration(false);
      SgdJobFiles.spec(shape, work, task -> TaskEvents.wrapTask(task, events),
          sync -> TaskEvents.wrapSync(sync, events)).forEach(spec::set);
      spec.set(AppKeys.AM_JAR, new File("target/hare-yarn.jar").getAbsolutePath());
      try (YarnApps apps = YarnClientApps.open(client)) {
        return new JobSubmitter(apps, client).submit(JobSpecValidator.read(spec));
      }
    });

    YarnClient yarn = YarnClient.createYarnClient();
    yarn.init(client);
    yarn.start();
    try {
      GenericTestUtils.waitFor(() -> SgdJobFiles.ended(yarn, id), 250, 360_000);
      ApplicationReport r = yarn.getApplicationReport(id);
      assertEquals(id + ": " + r.getDiagnostics(), FinalApplicationStatus.SUCCEEDED,
          r.getFinalApplicationStatus());
      assertEquals(USER, r.getUser());
    } finally {
      yarn.stop();
    }

    // hare status: the scheduler's prediction through the RM's SPNEGO, with her ticket (each
    // read authenticates; the scheduler lets go of the job once its AM container has ended,
    // shortly after YARN reports the application finished); a request without one is refused
    GenericTestUtils.waitFor(() -> {
      try {
        return alice.doAs((PrivilegedExceptionAction<Prediction>) () ->
            Prediction.fetch(client, id)).basis().contains("does not list " + id);
      } catch (IOException | InterruptedException e) {
        throw new AssertionError("hare status could not read the prediction: " + e, e);
      }
    }, 250, 60_000);
    HttpURLConnection anonymous = (HttpURLConnection) new URL(
        WebAppUtils.getRMWebAppURLWithScheme(client) + HareWebFilter.REST_PATH).openConnection();
    assertEquals(HttpURLConnection.HTTP_UNAUTHORIZED, anonymous.getResponseCode());

    // a user without a ticket is told to kinit instead of waiting on YARN's retries
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = UserGroupInformation.createRemoteUser("bob").doAs(
        (PrivilegedExceptionAction<Integer>) () -> HareCommand.commandLine(new PrintWriter(out),
            new PrintWriter(err), WorkloadSources.STANDARD, Map.of())
            .execute("status", id.toString()));
    assertEquals(err.toString(), HareCommand.FAILURE, code);
    assertTrue(err.toString(), err.toString().contains("no Kerberos ticket for bob"));
    assertTrue(err.toString(), err.toString().contains("run kinit first"));

    Path trained = new File(base, "trained").toPath();
    alice.doAs((PrivilegedExceptionAction<Void>) () -> {
      FileSystem fs = FileSystem.get(client);
      FileStatus staging = fs.getFileStatus(new org.apache.hadoop.fs.Path(
          "/user/" + USER + "/.hare/jobs/" + id));
      assertEquals("the job's work directory is hers alone", USER, staging.getOwner());
      assertEquals((short) 0700, staging.getPermission().toShort());
      assertTrue("the AM checkpointed its last round in the work directory on HDFS",
          fs.exists(new org.apache.hadoop.fs.Path(staging.getPath(), "_hare/round-"
              + shape.rounds() + ".done")));
      FileUtil.fullyDelete(trained.toFile());
      fs.copyToLocalFile(false, new org.apache.hadoop.fs.Path(work),
          new org.apache.hadoop.fs.Path(trained.toUri()), true);
      return null;
    });
    SgdJobFiles.assertEqualsReference(trained, shape);
    TaskEvents.Runs runs = TaskEvents.read(events);
    assertEquals("each task ran once", shape.rounds() * shape.tasks(), runs.attempts().size());
    for (TaskEvents.Attempt a : runs.attempts()) {
      assertEquals("the AM read the node's GPU type from the RM with its token: " + a,
          hare.typeByHost().get(a.host()), a.gpuType());
    }
  }
}
