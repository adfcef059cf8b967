package io.hare.yarn.app.tokens;

import java.io.IOException;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.util.Collection;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.TokenIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * New delegation tokens for an AM, got with a Kerberos login from the job's keytab: one for each
 * file system the client got one for (the same list, {@code JobCredentials#fileSystemsOf}) and
 * one for the ResourceManager's client protocol, as the client got them.
 *
 * <p>Each refresh logs in anew (a fresh ticket, no ticket renewal to manage) and closes the file
 * systems it opened as that login. The tokens name the principal itself as renewer: nobody else
 * renews them (the ResourceManager renews only the tokens of the submission), and renewing each
 * once is how their expiry is learnt, as Spark does; they then live until that expiry, within
 * which the refresher replaces them.
 */
public final class KeytabTokenSource implements TokenSource {

  private static final Logger LOG = LoggerFactory.getLogger(KeytabTokenSource.class);

  /** Gets a ResourceManager delegation token; runs as the keytab's login. */
  @FunctionalInterface
  public interface RmTokens {
    Token<? extends TokenIdentifier> get(Configuration conf, String renewer) throws Exception;
  }

  private final Configuration conf;
  private final String principal;
  private final String keytab;
  private final List<URI> fileSystems;
  private final RmTokens rm;

  /** @param keytab the keytab's local path (in the AM's container) */
  public KeytabTokenSource(Configuration conf, String principal, String keytab,
      Collection<URI> fileSystems, RmTokens rm) {
    this.conf = conf;
    this.principal = principal;
    this.keytab = keytab;
    this.fileSystems = List.copyOf(fileSystems);
    this.rm = rm;
  }

  @Override
  public Fresh obtain() throws Exception {
    UserGroupInformation login =
        UserGroupInformation.loginUserFromKeytabAndReturnUGI(principal, keytab);
    try {
      return login.doAs((PrivilegedExceptionAction<Fresh>) () -> {
        String renewer = login.getUserName();
        Credentials creds = new Credentials();
        DelegationTokens.addFileSystemTokens(conf, renewer, fileSystems, creds);
        Token<? extends TokenIdentifier> rmToken = rm.get(conf, renewer);
        creds.addToken(rmToken.getService(), rmToken);
        long expiry = Long.MAX_VALUE;
        for (Token<? extends TokenIdentifier> t : creds.getAllTokens()) {
          expiry = Math.min(expiry, expiry(t));
        }
        return new Fresh(creds, expiry);
      });
    } finally {
      FileSystem.closeAllForUGI(login);
    }
  }

  /**
   * When {@code t} expires: what a renewal answers (its renewal interval from now, within its
   * maximum lifetime); when it cannot be renewed, its maximum date; {@link Long#MAX_VALUE} when
   * neither is known.
   */
  private long expiry(Token<? extends TokenIdentifier> t) throws InterruptedException {
    try {
      return t.renew(conf);
    } catch (IOException | RuntimeException e) {
      long max = DelegationTokens.maxDate(t);
      LOG.warn("Delegation token {} for {} could not be renewed to learn its expiry ({}); using"
          + " its maximum date {}", t.getKind(), t.getService(), e.getMessage(),
          max > 0 ? max : "(unknown)");
      return max > 0 ? max : Long.MAX_VALUE;
    }
  }
}
