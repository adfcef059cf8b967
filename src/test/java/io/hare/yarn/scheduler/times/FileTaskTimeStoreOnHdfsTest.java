package io.hare.yarn.scheduler.times;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.GpuType;
import io.hare.core.profile.OnlineEstimator.Measured;
import java.io.IOException;
import java.net.URI;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.slf4j.LoggerFactory;

/**
 * The file store on HDFS, where an HA pair of RMs keeps it: HDFS's plain rename does not replace
 * an existing file, so every save after the first goes through the rename with OVERWRITE; the
 * directory and file are owner-only under a umask that would leave them readable; a NameNode that
 * is down at the scheduler's start costs a WARN and the profiles, and saves work once it is back.
 */
public class FileTaskTimeStoreOnHdfsTest {

  private static final GpuType V100 = GpuType.of("v100");

  private MiniDFSCluster dfs;
  private Configuration conf;
  private URI dirUri;
  private Path dir;
  private GenericTestUtils.LogCapturer log;

  @Before
  public void setUp() throws IOException {
    conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
        GenericTestUtils.getRandomizedTestDir().getAbsolutePath());
    // a NameNode that is down answers at once, not after the client's ten retries a second apart
    conf.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_MAX_RETRIES_KEY, 0);
    conf.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_MAX_RETRIES_ON_SOCKET_TIMEOUTS_KEY,
        0);
    conf.set(FsPermission.UMASK_LABEL, "022");
    dfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    dfs.waitActive();
    dir = new Path(dfs.getFileSystem().getUri().toString(), "/system/hare/task-times");
    dirUri = dir.toUri();
    log = GenericTestUtils.LogCapturer.captureLogs(
        LoggerFactory.getLogger(FileTaskTimeStore.class));
  }

  @After
  public void tearDown() {
    if (log != null) {
      log.stopCapturing();
    }
    if (dfs != null) {
      dfs.shutdown();
    }
  }

  private FileTaskTimeStore open() {
    return new FileTaskTimeStore(dirUri, conf, FileTaskTimeStore.DEFAULT_MAX_BYTES);
  }

  private static Map<String, List<Measured>> jobs(double computeMs) {
    Map<String, List<Measured>> m = new LinkedHashMap<>();
    m.put("application_1_0001", List.of(new Measured("cnn", V100, computeMs, 20, 5)));
    m.put("application_1_0002", List.of(new Measured("(none)", GpuType.of("k80"), 900, 0, 2)));
    return m;
  }

  @Test(timeout = 120_000)
  public void savesReplaceTheFileAndTheOtherRmReadsTheLast() throws Exception {
    try (FileTaskTimeStore active = open(); FileTaskTimeStore standby = open()) {
      active.save(jobs(1000));
      active.save(jobs(2000)); // HDFS's plain rename refuses this one: the file exists
      active.save(jobs(3000));
      assertEquals("the standby, become active, reads the last save", jobs(3000), standby.load());
    }
    FileSystem fs = dfs.getFileSystem();
    FileStatus[] listing = fs.listStatus(dir);
    assertEquals("only the file, no temporary one: " + Arrays.toString(listing), 1,
        listing.length);
    assertEquals(FileTaskTimeStore.FILE, listing[0].getPath().getName());
    assertEquals("owner-only under umask 022", new FsPermission((short) 0700),
        fs.getFileStatus(dir).getPermission());
    assertEquals(new FsPermission((short) 0600), listing[0].getPermission());
  }

  @Test(timeout = 120_000)
  public void aDirectoryOthersMayReadIsUsedWithAWarning() throws Exception {
    FileSystem fs = dfs.getFileSystem();
    fs.mkdirs(dir, new FsPermission((short) 0755));
    try (FileTaskTimeStore store = open()) {
      store.save(jobs(1000));
      assertEquals(jobs(1000), store.load());
    }
    assertTrue(log.getOutput(), log.getOutput().contains("others may read"));
  }

  @Test(timeout = 180_000)
  public void aNameNodeDownAtStartCostsTheProfilesNotTheStore() throws Exception {
    try (FileTaskTimeStore first = open()) {
      first.save(jobs(1000));
    }
    dfs.shutdownNameNode(0);
    try (FileTaskTimeStore store = open()) {
      assertEquals("nothing loaded while HDFS is down", Map.of(), store.load());
      assertTrue(log.getOutput(), log.getOutput().contains("Cannot read saved task times"));
      try {
        store.save(jobs(2000));
        fail("saved with the NameNode down");
      } catch (IOException expected) {
        // the saver logs it and tries again at its next interval
      }
      dfs.restartNameNode(0);
      dfs.waitActive();
      assertEquals("the file saved before the outage", jobs(1000), store.load());
      store.save(jobs(2000));
      assertEquals(jobs(2000), store.load());
    }
    assertFalse(log.getOutput(), log.getOutput().contains("ERROR"));
  }
}
