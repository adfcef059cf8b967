package io.hare.example;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;

/**
 * The job's shared work directory ({@code HARE_WORK_DIR}): flat files addressed by name. Every
 * write is atomic (a reader sees the old file or the whole new one, never a partial one), so a
 * task killed mid-write, or two attempts of one task racing, leave a valid file behind.
 */
public interface WorkStore {

  /** The file's bytes; {@link java.nio.file.NoSuchFileException} when it does not exist. */
  byte[] read(String name) throws IOException;

  boolean exists(String name) throws IOException;

  /** Writes {@code bytes} to a temporary file, then renames it over {@code name}. */
  void writeAtomically(String name, byte[] bytes) throws IOException;

  /** Creates the directory (and its parents) if it does not exist. */
  void create() throws IOException;

  /** Where the files are, for messages. */
  String location();

  /**
   * The store for {@code dir}: a local directory for a plain path or a {@code file:} URI; any
   * other scheme ({@code hdfs://}, {@code viewfs://}, ...) goes through Hadoop's
   * {@code FileContext}, which needs Hadoop on the classpath (as in a YARN container).
   */
  static WorkStore open(String dir) throws IOException {
    URI uri;
    try {
      uri = URI.create(dir);
    } catch (IllegalArgumentException e) {
      uri = null; // a local path with characters a URI does not allow
    }
    if (uri == null || uri.getScheme() == null || uri.getScheme().length() == 1) {
      return new LocalWorkStore(Path.of(dir)); // length 1: a Windows drive letter
    }
    if (uri.getScheme().equals("file")) {
      return new LocalWorkStore(Path.of(uri));
    }
    return HadoopWorkStore.open(uri);
  }
}
