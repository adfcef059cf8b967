package io.hare.yarn.app.tokens;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The keytab a client stages in a job's work directory ({@link TokenRefreshSpec#KEYTAB_LINK}, 0600
 * in the 0700 directory) for the job's AM attempts to localize. It is deleted as soon as no
 * attempt can need it, by whichever sees that first: the AM once it has unregistered, the AM's
 * {@link KeytabOnKill} hook when YARN kills its attempt, and the client that follows the job
 * ({@code hare submit} without {@code --detach}) once the job has ended.
 */
public final class StagedKeytab {

  private static final Logger LOG = LoggerFactory.getLogger(StagedKeytab.class);

  private StagedKeytab() {}

  /** Where the client stages it in the job's work directory {@code work}. */
  public static Path in(Path work) {
    return new Path(work, TokenRefreshSpec.KEYTAB_LINK);
  }

  /**
   * Deletes the staged keytab of the work directory {@code work}, if it is still there. A failure
   * is logged, not thrown: the job's outcome stands, and the user can delete the file.
   *
   * @param why the job's state, for the log line
   * @return whether this call deleted it
   */
  public static boolean delete(Configuration conf, Path work, String why) {
    Path staged = in(work);
    try {
      FileSystem fs = staged.getFileSystem(conf);
      if (fs.delete(staged, false)) {
        LOG.info("Deleted the staged keytab {} ({})", staged, why);
        return true;
      }
      return false;
    } catch (IOException e) {
      LOG.warn("Could not delete the staged keytab {} ({}); delete it by hand", staged, why, e);
      return false;
    }
  }
}
