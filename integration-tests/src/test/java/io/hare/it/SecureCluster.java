package io.hare.it;

import io.hare.embedded.EmbeddedCluster;
import java.io.File;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * A secure cluster for the ITs: a Kerberos KDC ({@link MiniKdc}), HDFS with Kerberos
 * ({@link MiniDFSCluster}, block access tokens) as the default file system, and the Hare
 * scheduler's MiniYARNCluster with Kerberos for the RM and NodeManagers, whose RM web app asks
 * for SPNEGO; a user {@value #USER} with her keytab and home directory, logged in from it.
 *
 * <p>The services share one principal ({@code hdfs/localhost}), so the RM that renews the
 * tokens is the HDFS superuser's short name, as in a test cluster; the containers run as this
 * JVM's OS user (YARN's DefaultContainerExecutor), so the job's files on HDFS are what
 * separates users here.
 */
final class SecureCluster implements AutoCloseable {

  static final String USER = "alice";

  final File base;
  final MiniKdc kdc;
  final MiniDFSCluster dfs;
  final EmbeddedCluster hare;
  /** Her keytab, and her login from it. */
  final File aliceKeytab;
  final UserGroupInformation alice;

  private SecureCluster(File base, MiniKdc kdc, MiniDFSCluster dfs, EmbeddedCluster hare,
      File aliceKeytab, UserGroupInformation alice) {
    this.base = base;
    this.kdc = kdc;
    this.dfs = dfs;
    this.hare = hare;
    this.aliceKeytab = aliceKeytab;
    this.alice = alice;
  }

  /** Her principal, {@code alice@REALM}. */
  String alicePrincipal() {
    return USER + "@" + kdc.getRealm();
  }

  /**
   * Starts it under {@code target/test/data/NAME}.
   *
   * @param hdfsOnly settings of the NameNode and DataNode only (e.g. token lifetimes)
   */
  static SecureCluster start(String name, List<EmbeddedCluster.Node> nodes,
      Map<String, String> hdfsOnly) throws Exception {
    File base = GenericTestUtils.getTestDir(name);
    FileUtil.fullyDelete(base);
    MiniKdc kdc = new MiniKdc(MiniKdc.createConf(), new File(base, "kdc"));
    kdc.start();
    MiniDFSCluster dfs = null;
    EmbeddedCluster hare = null;
    try {
      File services = new File(base, "services.keytab");
      kdc.createPrincipal(services, "hdfs/localhost", "HTTP/localhost");
      File user = new File(base, USER + ".keytab");
      kdc.createPrincipal(user, USER);
      String service = "hdfs/localhost@" + kdc.getRealm();

      Configuration secure = new Configuration(false);
      secure.set("hadoop.security.authentication", "kerberos");
      secure.set("dfs.namenode.kerberos.principal", service);
      secure.set("dfs.namenode.keytab.file", services.getAbsolutePath());
      secure.set("dfs.datanode.kerberos.principal", service);
      secure.set("dfs.datanode.keytab.file", services.getAbsolutePath());
      secure.set("dfs.web.authentication.kerberos.principal", "HTTP/localhost@" + kdc.getRealm());
      secure.set("dfs.web.authentication.kerberos.keytab", services.getAbsolutePath());
      secure.setBoolean("dfs.block.access.token.enable", true);
      // a DataNode on unprivileged ports without SASL on its data transfer: clients then need
      // nothing more than their tokens
      secure.setBoolean("ignore.secure.ports.for.testing", true);
      secure.set(YarnConfiguration.RM_PRINCIPAL, service);
      secure.set(YarnConfiguration.RM_KEYTAB, services.getAbsolutePath());
      secure.set(YarnConfiguration.NM_PRINCIPAL, service);
      secure.set(YarnConfiguration.NM_KEYTAB, services.getAbsolutePath());

      Configuration hdfsConf = new HdfsConfiguration();
      secure.forEach(e -> hdfsConf.set(e.getKey(), e.getValue()));
      hdfsOnly.forEach(hdfsConf::set);
      UserGroupInformation.setConfiguration(hdfsConf);
      UserGroupInformation.loginUserFromKeytab(service, services.getAbsolutePath());
      dfs = new MiniDFSCluster.Builder(hdfsConf, new File(base, "dfs")).numDataNodes(1).build();
      dfs.waitActive();
      FileSystem superuser = dfs.getFileSystem();
      org.apache.hadoop.fs.Path home = new org.apache.hadoop.fs.Path("/user/" + USER);
      superuser.mkdirs(home);
      superuser.setOwner(home, USER, USER);

      secure.set(FileSystem.FS_DEFAULT_NAME_KEY, superuser.getUri().toString());
      // YARN's client adds a token for the file system of the aggregated logs' directory; keep
      // them off HDFS, as a cloud cluster keeping its logs in an object store does, so that only
      // the tokens Hare's client gets can reach the job's files
      secure.set(YarnConfiguration.NM_REMOTE_APP_LOG_DIR,
          new File(base, "app-logs").toURI().toString());
      // the RM's web app and REST API answer only who authenticates with SPNEGO (YARN swaps
      // Hadoop's filter for its own, which also takes RM delegation tokens)
      secure.set("hadoop.http.filter.initializers",
          "org.apache.hadoop.security.AuthenticationFilterInitializer");
      secure.set("hadoop.http.authentication.type", "kerberos");
      secure.set("hadoop.http.authentication.kerberos.principal",
          "HTTP/localhost@" + kdc.getRealm());
      secure.set("hadoop.http.authentication.kerberos.keytab", services.getAbsolutePath());
      // a node's JVMs find the realm in /etc/krb5.conf; the containers here, in the KDC's file
      secure.set(YarnConfiguration.NM_ADMIN_USER_ENV, "JAVA_HOME="
          + System.getProperty("java.home") + ",JAVA_TOOL_OPTIONS=-Djava.security.krb5.conf="
          + kdc.getKrb5conf().getAbsolutePath());
      // a killed AM deletes its staged keytab as the keytab's login (KeytabOnKill): a Kerberos
      // login and two calls, which on a loaded machine can outlast YARN's 250 ms from SIGTERM
      // to SIGKILL
      secure.setLong(YarnConfiguration.NM_SLEEP_DELAY_BEFORE_SIGKILL_MS, 5000);
      hare = EmbeddedCluster.start(new File(base, "yarn"), name, nodes, secure);
      // the containers' Hadoop configuration: the AM reads yarn-site.xml, a task's plain
      // Configuration core-site.xml, as on a cluster whose HADOOP_CONF_DIR has both
      try (OutputStream out = new FileOutputStream(new File(hare.workDir(),
          "conf/core-site.xml"))) {
        hare.conf().writeXml(out);
      }
      UserGroupInformation alice = UserGroupInformation.loginUserFromKeytabAndReturnUGI(
          USER + "@" + kdc.getRealm(), user.getAbsolutePath());
      return new SecureCluster(base, kdc, dfs, hare, user, alice);
    } catch (Exception | Error e) {
      stop(hare, dfs, kdc);
      throw e;
    }
  }

  @Override
  public void close() {
    stop(hare, dfs, kdc);
  }

  private static void stop(EmbeddedCluster hare, MiniDFSCluster dfs, MiniKdc kdc) {
    if (hare != null) {
      hare.close();
    }
    if (dfs != null) {
      dfs.shutdown();
    }
    if (kdc != null) {
      kdc.stop();
    }
  }
}
