package io.hare.yarn.app;

import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Round checkpoints as empty marker files {@code _hare/round-N.done} in the job's work directory
 * on a Hadoop file system, one per finished round. Creating a file is atomic on HDFS and on the
 * local file system, so a crash leaves either the old or the new count, never a torn file;
 * {@link #roundsDone} is the highest N found.
 */
public final class FsRoundCheckpoint implements RoundCheckpoint {

  static final String DIR = "_hare";
  private static final String SUFFIX = ".done";
  private static final String STEM = "round-";

  private final FileSystem fs;
  private final Path dir;

  public FsRoundCheckpoint(FileSystem fs, Path workDir) {
    this.fs = fs;
    this.dir = new Path(workDir, DIR);
  }

  @Override
  public int roundsDone() throws IOException {
    FileStatus[] files;
    try {
      files = fs.listStatus(dir);
    } catch (FileNotFoundException e) {
      return 0;
    }
    int best = 0;
    for (FileStatus f : files) {
      String n = f.getPath().getName();
      if (n.startsWith(STEM) && n.endsWith(SUFFIX)) {
        try {
          best = Math.max(best, Integer.parseInt(n.substring(STEM.length(),
              n.length() - SUFFIX.length())));
        } catch (NumberFormatException e) {
          // not ours; ignore
        }
      }
    }
    return best;
  }

  @Override
  public void save(int roundsDone) throws IOException {
    fs.mkdirs(dir);
    fs.create(new Path(dir, STEM + roundsDone + SUFFIX), true).close();
  }
}
