package io.hare.yarn.app;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.UUID;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.api.records.LocalResourceVisibility;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hare's own jars (the Hare jar, picocli), staged once per user and content instead of once per
 * job: {@code staging-dir/.jars/SHA-256/NAME}, owner-only like a work directory, never changed
 * once written, and localized with PRIVATE visibility. A NodeManager then keeps one copy per user
 * in its cache, so the containers of a job on a node where an earlier job of the same user ran
 * start without localizing them: a job's first container on a node no longer pays a localization
 * (0.5-1.5 s of a task switch on a busy node), and a submission copies nothing it copied before.
 *
 * <p>A copy is written under a temporary name and renamed into place without overwriting, so a
 * concurrent submission of the same jar never sees half a file, and the file a job's containers
 * were promised (size and time stamp, as the NodeManager checks them) is never replaced.
 */
public final class SharedJars {

  /** The directory under the staging directory that holds the shared jars. */
  public static final String DIR = ".jars";

  private static final Logger LOG = LoggerFactory.getLogger(SharedJars.class);
  private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

  private SharedJars() {}

  /**
   * The shared copy of local file {@code local} under {@code stagingDir}, linked as {@code name}
   * in containers; staged now unless an intact copy is there already.
   */
  public static Path stage(FileSystem fs, Path stagingDir, java.nio.file.Path local, String name)
      throws IOException {
    Path root = fs.makeQualified(new Path(stagingDir, DIR));
    Path dir = new Path(root, sha256(local));
    Path target = new Path(dir, name);
    long size = Files.size(local);
    FileStatus there = status(fs, target);
    if (there != null && there.getLen() == size) {
      return target;
    }
    FileSystem.mkdirs(fs, root, JobSubmitter.WORK_DIR_PERMISSION);
    FileSystem.mkdirs(fs, dir, JobSubmitter.WORK_DIR_PERMISSION);
    Path tmp = new Path(dir, "." + name + "." + UUID.randomUUID() + ".tmp");
    fs.copyFromLocalFile(false, true, new Path(local.toAbsolutePath().toUri()), tmp);
    fs.setPermission(tmp, JobSubmitter.STAGED_FILE_PERMISSION);
    FileContext fc = FileContext.getFileContext(fs.getUri(), fs.getConf());
    try {
      if (there != null) {
        // a copy of another size under this content's name is broken (not ours): replace it
        LOG.warn("{}: {} bytes, {} expected; staging it again", target, there.getLen(), size);
        fc.rename(tmp, target, Options.Rename.OVERWRITE);
      } else {
        fc.rename(tmp, target, Options.Rename.NONE);
      }
    } catch (FileAlreadyExistsException e) {
      fs.delete(tmp, false); // a concurrent submission staged it first: use that copy
    }
    return target;
  }

  /** Whether {@code p} is a jar {@link #stage} staged (the NodeManager may then cache it). */
  public static boolean isShared(Path p) {
    Path dir = p.getParent();
    Path root = dir == null ? null : dir.getParent();
    return root != null && DIR.equals(root.getName()) && SHA256.matcher(dir.getName()).matches();
  }

  /** How the NodeManager should keep {@code p}: per user if shared, else for the job only. */
  static LocalResourceVisibility visibility(Path p) {
    return isShared(p) ? LocalResourceVisibility.PRIVATE : LocalResourceVisibility.APPLICATION;
  }

  private static FileStatus status(FileSystem fs, Path p) throws IOException {
    try {
      return fs.getFileStatus(p);
    } catch (java.io.FileNotFoundException e) {
      return null;
    }
  }

  private static String sha256(java.nio.file.Path local) throws IOException {
    MessageDigest md;
    try {
      md = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java has SHA-256", e);
    }
    try (InputStream in = new DigestInputStream(Files.newInputStream(local), md)) {
      in.transferTo(java.io.OutputStream.nullOutputStream());
    }
    return HexFormat.of().formatHex(md.digest());
  }
}
