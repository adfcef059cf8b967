package io.hare.embedded;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.util.curator.ZKCuratorManager;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The HA pair's ZooKeeper assumes another user on the host: it listens on loopback only, its
 * secret is in a file only its owner reads and never in the settings, and a client without the
 * secret can neither read nor delete a znode made with the settings' ACL, as the RMs make theirs.
 */
public class EmbeddedZooKeeperTest {

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  @Test(timeout = 120_000)
  public void onlyAClientWithTheSecretReadsOrChangesTheRmsZnodes() throws Exception {
    try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(tmp.newFolder("zk"))) {
      assertTrue(zk.address(), zk.address().startsWith("127.0.0.1:"));
      assertEquals("rw-------", PosixFilePermissions.toString(
          Files.getPosixFilePermissions(zk.authFile())));
      String secret = Files.readString(zk.authFile(), StandardCharsets.UTF_8);
      assertTrue(secret, secret.startsWith("digest:hare:"));
      Map<String, String> settings = zk.clientSettings();
      assertEquals("@" + zk.authFile(), settings.get(CommonConfigurationKeys.ZK_AUTH));
      String password = secret.substring("digest:hare:".length());
      settings.values().forEach(v -> assertFalse(v, v.contains(password)));

      // the ACL as the RMs read it from their configuration
      Configuration conf = new Configuration(false);
      settings.forEach(conf::set);
      List<ACL> acl = ZKCuratorManager.getZKAcls(conf);
      ZooKeeper owner = connect(zk.address());
      ZooKeeper other = connect(zk.address());
      try {
        owner.addAuthInfo("digest", ("hare:" + password).getBytes(StandardCharsets.UTF_8));
        owner.create("/rmstore", "state".getBytes(StandardCharsets.UTF_8), acl,
            CreateMode.PERSISTENT);
        assertEquals("state", new String(owner.getData("/rmstore", false, null),
            StandardCharsets.UTF_8));
        assertThrows(KeeperException.NoAuthException.class,
            () -> other.getData("/rmstore", false, null));
        assertThrows(KeeperException.NoAuthException.class,
            () -> other.setData("/rmstore", new byte[0], -1));
        assertThrows(KeeperException.NoAuthException.class,
            () -> other.create("/rmstore/child", new byte[0],
                org.apache.zookeeper.ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT));
        other.addAuthInfo("digest", "hare:guess".getBytes(StandardCharsets.UTF_8));
        assertThrows(KeeperException.NoAuthException.class,
            () -> other.getData("/rmstore", false, null));
      } finally {
        owner.close();
        other.close();
      }
    }
  }

  private static ZooKeeper connect(String address) throws Exception {
    CountDownLatch connected = new CountDownLatch(1);
    ZooKeeper z = new ZooKeeper(address, 10_000, e -> {
      if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
        connected.countDown();
      }
    });
    assertTrue("connected to " + address, connected.await(60, TimeUnit.SECONDS));
    return z;
  }
}
