package io.hare.yarn.scheduler.times;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.hare.core.profile.OnlineEstimator.Measured;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The task times in one file, {@value #FILE}, in a directory of any Hadoop file system: HDFS for
 * an HA pair of RMs, which share it; {@code file://} for a single RM.
 *
 * <p>Another tenant may share the file system, and the file says how each job's tasks run. The
 * directory is made owner-only (0700) and the file is written owner-only (0600), where the file
 * system keeps permissions; an existing directory others may enter is used as it is, with a WARN.
 * A save writes a temporary file of its own name beside the file and renames it over the file
 * (atomic on HDFS and on a local file system), so a reader, or an RM that crashes mid-save, finds
 * the old content or the new, never a part. A read refuses a file above {@code maxBytes}.
 *
 * <p>The file-system client is made at first use and again after a failure to make it, so a
 * file system that is down at RM start does not stop the RM.
 */
public final class FileTaskTimeStore implements TaskTimeStore {

  private static final Logger LOG = LoggerFactory.getLogger(FileTaskTimeStore.class);

  /** The file's name in the directory. */
  public static final String FILE = "task-times";
  /** Far above a cluster's state (about 100 bytes per job and type), far below an RM's heap. */
  public static final long DEFAULT_MAX_BYTES = 16L << 20;

  static final FsPermission DIR_PERMISSION = new FsPermission((short) 0700);
  static final FsPermission FILE_PERMISSION = new FsPermission((short) 0600);
  /** A temporary file older than this was left by a save that never finished (a crash). */
  private static final long STALE_TEMP_MS = 3600_000L;

  private final URI uri;
  private final Configuration conf;
  private final long maxBytes;
  private FileSystem owned; // made by newInstance: ours to close; null until first use
  private FileSystem fs; // owned, or its raw file system (no .crc files beside ours)
  private Path dir;

  /**
   * @param uri the directory; without a scheme, on the configuration's default file system
   * @param maxBytes largest file read or written
   */
  public FileTaskTimeStore(URI uri, Configuration conf, long maxBytes) {
    this.uri = uri;
    this.conf = conf;
    this.maxBytes = maxBytes;
  }

  @Override
  public Map<String, List<Measured>> load() {
    Path file = null;
    try {
      FileSystem f = fs();
      file = new Path(dir, FILE);
      removeStaleTemps(f);
      FileStatus st;
      try {
        st = f.getFileStatus(file);
      } catch (FileNotFoundException e) {
        // the first start with the store, or nothing measured yet: nothing an admin must fix
        LOG.info("No saved task times at {} (none saved yet): running jobs start from their"
            + " profiles", file);
        return Map.of();
      }
      if (!st.isFile() || st.getLen() > maxBytes) {
        LOG.warn("Saved task times at {} ignored: {}; running jobs start from their profiles",
            file, st.isFile() ? st.getLen() + " bytes, above the limit of " + maxBytes
                : "not a file");
        return Map.of();
      }
      byte[] bytes;
      try (InputStream in = f.open(file)) {
        bytes = in.readNBytes((int) maxBytes + 1); // it may have grown since its status
      }
      if (bytes.length > maxBytes) {
        LOG.warn("Saved task times at {} ignored: above the limit of {} bytes; running jobs start"
            + " from their profiles", file, maxBytes);
        return Map.of();
      }
      TaskTimeLines.Parsed p = TaskTimeLines.parse(new String(bytes, UTF_8));
      if (!p.problems().isEmpty()) {
        LOG.warn("Saved task times at {}: {} line(s) refused, those jobs' types start from their"
            + " profiles; first: {}", file, p.problems().size(), p.problems().get(0));
      }
      LOG.info("Loaded the measured task times of {} job(s) from {}", p.jobs().size(), file);
      return p.jobs();
    } catch (IOException | RuntimeException e) {
      LOG.warn("Cannot read saved task times at {}: {}; running jobs start from their profiles",
          file == null ? uri : file, e.toString());
      return Map.of();
    }
  }

  @Override
  public void save(Map<String, List<Measured>> jobs) throws IOException {
    byte[] bytes = TaskTimeLines.write(jobs).getBytes(UTF_8);
    if (bytes.length > maxBytes) {
      throw new IOException(bytes.length + " bytes of task times, above the limit of " + maxBytes
          + " that a load reads: not saved");
    }
    FileSystem f = fs();
    if (!f.exists(dir)) {
      FileSystem.mkdirs(f, dir, DIR_PERMISSION); // mkdirs alone would apply the umask
    }
    Path tmp = new Path(dir, "." + FILE + "." + UUID.randomUUID() + ".tmp");
    boolean renamed = false;
    try {
      try (FSDataOutputStream out = f.create(tmp, FILE_PERMISSION, false, 4096,
          f.getDefaultReplication(tmp), f.getDefaultBlockSize(tmp), null)) {
        out.write(bytes);
        out.hsync(); // on the disks before the rename makes it the file
      }
      Path file = new Path(dir, FILE);
      if (!f.rename(tmp, file)) {
        // HDFS's plain rename does not replace an existing file; its rename with OVERWRITE
        // does, atomically (a local file system's plain rename already did)
        FileContext.getFileContext(f.getUri(), conf).rename(tmp, file, Options.Rename.OVERWRITE);
      }
      renamed = true;
    } finally {
      if (!renamed) {
        try {
          f.delete(tmp, false);
        } catch (IOException e) {
          LOG.debug("cannot delete {}", tmp, e);
        }
      }
    }
  }

  /** The file system, made at first use; the directory qualified on it. */
  private synchronized FileSystem fs() throws IOException {
    if (fs == null) {
      Path d = new Path(uri);
      URI fsUri = d.toUri().getScheme() == null ? FileSystem.getDefaultUri(conf) : d.toUri();
      FileSystem made = FileSystem.newInstance(fsUri, conf);
      dir = made.makeQualified(d);
      owned = made;
      fs = made instanceof LocalFileSystem local ? local.getRawFileSystem() : made;
      warnIfShared(fs);
    }
    return fs;
  }

  private void warnIfShared(FileSystem f) {
    try {
      FsPermission p = f.getFileStatus(dir).getPermission();
      if (p.getGroupAction() != FsAction.NONE || p.getOtherAction() != FsAction.NONE) {
        LOG.warn("Task-time directory {} is {}: others may read what the scheduler saves there"
            + " (make it owner-only, 0700)", dir, p);
      }
    } catch (FileNotFoundException e) {
      // made owner-only at the first save
    } catch (IOException e) {
      LOG.debug("cannot read the permissions of {}", dir, e);
    }
  }

  /** Temporary files of saves that never finished (the RM died mid-save). */
  private void removeStaleTemps(FileSystem f) throws IOException {
    FileStatus[] all;
    try {
      all = f.listStatus(dir, p -> p.getName().startsWith("." + FILE + ".")
          && p.getName().endsWith(".tmp"));
    } catch (FileNotFoundException e) {
      return;
    }
    long now = System.currentTimeMillis();
    for (FileStatus s : all) {
      if (now - s.getModificationTime() > STALE_TEMP_MS) {
        f.delete(s.getPath(), false);
      }
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (owned != null) {
      owned.close();
      owned = null;
      fs = null;
    }
  }

  @Override
  public String toString() {
    return "task-time store at " + uri;
  }
}
