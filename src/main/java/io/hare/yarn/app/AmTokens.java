package io.hare.yarn.app;

import io.hare.yarn.app.tokens.DelegationTokens;
import io.hare.yarn.app.tokens.KeytabTokenRefresher;
import io.hare.yarn.app.tokens.KeytabOnKill;
import io.hare.yarn.app.tokens.KeytabTokenSource;
import io.hare.yarn.app.tokens.RefreshScheduler;
import io.hare.yarn.app.tokens.StagedKeytab;
import io.hare.yarn.app.tokens.TokenRefreshSpec;
import io.hare.yarn.app.tokens.TokenRefresher;
import io.hare.yarn.app.tokens.UgiTokenInstaller;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Paths;
import java.security.PrivilegedExceptionAction;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.ShutdownHookManager;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.YarnApplicationAttemptState;
import org.apache.hadoop.yarn.client.api.YarnClient;
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

  /** Runs an action as a keytab's login. */
  private interface AsKeytab {
    <T> T run(PrivilegedExceptionAction<T> action) throws Exception;
  }

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
   * models.
   */
  static void deleteStagedKeytab(Configuration conf, HareJobSpec spec, Path work) {
    if (spec.tokenRefresh().enabled()) {
      StagedKeytab.delete(conf, work, "the job is over");
    }
  }

  /**
   * Deletes the staged keytab if the RM has this attempt KILLED, when the AM stops without
   * unregistering; registered with Hadoop's shutdown hooks too. Null without a keytab or Kerberos.
   * A kill has cancelled the job's delegation tokens by then (the RM cancels them when the job
   * ends), so it asks the RM and deletes as the keytab's own login.
   */
  static KeytabOnKill onKill(Configuration conf, HareJobSpec spec, Path work,
      ApplicationAttemptId attempt) {
    TokenRefreshSpec refresh = spec.tokenRefresh();
    if (!refresh.enabled() || !UserGroupInformation.isSecurityEnabled()) {
      return null;
    }
    String keytab = Paths.get(refresh.keytab()).toAbsolutePath().toString();
    UserGroupInformation[] login = new UserGroupInformation[1];
    AsKeytab asKeytab = new AsKeytab() {
      @Override
      public <T> T run(PrivilegedExceptionAction<T> action) throws Exception {
        if (login[0] == null) {
          login[0] = UserGroupInformation.loginUserFromKeytabAndReturnUGI(refresh.principal(),
              keytab);
        } else {
          login[0].checkTGTAndReloginFromKeytab();
        }
        return login[0].doAs(action);
      }
    };
    try {
      // now, not in the few hundred ms between YARN's SIGTERM and SIGKILL
      asKeytab.run(() -> null);
    } catch (Exception e) {
      LOG.warn("Cannot log in from the keytab of {} yet ({}); tried again if the job is killed",
          refresh.principal(), e.toString());
    }
    KeytabOnKill hook = new KeytabOnKill(() -> asKeytab.run(() -> {
      YarnClient rm = YarnClient.createYarnClient();
      rm.init(conf);
      rm.start();
      try {
        return rm.getApplicationAttemptReport(attempt).getYarnApplicationAttemptState()
            == YarnApplicationAttemptState.KILLED;
      } finally {
        rm.stop();
      }
    }), () -> asKeytab.run(() -> {
      try {
        return StagedKeytab.delete(conf, work, "its attempt " + attempt + " was killed");
      } finally {
        FileSystem.closeAllForUGI(UserGroupInformation.getCurrentUser());
      }
    }), StagedKeytab.in(work).toString());
    ShutdownHookManager.get().addShutdownHook(hook, KeytabOnKill.PRIORITY);
    return hook;
  }
}
