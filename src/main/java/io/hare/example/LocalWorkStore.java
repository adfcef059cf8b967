package io.hare.example;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

/**
 * A {@link WorkStore} in a local (or locally mounted, e.g. NFS) directory. The temporary file
 * is unique per write, so racing attempts of one task never share one, and is moved over the
 * target with {@code ATOMIC_MOVE}.
 */
public final class LocalWorkStore implements WorkStore {

  private final Path dir;

  public LocalWorkStore(Path dir) {
    this.dir = dir;
  }

  @Override
  public byte[] read(String name) throws IOException {
    return Files.readAllBytes(dir.resolve(name));
  }

  @Override
  public boolean exists(String name) {
    return Files.isRegularFile(dir.resolve(name));
  }

  @Override
  public void writeAtomically(String name, byte[] bytes) throws IOException {
    if (!Files.isDirectory(dir)) {
      throw new NoSuchFileException(dir.toString(), null, "work directory missing");
    }
    // Not createTempFile: it makes the file owner-only, and a task may run as another user
    // than init; Files.write leaves the permissions to the umask.
    Path tmp = dir.resolve("." + name + "." + UUID.randomUUID() + ".tmp");
    try {
      Files.write(tmp, bytes, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  @Override
  public void create() throws IOException {
    Files.createDirectories(dir);
  }

  @Override
  public String location() {
    return dir.toString();
  }
}
