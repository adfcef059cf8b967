package io.hare.yarn.app;

import io.hare.yarn.app.tokens.DelegationTokens;
import io.hare.yarn.app.tokens.KeytabTokenRefresher;
import io.hare.yarn.app.tokens.KeytabTokenSource;
import io.hare.yarn.app.tokens.RefreshScheduler;
import io.hare.yarn.app.tokens.TokenRefreshSpec;
import io.hare.yarn.app.tokens.TokenRefresher;
import io.hare.yarn.app.tokens.UgiTokenInstaller;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Paths;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.security.AMRMTokenIdentifier;
import org.apache.hadoop.yarn.security.client.RMDelegationTokenIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The AM's tokens in its container: the refresher a job's spec asks for, the tokens of each task
 * container it launches, and the staged keytab's removal when the job is over.
 */
final class AmTokens {

  /** Where the AM's processes (the sync step) find refreshed tokens, in its working directory. */
  static final String TOKEN_FILE = "hare-am.tokens";
  /** Kinds that are the AM's alone: no task container or process gets them. */
  private static final Text[] AM_ONLY =
      {AMRMTokenIdentifier.KIND_NAME, RMDelegationTokenIdentifier.KIND_NAME};
  private static final Logger LOG = LoggerFactory.getLogger(AmTokens.class);

  private AmTokens() {}

  /**
   * {@link TokenRefresher#NONE} without a keytab; else one that logs in from the localized keytab
   * and gets new tokens for the file systems the client got them for, on its own daemon thread.
   */
  static TokenRefresher refresher(Configuration conf, HareJobSpec spec, Path work)
      throws IOException {
    TokenRefreshSpec refresh = spec.tokenRefresh();
    if (!refresh.enabled()) {
      return TokenRefresher.NONE;
    }
    if (!UserGroupInformation.isSecurityEnabled()) {
      LOG.warn("{} is set but this cluster does not use Kerberos: no tokens to refresh",
          AppKeys.AM_PRINCIPAL);
      return TokenRefresher.NONE;
    }
    KeytabTokenSource source = new KeytabTokenSource(conf, refresh.principal(),
        Paths.get(refresh.keytab()).toAbsolutePath().toString(),
        JobCredentials.fileSystemsOf(spec, work), (c, renewer) -> {
          try (YarnApps rm = YarnClientApps.open(c)) {
            return rm.rmDelegationToken(renewer);
          }
        });
    return new KeytabTokenRefresher(source,
        new UgiTokenInstaller(Paths.get(TOKEN_FILE), AM_ONLY), refresh,
        DelegationTokens.earliestMaxDate(UserGroupInformation.getCurrentUser().getCredentials()),
        System::currentTimeMillis, RefreshScheduler.daemon("hare-token-refresh"));
  }

  /**
   * A task container's tokens, read at each launch: the AM's current file system tokens and the
   * user's other tokens, without the AMRM token and the RM delegation token, which are the AM's.
   */
  static Supplier<ByteBuffer> forTasks() {
    return () -> {
      try {
        return DelegationTokens.serialized(
            UserGroupInformation.getCurrentUser().getCredentials(), AM_ONLY);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot serialize the AM's tokens for a task container",
            e);
      }
    };
  }

  /**
   * Deletes the keytab the client staged in the work directory, once the job is over (the AM
   * unregistered): no later attempt needs it, and the work directory outlives the job for its
   * models. A failure is logged, not thrown: the job's outcome stands.
   */
  static void deleteStagedKeytab(Configuration conf, HareJobSpec spec, Path work) {
    if (!spec.tokenRefresh().enabled()) {
      return;
    }
    Path staged = new Path(work, TokenRefreshSpec.KEYTAB_LINK);
    try {
      FileSystem fs = staged.getFileSystem(conf);
      if (fs.delete(staged, false)) {
        LOG.info("Deleted the staged keytab {}", staged);
      }
    } catch (IOException e) {
      LOG.warn("Could not delete the staged keytab {}; delete it by hand", staged, e);
    }
  }
}
