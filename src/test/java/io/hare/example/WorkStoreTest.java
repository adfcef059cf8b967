package io.hare.example;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** Both work-directory stores: atomic replace, no temporary files left, missing is typed. */
public class WorkStoreTest {

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private static void exercise(WorkStore s) throws Exception {
    s.create();
    assertFalse(s.exists("a"));
    assertThrows(NoSuchFileException.class, () -> s.read("a"));
    s.writeAtomically("a", new byte[] {1, 2});
    assertTrue(s.exists("a"));
    s.writeAtomically("a", new byte[] {3});
    assertArrayEquals(new byte[] {3}, s.read("a"));
  }

  private static List<String> visible(Path dir) throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".a.crc"))
          .sorted().collect(Collectors.toList());
    }
  }

  @Test(timeout = 60_000)
  public void localStore() throws Exception {
    Path dir = tmp.getRoot().toPath().resolve("x/y");
    WorkStore s = WorkStore.open(dir.toString());
    assertTrue(s instanceof LocalWorkStore);
    exercise(s);
    assertEquals(List.of("a"), visible(dir));
  }

  @Test(timeout = 60_000)
  public void fileUriIsLocal() throws Exception {
    Path dir = tmp.newFolder().toPath();
    WorkStore s = WorkStore.open(dir.toUri().toString());
    assertTrue(s instanceof LocalWorkStore);
    s.writeAtomically("b", new byte[] {4});
    assertArrayEquals(new byte[] {4}, Files.readAllBytes(dir.resolve("b")));
  }

  @Test(timeout = 60_000)
  public void hadoopStoreOnTheLocalFileSystem() throws Exception {
    Path dir = tmp.getRoot().toPath().resolve("h/d");
    exercise(HadoopWorkStore.open(dir.toUri()));
    assertEquals(List.of("a"), visible(dir)); // the checksum file .a.crc aside
  }
}
