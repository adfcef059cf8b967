package io.hare.embedded;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;

/**
 * A one-server ZooKeeper in this JVM for an {@link EmbeddedCluster} with two ResourceManagers:
 * their leader election and their state store, as a production HA pair uses a ZooKeeper
 * ensemble. It listens on the loopback address only, takes a bounded number of connections, and
 * every znode the RMs write carries a digest ACL whose secret is a random one of this server's,
 * kept in a file only its owner reads ({@link #clientSettings} names the file, never the
 * secret): another user on the host can connect but cannot read, change or delete the RMs'
 * election or state.
 */
public final class EmbeddedZooKeeper implements AutoCloseable {

  /** Connections from one address: two RMs use a few each; the rest is headroom. */
  static final int MAX_CONNECTIONS = 32;
  static final String DIGEST_USER = "hare";
  /** Sessions of 1-10 s (ZooKeeper allows 2 to 20 ticks): the RMs ask for YARN's 10 s. */
  private static final int TICK_MS = 500;

  private final ZooKeeperServer server;
  private final ServerCnxnFactory factory;
  private final Path authFile;
  private final String acl;

  private EmbeddedZooKeeper(ZooKeeperServer server, ServerCnxnFactory factory, Path authFile,
      String acl) {
    this.server = server;
    this.factory = factory;
    this.authFile = authFile;
    this.acl = acl;
  }

  /**
   * Starts a server on a free loopback port with its data and the secret's file under
   * {@code dir} (created, readable by its owner only).
   */
  public static EmbeddedZooKeeper start(File dir) throws IOException, InterruptedException {
    Path home = dir.toPath();
    Files.createDirectories(home);
    Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
    byte[] secret = new byte[24];
    new SecureRandom().nextBytes(secret);
    String password = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    Path authFile = home.resolve("zk-auth");
    Files.deleteIfExists(authFile);
    Files.createFile(authFile, PosixFilePermissions.asFileAttribute(
        PosixFilePermissions.fromString("rw-------")));
    Files.writeString(authFile, "digest:" + DIGEST_USER + ":" + password,
        StandardCharsets.UTF_8);
    String acl;
    try {
      acl = "digest:" + DigestAuthenticationProvider.generateDigest(DIGEST_USER + ":" + password)
          + ":rwcda";
    } catch (NoSuchAlgorithmException e) {
      throw new IOException("ZooKeeper's digest (SHA-1) is not available in this JVM", e);
    }
    File data = home.resolve("data").toFile();
    ZooKeeperServer server = new ZooKeeperServer(data, data, TICK_MS);
    ServerCnxnFactory factory = ServerCnxnFactory.createFactory(
        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), MAX_CONNECTIONS);
    try {
      factory.startup(server);
    } catch (IOException | InterruptedException | RuntimeException e) {
      factory.shutdown();
      server.shutdown();
      throw e;
    }
    return new EmbeddedZooKeeper(server, factory, authFile, acl);
  }

  /** host:port of the server. */
  public String address() {
    return InetAddress.getLoopbackAddress().getHostAddress() + ":" + factory.getLocalPort();
  }

  /** The file that holds the digest secret ({@code digest:USER:PASSWORD}), mode 0600. */
  public Path authFile() {
    return authFile;
  }

  /**
   * What a ResourceManager needs to use this server: its address, the secret by reference to
   * its file ({@code hadoop.zk.auth=@FILE}, so that no configuration, log or container sees
   * the secret itself) and the ACL of every znode the RM creates.
   */
  public Map<String, String> clientSettings() {
    Map<String, String> s = new LinkedHashMap<>();
    // the RM and its elector read YARN's key for the address, and Hadoop's for the rest
    s.put(YarnConfiguration.RM_ZK_ADDRESS, address());
    s.put(CommonConfigurationKeys.ZK_AUTH, "@" + authFile);
    s.put(CommonConfigurationKeys.ZK_ACL, acl);
    return s;
  }

  @Override
  public void close() {
    factory.shutdown();
    server.shutdown();
  }
}
