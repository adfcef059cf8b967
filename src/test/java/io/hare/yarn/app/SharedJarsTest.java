package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** Hare's jars staged once per content, on the local file system. */
public class SharedJarsTest {

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private FileSystem local() throws Exception {
    return FileSystem.getLocal(new Configuration());
  }

  @Test(timeout = 60_000)
  public void aBrokenCopyUnderTheContentsNameIsStagedAgain() throws Exception {
    java.nio.file.Path jar = tmp.newFile("a.jar").toPath();
    Files.writeString(jar, "the jar's bytes");
    Path staging = new Path(tmp.newFolder("staging").toURI());
    Path copy = SharedJars.stage(local(), staging, jar, "hare-yarn.jar");
    java.nio.file.Path onDisk = java.nio.file.Path.of(copy.toUri().getPath());
    Files.writeString(onDisk, "half");
    Files.deleteIfExists(onDisk.resolveSibling(".hare-yarn.jar.crc")); // as a torn write leaves it
    assertEquals(copy, SharedJars.stage(local(), staging, jar, "hare-yarn.jar"));
    assertEquals("the jar's bytes", Files.readString(onDisk));
    try (Stream<java.nio.file.Path> left = Files.list(onDisk.getParent())) {
      List<String> names = left.map(p -> p.getFileName().toString())
          .filter(n -> !n.endsWith(".crc")).toList();
      assertEquals("no temporary copy is left", List.of("hare-yarn.jar"), names);
    }
  }

  @Test(timeout = 60_000)
  public void onlyStagedJarsAreShared() throws Exception {
    java.nio.file.Path jar = tmp.newFile("b.jar").toPath();
    Path copy = SharedJars.stage(local(), new Path(tmp.newFolder("s").toURI()), jar, "b.jar");
    assertTrue(copy.toString(), SharedJars.isShared(copy));
    assertFalse(SharedJars.isShared(new Path("/user/a/.hare/jobs/application_1_0001/b.jar")));
    assertFalse("a hash is 64 hex digits",
        SharedJars.isShared(new Path("/user/a/.hare/jobs/.jars/abc/b.jar")));
  }
}
