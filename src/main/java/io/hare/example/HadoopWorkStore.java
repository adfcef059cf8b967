package io.hare.example;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.NoSuchFileException;
import java.util.EnumSet;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * A {@link WorkStore} on a Hadoop file system (HDFS in a real job). Atomic replace is
 * {@code FileContext.rename} with {@code OVERWRITE}, which HDFS performs in one namenode
 * operation. Only loaded when {@code HARE_WORK_DIR} has a non-local scheme, so local runs need
 * no Hadoop classes.
 */
final class HadoopWorkStore implements WorkStore {

  private final FileContext fc;
  private final Path dir;

  HadoopWorkStore(FileContext fc, Path dir) {
    this.fc = fc;
    this.dir = dir;
  }

  static HadoopWorkStore open(URI uri) throws IOException {
    // The container's Hadoop configuration (HADOOP_CONF_DIR on the classpath) resolves the
    // file system, its credentials and its settings.
    Configuration conf = new Configuration();
    return new HadoopWorkStore(FileContext.getFileContext(uri, conf), new Path(uri));
  }

  @Override
  public byte[] read(String name) throws IOException {
    Path p = new Path(dir, name);
    try (InputStream in = fc.open(p)) {
      return in.readAllBytes();
    } catch (FileNotFoundException e) {
      throw new NoSuchFileException(p.toString());
    }
  }

  @Override
  public boolean exists(String name) throws IOException {
    return fc.util().exists(new Path(dir, name));
  }

  @Override
  public void writeAtomically(String name, byte[] bytes) throws IOException {
    Path tmp = new Path(dir, "." + name + "." + UUID.randomUUID() + ".tmp");
    boolean moved = false;
    try {
      try (FSDataOutputStream out = fc.create(tmp, EnumSet.of(CreateFlag.CREATE),
          Options.CreateOpts.createParent())) {
        out.write(bytes);
      }
      fc.rename(tmp, new Path(dir, name), Options.Rename.OVERWRITE);
      moved = true;
    } finally {
      if (!moved) {
        fc.delete(tmp, false);
      }
    }
  }

  @Override
  public void create() throws IOException {
    fc.mkdir(dir, FsPermission.getDirDefault(), true);
  }

  @Override
  public String location() {
    return dir.toString();
  }
}
