package io.hare.yarn.scheduler.times;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.GpuType;
import io.hare.core.profile.OnlineEstimator.Measured;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.slf4j.LoggerFactory;

/**
 * The file store on the local file system: what it saves loads back; a save replaces the file by
 * rename, owner-only; a missing file loads as nothing, and a corrupt, oversized or unreadable
 * one as nothing with a WARN; none throws.
 */
public class FileTaskTimeStoreTest {

  private static final GpuType V100 = GpuType.of("v100");

  private Path dir;
  private FileTaskTimeStore store;
  private GenericTestUtils.LogCapturer log;

  @Before
  public void setUp() {
    dir = GenericTestUtils.getRandomizedTestDir().toPath().resolve("times");
    store = open(FileTaskTimeStore.DEFAULT_MAX_BYTES);
    log = GenericTestUtils.LogCapturer.captureLogs(
        LoggerFactory.getLogger(FileTaskTimeStore.class));
  }

  @After
  public void tearDown() throws IOException {
    log.stopCapturing();
    store.close();
  }

  private FileTaskTimeStore open(long maxBytes) {
    return new FileTaskTimeStore(dir.toUri(), new Configuration(), maxBytes);
  }

  private static Map<String, List<Measured>> jobs(double computeMs) {
    Map<String, List<Measured>> m = new LinkedHashMap<>();
    m.put("application_1_0001", List.of(new Measured("cnn", V100, computeMs, 20, 5),
        new Measured("cnn", GpuType.of("k80"), 7.0 / 3, 0, 1.5)));
    m.put("application_1_0002", List.of(new Measured("(none)", V100, 60_000, 0, 2)));
    return m;
  }

  private Path file() {
    return dir.resolve(FileTaskTimeStore.FILE);
  }

  @Test(timeout = 60_000)
  public void whatIsSavedLoadsBackExactly() throws Exception {
    store.save(jobs(2600.5));
    assertEquals(jobs(2600.5), store.load());
    try (FileTaskTimeStore other = open(FileTaskTimeStore.DEFAULT_MAX_BYTES)) {
      assertEquals("another RM's store reads it", jobs(2600.5), other.load());
    }
  }

  @Test(timeout = 60_000)
  public void aSaveReplacesTheFileByRenameOwnerOnly() throws Exception {
    store.save(jobs(1000));
    Object before = Files.getAttribute(file(), "unix:ino");
    store.save(jobs(2000));
    assertNotEquals("a new file renamed over the old, not the old rewritten in place", before,
        Files.getAttribute(file(), "unix:ino"));
    assertEquals(jobs(2000), store.load());
    try (var listing = Files.list(dir)) {
      assertEquals("no temporary file left, no .crc beside", List.of(file()), listing.toList());
    }
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
    assertEquals("rw-------",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(file())));
  }

  @Test(timeout = 60_000)
  public void aSaveThatFailsLeavesTheOldFile() throws Exception {
    store.save(jobs(1000));
    byte[] before = Files.readAllBytes(file());
    Map<String, List<Measured>> many = new LinkedHashMap<>();
    for (int i = 0; i < 100; i++) {
      many.put("application_1_" + i, jobs(1).get("application_1_0001"));
    }
    try (FileTaskTimeStore small = open(before.length + 10)) {
      small.save(many);
      fail("saved above the limit that a load reads");
    } catch (IOException expected) {
      assertTrue(expected.getMessage(), expected.getMessage().contains("not saved"));
    }
    assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(file())));
  }

  @Test(timeout = 60_000)
  public void aMissingFileLoadsNothing() {
    assertEquals(Map.of(), store.load());
    String out = log.getOutput();
    assertTrue(out, out.contains("No saved task times at"));
    assertFalse("the first start is no problem: " + out, out.contains("WARN"));
  }

  @Test(timeout = 60_000)
  public void aCorruptFileLoadsNothingWithAWarning() throws Exception {
    Files.createDirectories(dir);
    Files.write(file(), new byte[] {0, 1, 2, (byte) 0xff, '\n', 'x'});
    assertEquals(Map.of(), store.load());
    assertWarned("line(s) refused");
  }

  @Test(timeout = 60_000)
  public void anOversizedFileIsNotReadAndLoadsNothing() throws Exception {
    store.save(jobs(1000));
    try (FileTaskTimeStore small = open(Files.size(file()) - 1)) {
      assertEquals(Map.of(), small.load());
    }
    assertWarned("above the limit of");
  }

  @Test(timeout = 60_000)
  public void anUnreadableFileLoadsNothingWithAWarning() throws Exception {
    Files.createDirectories(file()); // a directory where the file should be
    assertEquals(Map.of(), store.load());
    assertWarned("not a file");
  }

  @Test(timeout = 60_000)
  public void aDirectoryThatCannotBeMadeLoadsNothingAndFailsSaves() throws Exception {
    Files.createDirectories(dir.getParent());
    Files.writeString(dir, "a file where the directory should be", StandardCharsets.UTF_8);
    assertEquals(Map.of(), store.load());
    assertWarned("saved task times at");
    try {
      store.save(jobs(1000));
      fail("saved under a file");
    } catch (IOException expected) {
      // the saver logs it and tries again at the next interval
    }
    assertFalse(new File(dir.toFile(), FileTaskTimeStore.FILE).exists());
  }

  private void assertWarned(String text) {
    String out = log.getOutput();
    assertTrue(out, out.contains(text));
    assertTrue("at WARN: " + out, out.contains("WARN"));
  }
}
